"""How long a full scan of the 7 slots takes on the Pico, estimated from its SPI transfers.

On the simulated Pico (tests/fake_machine.py) time passes only three ways: an SPI
transfer costs ``CALL_US`` plus its bytes at the bus speed, and the firmware sleeps (the
tags' 5.1 ms wake-up). While the tags are on the air the driver polls ComIrqReg, so the
air time shows up as poll transfers. Hence, exactly:

    scan time = transfers x CALL_US + bytes x 8 / bus speed + sleeps

firmware/README.md ("How fast a scan is") quotes the figures below; the last test checks
that it still does.
"""

import re
from dataclasses import dataclass

import fake_machine
import pytest
from firmware_bench import FIRMWARE, board, make_pico, scanner

BUDGET_US = 100_000         # shared/DESIGN.md, "Budgets": a full scan of 7 slots


@dataclass(frozen=True)
class Figures:
    """One full scan: SPI transfers and bytes, time slept, total simulated time."""

    transfers: int
    bytes: int
    sleep_us: float
    total_us: float


def uid(slot, n):
    """A 7-byte NTAG-like UID, different for every slot and place on the pole."""
    return f"04{slot:02X}{n:02X}A1B2C3D4"


def measure(monkeypatch, layout, *, arriving=None, call_us=fake_machine.CALL_US):
    """Figures of one scan with ``layout[slot]`` tags on each slot, lying still (read at
    the scan before), and one more tag arriving on slot ``arriving`` if given."""
    monkeypatch.setattr(fake_machine, "CALL_US", call_us)
    pico = make_pico(monkeypatch)
    pico.hub.start()
    for slot, count in enumerate(layout):
        for n in range(count):
            pico.put(slot, uid(slot, n))
    assert len(pico.step()) == sum(layout)
    if arriving is not None:
        pico.put(arriving, uid(arriving, 0xEE))
    bench, slept = pico.bench, []
    sleep = bench.clock.sleep_us
    monkeypatch.setattr(bench.clock, "sleep_us", lambda us: (slept.append(us), sleep(us)))
    start = (bench.transfers, bench.bytes, bench.clock.now_us)
    events = pico.step()
    assert len(events) == (arriving is not None)
    figures = Figures(bench.transfers - start[0], bench.bytes - start[1], sum(slept),
                      bench.clock.now_us - start[2])
    per_byte_us = 8 / board.BAUDRATE * 1e6
    assert figures.total_us == pytest.approx(
        figures.transfers * call_us + figures.bytes * per_byte_us + figures.sleep_us)
    return figures


EMPTY = [0] * 7
ONE_EACH = [1] * 7
TWO_A_POLE = [1] + [2] * 6
THREE_A_POLE = [1] + [3] * 6

#: The README's rows: name -> how to measure them.
SCENARIOS = {
    "an empty board": dict(layout=EMPTY),
    "one piece on every slot": dict(layout=ONE_EACH),
    "the pad and 2 pieces on every village": dict(layout=TWO_A_POLE),
    "the pad and 3 pieces on every village": dict(layout=THREE_A_POLE),
    "a piece arriving on a village of 2": dict(layout=TWO_A_POLE, arriving=3),
    "2 on every village, MicroPython twice as slow": dict(layout=TWO_A_POLE, call_us=2 * fake_machine.CALL_US),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_a_full_scan_keeps_the_budget(monkeypatch, name):
    assert measure(monkeypatch, **SCENARIOS[name]).total_us <= BUDGET_US


def test_the_wake_up_waits_overlap_the_slots_before(monkeypatch):
    figures = measure(monkeypatch, EMPTY)
    # Each slot's field comes on while the slot before is read: the scan waits out one
    # whole wake-up, then only what the slot before did not use of the next one.
    assert scanner.POWER_UP_US <= figures.sleep_us < 7 * scanner.POWER_UP_US
    assert figures.total_us < 7 * scanner.POWER_UP_US


def test_a_piece_lying_still_is_cheaper_than_one_arriving(monkeypatch):
    still = measure(monkeypatch, TWO_A_POLE)
    arriving = measure(monkeypatch, TWO_A_POLE, arriving=3)
    extra = arriving.total_us - still.total_us
    # Its REQA, anticollision and select at both cascade levels, HLTA: 4.5 ms on the air.
    assert 4500 < extra < 9000


def test_the_readme_quotes_the_figures(monkeypatch):
    readme = (FIRMWARE / "README.md").read_text(encoding="utf-8")
    rows = {match[0]: match[1:] for match in re.findall(
        r"^\| (.+?) \| (\d+) \| (\d+) \| ([\d.]+) ms \|$", readme, re.MULTILINE)}
    assert set(rows) == set(SCENARIOS), "firmware/README.md: the table of scan times"
    for name, options in SCENARIOS.items():
        figures = measure(monkeypatch, **options)
        quoted = rows[name]
        assert (int(quoted[0]), int(quoted[1]), float(quoted[2])) == (
            figures.transfers, figures.bytes, round(figures.total_us / 1000, 1)), (
            f"firmware/README.md, '{name}': now {figures.transfers} transfers, {figures.bytes} bytes, "
            f"{figures.total_us / 1000:.1f} ms")
