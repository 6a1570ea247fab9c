"""Build the display the configuration asks for: ``open_display(config)``.

Kinds: ``ssd1306`` and ``sh1106`` (the OLED on I2C), ``terminal`` (the picture drawn in
the terminal), ``png:DIR`` (a PNG file a changed frame), ``text`` (a changed frame's words,
a line each) and ``none``. Every display has
``show(image) -> bytes sent`` and ``close()``.

``show_starting(config)`` puts the starting frame on an OLED as soon as the companion starts,
before the menu is ready (``open_display(config, starting=...)`` then keeps it). This module
imports neither Pillow nor luma at import time, so that frame costs only smbus2.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from companion.config import Config
from companion.errors import UserError
from companion.files import shown
from hardware.platform import is_raspberry_pi

if TYPE_CHECKING:
    from PIL import Image

#: The OLED kinds, and the commands that set each panel up: luma.oled's own initialisation,
#: display on last (tests compare them with luma's).
OLED_START = {
    "ssd1306": (0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x8D, 0x14, 0x20, 0x00, 0xA1,
                0xC8, 0xDA, 0x12, 0xD9, 0xF1, 0xDB, 0x40, 0xA4, 0xA6, 0x81, 0xCF),
    "sh1106": (0xAE, 0x20, 0x10, 0xB0, 0xC8, 0x00, 0x10, 0x40, 0xA1, 0xA6, 0xA8, 0x3F, 0xA4,
               0xD3, 0x00, 0xD5, 0xF0, 0xD9, 0x22, 0xDA, 0x12, 0xDB, 0x20, 0x8D, 0x14, 0x81, 0x7F),
}
DISPLAY_ON = 0xAF
#: I2C control bytes: what follows is commands, or display data (SSD1306 §8.1.5.2).
COMMANDS, DATA = 0x00, 0x40
#: The most bytes one smbus block write carries.
BLOCK = 32


def starting_pixel(x: int, y: int) -> bool:
    """The starting frame, pixel by pixel: a totem of three stacked blocks in the middle of
    the 128×64 panel, eyes on the top and bottom ones. Wordless (no language is loaded yet)
    and symmetric, so it reads the same on a panel mounted upside down."""
    dx, row = abs(x - 63.5), y - 8
    if not 0 <= row < 48 or dx > 14:
        return False
    block, inside = divmod(row, 16)
    edge_row, edge_col = inside in (0, 15), dx > 12.5
    if edge_row or edge_col:
        return not (edge_row and edge_col)      # the outline, its corners cut off
    if block == 1:
        return 7 <= inside <= 8 and dx <= 8.5    # the middle block's bar
    return 6 <= inside <= 9 and 3.5 <= dx <= 7.5  # two eyes


def starting_frame(width: int = 128, pages: int = 8) -> bytes:
    """The starting frame as panel memory: page-major, the top row in each byte's lowest bit
    (the layout of ``hardware.oled.pack_pages``)."""
    return bytes(sum(starting_pixel(x, page * 8 + bit) << bit for bit in range(8))
                 for page in range(pages) for x in range(width))


def show_starting(config: Config, *, bus: Any = None) -> bytes | None:
    """Draw the starting frame on the configured OLED; the panel memory sent, or None when
    the display is no OLED or does not answer (``open_display`` then says why, in full).

    ``bus`` is an smbus-like object used instead of ``/dev/i2c-<port>`` (tests).
    """
    kind = config.display
    if kind not in OLED_START:
        return None
    frame = starting_frame()
    own = bus is None
    try:
        if own:
            import smbus2
            bus = smbus2.SMBus(config.i2c_port)
        address = config.i2c_address
        bus.write_i2c_block_data(address, COMMANDS, list(OLED_START[kind]))
        for page in range(8):
            # The SSD1306 (horizontal addressing) takes a window; the SH1106 a page and
            # column, its visible columns starting at 2.
            bus.write_i2c_block_data(address, COMMANDS, [0x21, 0, 127, 0x22, page, page] if kind == "ssd1306"
                                     else [0xB0 + page, 0x02, 0x10])
            row = frame[page * 128:(page + 1) * 128]
            for start in range(0, len(row), BLOCK):
                bus.write_i2c_block_data(address, DATA, list(row[start:start + BLOCK]))
        bus.write_i2c_block_data(address, COMMANDS, [DISPLAY_ON])
    except OSError:
        return None
    finally:
        if own and bus is not None:
            bus.close()
    return frame


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


def open_display(config: Config, *, stream: TextIO | None = None, i2c_bus: Any = None,
                 starting: bytes | None = None) -> Display:
    """The display of ``config.display`` (``auto`` is resolved for this machine).

    ``stream`` is where the terminal display draws (default: standard output); ``i2c_bus``
    an smbus-like object used instead of ``/dev/i2c-<port>`` (tests). An OLED that cannot
    be reached is a ``UserError`` of one line saying how to fix it. ``starting`` is what
    ``show_starting`` left on the OLED: kept, and only the next frame's changes sent.
    """
    kind = config.display
    if kind == "auto":
        kind = config.resolved(is_raspberry_pi()).display
    if kind in ("ssd1306", "sh1106"):
        return _open_oled(kind, config, i2c_bus, starting)
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


def _open_oled(kind: str, config: Config, bus: Any, starting: bytes | None = None) -> Display:
    import luma.core.error

    from hardware.oled import open_oled

    port, address = config.i2c_port, config.i2c_address
    try:
        return open_oled(kind, port=port, address=address, rotation=config.rotation, bus=bus,
                         shown=starting)
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
