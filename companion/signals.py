"""The feedback signals the session gives for an event, played by the buzzer and LEDs
(hardware/feedback.py) and printed by the demos.

>>> Signal.REFUSED == "refused", Signal("your_turn")
(True, <Signal.YOUR_TURN: 'your_turn'>)
"""

from __future__ import annotations

from enum import StrEnum


class Signal(StrEnum):
    """What the players hear and see flash: an action taken, refused, or the turn passed."""

    ACCEPTED = "accepted"
    REFUSED = "refused"
    YOUR_TURN = "your_turn"
