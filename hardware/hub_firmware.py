"""The reader hub's firmware from the box (issue 34): the version its hub runs (the hub's
``hello totem-hub VERSION slots=N``), the version this box ships (``firmware/hub.py``), and
the update of the Pico when they differ, checked by the hub's hello again, in the new version.

``python -m hardware.hub_firmware PORT`` says both versions (status 0 when they agree, 1
when they differ, with what to do); with ``--update`` it copies the firmware onto the Pico
when they differ, or always with ``--force`` (``mpremote``; ``./setup.sh flash`` runs it),
and waits for the hub to greet in the version shipped. A hub that does not answer at all (a Pico with MicroPython
only) is updated too. Every problem is one line.
"""

from __future__ import annotations

import argparse
import queue
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import serial

from companion.errors import UserError
from companion.files import read_text, shown_path
from hardware.hub_reader import HubReader

#: The firmware this box ships.
FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
#: How long the Pico may take to restart on its new firmware and greet (USB comes back).
RESTART_SECONDS = 20.0
#: Between two tries to greet it meanwhile.
RETRY_SECONDS = 0.25
#: How long the hub's first report may take once it greeted.
READ_SECONDS = 5.0
#: How long copying the firmware may take.
COPY_SECONDS = 120


def shipped_version(firmware: Path = FIRMWARE) -> str:
    """The version of the firmware in ``firmware`` (its ``hub.py``'s ``VERSION``)."""
    text = read_text(firmware / "hub.py", "the hub's firmware", 256 * 1024)
    found = re.search(r'^VERSION = "([0-9A-Za-z.+-]{1,20})"$', text, re.MULTILINE)
    if found is None:
        raise UserError(f"{shown_path(firmware / 'hub.py')}: no VERSION in the hub's firmware")
    return found.group(1)


def hub_version(port: str, open_port: Callable[..., object] = serial.Serial) -> str:
    """The firmware version the hub on ``port`` says in its hello; ``UserError`` (one line)
    when the port cannot be opened or the hub does not greet."""
    reader = HubReader(port, open_port=open_port)
    events: queue.SimpleQueue[object] = queue.SimpleQueue()
    try:
        # The hub's first report comes once its hello is taken in: the version is known then.
        reader.start(events.put)
        events.get(timeout=READ_SECONDS)
    except queue.Empty:
        raise UserError(f"the reader hub on {shown_path(port)} greeted but said nothing more") from None
    finally:
        reader.close()
    return str(reader.link.version)


def copy_with_mpremote(port: str, firmware: Path = FIRMWARE) -> None:
    """Copy the firmware's files onto the Pico on ``port`` and restart it (``mpremote``, the
    venv's: ``./setup.sh flash``)."""
    program = Path(sys.executable).with_name("mpremote")
    files = sorted(str(path) for path in firmware.glob("*.py"))
    try:
        done = subprocess.run([str(program), "connect", port, "fs", "cp", *files, ":", "+", "reset"],
                              capture_output=True, text=True, timeout=COPY_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UserError(f"the Pico on {shown_path(port)} did not take the firmware: {exc}") from None
    if done.returncode != 0:
        raise UserError(f"the Pico on {shown_path(port)} did not take the firmware: if the hub runs on it, "
                        "press its BOOTSEL button once, then try again")


def compare(port: str, open_port: Callable[..., object] = serial.Serial,
            firmware: Path = FIRMWARE) -> tuple[str | None, str]:
    """(the version the hub runs, None when it does not greet; the version shipped)."""
    shipped = shipped_version(firmware)
    try:
        return hub_version(port, open_port), shipped
    except UserError:
        return None, shipped


def update(port: str, *, open_port: Callable[..., object] = serial.Serial, firmware: Path = FIRMWARE,
           copy: Callable[[str], None] = copy_with_mpremote, restart_seconds: float = RESTART_SECONDS,
           clock: Callable[[], float] = time.monotonic, force: bool = False) -> str:
    """Bring the hub on ``port`` to the firmware shipped when it runs another (or none), and
    check it greets in that version after; what was done, in a line. ``UserError`` (one
    line) when the copy fails or the hub does not come back in the new version. ``force``:
    copied even when the hub runs the version shipped (a firmware changed by hand)."""
    running, shipped = compare(port, open_port, firmware)
    if running == shipped and not force:
        return f"the reader hub runs firmware {shipped}, the one this box ships"
    copy(port)
    deadline = clock() + restart_seconds
    while True:
        try:
            now = hub_version(port, open_port)
            break
        except UserError:
            if clock() >= deadline:
                raise UserError(f"the reader hub on {shown_path(port)} did not greet within {restart_seconds:g} s "
                                f"of its update to {shipped}: unplug it, plug it back, and run this again") from None
            time.sleep(RETRY_SECONDS)   # the Pico restarts; its USB line comes back
    if now != shipped:
        raise UserError(f"the reader hub on {shown_path(port)} runs {now} after its update, not {shipped}: "
                        "copy the firmware again (firmware/README.md, \"Flashing\")")
    return f"the reader hub's firmware went from {running or 'none'} to {shipped}, and the hub answers"


def advice(running: str | None, shipped: str) -> str | None:
    """What to say when the hub runs another firmware than the one shipped; None when not."""
    if running == shipped:
        return None
    said = f"runs firmware {running}" if running is not None else "does not greet"
    return f"the reader hub {said}; this box ships {shipped}: ./setup.sh flash updates it"


def main(argv: list[str] | None = None) -> int:
    """``python -m hardware.hub_firmware PORT [--update]``: the exit status."""
    parser = argparse.ArgumentParser(prog="hardware.hub_firmware")
    parser.add_argument("port", help="the hub's serial port (/dev/ttyACM0)")
    parser.add_argument("--update", action="store_true", help="copy the firmware when the versions differ")
    parser.add_argument("--force", action="store_true", help="with --update: copy it even when they agree")
    args = parser.parse_args(argv)
    try:
        if args.update:
            print(update(args.port, force=args.force))
            return 0
        running, shipped = compare(args.port)
    except UserError as exc:
        print(f"totem-companion: {exc}", file=sys.stderr)
        return 1
    said = advice(running, shipped)
    print(said or f"the reader hub runs firmware {shipped}, the one this box ships")
    return 0 if said is None else 1


if __name__ == "__main__":
    sys.exit(main())
