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


@pytest.mark.parametrize("name, message", [
    ("a\0b", r"/a\x00b': a file name cannot hold a NUL byte"),
    ("a\ud800b", r"/a\ud800b': not a valid file name"),
])
def test_a_folder_name_no_file_can_have_is_one_line(tmp_path, name, message):
    with pytest.raises(UserError) as info:
        PngDisplay(f"{tmp_path}/{name}")
    assert str(info.value) == f"'{tmp_path}{message}"


def test_a_folder_name_with_a_newline_is_shown_escaped(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(UserError) as info:
        PngDisplay(blocker / "new\nframes")
    assert str(info.value).isprintable() and r"new\nframes" in str(info.value)
