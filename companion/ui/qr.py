"""The phone page's address as a QR code on the OLED: a phone's camera opens the page.

The code (segno, imported only when it is drawn) is at the left, two pixels a module with a
two-module quiet zone (version 2, 29 modules: 58 pixels of the 64); the address is written
beside it, for a phone without a camera app that reads codes.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from companion.ui.canvas import HEIGHT, MEDIUM, SMALL, WIDTH, draw_text, fill_box, new_canvas, wrap


@dataclass(frozen=True)
class QrView:
    """The settings page's picture of the phone page's address: ``address`` (host:port) as
    a QR code, ``footer`` beside it."""

    address: str
    footer: str
    kind = "qr"


#: Pixels per module, and modules of white around the code.
SCALE, BORDER = 2, 2


def qr_screen(address: str, footer: str) -> Image.Image:
    """The QR code of ``http://ADDRESS/`` with ``address`` and ``footer`` (what any button
    does) beside it."""
    import segno

    code = segno.make(f"http://{address}/", error="l", micro=False)
    image = new_canvas()
    size = int(code.symbol_size(scale=SCALE, border=BORDER)[0])
    top = (HEIGHT - size) // 2
    # The code is drawn dark on light: a lit square with the modules dark.
    fill_box(image, (0, top, size - 1, top + size - 1))
    for y, row in enumerate(code.matrix):
        for x, dark in enumerate(row):
            if dark:
                left, upper = (x + BORDER) * SCALE, top + (y + BORDER) * SCALE
                fill_box(image, (left, upper, left + SCALE - 1, upper + SCALE - 1), 0)
    x = size + 3
    host, _, port = address.rpartition(":")
    y = 2
    for line in [*wrap(host, WIDTH - x, MEDIUM), f":{port}"]:
        draw_text(image, x, y, line, MEDIUM)
        y += MEDIUM.height
    for line in wrap(footer, WIDTH - x, SMALL, max_lines=3):
        draw_text(image, x, y + 2, line, SMALL)
        y += SMALL.height
    return image
