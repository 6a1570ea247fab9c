"""Buzzer and LEDs (optional): short patterns for accepted, refused and your turn.

Every pattern runs in gpiozero's background thread, so the game never waits for a beep;
a new pattern cuts the one still playing. A box without buzzer or LEDs gets
``NullFeedback``, which has the same methods and does nothing.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.config import Config
from companion.errors import UserError
from companion.signals import Signal


@dataclass(frozen=True)
class Pattern:
    """``count`` pulses of ``on`` seconds separated by ``off`` seconds."""

    on: float
    off: float
    count: int


#: (buzzer, green LED, red LED) pattern of each signal; None leaves that part alone.
# A tick for accepted, two quick pips for your turn, one long buzz for refused: told
# apart by ear without looking up from the board.
SIGNALS: dict[Signal, tuple[Pattern, Pattern | None, Pattern | None]] = {
    Signal.ACCEPTED: (Pattern(0.03, 0.0, 1), Pattern(0.15, 0.0, 1), None),
    Signal.YOUR_TURN: (Pattern(0.05, 0.07, 2), Pattern(0.08, 0.08, 2), None),
    Signal.REFUSED: (Pattern(0.4, 0.0, 1), None, Pattern(0.15, 0.1, 2)),
}


class NullFeedback:
    """The feedback of a box without buzzer or LEDs: every signal does nothing."""

    def play(self, signal: Signal, *, sound: bool = True) -> None:
        """Nothing to do."""

    def close(self) -> None:
        """Nothing to release."""


class Feedback:
    """An active buzzer and/or LEDs ("green", "red") on BCM pins, through gpiozero."""

    def __init__(self, buzzer_pin: int | None = None, led_pins: Mapping[str, int] | None = None,
                 *, pin_factory: Any = None):
        from gpiozero import LED, Buzzer

        self._parts = []
        try:
            self._buzzer = Buzzer(buzzer_pin, pin_factory=pin_factory) if buzzer_pin is not None else None
            self._parts.append(self._buzzer)
            leds = dict(led_pins or {})
            self._green = LED(leds["green"], pin_factory=pin_factory) if "green" in leds else None
            self._parts.append(self._green)
            self._red = LED(leds["red"], pin_factory=pin_factory) if "red" in leds else None
            self._parts.append(self._red)
        except Exception:
            self.close()
            raise

    def play(self, signal: Signal, *, sound: bool = True) -> None:
        """Play ``signal``'s pattern: accepted, a tick and a green flash; refused, a long buzz
        and two red flashes; your turn, two quick pips and green flashes. Without ``sound``
        (the settings page's sound off) the buzzer stays silent and only the LEDs flash."""
        buzz, green, red = SIGNALS[signal]
        if self._buzzer is not None and buzz and sound:
            self._buzzer.beep(buzz.on, buzz.off, n=buzz.count, background=True)
        for led, pattern in ((self._green, green), (self._red, red)):
            if led is not None and pattern:
                led.blink(pattern.on, pattern.off, n=pattern.count, background=True)

    def close(self) -> None:
        """Stop any pattern, switch everything off and release the pins."""
        for part in self._parts:
            if part is not None:
                part.close()
        self._parts = []


def open_feedback(config: Config, *, pin_factory: Any = None) -> Feedback | NullFeedback:
    """The buzzer and LEDs of ``config``; ``NullFeedback`` when none are configured.

    A pin gpiozero cannot use is a ``UserError`` naming the key and the fix.
    """
    if config.buzzer_pin is None and not config.led_pins:
        return NullFeedback()
    from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

    try:
        with warnings.catch_warnings():
            # Each library gpiozero tries and misses is a warning; the error below says it all.
            warnings.simplefilter("ignore", PinFactoryFallback)
            return Feedback(config.buzzer_pin, config.led_pins, pin_factory=pin_factory)
    except BadPinFactory:
        raise UserError("[feedback]: no GPIO on this computer (on a Raspberry Pi install python3-lgpio: "
                        "./setup.sh does it); remove [feedback] to play without buzzer and LEDs") from None
    except GPIOZeroError as exc:
        raise UserError(f"[feedback]: cannot use the buzzer or LED pins ({exc}); "
                        f"run totem-companion doctor") from None
