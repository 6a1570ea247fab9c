"""What the table's flows share: the resolved scan, a flow's reply, the one-line notes.

A flow (the start menu, the set-up, the play of a game, the score pages) takes the input
events meant for it and answers with a ``Reply``: the feedback signal, and where to go next.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: Feedback signals a reply can give (hardware/feedback.py plays them).
ACCEPTED, REFUSED, YOUR_TURN = "accepted", "refused", "your_turn"


@dataclass(frozen=True)
class Scan:
    """A new tag on a reader, resolved to its item.

    ``uid`` is None when the token was an item name (an input script, the simulator's
    keyboard): then two pieces of the same type cannot be told apart.
    """

    item: str
    uid: str | None
    reader: str

    @property
    def slot(self) -> int | None:
        """The village (1-6) of a reader-hub slot, None for the scan pad."""
        if self.reader.startswith("slot") and self.reader[4:].isdigit():
            number = int(self.reader[4:])
            return number if 1 <= number <= 6 else None
        return None


@dataclass(frozen=True)
class Reply:
    """A flow's answer to one event: the signal to play, and ``goto`` (with ``payload``)
    when the session must switch to another flow: ``menu``, ``setup``, ``start``,
    ``resume``, ``score``, ``play``."""

    signal: str | None = None
    goto: str | None = None
    payload: Any = None


class Flow:
    """Base of the flows: a one-line note shown on the next frame only."""

    kind = "flow"

    def __init__(self) -> None:
        self.note: str | None = None
        self.refused = False

    def tell(self, note: str | None, refused: bool = False) -> Reply:
        """Show ``note`` on the next frame; a refusal also gives the refused signal."""
        self.note, self.refused = note, refused
        return Reply(REFUSED if refused else None)

    def clear(self) -> None:
        """Drop the note of the previous event."""
        self.note, self.refused = None, False


def rule_line(reason: str, rule: str | None) -> str:
    """A refusal for the screen: ``Village 5 is not open yet — W4``."""
    text = reason[:1].upper() + reason[1:]
    return f"{text} — {rule}" if rule else text
