"""What ``replay`` shares between the games: the note of what one record line did."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.ui.text import t


def line_note(before, after, describe: Callable[[Any, int | None, Any], str]) -> str:
    """What one event line did: ``describe`` its move, or what an undo took back."""
    if len(after.history) < len(before.history):
        player, move = before.history[-1]
        return t("undo.done", what=describe(before, player, move))
    player, move = after.history[-1]
    return describe(after, player, move)
