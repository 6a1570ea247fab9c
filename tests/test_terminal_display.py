"""The terminal display: braille picture in a box, redrawn in place, footer line."""

import io
import re
import threading

import pytest
from PIL import Image, ImageDraw

from hardware.terminal_display import COLUMNS, ROWS, TerminalDisplay, block_lines, braille_lines

BOX_WIDTH = COLUMNS + 2
LINES = ROWS + 3  # top border, picture, bottom border, footer


class Screen:
    """Enough of a terminal to replay what the display wrote: lines, CR/LF, F/E/K moves."""

    def __init__(self):
        self.lines = [""]
        self.row = 0

    def feed(self, text):
        for token in re.findall(r"\x1b\[\?25[lh]|\x1b\[(\d*)([FEK])|(\r\n)|(.)", text, re.S):
            count, code, newline, char = token
            if newline:
                self.row += 1
                if self.row == len(self.lines):
                    self.lines.append("")
            elif code == "F":
                self.row -= int(count or 1)
                assert self.row >= 0
            elif code == "E":
                self.row += int(count or 1)
            elif code == "K":
                pass  # our lines are always complete
            elif char:
                self.lines[self.row] += char
            # cursor show/hide: nothing to draw
        return self

    def overwrite(self, text):
        """Apply text where each rewrite replaces the whole line (what \x1b[K guarantees)."""
        for match in re.finditer(r"\x1b\[(\d+)F(.*?)\x1b\[K\x1b\[(\d+)E", text, re.S):
            up, line, down = int(match[1]), match[2], int(match[3])
            assert up == down
            self.lines[self.row - up] = line


def decode(lines):
    """Braille lines back to a set of lit pixels."""
    dots = {0x01: (0, 0), 0x02: (0, 1), 0x04: (0, 2), 0x40: (0, 3),
            0x08: (1, 0), 0x10: (1, 1), 0x20: (1, 2), 0x80: (1, 3)}
    lit = set()
    for row, line in enumerate(lines):
        for column, char in enumerate(line):
            bits = ord(char) - 0x2800
            assert 0 <= bits <= 0xFF
            for bit, (dx, dy) in dots.items():
                if bits & bit:
                    lit.add((column * 2 + dx, row * 4 + dy))
    return lit


def picture(text="Ana's turn", box=None):
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    draw.text((3, 5), text, fill=1)
    if box:
        draw.rectangle(box, outline=1)
    return image


def pixels(image):
    data = image.load()
    return {(x, y) for x in range(128) for y in range(64) if data[x, y]}


def test_braille_round_trip():
    image = picture(box=(0, 30, 127, 63))
    image.putpixel((127, 63), 1)
    image.putpixel((0, 0), 1)
    lines = braille_lines(image)
    assert len(lines) == 16 and all(len(line) == 64 for line in lines)
    assert decode(lines) == pixels(image)


def test_first_frame_draws_box_and_footer_fitting_80x24():
    out = io.StringIO()
    display = TerminalDisplay(out)
    display.set_footer("keys: 1-6 villages")
    assert display.show(picture()) == len(out.getvalue())
    screen = Screen().feed(out.getvalue())
    drawn = screen.lines[:LINES]
    assert len(drawn) == LINES <= 24
    assert all(len(line) <= 80 for line in drawn)
    assert drawn[0].startswith("┌") and drawn[0].endswith("┐") and len(drawn[0]) == BOX_WIDTH
    assert drawn[-2] == "└" + "─" * 64 + "┘"
    assert drawn[-1] == " keys: 1-6 villages"
    assert decode(line[1:-1] for line in drawn[1:17]) == pixels(picture())


def test_unchanged_frame_writes_nothing():
    out = io.StringIO()
    display = TerminalDisplay(out)
    display.show(picture())
    before = out.getvalue()
    assert display.show(picture()) == 0
    assert out.getvalue() == before


def test_changed_frame_rewrites_only_changed_lines_in_place():
    out = io.StringIO()
    display = TerminalDisplay(out)
    display.show(picture("Ana's turn"))
    screen = Screen().feed(out.getvalue())
    out.seek(0)
    out.truncate()
    changed = picture("Ben's turn")
    written = display.show(changed)
    text = out.getvalue()
    assert written == len(text) > 0
    rewrites = re.findall(r"\x1b\[(\d+)F", text)
    assert 1 <= len(rewrites) <= 3  # the text line spans two or three braille lines
    screen.overwrite(text)
    assert decode(line[1:-1] for line in screen.lines[1:17]) == pixels(changed)


def test_footer_updates_in_place_and_is_cut_to_the_terminal_width():
    out = io.StringIO()
    display = TerminalDisplay(out)
    display.show(picture())
    screen = Screen().feed(out.getvalue())
    out.seek(0)
    out.truncate()
    display.set_footer("scan: eag" + "x" * 100)
    screen.overwrite(out.getvalue())
    assert screen.lines[LINES - 1].startswith(" scan: eagxxx")
    assert len(screen.lines[LINES - 1]) == 79  # fits an 80-column terminal
    out.seek(0)
    out.truncate()
    display.set_footer("scan: eag" + "x" * 100)  # same text: nothing written
    assert out.getvalue() == ""


def test_footer_before_first_frame_waits_for_it():
    out = io.StringIO()
    display = TerminalDisplay(out)
    display.set_footer("hello")
    assert out.getvalue() == ""


