"""The hub's firmware on CPython, for the tests: firmware/ importable, ``machine`` faked.

Importing this module puts firmware/ on ``sys.path`` (its modules import one another by
bare name, as MicroPython does on the Pico) and :mod:`fake_machine` in
``sys.modules["machine"]``; the tests take the firmware's modules from here
(``from firmware_bench import scanner``). :func:`make_pico` gives a :class:`Pico`: the
simulated board (``bench``: chips, tags, clock, SPI counts) and the hub that
``board.open_hub()`` builds on it, exactly as main.py does on the Pico.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import fake_machine
import pytest

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
VECTORS = Path(__file__).resolve().parent / "data" / "hub_vectors.txt"

if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))
sys.modules.setdefault("machine", fake_machine)

# The firmware's modules, importable only from here on; the tests take them from here.
import board  # noqa: E402
import hub  # noqa: E402
import mfrc522  # noqa: E402
import protocol  # noqa: E402
import scanner  # noqa: E402

__all__ = ["board", "hub", "mfrc522", "protocol", "scanner", "Pico", "make_pico", "vectors", "body"]


def vectors(kind: str) -> list[list[str]]:
    """The lines of tests/data/hub_vectors.txt sent by ``kind`` (hub, host or bad), each
    as its columns after the first."""
    rows = []
    for line in VECTORS.read_text(encoding="ascii").splitlines():
        if line.startswith("#"):
            continue
        columns = line.split("\t")
        if columns[0] == kind:
            rows.append(columns[1:])
    return rows


@dataclass
class Pico:
    """A Pico with a reader on every slot: ``bench`` the hardware, ``hub`` the firmware."""

    bench: fake_machine.Bench
    hub: object

    def put(self, slot: int, uid: str, **options) -> fake_machine.FakeTag:
        """Lay a tag with ``uid`` on ``slot``; the tag."""
        tag = fake_machine.FakeTag(uid, **options)
        self.bench.chip(slot).put(tag)
        return tag

    def take(self, slot: int, tag: fake_machine.FakeTag) -> None:
        """Lift ``tag`` off ``slot``."""
        self.bench.chip(slot).take(tag)

    def step(self, received: bytes = b"") -> list[str]:
        """One step of the hub (answer what the host sent, scan): the verbs and arguments
        of its lines, without sequence numbers and checksums."""
        return [body(line) for line in self.hub.step(received)]


def body(line: str) -> str:
    """``on 3 04A1…`` of the line ``12 on 3 04A1… *5C\\n``."""
    return line.rsplit(" *", 1)[0].split(" ", 1)[1]


def make_pico(monkeypatch: pytest.MonkeyPatch) -> Pico:
    """A fresh Pico, its hub built by ``board.open_hub()`` and not yet started."""
    bench = fake_machine.Bench(board.CS_PINS)
    fake_machine.use(bench)
    # On the Pico, board hands MicroPython's time module to the scanner; here, the bench's
    # simulated clock, so that waits take simulated time.
    monkeypatch.setattr(board, "time", bench.clock)
    return Pico(bench, board.open_hub())
