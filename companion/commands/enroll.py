"""``totem-companion enroll [--game G] [--deck FILE | --transcribe NAME] [--input FILE]``:
bind RFID tags to items.

Walks through the pieces, village tiles and headdresses of Wakanda (or the cards of a Totem
Wars deck), asking for one scan each, and saves the tag registry (``DATA/tags.json``) after
every binding. ``--transcribe NAME`` walks through a physical Totem Wars deck that differs
from the default list instead: each card is scanned, its identity confirmed or chosen with
the buttons, and the deck is written to ``DATA/decks/NAME.toml``. The prompt is shown on the
display and printed, a line a step, on stdout — except on a display drawn in the terminal,
where printed lines would scroll the picture away: there the progress goes to the line under
the picture, and only the enrollment's summary is printed, under the picture once it is
done. The data folder is held while it runs (``hold_data_folder``): one box per folder.
"""

from __future__ import annotations

import argparse
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from enum import Enum
from typing import TYPE_CHECKING, Any, Final

from companion.errors import UsageError, UserError
from companion.events import Event, Hold, Press, Wait
from companion.games import GAMES, game_entry
from companion.table.data_lock import hold_data_folder
from companion.table.enrollment import BUTTON_HELP, Enrollment
from companion.table.registry import TAGS_FILE, TagRegistry

if TYPE_CHECKING:
    from companion.config import Config
    from companion.table.app_loop import Display, Source
    from companion.table.table_game import Transcription

class _Stop(Enum):
    """What is put on the event queue besides events."""

    QUIT = "quit"


#: Put on the event queue when the player quits the keyboard input.
_QUIT: Final = _Stop.QUIT


def _played(items: Iterable[Event | Wait]) -> Iterator[Event]:
    """The events of an input script, in order, waiting where it says ``wait``."""
    for item in items:
        if isinstance(item, Wait):
            time.sleep(item.seconds)
        else:
            yield item


def _queued(events: queue.Queue[Event | _Stop]) -> Iterator[Event]:
    """The events of the started input sources until the player quits."""
    while (event := events.get()) is not _QUIT:
        yield event


def _events(config: Config, script: Iterable[Event | Wait] | None,
            echo: Callable[[str | None], None] | None) -> tuple[Iterator[Event], list[Source]]:
    """The events of the input script, or of the configured inputs until the player quits;
    and the sources to close afterwards. ``echo`` shows a scan being typed on the keyboard.

    The sources start now, before the first picture: a terminal keyboard then no longer
    echoes the keys typed at once onto the picture."""
    if script is not None:
        return _played(script), []
    from hardware.inputs import open_inputs
    waiting: queue.Queue[Event | _Stop] = queue.Queue()
    sources = open_inputs(config, echo=echo, on_quit=lambda: waiting.put(_QUIT))
    try:
        for source in sources:
            source.start(waiting.put)
    except BaseException:
        for source in sources:
            source.close()
        raise
    return _queued(waiting), sources


class Progress:
    """Where the walk's progress goes: printed a line each (``step`` for a new prompt,
    ``note`` for what an event did), or, under a picture drawn in the terminal, shown on the
    display's footer line (``set_footer``): the scan being typed while it is typed, else the
    last note, else ``keys``. Notes come from the walk, typed scans from the keyboard's
    thread: one lock keeps the line true to the latest of both."""

    def __init__(self, set_footer: Callable[[str], None] | None = None, keys: str = ""):
        self._set_footer = set_footer
        self._keys = keys
        self._note: str | None = None
        self._typed: str | None = None
        self._lock = threading.Lock()
        if set_footer is not None:
            set_footer(keys)

    @property
    def on_footer(self) -> bool:
        """Whether the progress goes to the footer line rather than stdout."""
        return self._set_footer is not None

    def step(self, line: str) -> None:
        """A new prompt: printed; on the footer the picture already shows it."""
        if self._set_footer is None:
            print(line)

    def note(self, line: str) -> None:
        """What an event did."""
        if self._set_footer is None:
            print(f"  {line}")
            return
        with self._lock:
            self._note = line
            self._show()

    def typed(self, text: str | None) -> None:
        """The keyboard's echo: the scan being typed, None when it ends."""
        with self._lock:
            self._typed = text
            self._show()

    def _show(self) -> None:
        if self._set_footer is not None:
            self._set_footer(f"scan: {self._typed}_" if self._typed is not None else self._note or self._keys)


def _enroll(walk: Enrollment, events: Iterable[Event], show: Callable[[str | None], None],
            progress: Progress) -> None:
    """Bind a tag for each step of ``walk``; ``show(note)`` draws the display."""
    if walk.current is not None:
        progress.step(f"[{walk.position}] {walk.current.prompt}")
    show(None)
    for event in events:
        feedback = walk.handle(event)
        if feedback.note:
            progress.note(feedback.note)
        if walk.finished:
            break
        if feedback.step_changed and walk.current is not None:
            progress.step(f"[{walk.position}] {walk.current.prompt}")
        if feedback.note or feedback.step_changed:
            show(feedback.note)
    walk.finish()
    show(walk.summary())


