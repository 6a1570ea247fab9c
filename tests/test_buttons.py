"""Buttons: debounce, press and hold, on a fake clock and gpiozero's mock pins."""

import queue
import time

import pytest
from fakes import FakeClock
from gpiozero import Device

from companion.errors import UserError
from companion.events import Hold, Press
from hardware.buttons import ButtonMachine, GpioButtons

WAIT = 3    # seconds: the longest any test waits for something that should happen


def machine(clock, **kwargs):
    return ButtonMachine("v3", hold_seconds=0.8, debounce_ms=30, clock=clock, **kwargs)


def test_short_press_is_reported_on_release():
    clock = FakeClock()
    m = machine(clock)
    assert m.edge(True) == []
    clock.advance(0.1)
    assert m.poll() == []
    assert m.pressed
    assert m.edge(False) == []          # not settled yet
    clock.advance(0.029)
    assert m.poll() == []
    clock.advance(0.002)
    assert m.poll() == [Press("v3")]
    assert not m.pressed
    assert m.poll() == []               # once


def test_chatter_counts_as_one_press():
    clock = FakeClock()
    m = machine(clock)
    events = []
    for level in (True, False, True, False, True):   # contacts bouncing, 2 ms apart
        events += m.edge(level)
        clock.advance(0.002)
    clock.advance(0.2)
    events += m.poll()
    for level in (False, True, False):               # bouncing on release
        events += m.edge(level)
        clock.advance(0.002)
    clock.advance(0.05)
    events += m.poll()
    assert events == [Press("v3")]


def test_a_glitch_shorter_than_the_debounce_is_ignored():
    clock = FakeClock()
    m = machine(clock)
    m.edge(True)
    clock.advance(0.005)
    m.edge(False)
    clock.advance(1.0)
    assert m.poll() == []
    assert not m.pressed


def test_hold_is_reported_once_and_no_press_follows():
    clock = FakeClock()
    m = machine(clock)
    m.edge(True)
    clock.advance(0.79)
    assert m.poll() == []
    clock.advance(0.02)
    assert m.poll() == [Hold("v3")]
    clock.advance(2.0)
    assert m.poll() == []
    m.edge(False)
    clock.advance(0.1)
    assert m.poll() == []
    # The next short press is a press again.
    m.edge(True)
    clock.advance(0.1)
    m.edge(False)
    clock.advance(0.1)
    assert m.poll() == [Press("v3")]


def test_hold_is_timed_from_the_first_edge_and_survives_a_glitch():
    clock = FakeClock()
    m = machine(clock)
    m.edge(True)
    clock.advance(0.5)
    m.edge(False)                       # a 3 ms glitch while held
    clock.advance(0.003)
    m.edge(True)
    clock.advance(0.3)
    assert m.poll() == [Hold("v3")]


def test_release_just_before_the_hold_time_is_a_press():
    clock = FakeClock()
    m = machine(clock)
    m.edge(True)
    clock.advance(0.79)
    m.edge(False)
    clock.advance(0.05)                 # the hold time passes while the release settles
    assert m.poll() == [Press("v3")]


def test_overdue_events_come_out_before_a_late_edge():
    clock = FakeClock()
    m = machine(clock)
    m.edge(True)
    clock.advance(1.0)                  # nobody polled meanwhile
    assert m.edge(False) == [Hold("v3")]


def test_deadline_tells_when_to_poll():
    clock = FakeClock()
    m = machine(clock)
    assert m.deadline() is None
    m.edge(True)
    assert m.deadline() == pytest.approx(clock.now + 0.03)
    clock.advance(0.05)
    m.poll()
    assert m.deadline() == pytest.approx(clock.now - 0.05 + 0.8)
    clock.advance(1)
    m.poll()
    assert m.deadline() is None


def test_a_button_down_at_start_counts_after_its_release():
    clock = FakeClock()
    m = machine(clock, pressed=True)
    clock.advance(5)
    assert m.poll() == []
    m.edge(False)
    clock.advance(0.1)
    assert m.poll() == []
    m.edge(True)
    clock.advance(0.1)
    m.edge(False)
    clock.advance(0.1)
    assert m.poll() == [Press("v3")]


