"""The firmware against what real boards do and the first model did not: tags that stay
halted through a short field-off, clone chips, frames that end with ErrIRq alone, chips
slow to reset or wedged, leftovers on the USB line, a restart with pieces lying still."""

import fake_machine
import pytest
from fake_machine import FakeTag
from firmware_bench import board, body, hub, make_pico, mfrc522, protocol, scanner

from companion.events import Tag
from hardware.hub_protocol import HubLink, chip_words, decode, encode

UIDS = ("04A1B2C3D4E5F6", "04112233445566", "DEADBEEF")
#: The chip-select pins of hubs of 1, 2 and 7 readers: the pad alone, the pad and a
#: village, the whole board.
HUBS = {1: board.CS_PINS[:1], 2: board.CS_PINS[:2], 7: board.CS_PINS}


def small_hub(pins, rst_pin=None):
    """A scanner on a bench with a reader on each of ``pins`` (as board.open_hub builds
    it, for a hub with fewer readers); the bench."""
    bench = fake_machine.Bench(pins, rst_pin=rst_pin)
    fake_machine.use(bench)
    spi = fake_machine.SPI(0, baudrate=board.BAUDRATE)
    readers = [mfrc522.MFRC522(spi, fake_machine.Pin(pin, fake_machine.Pin.OUT, value=1), bench.clock)
               for pin in pins]
    return scanner.Scanner(readers, bench.clock), bench


# --- 1. still pieces on small hubs --------------------------------------------------------------

@pytest.mark.parametrize("readers", sorted(HUBS))
@pytest.mark.parametrize("reset_us", [5000.0, 50_000.0])
def test_still_pieces_stay_on_for_100_scans(readers, reset_us):
    # With one or two readers a field is off for well under a millisecond between two
    # scans: the tags read (and halted) at one scan are still halted at the next.
    scan, bench = small_hub(HUBS[readers])
    scan.start()
    tags = {}
    for slot in range(readers):
        for uid in UIDS[:2 if slot == 0 else 3]:
            tags[(slot, uid)] = FakeTag(uid, reset_us=reset_us)
            bench.chip(slot).put(tags[(slot, uid)])
    assert sorted(event[1:] for event in scan.scan()) == sorted(tags)
    assert [scan.scan() for _ in range(100)] == [[]] * 100
    assert sorted(scan.state()) == sorted(tags)


def test_the_model_shows_why_reqa_alone_lost_still_pieces(monkeypatch):
    # The first firmware woke the known tags with REQA: on the pad alone, a piece lying
    # still went off after two scans.
    monkeypatch.setattr(mfrc522, "WUPA", mfrc522.REQA)
    scan, bench = small_hub(HUBS[1])
    scan.start()
    bench.chip(0).put(FakeTag(UIDS[0]))
    assert scan.scan() == [("on", 0, UIDS[0])]
    assert [scan.scan(), scan.scan()] == [[], [("off", 0, UIDS[0])]]


def test_a_known_tag_is_woken_with_wupa():
    scan, bench = small_hub(HUBS[1])
    scan.start()
    tag = FakeTag(UIDS[0])
    bench.chip(0).put(tag)
    scan.scan()
    tag.heard.clear()
    assert scan.scan() == []
    assert tag.heard == ["WUPA", "SELECT 1", "SELECT 2", "HLTA"]


def test_tags_left_halted_by_a_restart_are_found_again():
    # The Pico restarted (mpremote reset) while its readers kept their power: the tags
    # it halted a moment ago are still halted, and the new hub knows none of them.
    first, bench = small_hub(HUBS[1])
    first.start()
    for uid in UIDS:
        bench.chip(0).put(FakeTag(uid))
    assert len(first.scan()) == 3
    again = scanner.Scanner([first.slots[0].reader], bench.clock)
    again.start()
    assert sorted(uid for _, _, uid in again.scan()) == sorted(UIDS)


# --- 2. clone chips ----------------------------------------------------------------------------

@pytest.mark.parametrize("version", [0x91, 0x92, 0x88, 0x12, 0x15, 0x80, 0x89, 0xB2])
def test_every_chip_that_answers_is_taken(version):
    scan, bench = small_hub(HUBS[1])
    bench.chip(0).version = version
    assert scan.start() == [("chip", 0, f"{version:02X}")]
    bench.chip(0).put(FakeTag(UIDS[0]))
    assert scan.scan() == [("on", 0, UIDS[0])]


@pytest.mark.parametrize("version", [0x00, 0xFF])
def test_miso_held_low_or_high_is_no_chip(version):
    scan, bench = small_hub(HUBS[1])
    bench.chip(0).version = version
    assert scan.start() == [("err", 0, f"no answer (VersionReg {version:02X})")]


def test_the_host_names_the_chips_the_hub_reports(monkeypatch):
    pico = make_pico(monkeypatch)
    pico.bench.chip(3).version = 0x89
    pico.bench.chip(5).fail()
    link = HubLink()
    lines = pico.hub.start()
    link.connected(decode(lines[0].encode()[:-1]))
    link.feed("".join(lines[1:]).encode())
    assert link.chip_lines() == [
        "slot 0: MFRC522 2.0, version 0x92", "slot 1: MFRC522 2.0, version 0x92", "slot 2: MFRC522 2.0, version 0x92",
        "slot 3: MFRC522 clone, version 0x89", "slot 4: MFRC522 2.0, version 0x92",
        "slot 6: MFRC522 2.0, version 0x92"]
    assert link.bad_lines == 0 and 5 in link.silent


