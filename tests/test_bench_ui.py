"""Screen rendering benchmarks (budget: one input event → finished frame ≤ 1 ms median,
session + engine + render, so the render must leave most of it to the others).

Figures: .venv/bin/python -m pytest tests/test_bench_ui.py --benchmark-enable --benchmark-only
"""

from companion.games.wakanda.score_screens import score_pages
from companion.games.wakanda.screens import board_screen, picker_screen
from companion.ui.screens import menu_screen

PIECES = ["eagle", "chief", "tomahawk", "skin", "teepee", "sun"]


def test_bench_board_midgame(benchmark, midgame):
    """The board as it is shown most often: mid-game, with a prompt."""
    frame = benchmark(lambda: board_screen(midgame, message="Scan a piece or press a village"))
    assert frame.size == (128, 64)


def test_bench_board_cursor_pending(benchmark, midgame):
    """Choosing a village with the buttons: cursor, pending piece and a one-line prompt."""
    frame = benchmark(lambda: board_screen(midgame, cursor=4, pending="tomahawk",
                                           message="Press OK to build here"))
    assert frame.size == (128, 64)


def test_bench_board_refused(benchmark, midgame):
    """A refused action: the lit two-line warning band."""
    frame = benchmark(lambda: board_screen(midgame, message="Village 6 is not open yet — W4",
                                           refused=True))
    assert frame.size == (128, 64)


def test_bench_picker(benchmark):
    frame = benchmark(lambda: picker_screen("Which piece?", PIECES, 2))
    assert frame.size == (128, 64)


def test_bench_menu(benchmark):
    items = ["Wakanda", "Totem Wars", "Players", "Variant: open", "Resume"]
    frame = benchmark(lambda: menu_screen("New game", items, 3, footer="▲▼ choose · OK"))
    assert frame.size == (128, 64)


def test_bench_score_pages(benchmark, worked_example):
    pages = benchmark(lambda: score_pages(worked_example))
    assert len(pages) == 3
