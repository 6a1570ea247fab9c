"""Push buttons: our own debounce and press/hold detection, fed by gpiozero edges.

Buttons are wired from a BCM pin to ground with the pull-up on, so a pressed button reads
low. gpiozero only reports the raw edges, through a plain ``DigitalInputDevice`` per pin
(its mock pins ignore ``bounce_time``, so the debounce has to be ours to be tested, and
gpiozero's ``Button`` would add a hold thread of its own that we do not use);
:class:`ButtonMachine` turns the edges into events:

* a level counts only once it has stayed put for ``debounce_ms`` (chatter is ignored);
* ``Hold`` once the button has been down for ``hold_seconds`` (no ``Press`` after it);
* ``Press`` when it comes up before that.

A button already down when the box starts counts only after it has been released.
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from companion.errors import UserError
from companion.events import Event, Hold, Press
from hardware.platform import gpio_problem


class ButtonMachine:
    """Debounce and press/hold state of one button; pure, driven by an injectable clock."""

    def __init__(self, name: str, *, hold_seconds: float = 0.8, debounce_ms: float = 30.0,
                 clock: Callable[[], float] = time.monotonic, pressed: bool = False) -> None:
        self.name = name
        self.hold_seconds = hold_seconds
        self.debounce = debounce_ms / 1000.0
        self.clock = clock
        self._raw = pressed          # the level the pin reports now
        self._raw_since = clock()    # when the pin took that level
        self._stable = pressed       # the debounced level
        self._stable_since = self._raw_since
        self._held = pressed         # Hold already sent (or down at start): no Press on release

    @property
    def pressed(self) -> bool:
        """The debounced level: True while the button counts as down."""
        return self._stable

    def edge(self, pressed: bool) -> list[Event]:
        """The pin changed to ``pressed`` now; returns the events that became due."""
        now = self.clock()
        events = self._advance(now)
        if pressed != self._raw:
            self._raw, self._raw_since = pressed, now
        return events

    def poll(self) -> list[Event]:
        """Let time pass: returns the events due by now (a settled level, a hold)."""
        return self._advance(self.clock())

    def deadline(self) -> float | None:
        """The clock time at which :meth:`poll` has something to do, or None."""
        if self._raw != self._stable:
            return self._raw_since + self.debounce
        if self._stable and not self._held:
            return self._stable_since + self.hold_seconds
        return None

    def _advance(self, now: float) -> list[Event]:
        events: list[Event] = []
        if self._raw != self._stable and now >= self._raw_since + self.debounce:
            # The raw level has been steady long enough: it is the button's level now.
            self._stable, self._stable_since = self._raw, self._raw_since
            if self._stable:
                self._held = False
            elif not self._held:
                events.append(Press(self.name))
        if (self._stable and self._raw and not self._held
                and now >= self._stable_since + self.hold_seconds):
            self._held = True
            events.append(Hold(self.name))
        return events


class GpioButtons:
    """An input source: the configured buttons on gpiozero, one timer thread for holds.

    ``pins`` maps button names to BCM pin numbers. gpiozero callbacks only feed edges to
    the machines and enqueue what falls due; the timer thread wakes at the next debounce
    or hold deadline. ``pin_factory`` is passed to gpiozero (tests use ``MockFactory``).
    """

    def __init__(self, pins: Mapping[str, int], *, hold_seconds: float = 0.8,
                 debounce_ms: float = 30.0, clock: Callable[[], float] = time.monotonic,
                 pin_factory: Any = None) -> None:
        # Not gpiozero's Button: holds are timed by ButtonMachine, and closing a Button
        # joins its own hold thread, which costs about 0.1 s a pin for nothing.
        from gpiozero import DigitalInputDevice
        from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

        self._clock = clock
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._put: Callable[[Event], None] | None = None
        self._closed = False
        self._thread: threading.Thread | None = None
        self._devices: list[Any] = []
        self.machines: dict[str, ButtonMachine] = {}
        fallbacks: list[warnings.WarningMessage] = []
        try:
            for name, pin in pins.items():
                with warnings.catch_warnings(record=True) as caught:
                    # gpiozero warns once per library it tries: kept, to say lgpio's reason
                    # if none of them works.
                    warnings.simplefilter("always", PinFactoryFallback)
                    # pull_up: the button shorts the pin to ground, so "active" means pressed.
                    device = DigitalInputDevice(pin, pull_up=True, bounce_time=None,
                                                pin_factory=pin_factory)
                fallbacks += [w for w in caught if issubclass(w.category, PinFactoryFallback)]
                self._devices.append(device)
                self.machines[name] = ButtonMachine(
                    name, hold_seconds=hold_seconds, debounce_ms=debounce_ms, clock=clock,
                    pressed=device.is_active)
                device.when_activated = self._callback(name, True)
                device.when_deactivated = self._callback(name, False)
        except BadPinFactory:
            self._close_devices()
            what, fix = gpio_problem(_lgpio_reason(fallbacks + list(caught)))
            raise UserError(f"no GPIO library works here: {what}; {fix}") from None
        except (GPIOZeroError, OSError, RuntimeError, ImportError) as exc:
            self._close_devices()
            where = f"button {name} on GPIO{pin}"
            raise UserError(f"cannot use {where}: {_reason(exc)}") from None

    def _callback(self, name: str, pressed: bool) -> Callable[[], None]:
        def on_edge() -> None:
            with self._lock:
                self._emit(self.machines[name].edge(pressed))
                self._changed.notify()
        return on_edge

    def start(self, put: Callable[[Event], None]) -> None:
        """Begin reporting presses and holds to ``put`` (thread-safe, only enqueues)."""
        with self._lock:
            self._put = put
        thread = threading.Thread(target=self._run, name="buttons", daemon=True)
        thread.start()
        self._thread = thread  # only a started thread: Ctrl-C in between leaves none to join

    def poll(self) -> None:
        """Report whatever fell due by now (the timer thread calls this too)."""
        with self._lock:
            for machine in self.machines.values():
                self._emit(machine.poll())

    def close(self) -> None:
        """Stop the timer thread and release the pins."""
        with self._lock:
            self._closed = True
            self._changed.notify()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._close_devices()

    def _emit(self, events: list[Event]) -> None:
        # Called with the lock held, so events leave in the order they happened.
        if self._put is not None:
            for event in events:
                self._put(event)

    def _run(self) -> None:
        with self._lock:
            while not self._closed:
                for machine in self.machines.values():
                    self._emit(machine.poll())
                deadlines = [d for m in self.machines.values() if (d := m.deadline()) is not None]
                # No deadline: sleep until an edge or close() wakes us.
                timeout = max(0.0, min(deadlines) - self._clock()) if deadlines else None
                self._changed.wait(timeout)

    def _close_devices(self) -> None:
        for device in self._devices:
            device.close()
        self._devices = []


def _lgpio_reason(caught: list[warnings.WarningMessage]) -> str:
    """What lgpio said when gpiozero fell back from it ("'can not open gpiochip'"), if it did."""
    for warning in caught:
        text = str(warning.message)
        if "lgpio" in text.lower():
            return text.split(":", 1)[1].strip() if ":" in text else text
    return ""


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text.splitlines()[0]
