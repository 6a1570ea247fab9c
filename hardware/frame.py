"""The frame every display takes: a PIL image of mode "1", 128×64 (the OLED's size).

>>> from PIL import Image
>>> check_frame(Image.new("L", (128, 64)))
Traceback (most recent call last):
...
ValueError: a display shows mode '1' 128x64 images, not L (128, 64)
"""

from __future__ import annotations

from PIL import Image

WIDTH, HEIGHT = 128, 64


def check_frame(image: Image.Image) -> None:
    """Raise ``ValueError`` unless ``image`` is a mode "1" picture of 128×64 pixels."""
    if image.mode != "1" or image.size != (WIDTH, HEIGHT):
        raise ValueError(f"a display shows mode '1' {WIDTH}x{HEIGHT} images, not {image.mode} {image.size}")
