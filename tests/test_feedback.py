"""Buzzer and LEDs with gpiozero's MockFactory: pin state history of each signal."""

import threading
import time

import pytest
from gpiozero import LED, Buzzer, Device
from gpiozero.exc import BadPinFactory
from gpiozero.threads import GPIOThread

from companion.config import Config
from companion.errors import UserError
from companion.signals import Signal
from hardware.feedback import SIGNALS, Feedback, NullFeedback, open_feedback

WAIT = 3    # seconds: the longest a pattern may take to play out


def played(pin_factory, *pins, timeout=WAIT):
    """The state history of each pin, once every pattern playing has come to its end.

    gpiozero plays a pattern (``blink``, ``beep``) on a ``GPIOThread`` of its own that ends
    with the pattern: waiting for those threads, not for a time, makes the history final.
    """
    deadline = time.monotonic() + timeout
    for thread in threading.enumerate():
        if isinstance(thread, GPIOThread):
            # Raises gpiozero's ZombieThread if the pattern is still playing at the deadline.
            thread.join(max(0.0, deadline - time.monotonic()))
    return [[state.state for state in pin_factory.pin(pin).states] for pin in pins]


def test_nothing_configured_gives_null_feedback():
    feedback = open_feedback(Config())
    assert isinstance(feedback, NullFeedback)
    assert [*(feedback.play(signal) for signal in Signal), feedback.close()] == [None] * 4


def test_accepted_ticks_and_flashes_green(pin_factory, mocker):
    beep, blink = mocker.spy(Buzzer, "beep"), mocker.spy(LED, "blink")
    feedback = open_feedback(Config(buzzer_pin=18, led_pins={"green": 12, "red": 16}), pin_factory=pin_factory)
    feedback.play(Signal.ACCEPTED)
    # The game never waits for a signal: gpiozero plays both patterns in the background.
    assert beep.call_args.kwargs["background"] is True
    assert blink.call_args.kwargs["background"] is True
    assert played(pin_factory, 18, 12, 16) == [[False, True, False], [False, True, False], [False]]
    feedback.close()


def test_refused_buzzes_long_and_flashes_red_twice(pin_factory):
    feedback = Feedback(18, {"green": 12, "red": 16}, pin_factory=pin_factory)
    feedback.play(Signal.REFUSED)
    assert played(pin_factory, 16, 18, 12) == [[False, True, False, True, False], [False, True, False], [False]]
    on, off = pin_factory.pin(18).states[1:3]
    assert off.timestamp - on.timestamp >= SIGNALS["refused"][0].on * 0.9    # a long buzz
    feedback.close()


def test_your_turn_pips_twice(pin_factory):
    feedback = Feedback(buzzer_pin=18, pin_factory=pin_factory)
    feedback.play(Signal.YOUR_TURN)
    assert played(pin_factory, 18) == [[False, True, False, True, False]]
    feedback.close()


def test_a_new_signal_cuts_the_one_playing(pin_factory):
    feedback = Feedback(buzzer_pin=18, pin_factory=pin_factory)
    feedback.play(Signal.REFUSED)                  # a 0.4 s buzz…
    feedback.play(Signal.ACCEPTED)                 # …cut short by a tick, which keeps the buzzer on
    # One pulse: not the long buzz played out and then the tick ([False, True, False, True, False]).
    assert played(pin_factory, 18) == [[False, True, False]]
    feedback.close()


def test_leds_only_and_close_releases_the_pins(pin_factory):
    feedback = Feedback(led_pins={"red": 16}, pin_factory=pin_factory)
    feedback.play(Signal.ACCEPTED)  # no green LED, no buzzer: nothing happens
    assert played(pin_factory, 16) == [[False]]
    feedback.close()
    again = Feedback(led_pins={"red": 16}, pin_factory=pin_factory)  # raises if the pin were still claimed
    again.close()


def test_pin_in_use_is_one_line(pin_factory):
    busy = LED(16, pin_factory=pin_factory)
    with pytest.raises(UserError, match=r"\[feedback\]: cannot use"):
        open_feedback(Config(buzzer_pin=18, led_pins={"red": 16}), pin_factory=pin_factory)
    busy.close()
    # the buzzer claimed before the failure was released
    Feedback(buzzer_pin=18, pin_factory=pin_factory).close()


def test_no_gpio_on_this_computer(monkeypatch, mocker):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    mocker.patch.object(Device, "pin_factory", None)
    mocker.patch.object(Device, "_default_pin_factory",
                        side_effect=BadPinFactory("Unable to load any default pin factory!"))
    with pytest.raises(UserError, match="no GPIO on this computer"):
        open_feedback(Config(buzzer_pin=18))