def test_chip_words():
    assert [chip_words(version) for version in (0x91, 0x92, 0x88, 0x12, 0x89)] == [
        "MFRC522 1.0", "MFRC522 2.0", "FM17522", "MFRC522 clone", "MFRC522 clone"]


@pytest.mark.parametrize("body_", ["chip 3", "chip 3 8", "chip 3 zz", "chip 9 92"])
def test_a_chip_line_that_makes_no_sense_is_bad(body_):
    link = HubLink()
    link.connected(decode(encode(0, "hello totem-hub 1.1 slots=7")[:-1]))
    link.feed(encode(1, body_))
    assert link.bad_lines == 1 and link.chips == {}


# --- 7. frames that end with ErrIRq, resets ------------------------------------------------------

def test_a_frame_ending_with_err_irq_alone_does_not_drop_the_reader():
    scan, bench = small_hub(HUBS[1])
    scan.start()
    bench.chip(0).put(FakeTag(UIDS[0]))
    assert scan.scan() == [("on", 0, UIDS[0])]
    for garbled in range(1, 4):     # the WUPA's answer; and a SELECT's; and the next WUPA's
        bench.chip(0).garble = garbled
        assert [scan.scan(), scan.scan()] == [[], []]   # one scan missed at most: no err, no off
        assert scan.failures() == []
    assert scan.state() == [(0, UIDS[0])]


def test_a_reqa_answered_garbled_still_counts_as_a_tag_there():
    scan, bench = small_hub(HUBS[1])
    scan.start()
    bench.chip(0).put(FakeTag(UIDS[0]))
    bench.chip(0).garble = 1        # the REQA's answer: someone is there, anticollision finds who
    assert scan.scan() == [("on", 0, UIDS[0])]


def test_a_chip_busy_for_3_ms_after_its_reset_is_waited_for():
    scan, bench = small_hub(HUBS[1])
    bench.chip(0).reset_us = 3000.0
    started = bench.clock.now_us
    assert scan.start() == [("chip", 0, "92")]
    assert bench.clock.now_us - started >= 3000.0


def test_a_wedged_chip_is_stuck_in_reset_after_a_real_wait():
    scan, bench = small_hub(HUBS[1])
    bench.chip(0).wedged = True
    started = bench.clock.now_us
    assert scan.start() == [("err", 0, "stuck in reset")]
    assert bench.clock.now_us - started >= mfrc522.RESET_TIMEOUT_US
    # It was polled with pauses, not a hundred times at full speed.
    assert bench.transfers < 2 * mfrc522.RESET_TIMEOUT_US / mfrc522.RESET_POLL_US


def test_the_rst_pin_brings_a_wedged_chip_back(monkeypatch):
    pins = board.CS_PINS
    bench = fake_machine.Bench(pins, rst_pin=2)
    fake_machine.use(bench)
    for pin in pins:
        bench.chips[pin].wedged = True
    monkeypatch.setattr(board, "time", bench.clock)
    monkeypatch.setattr(board, "RST_PIN", 2)
    lines = board.open_hub().start()
    assert [body(line) for line in lines[1:]] == [f"chip {slot} 92" for slot in range(7)]


def test_without_an_rst_pin_a_wedged_chip_stays_wedged(monkeypatch):
    pico = make_pico(monkeypatch)
    pico.bench.chip(4).wedged = True
    assert "err 4 stuck in reset" in [body(line) for line in pico.hub.start()]


# --- 5. leftovers on the line ---------------------------------------------------------------------

@pytest.mark.parametrize("leftover", [b"\r\x03\r\x01", b"7 state", b"0 hello? *4", b"12", b"\x00\xff"])
def test_the_hub_takes_the_request_after_a_leftover(leftover):
    good = protocol.frame(3, "ping").encode()[:-1]
    assert protocol.parse_resync(leftover + good) == (3, "ping", [])


def test_the_hub_takes_no_request_out_of_noise_alone():
    assert protocol.parse_resync(b"12 ping *0012") is None
    assert protocol.parse_resync(b"") is None


def test_the_host_greeting_ends_a_partial_line_first():
    assert HubLink().greeting().startswith(b"\n")


# --- 6. a restart with pieces lying still -----------------------------------------------------------

def test_after_a_restart_the_first_state_has_the_still_pieces(monkeypatch):
    pico = make_pico(monkeypatch)
    pico.put(3, UIDS[0])
    pico.hub.start()
    pico.step()
    restarted = board.open_hub()        # the same readers and tags, a new hub
    link = HubLink()                    # the host, which saw the piece before the restart
    link.connected(decode(encode(0, f"hello totem-hub {hub.VERSION} slots=7")[:-1]))
    assert link.feed(encode(1, f"state 0:- 1:- 2:- 3:{UIDS[0]} 4:- 5:- 6:-")) == [Tag(UIDS[0], "slot3")]
    assert link.feed("".join(restarted.start()).encode()) == []
    lines = restarted.step(encode(0, "state?"))
    assert [body(line) for line in lines] == [f"on 3 {UIDS[0]}", f"state 0:- 1:- 2:- 3:{UIDS[0]} 4:- 5:- 6:-"]
    assert link.feed("".join(lines).encode()) == []     # nothing gone, nothing new
