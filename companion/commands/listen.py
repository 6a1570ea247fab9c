"""``totem-companion listen``: print input events as the hardware delivers them.

One line an event, in the words input scripts use (``tag 0A1B2C3D4E pad``, ``press v3``,
``reader pad disconnected`` …), flushed as it comes, so the output is also an input
script that replays what happened. Stops on Ctrl-C (or ``q`` on the keyboard), after
``--count N`` events, after ``--seconds S``, or at the end of an ``--input`` script.
"""

from __future__ import annotations

import argparse
import queue
import sys
import time
from enum import Enum
from typing import TYPE_CHECKING, Final

from companion.errors import UsageError, one_line
from companion.events import Event, format_event

if TYPE_CHECKING:
    from companion.table.app_loop import Source  # the table is not loaded to listen

class _Stop(Enum):
    """What is put on the queue besides events."""

    END = "end"


_END: Final = _Stop.END  # put on the queue by whatever ends the listening


def run(args: argparse.Namespace) -> int:
    """Print events until stopped; 0 when done, UserError when a device cannot be opened."""
    count: int | None = getattr(args, "count", None)
    seconds: float | None = getattr(args, "seconds", None)
    if count is not None and count < 1:
        raise UsageError("--count: expected a number of events, 1 or more")
    if seconds is not None and not seconds > 0:
        raise UsageError("--seconds: expected a number of seconds above 0")
    events: queue.Queue[Event | _Stop] = queue.Queue()
    sources, what = _open_sources(args, events)
    try:
        for source in sources:
            source.start(events.put)
        if sys.stderr.isatty():
            print(f"listening to {one_line(what)}; Ctrl-C stops", file=sys.stderr, flush=True)
        _print_events(events, count, seconds)
    except KeyboardInterrupt:
        pass                    # Ctrl-C is the usual way to stop listening
    finally:
        for source in reversed(sources):
            source.close()
    return 0


def _open_sources(args: argparse.Namespace, events: queue.Queue[Event | _Stop]) -> tuple[list[Source], str]:
    """The input sources, and a few words on what they are."""
    # Hardware modules are imported here only: companion/ never needs them otherwise.
    from companion.config import config_from_args
    from hardware.inputs import open_inputs
    from hardware.platform import is_raspberry_pi
    from hardware.script_input import ScriptInput

    config = config_from_args(args).resolved(is_raspberry_pi())
    script_path: str | None = getattr(args, "input", None)
    script = ScriptInput(script_path, on_end=lambda: events.put(_END)) if script_path else None
    what = str(script_path) if script else f"buttons {config.buttons}, reader {config.reader}"
    return open_inputs(config, script=script, echo=_echo_scan,
                       on_quit=lambda: events.put(_END)), what


def _print_events(events: queue.Queue[Event | _Stop], count: int | None, seconds: float | None) -> None:
    deadline = None if seconds is None else time.monotonic() + seconds
    printed = 0
    while count is None or printed < count:
        # Wake now and then even with no deadline, so Ctrl-C is never held up.
        timeout = 0.5 if deadline is None else min(0.5, deadline - time.monotonic())
        if timeout <= 0:
            return
        try:
            event = events.get(timeout=timeout)
        except queue.Empty:
            continue
        if event is _END:
            return
        print(format_event(event), flush=True)
        printed += 1


def _echo_scan(text: str | None) -> None:
    """Show a scan being typed on the keyboard (on stderr, so stdout stays events only)."""
    if sys.stderr.isatty():
        line = "" if text is None else f"scan: {text}"
        print(f"\r\x1b[K{line}", end="", file=sys.stderr, flush=True)
