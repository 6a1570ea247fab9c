"""The slot scanner on a simulated Pico: arrivals, debounced departures, failing readers."""

import pytest
from firmware_bench import make_pico, scanner

UID = "04A1B2C3D4E5F6"
OTHER = "04112233445566"


@pytest.fixture
def pico(monkeypatch):
    return make_pico(monkeypatch)


def test_a_tag_is_on_at_the_first_scan_that_reads_it(pico):
    assert pico.hub.scanner.start() == [("chip", slot, "92") for slot in range(7)]
    assert pico.step() == []
    pico.put(3, UID)
    assert pico.step() == [f"on 3 {UID}"]
    assert [pico.step() for _ in range(5)] == [[]] * 5     # still there: nothing new


def test_a_tag_missing_for_one_scan_stays_on(pico):
    pico.hub.scanner.start()
    tag = pico.put(3, UID)
    assert pico.step() == [f"on 3 {UID}"]
    pico.take(3, tag)
    assert pico.step() == []                    # one miss: a bad read, perhaps
    pico.bench.chip(3).put(tag)
    assert pico.step() == []                    # and it is back: nothing happened
    pico.take(3, tag)
    assert pico.step() == []
    assert pico.step() == [f"off 3 {UID}"]      # missing for two scans: gone


def test_the_pad_is_read_again_between_the_villages_of_a_long_scan(pico):
    # A crowded board's scan is long: the pad is read more than once, so a piece shown
    # on it is told sooner.
    pico.hub.scanner.start()
    for slot in range(1, 7):
        for n in range(4):
            pico.put(slot, f"04{slot:02X}{n:02X}A1B2C3D4")
    assert len(pico.step()) == 24
    pads, village = pico.bench.chip(0).exchanges, pico.bench.chip(3).exchanges
    before = (len(pads), len(village))
    assert pico.step() == []
    assert pads[before[0]:].count("REQA") >= 3 and village[before[1]:].count("REQA") == 1


def test_on_a_crowded_board_the_pad_is_read_between_two_tags_of_a_village(pico, monkeypatch):
    # Read between two villages, the pad left the next village's tags 4 ms of their
    # wake-up to wait; read in the middle of one, two fields are on at most and the
    # next village's tags wake while the rest of this one is read.
    pico.hub.scanner.start()
    for slot in range(1, 7):
        for n in range(5):
            pico.put(slot, f"04{slot:02X}{n:02X}A1B2C3D4")
    assert len(pico.step()) == 30
    order, fields, slept = [], [], []
    clock_byte, sleep = pico.bench.clock_byte, pico.bench.clock.sleep_us

    def counting(mosi):
        fields.append(sum(chip.field_on for chip in pico.bench.chips.values()))
        return clock_byte(mosi)

    def framing(slot, send):
        def sent(transceive):
            if not order or order[-1] != slot:
                order.append(slot)      # the slots in the order their frames went out
            send(transceive)
        return sent

    for slot in range(7):
        chip = pico.bench.chip(slot)
        monkeypatch.setattr(chip, "_send", framing(slot, chip._send))
    monkeypatch.setattr(pico.bench, "clock_byte", counting)
    monkeypatch.setattr(pico.bench.clock, "sleep_us", lambda us: (slept.append(us), sleep(us)))
    assert pico.step() == []
    inside = [order[i] for i in range(1, len(order) - 1) if order[i] == 0 and order[i - 1] == order[i + 1]]
    assert len(inside) >= 3, order
    assert max(fields) == 2
    # Only the first village waits (the pad's reading is short): no other wake-up is
    # waited. (The driver also sleeps through each frame's air time: 1.2 ms at most.)
    assert sum(us for us in slept if us > 1500) < scanner.POWER_UP_US
    # The pad was read in the last village, whose reading then woke village 1's tags:
    # the next scan begins there.
    assert [slot for slot in range(7) if pico.bench.chip(slot).field_on] == [1]


