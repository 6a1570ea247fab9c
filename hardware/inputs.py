"""Build the input sources a configuration asks for (buttons, reader, keyboard, script)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from hardware.buttons import GpioButtons
from hardware.keyboard_input import KeyboardInput
from hardware.serial_reader import open_reader

if TYPE_CHECKING:
    from companion.config import Config
    from companion.table.app_loop import Source
    from hardware.script_input import ScriptInput


def open_inputs(config: Config, *, script: ScriptInput | None = None,
                echo: Callable[[str | None], None] | None = None,
                on_quit: Callable[[], None] | None = None, offer_firmware: bool = False) -> list[Source]:
    """The input sources for ``config`` (resolved: no ``auto`` left), not yet started.

    ``config.buttons`` is gpio, keyboard or none; ``config.reader`` is ``rdm6300:PORT``,
    ``pn532:PORT``, ``hub:PORT`` (the reader hub: every slot of the board), keyboard or
    none. The
    keyboard serves as buttons and scan pad at once, so it is opened at most once;
    ``echo`` and ``on_quit`` go to it. A ``script`` (a ``ScriptInput``) replaces every
    hardware input. Devices are opened now: one that cannot be is a ``UserError``, and
    those opened before it are closed again. With ``offer_firmware`` a reader hub also puts
    its hellos and updates (``companion/hub_offer.py``: the box's loop offers the firmware).
    """
    if script is not None:
        return [script]
    for field in ("buttons", "reader"):
        if getattr(config, field) == "auto":
            raise ValueError(f"config.{field} is 'auto': resolve the configuration first")
    sources: list[Source] = []
    try:
        if config.buttons == "gpio":
            sources.append(GpioButtons(config.pins, hold_seconds=config.hold_seconds,
                                       debounce_ms=config.debounce_ms))
        if "keyboard" in (config.buttons, config.reader):
            sources.append(KeyboardInput(echo=echo, on_quit=on_quit))
        if offer_firmware and config.reader.startswith("hub:"):
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