def test_close_restores_the_cursor():
    out = io.StringIO()
    display = TerminalDisplay(out)
    display.show(picture())
    display.close()
    assert out.getvalue().endswith("\x1b[?25h")
    display.close()
    assert out.getvalue().count("\x1b[?25h") == 1


def test_wrong_image_is_refused():
    with pytest.raises(ValueError):
        TerminalDisplay(io.StringIO()).show(Image.new("1", (64, 64)))


def test_footer_and_frames_from_two_threads_do_not_interleave():
    out = io.StringIO()
    display = TerminalDisplay(out)
    display.show(picture())
    start = len(out.getvalue())
    frames = [picture(f"turn {i}") for i in range(20)]
    worker = threading.Thread(target=lambda: [display.set_footer(f"typing {i}") for i in range(200)])
    worker.start()
    for image in frames:
        display.show(image)
    worker.join()
    # every rewrite is whole: up, one line, clear, down — nothing in between
    assert re.fullmatch(r"(\x1b\[\d+F[^\x1b]*\x1b\[K\x1b\[\d+E)+", out.getvalue()[start:])


def test_half_blocks_draw_two_pixel_rows_a_line():
    image = Image.new("1", (128, 64))
    image.putpixel((0, 0), 1)     # top half of line 0, column 0
    image.putpixel((1, 1), 1)     # bottom half of line 0, column 1
    image.putpixel((2, 0), 1)
    image.putpixel((2, 1), 1)     # both halves
    lines = block_lines(image)
    assert len(lines) == 32 and all(len(line) == 128 for line in lines)
    assert lines[0][:4] == "▀▄█ "


def test_a_large_terminal_gets_the_half_block_picture():
    stream = io.StringIO()
    display = TerminalDisplay(stream, blocks=True)
    image = Image.new("1", (128, 64))
    display.show(image)
    first = stream.getvalue().split("\r\n")
    assert len(first[1]) == 130  # the border and 128 columns
    assert len(first) == 32 + 3 + 1  # top, 32 lines, bottom, footer, and the end


# --- a terminal that changes size ----------------------------------------------------------

class Window:
    """A terminal whose size the test sets, and the screen the display draws on it."""

    def __init__(self, columns=80, lines=24):
        from vt import VirtualTerminal
        self.size = (columns, lines)
        self.out = io.StringIO()
        self.display = TerminalDisplay(self.out, size=lambda: self.size)
        self.vt = VirtualTerminal(200, 60)

    def written(self):
        text = self.out.getvalue()
        self.out.seek(0)
        self.out.truncate()
        self.vt.feed(text)
        return text


def test_a_frame_after_a_resize_redraws_everything_from_the_top_at_the_new_size():
    window = Window(80, 24)
    window.display.set_footer("keys")
    window.display.show(picture("Ana's turn"))
    assert "\x1b[2J" not in window.written()            # the first picture: where the cursor is
    window.size = (140, 40)
    window.display.show(picture("Ben's turn"))
    text = window.written()
    assert text.startswith("\x1b[?25l\x1b[H\x1b[2J")    # cleared, from the top
    screen = window.vt.text()
    assert len(screen[0]) == 130 and screen[0].startswith("┌") and screen[33].startswith("└")
    assert screen[1:33] == [f"│{line}│" for line in block_lines(picture("Ben's turn"))]
    assert screen[34] == " keys"
    window.display.show(picture("Cleo's turn"))         # the same size again: only what changed
    assert "\x1b[2J" not in window.written()
    assert window.vt.text()[1:33] == [f"│{line}│" for line in block_lines(picture("Cleo's turn"))]


def test_a_window_too_small_gets_one_line_until_it_grows():
    window = Window(80, 24)
    window.display.show(picture("Ana's turn"))
    window.written()
    window.size = (60, 20)
    window.display.show(picture("Ben's turn"))
    window.written()
    assert window.vt.text()[:2] == ["Window too small (60×20): make it at least 66×20", ""]
    assert window.display.show(picture("Cleo's turn")) == 0     # kept for later, not drawn
    window.display.set_footer("scan: eag_")
    assert window.written() == ""
    window.size = (80, 24)
    window.display.refresh()                                    # what SIGWINCH does
    window.written()
    screen = window.vt.text()
    assert len(screen[0]) == BOX_WIDTH and screen[17].startswith("└")
    assert decode(line[1:-1] for line in screen[1:17]) == pixels(picture("Cleo's turn"))
    assert screen[18] == " scan: eag_"


def test_the_small_window_line_is_cut_to_its_width():
    window = Window(80, 24)
    window.display.show(picture())
    window.size = (30, 10)
    window.display.refresh()
    window.written()
    assert window.vt.text()[0] == "Window too small (30×10): mak"


def test_refresh_without_a_resize_writes_nothing():
    window = Window(80, 24)
    window.display.refresh()                            # nothing shown yet
    window.display.show(picture())
    window.written()
    window.display.refresh()
    assert window.written() == ""


def test_a_display_on_a_stream_that_is_no_terminal_keeps_its_size():
    out = io.StringIO()
    display = TerminalDisplay(out)
    display.show(picture("Ana's turn"))
    display.show(picture("Ben's turn"))
    assert "\x1b[2J" not in out.getvalue()
