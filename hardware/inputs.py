"""Build the input sources a configuration asks for (buttons, reader, keyboard, script)."""

from __future__ import annotations

from collections.abc import Callable

from hardware.buttons import GpioButtons
from hardware.keyboard_input import KeyboardInput
from hardware.serial_reader import open_reader


def open_inputs(config, *, script=None, echo: Callable[[str | None], None] | None = None,
                on_quit: Callable[[], None] | None = None) -> list:
    """The input sources for ``config`` (resolved: no ``auto`` left), not yet started.

    ``config.buttons`` is gpio, keyboard or none; ``config.reader`` is ``rdm6300:PORT``,
    ``pn532:PORT``, ``hub:PORT`` (the reader hub: every slot of the board), keyboard or
    none. The
    keyboard serves as buttons and scan pad at once, so it is opened at most once;
    ``echo`` and ``on_quit`` go to it. A ``script`` (a ``ScriptInput``) replaces every
    hardware input. Devices are opened now: one that cannot be is a ``UserError``, and
    those opened before it are closed again.
    """
    if script is not None:
        return [script]
    for field in ("buttons", "reader"):
        if getattr(config, field) == "auto":
            raise ValueError(f"config.{field} is 'auto': resolve the configuration first")
    sources: list = []
    try:
        if config.buttons == "gpio":
            sources.append(GpioButtons(config.pins, hold_seconds=config.hold_seconds,
                                       debounce_ms=config.debounce_ms))
        if "keyboard" in (config.buttons, config.reader):
            sources.append(KeyboardInput(echo=echo, on_quit=on_quit))
        if config.reader.startswith("hub:"):
            # The box's own firmware, offered to a hub that runs another (companion/hub_offer.py).
            from hardware.hub_firmware import FIRMWARE
            sources.append(open_reader(config.reader, firmware=FIRMWARE))
        elif config.reader not in ("keyboard", "none"):
            sources.append(open_reader(config.reader))
    except BaseException:
        for source in sources:
            source.close()
        raise
    return sources
