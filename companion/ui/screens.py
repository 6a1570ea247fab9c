"""Screens shared by both games: menus, the option picker, messages, confirmations.

Each is a pure function returning a fresh 128×64 mode-``"1"`` image.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from PIL import Image

from companion.engine import Engine, Refusal
from companion.ui.canvas import (
    HEIGHT,
    LARGE,
    MEDIUM,
    SMALL,
    WIDTH,
    draw_centered,
    draw_text,
    fill_box,
    fit,
    named,
    new_canvas,
    note_lines,
    outline_box,
    short_name,
    text_band,
    text_width,
    wrap,
)
from companion.ui.text import refusal_text, t

TITLE_HEIGHT = 11
FOOTER_TOP = HEIGHT - SMALL.height - 1
ROW_PITCH = 11


def title_band(image: Image.Image, title: str, right: str = "",
               mark: Image.Image | None = None) -> None:
    """The lit title band across the top: an optional ``mark`` (a player's headdress), the
    title (in the small font when the larger cuts it), and ``right`` (e.g. a page number)
    at its end."""
    fill_box(image, (0, 0, WIDTH - 1, TITLE_HEIGHT - 1))
    x = 2
    if mark is not None:
        image.paste(0, (x, (TITLE_HEIGHT - mark.height) // 2), mark)
        x += mark.width + 3
    room = WIDTH - x - 2 - (text_width(right, SMALL) + 4 if right else 0)
    if text_width(title, MEDIUM) <= room:
        draw_text(image, x, 1, title, MEDIUM, 0)
    else:  # a long title (a long language, a long name) whole in the small font first
        draw_text(image, x, 2, fit(title, room, SMALL), SMALL, 0)
    if right:
        draw_text(image, WIDTH - 2 - text_width(right, SMALL), 2, right, SMALL, 0)


def title_with_name(template: str, name: str, others: Sequence[str] = (), right: str = "10/10") -> str:
    """``template`` with ``name`` put in, for the title band beside ``right`` (a page mark):
    whole when it fits (in the small font if need be, as ``title_band`` draws it), else with
    the name shortened and told apart from the ``others``, never the words.

    >>> title_with_name("{name} drew:", "Ana"), title_with_name("{name} drew:", "Bartholomewsson")
    ('Ana drew:', 'Bartholomews… drew:')
    """
    room = WIDTH - 4 - (text_width(right, SMALL) + 4 if right else 0)
    return named(template, name, room, SMALL, others)


def page_mark(number: int, count: int, *, then_ok: bool = False) -> str:
    """A result page's number and how to go on: ``2/4▼`` while pages follow (▼ or OK turns
    to the next); on the last page ``4/4 OK`` when ``then_ok`` (the page itself does not
    say what OK does), else ``4/4``."""
    if number < count:
        return t("page.more", n=number, of=count)
    return t("page.ok" if then_ok else "page", n=number, of=count)


def result_band(image: Image.Image, game: Engine[Any], number: int, count: int) -> None:
    """The lit band atop a game's result page: who won (the score so far while the game is
    not over) and the page number."""
    outcome = game.outcome()
    if outcome is None:
        headline = t("score.provisional")
    elif len(outcome.winners) == 1:
        headline = t("wins", name=game.players[outcome.winners[0]])
    else:
        headline = t("shared")
    fill_box(image, (0, 0, WIDTH - 1, 14))
    page = page_mark(number, count, then_ok=True)  # a game's result: OK goes on to the menu
    draw_centered(image, 1, headline, LARGE, 0, right=WIDTH - 4 - text_width(page, SMALL))
    draw_text(image, WIDTH - 2 - text_width(page, SMALL), 4, page, SMALL, 0)


#: Lines a refusal may take in the band: enough to read it whole (issue: never cut), few
#: enough to leave the board readable behind it.
REFUSAL_LINES = 4
#: Lines a refusal or an undo's note takes above what to do now (the prompt's bottom line).
NOTE_LINES = REFUSAL_LINES - 1


def note_band(image: Image.Image, note: str | Refusal | None, refused: bool, *, max_lines: int = 2,
              medium_first: bool = False, done: str | None = None, then: str | None = None) -> int:
    """The note along the bottom edge (lit when ``refused``); return the band's top row
    (``HEIGHT`` when there is nothing to say).

    ``done`` (what the last action did, "Ana built sun on village 2") takes the first line
    and the note the second. ``medium_first``: one line in the larger font when the whole
    note fits, else up to ``max_lines`` small lines. A refusal is shown whole, its rule
    last: up to ``REFUSAL_LINES`` lines, cut in its reason (never in its rule) only beyond.
    ``then``: what to do now (the prompt's one-line form), kept on the bottom line under a
    refusal or an undo's note, which then take the lines above it.
    """
    if then and note:
        bottom = text_band(image, [fit(then, WIDTH - 4, SMALL)], SMALL)
        return _note_lines_band(image, note, refused, NOTE_LINES, medium_first, bottom)
    if refused:
        max_lines, done = max(max_lines, REFUSAL_LINES), None
    if done:
        return text_band(image, [fit(done, WIDTH - 4, SMALL), *_note_in(note, 1)], SMALL)
    if not note:
        return HEIGHT
    return _note_lines_band(image, note, refused, max_lines, medium_first, HEIGHT)


def _note_in(note: str | Refusal | None, count: int) -> list[str]:
    """``note`` in at most ``count`` small lines; a refusal's rule last, never cut."""
    if isinstance(note, Refusal):
        return note_lines(refusal_text(replace(note, rule=None)), count, rule=note.rule)
    return note_lines(note, count) if note else []


def _note_lines_band(image: Image.Image, note: str | Refusal, refused: bool, max_lines: int,
                     medium_first: bool, bottom: int) -> int:
    """``note`` in a band ending above row ``bottom``: one line of the larger font when it
    fits there and ``medium_first``, else up to ``max_lines`` small lines."""
    text = note if isinstance(note, str) else refusal_text(note)
    if medium_first and text_width(text, MEDIUM) <= WIDTH - 4:
        return text_band(image, [text], MEDIUM, inverted=refused, bottom=bottom)
    return text_band(image, _note_in(note, max_lines), SMALL, inverted=refused, bottom=bottom)


def fits_line(text: str) -> bool:
    """Whether ``text`` fits one line of the bottom band (the small font) uncut."""
    return text_width(text, SMALL) <= WIDTH - 4


def prompt_line(template: str, name: str, others: Sequence[str] = (), *, short: bool = False) -> str:
    """A prompt (``template`` with ``{name}``) for the bottom band: two lines, or one under
    what the last action did (``short``); a long name is shortened, never the prompt.

    >>> prompt_line("{name}: draw and scan", "Konstantinovich", short=True)
    'Konstant…: draw and scan'
    """
    return named(template, name, WIDTH - 4, SMALL, others, lines=1 if short else 2)


def footer_lines(footer: str | None, most: int = 1) -> list[str]:
    """``footer`` as the lines of small print it takes: one when it fits, else wrapped in up
    to ``most`` (a note at a menu: a wrong tag said whole); cut with an ellipsis only
    beyond."""
    if not footer:
        return []
    if most == 1 or text_width(footer, SMALL) <= WIDTH:
        return [fit(footer, WIDTH, SMALL)]
    return wrap(footer, WIDTH - 2, SMALL, max_lines=most)


def footer_line(image: Image.Image, footer: str | None, most: int = 1) -> int:
    """Small print along the bottom edge, centred, in up to ``most`` lines (``footer_lines``);
    return its top row (``HEIGHT`` with none)."""
    lines = footer_lines(footer, most)
    top = HEIGHT - len(lines) * (SMALL.height + 1)
    for i, line in enumerate(lines):
        draw_centered(image, top + 1 + i * (SMALL.height + 1), line, SMALL)
    return top


def _window(count: int, selected: int, rows: int) -> int:
    """The first visible row of a list so that ``selected`` is on screen, kept mid-list."""
    return max(0, min(selected - rows // 2, count - rows))


def menu_screen(title: str, items: Sequence[str], selected: int,
                footer: str | None = None) -> Image.Image:
    """A list to choose from with ▲▼ and OK: the chosen row lit, scroll marks at the edge."""
    image = new_canvas()
    title_band(image, title)
    bottom = HEIGHT - len(footer_lines(footer, 2)) * (SMALL.height + 1)
    rows = (bottom - TITLE_HEIGHT - 1) // ROW_PITCH
    first = _window(len(items), selected, rows)
    for row, index in enumerate(range(first, min(first + rows, len(items)))):
        y = TITLE_HEIGHT + 1 + row * ROW_PITCH
        lit = index == selected
        if lit:
            fill_box(image, (0, y, WIDTH - 8, y + ROW_PITCH - 1))
        # A line too wide for the medium font whole in the small one ("Reprendre Guerre Totem").
        font = MEDIUM if text_width(items[index], MEDIUM) <= WIDTH - 14 else SMALL
        draw_text(image, 3, y + 1 + (MEDIUM.height - font.height) // 2, fit(items[index], WIDTH - 14, font), font,
                  0 if lit else 1)
    if first > 0:
        draw_text(image, WIDTH - 6, TITLE_HEIGHT + 1, "▲", SMALL)
    if first + rows < len(items):
        draw_text(image, WIDTH - 6, bottom - SMALL.height - 1, "▼", SMALL)
    footer_line(image, footer, 2)
    return image


def picker_screen(title: str, options: Sequence[str], selected: int,
                  icons: Sequence[Image.Image | None] = ()) -> Image.Image:
    """Choose one option with ▲▼ and OK: the chosen one large and framed, its neighbours
    (wrapping round, as the buttons do) small above and below. ``icons`` (one per option,
    None for none; a game's pieces, say) show beside the options, doubled for the chosen."""
    image = new_canvas()
    count = len(options)
    title_band(image, title, f"{selected + 1}/{count}")
    marks = list(icons) if icons else [None] * count
    text_x = 26 if any(marks) else 4
    for step, y in ((-1, TITLE_HEIGHT + 2), (1, 50)):
        # Two options: show the other one once, on the side the buttons reach it from.
        if count < 2 or (count == 2 and not 0 <= selected + step < count):
            continue
        index = (selected + step) % count
        mark = marks[index]
        if mark is not None:
            image.paste(1, (10, y + 2), mark)
        room = WIDTH - text_x - 10
        font = MEDIUM if text_width(options[index], MEDIUM) <= room else SMALL  # whole, smaller
        draw_text(image, text_x, y + (MEDIUM.height - font.height) // 2, fit(options[index], room, font), font)
        draw_text(image, WIDTH - 7, y + 1, "▲" if step < 0 else "▼", SMALL)
    if count == 1:  # no neighbour to turn to: say what the one button does
        draw_centered(image, 52, t("picker.only"), SMALL)
    outline_box(image, (0, 24, WIDTH - 1, 47))
    outline_box(image, (1, 25, WIDTH - 2, 46))
    mark = marks[selected]
    if mark is not None:
        image.paste(1, (5, 30), mark.resize((mark.width * 2, mark.height * 2)))
    room = WIDTH - text_x - 4
    chosen = options[selected]
    if text_width(chosen, LARGE) <= room:
        draw_text(image, text_x, 29, chosen, LARGE)
    elif text_width(chosen, MEDIUM) <= room:
        draw_text(image, text_x, 31, chosen, MEDIUM)
    else:  # a long move ("Häuptling auf 2 bauen"): two lines of the medium font, whole
        for i, line in enumerate(wrap(chosen, room, MEDIUM, max_lines=2)):
            draw_text(image, text_x, 26 + i * MEDIUM.height, line, MEDIUM)
    return image


def message_screen(title: str, lines: Sequence[str], footer: str | None = None) -> Image.Image:
    """A titled message: prompts ("Scan village tile 3"), errors, offers; lines wrap."""
    image = new_canvas()
    title_band(image, title)
    bottom = FOOTER_TOP if footer else HEIGHT
    rows = (bottom - TITLE_HEIGHT - 2) // MEDIUM.height
    wrapped = [part for line in lines for part in (wrap(line, WIDTH - 4, MEDIUM) or [""])]
    if len(wrapped) > rows:
        wrapped = wrapped[: rows - 1] + [fit(" ".join(wrapped[rows - 1:]), WIDTH - 4, MEDIUM)]
    top = TITLE_HEIGHT + 2 + (rows - len(wrapped)) * MEDIUM.height // 2
    for i, line in enumerate(wrapped):
        draw_centered(image, top + i * MEDIUM.height, line, MEDIUM)
    footer_line(image, footer)
    return image


def confirm_screen(question: str, detail: str) -> Image.Image:
    """A yes/no question ("Undo?") with what it is about, and the buttons that answer."""
    image = new_canvas()
    draw_centered(image, 2, question, LARGE)
    lines = wrap(detail, WIDTH - 4, MEDIUM, max_lines=2)
    for i, line in enumerate(lines):
        draw_centered(image, 19 + i * MEDIUM.height + (MEDIUM.height // 2 if len(lines) == 1 else 0),
                      line, MEDIUM)
    fill_box(image, (0, HEIGHT - 12, WIDTH - 1, HEIGHT - 1))
    draw_centered(image, HEIGHT - 11, t("confirm.footer"), MEDIUM, 0)
    return image


#: Lines of text one page of ``pages_screen`` holds, between the title band and the footer.
PAGE_ROWS = (FOOTER_TOP - TITLE_HEIGHT - 1) // MEDIUM.height
#: The width of a page's lines: the screen less one pixel each side (21 characters).
PAGE_WIDTH = WIDTH - 2


def paginate(text: str) -> list[tuple[str, ...]]:
    """``text`` wrapped in the medium font and cut into pages of ``PAGE_ROWS`` lines, for
    ``pages_screen``; a line break in the text starts a new line.

    >>> paginate("Draw one piece, then build or claim.")
    [('Draw one piece, then', 'build or claim.')]
    """
    lines = [part for line in text.split("\n") for part in wrap(line, PAGE_WIDTH, MEDIUM)]
    return [tuple(lines[i:i + PAGE_ROWS]) for i in range(0, len(lines), PAGE_ROWS)] or [()]


def pages_screen(title: str, lines: Sequence[str], number: int, count: int,
                 footer: str | None = None) -> Image.Image:
    """Page ``number`` of ``count`` of a text turned with ▲▼ (a rule's pages): the title
    band with the page number (none for a single page), the page's lines (``paginate``
    gives them), and ``footer`` saying what the buttons do."""
    image = new_canvas()
    title_band(image, title, t("page", n=number, of=count) if count > 1 else "")
    for i, line in enumerate(lines[:PAGE_ROWS]):
        draw_text(image, 1, TITLE_HEIGHT + 1 + i * MEDIUM.height, line, MEDIUM)
    footer_line(image, footer)
    return image


#: Characters of a menu line in the medium font (menu_screen keeps 14 pixels for its marks).
MENU_LINE_CHARS = (WIDTH - 14) // MEDIUM.width


#: Characters of the line under a list (``footer_line``, in the small font).
FOOTER_CHARS = WIDTH // SMALL.width


def resume_label(title: str) -> str:
    """The menu line offering an unfinished game, naming the game: ``Resume Totem Wars``
    (fits ``MENU_LINE_CHARS``); ``resume_players`` says under the list whose game it is.

    >>> resume_label("Wakanda")
    'Resume Wakanda'
    """
    return t("menu.resume", title=title)


def resume_players(names: Sequence[str]) -> str:
    """Whose unfinished game it is, for the line under the menu: ``Ana v Ben`` or
    ``Ana, Ben, Cleo``, within ``FOOTER_CHARS``; long names are cut so that each player
    keeps a part, and names alike keep what tells them apart (``P1, P2, P3, P4``).

    >>> resume_players(["Ana", "Ben"]), resume_players(["Player 1", "Player 2", "Player 3", "Player 4"])
    ('Ana v Ben', 'P1, P2, P3, P4')
    """
    def cut(room: int) -> list[str]:
        return [short_name(name, names[(i + 1) % len(names)], room) for i, name in enumerate(names)]

    if len(names) == 2:
        line = t("menu.resume_players", a=names[0], b=names[1])
        if len(line) <= FOOTER_CHARS:
            return line
        a, b = cut((FOOTER_CHARS - len(t("menu.resume_players", a="", b=""))) // 2)
        return t("menu.resume_players", a=a, b=b)
    line = ", ".join(names)
    return line if len(line) <= FOOTER_CHARS else ", ".join(cut((FOOTER_CHARS + 2) // len(names) - 2))
