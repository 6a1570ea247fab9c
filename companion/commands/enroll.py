"""``totem-companion enroll [--game G] [--deck FILE | --transcribe NAME] [--input FILE]``:
bind RFID tags to items.

Walks through the pieces, village tiles and headdresses of Wakanda (or the cards of a Totem
Wars deck), asking for one scan each, and saves the tag registry (``DATA/tags.json``) after
every binding. ``--transcribe NAME`` walks through a physical Totem Wars deck that differs
from the default list instead: each card is scanned, its identity confirmed or chosen with
the buttons, and the deck is written to ``DATA/decks/NAME.toml``. The prompt is shown on the
display and printed, a line a step, on stdout.
"""

from __future__ import annotations

import queue
import time

from companion.errors import UsageError, UserError
from companion.games import GAMES, game_entry
from companion.table.enrollment import BUTTON_HELP, Enrollment
from companion.table.registry import TAGS_FILE, TagRegistry

#: Put on the event queue when the player quits the keyboard input.
_QUIT = object()


def _played(items):
    """The events of an input script, in order, waiting where it says ``wait``."""
    from companion.events import Wait
    for item in items:
        if isinstance(item, Wait):
            time.sleep(item.seconds)
        else:
            yield item


def _queued(sources, events: queue.Queue):
    """Start the input sources and yield their events until the player quits."""
    for source in sources:
        source.start(events.put)
    while (event := events.get()) is not _QUIT:
        yield event


def _events(config, script):
    """The events of the input script, or of the configured inputs until the player quits;
    and the sources to close afterwards."""
    if script is not None:
        return _played(script), []
    from hardware.inputs import open_inputs
    waiting: queue.Queue = queue.Queue()
    sources = open_inputs(config, on_quit=lambda: waiting.put(_QUIT))
    return _queued(sources, waiting), sources


def _enroll(game: str, walk: Enrollment, events, show) -> None:
    """Bind a tag for each step of ``walk``; ``show(note)`` draws the display."""
    print(f"Enrolling {game} tags into {walk.registry.path} ({BUTTON_HELP})")
    if walk.current is not None:
        print(f"[{walk.position}] {walk.current.prompt}")
    show(None)
    for event in events:
        feedback = walk.handle(event)
        if feedback.note:
            print(f"  {feedback.note}")
        if walk.finished:
            break
        if feedback.step_changed and walk.current is not None:
            print(f"[{walk.position}] {walk.current.prompt}")
        if feedback.note or feedback.step_changed:
            show(feedback.note)
    walk.finish()
    show(walk.summary())
    print(walk.summary())


def _transcribe(walk, events, display) -> None:
    """Walk through a physical deck card by card (``DeckTranscription``)."""
    print(f"Transcribing the deck into {walk.path} (OK keep, up/down change, hold OK: stop)")
    display.show(walk.frame())
    for event in events:
        step = walk.handle(event)
        if step.note:
            print(f"  {step.note}")
        display.show(walk.frame(step.note))
        if walk.finished:
            break


def run(args) -> int:
    """Walk through the items of ``--game`` and enroll a scanned tag for each."""
    from companion.config import config_from_args
    from companion.ui.screens import message_screen
    from companion.ui.text import set_language
    from hardware.displays import open_display
    from hardware.platform import is_raspberry_pi

    config = config_from_args(args).resolved(is_raspberry_pi())
    set_language(config.language)  # the transcription screens speak the box's language
    script = getattr(args, "input", None)
    if script is None and config.reader == "none":
        raise UserError("enroll needs a tag reader: set --reader, or give an input script with --input")
    game = getattr(args, "game", None) or next(iter(GAMES))
    deck_name = getattr(args, "transcribe", None)
    registry = TagRegistry.load(config.data_dir / TAGS_FILE)
    if deck_name is not None:
        transcription = game_entry(game).table.transcription
        if transcription is None or getattr(args, "deck", None):
            with_decks = [name for name, entry in GAMES.items() if entry.table.transcription]
            raise UsageError(f"--transcribe is for --game {' or '.join(with_decks)}, without --deck")
        walk = transcription(config.data_dir, deck_name, registry)
    else:
        walk = Enrollment(game_entry(game).table.enrollment_steps(getattr(args, "deck", None)), registry)
    if script is not None:
        from hardware.script_input import ScriptInput
        # Read and checked whole now, so a mistake in it is reported before anything changes.
        script = ScriptInput(script).events()

    display = open_display(config)
    sources: list = []
    try:
        events, sources = _events(config, script)
        if deck_name is not None:
            _transcribe(walk, events, display)
        else:
            def show(note: str | None) -> None:
                step = walk.current
                if step is None:
                    display.show(message_screen("Enroll: done", [note or ""]))
                else:
                    lines = [step.prompt] + ([note] if note else [])
                    display.show(message_screen(f"Enroll {walk.position}", lines, "hold OK: finish"))
            _enroll(game, walk, events, show)
    finally:
        for source in sources:
            source.close()
        display.close()
    return 0
