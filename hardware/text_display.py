"""A display that prints the words of each changed frame: ``--display text``.

One line a frame, top to bottom — ``frame 3: Ana draw | Draw a piece, scan it`` — what a
player reads on the OLED, for tests, logs and bug reports (shared/DESIGN.md).
"""

from __future__ import annotations

from typing import TextIO

from PIL import Image

from companion.files import printable
from companion.ui.canvas import frame_words
from hardware.frame import check_frame


class TextDisplay:
    """Prints ``frame N: line | line | …`` for every frame that differs from the last."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.frames = 0
        self._last: tuple[bytes, tuple[str, ...]] | None = None

    def show(self, image: Image.Image) -> int:
        """Print the words of ``image`` (mode "1", 128×64) if it changed; characters written."""
        check_frame(image)
        words = tuple(frame_words(image))
        key = (image.tobytes(), words)
        if key == self._last:
            return 0
        self._last = key
        self.frames += 1
        # A name from a record made elsewhere may hold terminal escape codes: escaped.
        line = f"frame {self.frames}: {' | '.join(printable(word) for word in words)}\n"
        try:
            self.stream.write(line)
            self.stream.flush()
        except BrokenPipeError:
            return 0  # the reader went away (`| head`): the box goes on
        return len(line)

    def close(self) -> None:
        """Nothing to release (the stream belongs to the caller)."""