def _transcribe(walk: Transcription, events: Iterable[Event], display: Display, progress: Progress) -> None:
    """Walk through a physical deck card by card (``DeckTranscription``); its last note (the
    deck written, or where it stopped) is the last line of the progress."""
    display.show(walk.frame())
    for event in events:
        step = walk.handle(event)
        if step.note:
            progress.note(step.note)
        display.show(walk.frame(step.note))
        if walk.finished:
            break


def _simulator_keys(config: Config, script: object) -> dict[Press | Hold, str] | None:
    """The simulator's key for each button, when the keyboard is the buttons (it is whenever
    it is an input and no GPIO buttons are): the hints then name the key (``Shift+O:
    finish``) rather than the box's button (``hold OK: finish``)."""
    if script is not None or config.buttons == "gpio" or "keyboard" not in (config.buttons, config.reader):
        return None
    from hardware.keyboard_input import KEY_NAMES
    return KEY_NAMES


def run(args: argparse.Namespace) -> int:
    """Walk through the items of ``--game`` and enroll a scanned tag for each."""
    from companion.config import config_from_args
    from hardware.platform import is_raspberry_pi

    config = config_from_args(args).resolved(is_raspberry_pi())
    if getattr(args, "input", None) is None and config.reader == "none":
        raise UserError("enroll needs a tag reader: set --reader, or give an input script with --input")
    from companion.ui.text import speaking
    # The transcription screens speak the box's language.
    with hold_data_folder(config.data_dir), speaking(config.language):
        return _run(args, config)


def _run(args: argparse.Namespace, config: Config) -> int:
    """``run`` with the data folder held."""
    from companion.ui.screens import message_screen
    from hardware.displays import open_display

    script = getattr(args, "input", None)
    game: str = getattr(args, "game", None) or next(iter(GAMES))
    deck_name: str | None = getattr(args, "transcribe", None)
    keys = _simulator_keys(config, script)
    finish = keys[Hold("ok")] if keys else "hold OK"
    registry = TagRegistry.load(config.data_dir / TAGS_FILE)
    walk: Any  # a deck's transcription or the enrollment: each has its own loop below
    if deck_name is not None:
        transcription = game_entry(game).table.transcription
        if transcription is None or getattr(args, "deck", None):
            with_decks = [name for name, entry in GAMES.items() if entry.table.transcription]
            raise UsageError(f"--transcribe is for --game {' or '.join(with_decks)}, without --deck")
        walk = transcription(config.data_dir, deck_name, registry)
        change = f"{keys[Press('up')]}/{keys[Press('down')]}" if keys else "up/down"
        buttons = f"{keys[Press('ok')] if keys else 'OK'} keep, {change} change, {finish}: stop"
        heading = f"Transcribing the deck into {walk.path} ({buttons})"
    else:
        buttons = (f"{keys[Press('back')]}: previous, {keys[Press('down')]}: skip, {finish}: finish"
                   if keys else BUTTON_HELP)
        walk = Enrollment(game_entry(game).items.enrollment_steps(getattr(args, "deck", None)), registry,
                          button_help=buttons)
        heading = f"Enrolling {game} tags into {walk.registry.path} ({buttons})"
    if script is not None:
        from hardware.script_input import ScriptInput
        # Read and checked whole now, so a mistake in it is reported before anything changes.
        script = ScriptInput(script).events()

    display = open_display(config)
    sources: list[Source] = []
    summary = None
    try:
        print(heading, flush=True)  # above the picture, drawn next
        footer = [buttons]
        if script is None and "keyboard" in (config.buttons, config.reader):
            footer = (["/ then a UID: scan"] if config.reader == "keyboard" else []) + footer + ["q: quit"]
        progress = Progress(getattr(display, "set_footer", None), " · ".join(footer))
        events, sources = _events(config, script, progress.typed if progress.on_footer else None)
        if deck_name is not None:
            _transcribe(walk, events, display, progress)
            if not walk.finished:  # quit (q, the script's end): say what the .part file keeps
                summary = walk.quit_note()
        else:
            answer = (f"{keys[Press('ok')]}: move, {keys[Press('back')]}: keep" if keys
                      else "OK: move, back: keep")

            def show(note: str | None) -> None:
                step = walk.current
                if walk.question is not None:  # a tag of another item: move it?
                    display.show(message_screen("Move this tag?", list(walk.question), answer))
                elif step is None:
                    display.show(message_screen("Enroll: done", [note or ""]))
                else:
                    lines = [step.prompt] + ([note] if note else [])
                    display.show(message_screen(f"Enroll {walk.position}", lines, f"{finish}: finish"))
            _enroll(walk, events, show, progress)
            summary = walk.summary()
    finally:
        for source in sources:
            source.close()
        display.close()
    if summary is not None:
        print(summary)  # under the picture, which stays on the terminal
    return 0
