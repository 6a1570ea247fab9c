"""Regenerate the bundled bitmap fonts from the X11 "misc-fixed" fonts (public domain).

Usage (see README.md in this folder)::

    apt-get download xfonts-base && dpkg-deb -x xfonts-base_*.deb /tmp/xf
    python companion/ui/fonts/make_fonts.py /tmp/xf/usr/share/fonts/X11/misc

Needs ``pcf2bdf`` (Debian package of the same name) to turn the shipped PCF files into
BDF text. Each output font is a glyph atlas ``<name>.pbm`` (a grid of equal cells, 32 a
row) and ``<name>.txt`` (cell size, ascent and the code points in atlas order), read by
``companion.ui.canvas``.
"""

from __future__ import annotations

import gzip
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

from PIL import Image

#: Bundled name -> source fonts, first one wins; later ones fill glyphs the first lacks.
FONTS: dict[str, tuple[str, ...]] = {
    "small": ("5x7",),
    "medium": ("6x10",),
    "large": ("7x13B", "7x13"),
}

#: What players may ever read: ASCII, Latin-1, Latin Extended-A, Cyrillic, a few symbols.
RANGES: tuple[tuple[int, int], ...] = (
    (0x20, 0x7E),
    (0xA0, 0x17F),
    (0x400, 0x45F),
    (0x490, 0x491),
)
SYMBOLS = "–—‘’“”„•…‹›€№←↑→↓−■□▲▶▼◀●○✓"

COLUMNS = 32

#: One-row marks for the 5×7 font: its two-row marks touch a small letter ("ê" read as
#: "&") and its capitals have no room above for them (it drew "É" as "E").
SMALL_MARKS = {"\u0300": ".#...", "\u0301": "..#..", "\u0302": ".##..", "\u0303": ".#.#.", "\u0308": "#..#."}
#: A tilde on two rows, a wave: on one row it was the two dots of a diaeresis ("não" read
#: as "näo"), so the small letters under it are drawn three rows high (a row their shape
#: can spare dropped) to keep a blank row between.
SMALL_WAVE = (".#.#.", "#.#..", ".....")
#: Letters the 5×7 font clips or draws as another sign: "ф" read as "♭"; "í", whose
#: one-row mark would stand where "i" has its dot; "ã õ ñ", whose tilde read as "ä ö".
SMALL_DRAWN = {"ф": ("..#..", ".###.", "#.#.#", "#.#.#", ".###.", "..#..", "....."),
               "í": ("...#.", ".....", ".##..", "..#..", "..#..", ".###.", "....."),
               "ã": (*SMALL_WAVE, ".###.", "#.##.", ".#.#.", "....."),
               "õ": (*SMALL_WAVE, ".##..", "#..#.", ".##..", "....."),
               "ñ": (*SMALL_WAVE, "###..", "#..#.", "#..#.", ".....")}


def _rows(cell: Image.Image) -> list[str]:
    return ["".join("#" if cell.getpixel((x, y)) else "." for x in range(cell.width)) for y in range(cell.height)]


def _cell(rows: list[str] | tuple[str, ...]) -> Image.Image:
    cell = Image.new("1", (len(rows[0]), len(rows)), 0)
    for y, row in enumerate(rows):
        for x, ink in enumerate(row):
            cell.putpixel((x, y), 1 if ink == "#" else 0)
    return cell


def _apart(rows: list[str], small: bool) -> bool:
    """Whether a small letter's mark stands a blank row above its body (a capital: always)."""
    inked = [any(c == "#" for c in row) for row in rows]
    first = inked.index(True)
    return not small or not all(inked[first:6])


def redraw_small(glyphs: dict[int, Image.Image]) -> None:
    """Redraw in ``glyphs`` (the 5×7 font's) the marked letters that look like their unmarked
    twin or whose mark touches them: the mark in the top row, a capital's body pressed into
    the five rows under it (a row its shape repeats dropped), a small letter's body as it
    is, a blank row between; and the letters of ``SMALL_DRAWN``."""
    for code, cell in list(glyphs.items()):
        parts = unicodedata.normalize("NFD", chr(code))
        if len(parts) != 2 or parts[1] not in SMALL_MARKS or ord(parts[0]) not in glyphs:
            continue
        rows, base = _rows(cell), _rows(glyphs[ord(parts[0])])
        small = parts[0].islower()
        if rows != base and _apart(rows, small):
            continue
        mark = SMALL_MARKS[parts[1]]
        if small:
            body = base[2:6]
            new = [mark, "." * len(mark), *body, base[6]]
        else:
            drop = next((r for r in range(1, 5) if base[r] == base[r + 1]), 1)
            new = [mark, *(base[r] for r in range(6) if r != drop), base[6]]
        glyphs[code] = _cell(new)
    for char, drawn in SMALL_DRAWN.items():
        if ord(char) in glyphs:
            glyphs[ord(char)] = _cell(drawn)


