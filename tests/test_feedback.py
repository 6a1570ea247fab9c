"""Buzzer and LEDs with gpiozero's MockFactory: pin state history of each signal."""

import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import Config
from companion.errors import UserError
from hardware.feedback import SIGNALS, Feedback, NullFeedback, open_feedback


@pytest.fixture
def factory():
    factory = MockFactory()
    yield factory
    factory.reset()


def wait_for(pin, count, timeout=2.0):
    """Wait until the pin has gone through ``count`` states (the pattern is in a thread)."""
    deadline = time.monotonic() + timeout
    while len(pin.states) < count and time.monotonic() < deadline:
        time.sleep(0.005)
    time.sleep(0.05)  # and give it the chance to go wrong with an extra change
    return [state.state for state in pin.states]


def test_nothing_configured_gives_null_feedback():
    feedback = open_feedback(Config())
    assert isinstance(feedback, NullFeedback)
    feedback.accepted(), feedback.refused(), feedback.your_turn(), feedback.close()


def test_accepted_ticks_and_flashes_green(factory):
    feedback = open_feedback(Config(buzzer_pin=18, led_pins={"green": 12, "red": 16}), pin_factory=factory)
    start = time.monotonic()
    feedback.accepted()
    assert time.monotonic() - start < 0.02  # not blocking
    assert wait_for(factory.pin(18), 3) == [False, True, False]
    assert wait_for(factory.pin(12), 3) == [False, True, False]
    assert wait_for(factory.pin(16), 1) == [False]
    feedback.close()


def test_refused_buzzes_long_and_flashes_red_twice(factory):
    feedback = Feedback(18, {"green": 12, "red": 16}, pin_factory=factory)
    feedback.refused()
    assert wait_for(factory.pin(16), 5) == [False, True, False, True, False]
    buzzer = factory.pin(18)
    assert wait_for(buzzer, 3) == [False, True, False]
    assert buzzer.states[2].timestamp >= SIGNALS["refused"][0].on * 0.9
    assert wait_for(factory.pin(12), 1) == [False]
    feedback.close()


def test_your_turn_pips_twice(factory):
    feedback = Feedback(buzzer_pin=18, pin_factory=factory)
    feedback.your_turn()
    assert wait_for(factory.pin(18), 5) == [False, True, False, True, False]
    feedback.close()


def test_leds_only_and_close_releases_the_pins(factory):
    feedback = Feedback(led_pins={"red": 16}, pin_factory=factory)
    feedback.accepted()  # no green LED, no buzzer: nothing happens
    feedback.close()
    again = Feedback(led_pins={"red": 16}, pin_factory=factory)  # pin free again
    again.close()


def test_pin_in_use_is_one_line(factory):
    from gpiozero import LED
    busy = LED(16, pin_factory=factory)
    with pytest.raises(UserError, match=r"\[feedback\]: cannot use"):
        open_feedback(Config(buzzer_pin=18, led_pins={"red": 16}), pin_factory=factory)
    busy.close()
    # the buzzer claimed before the failure was released
    Feedback(buzzer_pin=18, pin_factory=factory).close()


def test_no_gpio_on_this_computer(monkeypatch):
    from gpiozero import Device
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(_no_factory))
    with pytest.raises(UserError, match="no GPIO on this computer"):
        open_feedback(Config(buzzer_pin=18))


def _no_factory():
    from gpiozero.exc import BadPinFactory
    raise BadPinFactory("Unable to load any default pin factory!")