def test_a_pole_of_tags_on_a_village(pico):
    pico.hub.scanner.start()
    tags = [pico.put(4, uid) for uid in (UID, OTHER, "DEADBEEF")]
    assert sorted(pico.step()) == sorted(f"on 4 {tag.hex}" for tag in tags)
    pico.take(4, tags[1])
    pico.step()
    assert pico.step() == [f"off 4 {OTHER}"]
    state = pico.hub.scanner.state()
    assert sorted(state) == sorted([(0, None), (1, None), (2, None), (3, None),
                                    (4, UID), (4, "DEADBEEF"), (5, None), (6, None)])
    assert [slot for slot, _ in state] == sorted(slot for slot, _ in state)


def test_a_reader_that_stops_answering_gives_err_and_the_others_go_on(pico, monkeypatch):
    monkeypatch.setattr(scanner, "RETRY_SCANS", 3)
    pico.hub.scanner.start()
    pico.put(2, UID)
    pico.put(5, OTHER)
    assert pico.step() == [f"on 2 {UID}", f"on 5 {OTHER}"]
    pico.bench.chip(2).fail()
    tag = pico.put(6, "DEADBEEF")
    assert pico.step() == ["err 2 no answer (VersionReg 00)", "on 6 DEADBEEF"]
    assert pico.hub.scanner.failures() == [(2, "no answer (VersionReg 00)")]
    assert (2, UID) not in pico.hub.scanner.state()             # forgotten, not reported off
    assert pico.step() == []                                    # said once, not at every scan
    pico.take(6, tag)
    assert [pico.step(), pico.step()] == [[], ["off 6 DEADBEEF"]]
    pico.bench.chip(2).mend()                                   # the loose wire is fixed
    steps = [pico.step() for _ in range(scanner.RETRY_SCANS)]   # tried again every 3 scans
    assert ["chip 2 92", f"on 2 {UID}"] in steps and sum(steps, []) == ["chip 2 92", f"on 2 {UID}"]
    assert pico.hub.scanner.failures() == []


def test_a_reader_missing_at_power_up(pico, monkeypatch):
    pico.bench.chip(1).fail()
    assert ("err", 1, "no answer (VersionReg 00)") in pico.hub.scanner.start()
    assert pico.hub.scanner.failures() == [(1, "no answer (VersionReg 00)")]
    pico.put(1, UID)
    pico.put(0, OTHER)
    assert pico.step() == [f"on 0 {OTHER}"]


def test_fields_two_at_most_and_only_the_pad_on_between_scans(pico, monkeypatch):
    pico.hub.scanner.start()
    for slot in range(7):
        pico.put(slot, f"04A1B2C3D4E5{slot:02X}")
    most = []
    clock_byte = pico.bench.clock_byte

    def counting(mosi):
        most.append(sum(chip.field_on for chip in pico.bench.chips.values()))
        return clock_byte(mosi)

    monkeypatch.setattr(pico.bench, "clock_byte", counting)
    assert len(pico.step()) == 7
    assert max(most) == 2
    # The pad's tags wake for the next scan while it starts.
    assert [slot for slot in range(7) if pico.bench.chip(slot).field_on] == [0]


def test_each_scan_starts_with_unpowered_tags(pico):
    """A halted tag answers nothing until it loses power: the field goes off between scans."""
    pico.hub.scanner.start()
    tag = pico.put(3, UID)
    for _ in range(4):
        pico.step()
    assert tag.heard.count("SELECT 2") == 4


def test_a_crowded_slot_is_read_up_to_the_limit(pico):
    pico.hub.scanner.start()
    for n in range(scanner.MAX_TAGS + 2):
        pico.put(6, f"04A1B2C3D4E5{n:02X}")
    assert len(pico.step()) == scanner.MAX_TAGS
    assert pico.step() == []                    # the same ones every time: no flicker


def test_the_clock_may_wrap(pico, monkeypatch):
    """MicroPython's ticks wrap around: the scanner only compares them with ticks_diff."""
    period = 1 << 16
    clock = pico.bench.clock
    monkeypatch.setattr(clock, "ticks_us", lambda: int(clock.now_us) % period)
    monkeypatch.setattr(clock, "ticks_diff", lambda a, b: (a - b + period // 2) % period - period // 2)
    pico.hub.scanner.start()
    for slot in range(7):
        pico.put(slot, f"04A1B2C3D4E5{slot:02X}")
    clock.now_us = period - 2000        # the scan crosses the wrap
    assert len(pico.step()) == 7        # every tag had its 5 ms: each one answered
