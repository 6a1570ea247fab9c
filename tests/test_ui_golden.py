"""Golden images of the key screens, compared pixel for pixel.

On a mismatch the actual picture is written next to the golden one as ``*.actual.png``.
After a deliberate change of a screen, rewrite the goldens and look at them:
``./setup.sh test tests/test_ui_golden.py --regen-golden`` (see docs/screens.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from companion.ui import text
from companion.ui.wakanda_screens import (board_screen, confirm_screen, menu_screen,
                                          message_screen, picker_screen, score_pages)
from conftest import WORKED_EXAMPLE, play

GOLDEN = Path(__file__).parent / "data" / "golden"
PIECES = ["eagle", "chief", "tomahawk", "skin", "teepee", "sun"]
HIDDEN_ROW = ("teepee", "eagle", "chief", None, None, None)


def _opening():
    return board_screen(play(""), message="Draw a piece, scan it")


def _midgame(**view):
    return board_screen(play(" ".join(WORKED_EXAMPLE.split()[:25])), **view)


def _hidden():
    game = play("d:sun b:sun:1 d:chief b:chief:2 d:teepee b:teepee:1 d:skin c:1 r:height "
                "d:eagle b:eagle:4 d:sun", villages=HIDDEN_ROW, variant="hidden",
                open_hands=True)
    return board_screen(game, message="Scan a piece or press a village")


def _tall_pole():
    tokens = " ".join(f"d:{piece} b:{piece}:1" for piece in
                      ["sun", "teepee", "skin", "sun", "tomahawk", "teepee", "chief", "sun",
                       "skin"])
    return board_screen(play(tokens), message="Ben: build or claim")


SCREENS = {
    "board_opening": _opening,
    "board_midgame_cursor": lambda: _midgame(cursor=4, pending="tomahawk",
                                             message="Press OK to build here"),
    "board_refused": lambda: _midgame(message="Village 6 is not open yet — W4",
                                      refused=True),
    "board_hidden": _hidden,
    "board_tall_pole": _tall_pole,
    "board_finished": lambda: board_screen(play(WORKED_EXAMPLE)),
    "score_1_result": lambda: score_pages(play(WORKED_EXAMPLE))[0],
    "score_2_ana": lambda: score_pages(play(WORKED_EXAMPLE))[1],
    "score_3_ben": lambda: score_pages(play(WORKED_EXAMPLE))[2],
    "menu": lambda: menu_screen("New game", ["Wakanda", "Totem Wars", "Players: Ana, Ben",
                                             "Variant: open", "Resume Ana v Ben"], 3,
                                footer="▲▼ choose · OK"),
    "picker_pieces": lambda: picker_screen("Which piece?", PIECES, 2),
    "confirm_undo": lambda: confirm_screen("Undo?", "Ana: build eagle on 2"),
    "message_bulgarian": lambda: message_screen(
        text.t("setup.title", lang="bg"),
        [text.t("scan_tile", lang="bg", n=3), text.t("or_buttons", lang="bg")]),
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_its_golden_image(name, regen_golden):
    actual = SCREENS[name]()
    assert actual.size == (128, 64) and actual.mode == "1"
    golden_path = GOLDEN / f"{name}.png"
    actual_path = GOLDEN / f"{name}.actual.png"
    if regen_golden:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        actual.save(golden_path)
        actual_path.unlink(missing_ok=True)
        return
    assert golden_path.exists(), (
        f"no golden image {golden_path}; create it with --regen-golden and look at it")
    with Image.open(golden_path) as golden:
        same = golden.convert("1").tobytes() == actual.tobytes()
    if not same:
        actual.save(actual_path)
        pytest.fail(f"screen {name!r} differs from {golden_path.name}; the actual picture "
                    f"is {actual_path}. If the change is intended: --regen-golden")
    actual_path.unlink(missing_ok=True)
