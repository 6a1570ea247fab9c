"""Helpers for tests that drive the box through its input events, for both games."""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path
from typing import Any, Protocol

from companion.events import Press, Tag, TagGone
from companion.table.registry import TagRegistry
from companion.table.session import Session

#: Presses enough to reach any entry of the longest list on screen (names, decks, cards).
MAX_STEPS = 70


class Box(Protocol):
    """What these helpers drive: a session or one of its flows (its list in ``view.choice``);
    what ``handle`` gives back differs between them."""

    @property
    def view(self) -> Any: ...

    def handle(self, event: Any) -> Any: ...


def select(box: Box, value: Hashable) -> None:
    """Move the list on screen to ``value`` with down (a line found by its value, never by
    its place: a game or a language added moves the lines after it)."""
    for _ in range(MAX_STEPS):
        if box.view.choice.value == value:
            return
        box.handle(Press("down"))
    raise AssertionError(f"{value!r} not offered")


def choose(box: Box, value: Hashable) -> Any:
    """Move the list on screen to ``value`` with down, then press OK; the output of OK."""
    select(box, value)
    return box.handle(Press("ok"))


def presses_to(box: Box, value: Hashable) -> int:
    """How many presses of down move the list on screen from its first line to ``value``."""
    return int(box.view.choice.values.index(value))


def first_menu(folder: Path) -> Session:
    """A box started on an empty data folder under ``folder``: its menu the one a script run
    on an empty data folder meets, to find a line's place before the script is written."""
    return Session(folder / "data", TagRegistry(folder / "tags.json"))


def script_to(box: Box, value: Hashable) -> list[str]:
    """The lines of an input script that move the list on screen from its first line to
    ``value`` and press OK."""
    return ["press down"] * presses_to(box, value) + ["press ok"]


def scan(box: Box, token: str, reader: str = "pad") -> Any:
    """Put a tag on the reader and take it off again; the output of the scan."""
    out = box.handle(Tag(token, reader))
    box.handle(TagGone(token, reader))
    return out
