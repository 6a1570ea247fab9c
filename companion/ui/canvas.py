"""Shared drawing for the 128×64 one-colour screens: canvas, bundled fonts, text, bands.

Images are PIL mode ``"1"``; 1 is a lit pixel. The fonts are the public-domain X11
misc-fixed faces bundled under ``fonts/`` (see fonts/README.md), so every box draws the
same pixels. They are character-cell fonts: every glyph of a font has the same advance.

>>> SMALL.width, SMALL.height
(5, 7)
>>> fit("Village tile", 30, SMALL)
'Villa…'
>>> wrap("Scan village tile 3", 60, SMALL)
['Scan village', 'tile 3']
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from PIL import Image, ImageDraw

WIDTH, HEIGHT = 128, 64
ELLIPSIS = "…"


@dataclass(frozen=True, eq=False)
class Font:
    """A character-cell bitmap font: every glyph is ``width``×``height``."""

    name: str
    width: int
    height: int
    ascent: int
    glyphs: Mapping[str, Image.Image]

    def glyph(self, ch: str) -> Image.Image:
        """The cell of ``ch``; ``?`` for a character the font lacks."""
        return self.glyphs.get(ch) or self.glyphs["?"]


def _pbm(data: bytes) -> Image.Image:
    """The image of a binary PBM (P4) file, as the fonts are kept: read here, not by
    ``Image.open``, whose first call imports every image format Pillow has (a start cost)."""
    # The header: three fields, then one whitespace byte; the bits begin right after it
    # (and may begin with a byte that looks like whitespace).
    header = re.match(rb"P4\s+(\d+)\s+(\d+)\s", data)
    if header is None:
        raise ValueError("not a binary PBM image")
    size = int(header[1]), int(header[2])
    # In PBM a set bit is black: Pillow's raw mode "1;I" reads it so.
    return Image.frombytes("1", size, data[header.end():], "raw", "1;I")


@cache
def load_font(name: str) -> Font:
    """Load a bundled font (``small``, ``medium`` or ``large``) from its atlas and index."""
    folder = resources.files("companion.ui.fonts")
    index = (folder / f"{name}.txt").read_text(encoding="ascii").splitlines()
    cell = next(line for line in index if line.startswith("cell ")).split()
    width, height, ascent = int(cell[1]), int(cell[2]), int(cell[4])
    codes = [int(code, 16) for code in index[-1].split()]
    atlas = _pbm((folder / f"{name}.pbm").read_bytes())
    return Font(name, width, height, ascent, _Glyphs(atlas, width, height, codes))


class _Glyphs(Mapping[str, Image.Image]):
    """A font's glyphs by character, each cut from the atlas the first time it is asked
    for: cutting every glyph of the three fonts was a start cost (hundreds of crops)."""

    def __init__(self, atlas: Image.Image, width: int, height: int, codes: Sequence[int]) -> None:
        self._atlas, self._width, self._height = atlas, width, height
        self._cells = {chr(code): n for n, code in enumerate(codes)}
        self._columns = atlas.width // width
        self._cut: dict[str, Image.Image] = {}

    def __getitem__(self, ch: str) -> Image.Image:
        glyph = self._cut.get(ch)
        if glyph is None:
            n = self._cells[ch]  # KeyError: a character the font lacks
            x, y = (n % self._columns) * self._width, (n // self._columns) * self._height
            glyph = self._cut[ch] = self._atlas.crop((x, y, x + self._width, y + self._height))
        return glyph

    def __iter__(self) -> Iterator[str]:
        return iter(self._cells)

    def __len__(self) -> int:
        return len(self._cells)


#: The 5×7 font: labels, counts, small print.
SMALL = load_font("small")
#: The 6×10 font: body text, names, menus.
MEDIUM = load_font("medium")
#: The bold 7×13 font: headlines read from across the table.
LARGE = load_font("large")


def new_canvas() -> Image.Image:
    """A blank (dark) 128×64 frame."""
    return Image.new("1", (WIDTH, HEIGHT), 0)


def text_width(text: str, font: Font) -> int:
    """Width in pixels of ``text`` in ``font``."""
    return len(text) * font.width


def fit(text: str, width: int, font: Font) -> str:
    """``text`` cut to ``width`` pixels, ending in an ellipsis when it had to be cut."""
    room = width // font.width
    if len(text) <= room:
        return text
    return text[: max(room - 1, 0)].rstrip() + ELLIPSIS if room > 0 else ""


def wrap(text: str, width: int, font: Font, max_lines: int | None = None) -> list[str]:
    """Break ``text`` into lines of at most ``width`` pixels, at spaces where possible.

    A word longer than a line is cut; with ``max_lines``, the last line kept ends in an
    ellipsis when text was left over.
    """
    room = max(width // font.width, 1)
    lines: list[str] = []
    line = ""
    for word in text.split():
        if max_lines is not None and len(lines) > max_lines:
            break  # the lines kept are known: a text of megabytes costs no more
        if len(word) > room:
            # Cut by index, not by slicing what is left again and again: linear in the word.
            if line:
                lines.append(line)
                line = ""
            full = (len(word) - 1) // room
            if max_lines is not None:
                full = min(full, max_lines + 1)
            lines.extend(word[at:at + room] for at in range(0, full * room, room))
            word = word[full * room:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= room:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit(lines[-1] + ELLIPSIS, width, font)  # one "…": cut further when full
    return lines


_GLUE = "\x00"


def note_lines(message: str, max_lines: int = 2, rule: str | None = None) -> list[str]:
    """``message`` wrapped for the bottom band, followed by `` — RULE`` when a ``rule`` is
    given; a note too long is cut in its reason, never in its rule: the rule is what players
    look up.

    >>> note_lines("Village 5 is not open yet", rule="W4")
    ['Village 5 is not open', 'yet — W4']
    >>> note_lines("Wings are Alexandra's; it is Benjamin's turn", rule="W4")
    ["Wings are Alexandra's;", "it is Benjamin's… — W4"]
    """
    # The dash and the rule are glued (a placeholder as wide as a space: the fonts are
    # monospaced), so that a line never ends in a dash with the rule alone below it.
    dash = f" —{_GLUE}{rule}" if rule else ""

    def wrapped(text: str) -> list[str]:
        return [line.replace(_GLUE, " ") for line in wrap(text, WIDTH - 4, SMALL)]

    lines = wrapped(message + dash)
    if len(lines) <= max_lines:
        return lines
    if not rule:
        return wrap(message, WIDTH - 4, SMALL, max_lines=max_lines)
    words = message.split()
    while words:
        words.pop()
        lines = wrapped(" ".join(words) + f"{ELLIPSIS}{dash}")
        if len(lines) <= max_lines:
            return lines
    return wrapped(f"{ELLIPSIS}{dash}")[:max_lines]


@lru_cache(maxsize=1024)
def _text_mask(text: str, font: Font) -> Image.Image:
    # Static strings (tile labels, menu items) are drawn every frame: compose them once.
    mask = Image.new("1", (max(text_width(text, font), 1), font.height), 0)
    for i, ch in enumerate(text):
        mask.paste(font.glyph(ch), (i * font.width, 0))
    return mask


#: The key of ``Image.info`` where a screen keeps the words drawn on it, ``(y, x, text)``.
WORDS = "words"


def draw_text(image: Image.Image, x: int, y: int, text: str, font: Font, fill: int = 1) -> int:
    """Draw ``text`` with its cell top-left at (x, y); return the x just after it. The words
    are kept with the picture (``frame_words``), for ``--display text`` and tests."""
    if text:
        image.paste(fill, (x, y), _text_mask(text, font))
        image.info.setdefault(WORDS, []).append((y, x, text))
    return x + text_width(text, font)


def frame_words(image: Image.Image) -> list[str]:
    """The words drawn on a screen, as the lines a player reads: top to bottom, texts that
    share a line left to right (icons and drawings are not words).

    >>> image = new_canvas()
    >>> _ = draw_text(image, 60, 20, "Ben", MEDIUM); _ = draw_text(image, 2, 21, "Ana", MEDIUM)
    >>> _ = draw_text(image, 2, 40, "draw", SMALL)
    >>> frame_words(image)
    ['Ana Ben', 'draw']
    """
    lines: list[list[tuple[int, str]]] = []
    last_y: int | None = None
    for y, x, text in sorted(image.info.get(WORDS, ())):
        if last_y is None or y - last_y > 3:  # a new line of text, not the same one a pixel off
            lines.append([])
            last_y = y
        lines[-1].append((x, text))
    return [" ".join(text for _, text in sorted(line)) for line in lines]


def draw_centered(image: Image.Image, y: int, text: str, font: Font, fill: int = 1,
                  left: int = 0, right: int = WIDTH) -> None:
    """Draw ``text`` centred between ``left`` and ``right`` (cut to fit)."""
    text = fit(text, right - left, font)
    draw_text(image, left + (right - left - text_width(text, font)) // 2, y, text, font, fill)


def fill_box(image: Image.Image, box: tuple[int, int, int, int], fill: int = 1) -> None:
    """Fill the inclusive box (x0, y0, x1, y1)."""
    ImageDraw.Draw(image).rectangle(box, fill=fill)


def outline_box(image: Image.Image, box: tuple[int, int, int, int], fill: int = 1) -> None:
    """Draw a one-pixel frame on the inclusive box (x0, y0, x1, y1)."""
    ImageDraw.Draw(image).rectangle(box, outline=fill)


@lru_cache(maxsize=1)
def _checker() -> Image.Image:
    checker = Image.new("1", (WIDTH, HEIGHT), 0)
    checker.putdata([(x + y) % 2 for y in range(HEIGHT) for x in range(WIDTH)])
    return checker


def hatch_box(image: Image.Image, box: tuple[int, int, int, int]) -> None:
    """Fill the inclusive box with a checker pattern (the back of a face-down tile)."""
    x0, y0, x1, y1 = box
    region = (x0, y0, x1 + 1, y1 + 1)
    image.paste(_checker().crop(region), region[:2])


def dotted_box(image: Image.Image, box: tuple[int, int, int, int]) -> None:
    """A frame of every other pixel on the inclusive box (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    points = [(x, y) for x in range(x0, x1 + 1, 2) for y in (y0, y1)]
    points += [(x, y) for y in range(y0, y1 + 1, 2) for x in (x0, x1)]
    ImageDraw.Draw(image).point(points, fill=1)


def text_band(image: Image.Image, lines: list[str], font: Font, inverted: bool = False,
              bottom: int = HEIGHT) -> int:
    """Lines of text, centred, in a band along the bottom edge (or ending above row
    ``bottom``): lit behind dark text when ``inverted``, else under a dividing line. Return
    the band's top row."""
    pitch = font.height + 1
    top = bottom - 1 - len(lines) * pitch
    fill_box(image, (0, top, WIDTH - 1, bottom - 1), 1 if inverted else 0)
    if not inverted:
        fill_box(image, (0, top, WIDTH - 1, top))
    for i, line in enumerate(lines):
        draw_centered(image, top + 1 + i * pitch, line, font, 0 if inverted else 1,
                      left=1, right=WIDTH - 1)
    return top


def short_name(name: str, other: str, chars: int, *, ellipsis: bool = True) -> str:
    """``name`` in at most ``chars`` characters, still told apart from ``other``.

    Names that differ only at the end ("Player 1", "Player 2") keep their initials and last
    word, so the header never shows the same name for both players; so does a numbered name
    ("Player 1" beside "Box"), whose number tells more than its first letters.

    >>> short_name("Player 1", "Player 2", 7), short_name("Player 2", "Player 1", 4, ellipsis=False)
    ('P1', 'P2')
    >>> short_name("Player 1", "Box", 4)
    'P1'
    >>> short_name("Alexandra", "Ben", 7), short_name("Ana", "Ben", 7)
    ('Alexan…', 'Ana')
    """
    if len(name) <= chars:
        return name
    cut = fit(name, chars * MEDIUM.width, MEDIUM) if ellipsis else name[:chars]
    words = name.split()
    numbered = len(words) > 1 and words[-1].isdigit()
    if name[:chars - 1] != other[:chars - 1] and not numbered:
        return cut
    if len(words) > 1:
        initials = "".join(word[0] for word in words[:-1]) + words[-1]
    else:
        initials = name[0] + name[-(chars - 1):]
    return initials[:chars] if initials[:chars] != other[:chars] else cut


def short_names(names: Sequence[str], chars: int) -> list[str]:
    """Each of ``names`` in at most ``chars`` characters, told apart from the others at the
    table (``short_name``).

    >>> short_names(["Player 1", "Player 2", "Player 3"], 6), short_names(["Ana", "Alexandra"], 6)
    (['P1', 'P2', 'P3'], ['Ana', 'Alexa…'])
    """
    def alike(name: str) -> str:
        prefix = name[:max(chars - 1, 1)]
        return next((other for other in names if other != name and other.startswith(prefix)), "")
    return [short_name(name, alike(name), chars) for name in names]


def named(template: str, name: str, width: int, font: Font, others: Sequence[str] = (),
          lines: int = 1) -> str:
    """``template`` (a text with ``{name}``) with ``name`` put in, the name shortened so that
    the text wraps into ``lines`` lines of ``width``: what follows the name (a rule, OK) is
    never the part lost. Given the ``others`` at the table, a short name stays told apart
    from theirs (``P1``, ``P2``).

    >>> named("{name}: draw and scan", "Konstantinovich", 96, SMALL)
    'Kon…: draw and scan'
    """
    def fits(text: str) -> bool:
        return len(wrap(text, width, font)) <= lines if lines > 1 else text_width(text, font) <= width

    if fits(template.format(name=name)):
        return template.format(name=name)
    index = list(others).index(name) if name in others else 0
    for chars in range(len(name) - 1, 1, -1):
        text = template.format(name=short_names(others or (name,), chars)[index])
        if fits(text):
            return text
    return template.format(name=short_names(others or (name,), 2)[index])
