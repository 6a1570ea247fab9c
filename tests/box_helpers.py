"""Helpers for tests that drive the box through its input events, for both games."""

from __future__ import annotations

from companion.events import Press, Tag, TagGone

#: Presses enough to reach any entry of the longest list on screen (names, decks, cards).
MAX_STEPS = 70


def choose(box, value):
    """Move the list on screen to ``value`` with down, then press OK; the output of OK."""
    for _ in range(MAX_STEPS):
        if box.view.choice.value == value:
            return box.handle(Press("ok"))
        box.handle(Press("down"))
    raise AssertionError(f"{value!r} not offered")


def scan(box, token, reader="pad"):
    """Put a tag on the reader and take it off again; the output of the scan."""
    out = box.handle(Tag(token, reader))
    box.handle(TagGone(token, reader))
    return out
