"""A display that writes each changed frame as a PNG file: ``png:DIR``.

For documentation pictures, bug reports and tests: a whole game runs without hardware
and leaves ``DIR/frame-0001.png``, ``frame-0002.png``, … one file a changed frame.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from companion.errors import UserError
from companion.files import plain_path, shown_path
from hardware.frame import check_frame


class PngDisplay:
    """Writes every frame that differs from the previous one to ``directory``."""

    def __init__(self, directory: str | Path):
        """Make ``directory`` if missing; ``UserError`` (one line) when it cannot be made or
        cannot be a folder's name (a NUL byte, a lone surrogate)."""
        self.directory = Path(plain_path(directory))
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"png:{shown_path(self.directory)}: cannot create the folder "
                            f"({exc.strerror})") from None
        self.frames = 0
        self._last: bytes | None = None

    def show(self, image: Image.Image) -> int:
        """Write ``image`` (mode "1", 128×64) if it changed; the number of bytes written."""
        check_frame(image)
        pixels = image.tobytes()
        if pixels == self._last:
            return 0
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        path = self.directory / f"frame-{self.frames + 1:04d}.png"
        try:
            path.write_bytes(buffer.getvalue())
        except OSError as exc:
            raise UserError(f"{shown_path(path)}: cannot write the frame ({exc.strerror})") from None
        self.frames += 1
        self._last = pixels
        return len(buffer.getvalue())

    def close(self) -> None:
        """Nothing to release: every frame is on disk when ``show`` returns."""
