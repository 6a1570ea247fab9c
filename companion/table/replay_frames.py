"""What ``replay`` shares between the games: the note of what each record line did."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.ui.text import t

#: Words a move: ``describe(game, player, move)``.
Describe = Callable[[Any, int | None, Any], str]


class LineNotes:
    """The notes of a record's lines, one line after the other, from the game after each:
    what the line's move did (``made``, default ``describe``), or what an undo took back
    (``describe`` of the move). A move's words are kept from when it was made, so an undo
    names it as it was then, and no line is played twice."""

    def __init__(self, describe: Describe, made: Describe | None = None):
        self._describe = describe
        self._made = made or describe
        self._said: list[str] = []  # how an undo names each move of the game's history

    def after(self, game: Any) -> str:
        """The note of the event line that just made ``game`` what it is."""
        history = game.history
        if len(history) < len(self._said):
            taken = self._said[len(history):]
            del self._said[len(history):]
            return t("undo.done", what=taken[-1])
        for player, move in history[len(self._said):]:
            self._said.append(self._describe(game, player, move))
        player, move = history[-1]
        return self._made(game, player, move)