def test_repeated_edges_of_the_same_level_change_nothing():
    clock = FakeClock()
    m = machine(clock)
    m.edge(True)
    clock.advance(0.02)
    m.edge(True)                        # must not restart the debounce
    clock.advance(0.015)
    m.poll()
    assert m.pressed


# --- on gpiozero's mock pins --------------------------------------------------------------

def drain(q):
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


@pytest.fixture
def box(pin_factory):
    clock = FakeClock()
    # No pin_factory given: the buttons use gpiozero's default, as the command line does.
    buttons = GpioButtons({"v1": 5, "v2": 6, "ok": 22}, hold_seconds=0.8, debounce_ms=30,
                          clock=clock)
    q = queue.Queue()
    buttons.start(q.put)
    yield buttons, clock, pin_factory, q
    buttons.close()


def test_gpio_press_through_mock_pins(box):
    buttons, clock, factory, q = box
    pin = factory.pin(5)
    assert pin.pull == "up"
    pin.drive_low()
    clock.advance(0.1)
    buttons.poll()
    pin.drive_high()
    clock.advance(0.05)
    buttons.poll()
    assert drain(q) == [Press("v1")]


def test_gpio_chatter_and_several_buttons_at_once(box):
    buttons, clock, factory, q = box
    v1, v2, ok = factory.pin(5), factory.pin(6), factory.pin(22)
    for _ in range(4):                  # v1 chatters while v2 goes down
        v1.drive_low()
        clock.advance(0.001)
        v1.drive_high()
        clock.advance(0.001)
    v1.drive_low()
    v2.drive_low()
    clock.advance(0.2)
    buttons.poll()
    ok.drive_low()
    clock.advance(0.5)
    buttons.poll()
    v1.drive_high()                     # v1 released after 0.7 s: a press
    clock.advance(0.2)                  # v2 now down for 0.9 s: a hold
    buttons.poll()
    ok.drive_high()
    v2.drive_high()
    clock.advance(0.05)
    buttons.poll()
    events = drain(q)
    assert sorted(events, key=repr) == sorted([Press("v1"), Hold("v2"), Press("ok")], key=repr)
    assert events.index(Hold("v2")) < events.index(Press("ok"))


def test_gpio_hold_reported_by_the_timer_thread(pin_factory):
    buttons = GpioButtons({"back": 23}, hold_seconds=0.05, debounce_ms=5)  # real clock
    q = queue.Queue()
    buttons.start(q.put)
    try:
        pin_factory.pin(23).drive_low()
        assert q.get(timeout=WAIT) == Hold("back")
        pin_factory.pin(23).drive_high()
        # Until the release has settled (the timer thread sends whatever it causes first).
        deadline = time.monotonic() + WAIT
        while buttons.machines["back"].pressed:
            assert time.monotonic() < deadline, "the release never settled"
            time.sleep(0.005)
        assert drain(q) == []           # no Press after a Hold
    finally:
        buttons.close()


def test_gpio_pin_in_use_is_one_clear_line(pin_factory):
    first = GpioButtons({"v1": 5})
    try:
        with pytest.raises(UserError) as info:
            GpioButtons({"v2": 6, "v3": 5})
        assert str(info.value).startswith("cannot use button v3 on GPIO5: ")
        assert "\n" not in str(info.value)
        # The pin opened before the failure was released again.
        GpioButtons({"v2": 6}).close()
    finally:
        first.close()


def test_gpio_close_releases_the_pins(pin_factory):
    first = GpioButtons({"v1": 5})
    q = queue.Queue()
    first.start(q.put)
    first.close()
    again = GpioButtons({"v1": 5})      # would raise UserError (pin in use) if still claimed
    again.close()
    pin = pin_factory.pin(5)
    assert pin.when_changed is None     # nobody listens to the pin any more
    pin.drive_low()
    pin.drive_high()
    first.poll()
    assert drain(q) == []               # and a closed source reports nothing


def test_no_gpio_library_is_one_line(monkeypatch, mocker):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    mocker.patch.object(Device, "pin_factory", None)
    with pytest.raises(UserError) as info:
        GpioButtons({"v1": 5})
    assert str(info.value).startswith("no GPIO library works here")
    assert "\n" not in str(info.value)
