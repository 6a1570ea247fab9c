"""Build the display the configuration asks for: ``open_display(config)``.

Kinds: ``ssd1306`` and ``sh1106`` (the OLED on I2C), ``terminal`` (the picture drawn in
the terminal), ``png:DIR`` (a PNG file a changed frame), ``text`` (a changed frame's words,
a line each) and ``none``. Every display has
``show(image) -> bytes sent`` and ``close()``.
"""

from __future__ import annotations

import sys
from typing import Any, Protocol, TextIO

from PIL import Image

from companion.config import Config
from companion.errors import UserError
from companion.files import shown
from hardware.platform import is_raspberry_pi


class Display(Protocol):
    """What the application needs of a display, whatever its kind."""

    def show(self, image: Image.Image) -> int:
        """Show ``image`` (mode "1", 128×64); the bytes (or characters) sent, 0 if unchanged."""
        ...

    def close(self) -> None:
        """Release the device."""
        ...


class NullDisplay:
    """Accepts every frame and shows nothing (``--display none``)."""

    def show(self, image: Image.Image) -> int:
        """Send nothing: 0 bytes."""
        return 0

    def close(self) -> None:
        """Nothing to release."""


def open_display(config: Config, *, stream: TextIO | None = None, i2c_bus: Any = None) -> Display:
    """The display of ``config.display`` (``auto`` is resolved for this machine).

    ``stream`` is where the terminal display draws (default: standard output); ``i2c_bus``
    an smbus-like object used instead of ``/dev/i2c-<port>`` (tests). An OLED that cannot
    be reached is a ``UserError`` of one line saying how to fix it.
    """
    kind = config.display
    if kind == "auto":
        kind = config.resolved(is_raspberry_pi()).display
    if kind in ("ssd1306", "sh1106"):
        return _open_oled(kind, config, i2c_bus)
    if kind == "terminal":
        from hardware.terminal_display import BRAILLE_FIT, TerminalDisplay, fits, terminal_size, too_small
        out = stream if stream is not None else sys.stdout
        size = terminal_size(out)
        # Too small at the start is a mistake to fix first; later, a window made too small
        # shows a line asking for a larger one until it grows again.
        if size is not None and not fits(size, BRAILLE_FIT):
            raise UserError(too_small(size))
        return TerminalDisplay(out)
    if kind.startswith("png:"):
        from hardware.png_display import PngDisplay
        return PngDisplay(kind[4:])
    if kind == "text":
        from hardware.text_display import TextDisplay
        return TextDisplay(stream if stream is not None else sys.stdout)
    if kind == "none":
        return NullDisplay()
    raise UserError(f"--display: {shown(kind)} is not a display (ssd1306 | sh1106 | terminal | png:DIR | text | none)")


def _open_oled(kind: str, config: Config, bus: Any) -> Display:
    import luma.core.error

    from hardware.oled import open_oled

    port, address = config.i2c_port, config.i2c_address
    try:
        return open_oled(kind, port=port, address=address, rotation=config.rotation, bus=bus)
    except luma.core.error.DevicePermissionError:
        raise UserError(f"no permission to use /dev/i2c-{port}: add yourself to the i2c group "
                        f"(sudo usermod -aG i2c $USER) and log in again") from None
    except luma.core.error.DeviceNotFoundError as exc:
        if "address" not in str(exc):
            raise UserError(f"no I2C bus /dev/i2c-{port}: enable I2C (sudo raspi-config nonint do_i2c 0) "
                            f"and reboot, or set [display] i2c_port") from None
        raise UserError(f"the {kind} OLED does not answer at 0x{address:02X} on I2C bus {port}: check "
                        f"its wiring (SDA pin 3, SCL pin 5, VCC pin 1, GND pin 9) and the address "
                        f"(i2cdetect -y {port})") from None
    except (OSError, luma.core.error.Error) as exc:
        raise UserError(f"the {kind} OLED on I2C bus {port} at 0x{address:02X} failed: {exc}; "
                        f"run totem-companion doctor") from None