def wanted_codepoints() -> list[int]:
    """The code points every bundled font should carry, in atlas order."""
    points = [cp for lo, hi in RANGES for cp in range(lo, hi + 1)]
    return points + [ord(ch) for ch in SYMBOLS]


def read_bdf(text: str) -> tuple[int, int, int, dict[int, Image.Image]]:
    """Parse a character-cell BDF font: (cell width, cell height, ascent, glyph cells)."""
    lines = iter(text.splitlines())
    width = height = ascent = 0
    glyphs: dict[int, Image.Image] = {}
    for line in lines:
        key, _, rest = line.partition(" ")
        if key == "FONTBOUNDINGBOX":
            width, height = (int(v) for v in rest.split()[:2])
        elif key == "FONT_ASCENT":
            ascent = int(rest)
        elif key == "ENCODING":
            code = int(rest.split()[0])
            bbx = next(line for line in lines if line.startswith("BBX"))
            w, h, xoff, yoff = (int(v) for v in bbx.split()[1:])
            next(line for line in lines if line == "BITMAP")
            rows = [next(lines) for _ in range(h)]
            cell = Image.new("1", (width, height), 0)
            top = ascent - (yoff + h)
            for r, hexrow in enumerate(rows):
                bits = int(hexrow, 16)
                nbits = len(hexrow) * 4
                for c in range(w):
                    if bits >> (nbits - 1 - c) & 1:
                        cell.putpixel((xoff + c, top + r), 1)
            glyphs[code] = cell
    return width, height, ascent, glyphs


def load_source(misc_dir: Path, name: str) -> tuple[int, int, int, dict[int, Image.Image]]:
    """Convert ``<name>.pcf.gz`` (the ISO 10646 variant) to BDF with pcf2bdf and parse it."""
    with tempfile.TemporaryDirectory() as tmp:
        pcf = Path(tmp) / f"{name}.pcf"
        pcf.write_bytes(gzip.decompress((misc_dir / f"{name}.pcf.gz").read_bytes()))
        bdf = subprocess.run(["pcf2bdf", str(pcf)], check=True, capture_output=True).stdout
    return read_bdf(bdf.decode("latin-1"))


def build(misc_dir: Path, out_dir: Path, name: str, sources: tuple[str, ...]) -> int:
    """Write ``<name>.pbm`` and ``<name>.txt``; return the number of glyphs kept."""
    width, height, ascent, glyphs = load_source(misc_dir, sources[0])
    for extra in sources[1:]:
        w, h, _, more = load_source(misc_dir, extra)
        if (w, h) == (width, height):
            for code, cell in more.items():
                glyphs.setdefault(code, cell)
    if name == "small":
        redraw_small(glyphs)
    kept = [cp for cp in wanted_codepoints() if cp in glyphs]
    rows = -(-len(kept) // COLUMNS)
    atlas = Image.new("1", (COLUMNS * width, rows * height), 0)
    for i, code in enumerate(kept):
        atlas.paste(glyphs[code], ((i % COLUMNS) * width, (i // COLUMNS) * height))
    atlas.save(out_dir / f"{name}.pbm")
    header = f"# misc-fixed {'+'.join(sources)}, public domain; made by make_fonts.py\n"
    body = f"cell {width} {height} ascent {ascent}\n" + " ".join(f"{cp:04X}" for cp in kept)
    (out_dir / f"{name}.txt").write_text(header + body + "\n", encoding="ascii")
    return len(kept)


def main(argv: list[str]) -> int:
    """Command line: ``make_fonts.py MISC_DIR [OUT_DIR]``."""
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    misc_dir = Path(argv[0])
    out_dir = Path(argv[1]) if len(argv) > 1 else Path(__file__).parent
    for name, sources in FONTS.items():
        count = build(misc_dir, out_dir, name, sources)
        print(f"{name}: {count} glyphs from {', '.join(sources)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
