"""The PNG display: one file a changed frame."""

import pytest
from PIL import Image, ImageDraw

from companion.errors import UserError
from hardware.png_display import PngDisplay


def picture(text):
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((2, 2), text, fill=1)
    return image


def test_changed_frames_are_numbered_files(tmp_path):
    display = PngDisplay(tmp_path / "frames")
    first, second = picture("one"), picture("two")
    assert display.show(first) > 0
    assert display.show(first.copy()) == 0
    written = display.show(second)
    display.close()
    files = sorted(p.name for p in (tmp_path / "frames").iterdir())
    assert files == ["frame-0001.png", "frame-0002.png"]
    assert written == (tmp_path / "frames" / "frame-0002.png").stat().st_size
    for name, image in zip(files, (first, second)):
        with Image.open(tmp_path / "frames" / name) as saved:
            assert saved.size == (128, 64)
            assert saved.convert("1").tobytes() == image.tobytes()


def test_folder_that_cannot_be_made_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(UserError, match="cannot create the folder"):
        PngDisplay(blocker / "frames")


def test_wrong_image_is_refused(tmp_path):
    with pytest.raises(ValueError):
        PngDisplay(tmp_path).show(Image.new("RGB", (128, 64)))
