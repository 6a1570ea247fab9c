"""Golden images of the key screens, compared pixel for pixel.

On a mismatch the actual picture is written next to the golden one as ``*.actual.png``.
After a deliberate change of a screen, rewrite the goldens and look at them:
``./setup.sh test tests/test_ui_golden.py --regen-golden`` (see docs/screens.md).
"""

from __future__ import annotations

import pytest
from conftest import WORKED_EXAMPLE, only_the_shipped_games, play

from companion.engine import Refusal
from companion.games import GAMES
from companion.games.wakanda.flow import WakandaFlow
from companion.games.wakanda.score_screens import score_pages
from companion.games.wakanda.screens import board_screen, picker_screen, status_screen
from companion.games.wakanda.words import t as wakanda_t
from companion.table.menu import MenuFlow
from companion.table.settings import SettingsStore
from companion.table.settings_flow import SettingsFlow
from companion.table.settings_speller import NameSpeller, render_speller
from companion.table.tag_tracker import TagTracker
from companion.ui.screens import confirm_screen, menu_screen, message_screen, resume_label

PIECES = ["eagle", "chief", "tomahawk", "skin", "teepee", "sun"]
HIDDEN_ROW = ("teepee", "eagle", "chief", None, None, None)


def _opening():
    # Drawn by the play flow itself, so the picture is the one a table sees when a game
    # begins (Ana to draw) and follows the flow's prompt when its words change.
    return WakandaFlow(play(""), journal=None, tracker=TagTracker()).frame()


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


def _settings_page():
    options = [("wakanda", option) for option in GAMES["wakanda"].table.settings]
    page = SettingsFlow(SettingsStore(None, names=("Ana", "Ben", "Cleo")), options)
    page.choice = page.choice.moved(4)                # Wakanda's variant: its footer says so
    return page.frame()


def _name_speller():
    speller = NameSpeller()
    speller.name = "Ana"
    speller.selected = speller.entries.index("M")     # the next letter, lit where it goes
    return render_speller(speller.view())


def _menu_resume():
    titles = [(entry.name, entry.title) for entry in GAMES.values()]
    return MenuFlow(titles, resume_label("Wakanda"), players="Ana v Ben").frame()


SCREENS = {
    "board_opening": _opening,
    "board_midgame_cursor": lambda: _midgame(cursor=4, pending="tomahawk",
                                             message="Press OK to build here"),
    "board_refused": lambda: _midgame(message=Refusal("not_open", {"village": 6}, "W4", "wakanda"),
                                      refused=True),
    "board_done": lambda: _midgame(done="Ana claimed village 4", message="Ben: draw and scan"),
    "status_wakanda": lambda: status_screen(play(" ".join(WORKED_EXAMPLE.split()[:25]))),
    "board_hidden": _hidden,
    "board_tall_pole": _tall_pole,
    "board_finished": lambda: board_screen(play(WORKED_EXAMPLE)),
    "score_1_result": lambda: score_pages(play(WORKED_EXAMPLE))[0],
    "score_2_ana": lambda: score_pages(play(WORKED_EXAMPLE))[1],
    "score_3_ben": lambda: score_pages(play(WORKED_EXAMPLE))[2],
    "menu": lambda: menu_screen("New game", ["Wakanda", "Totem Wars", "Players: Ana, Ben",
                                             "Variant: open", "Resume Ana v Ben"], 3,
                                footer="▲▼ choose · OK"),
    "menu_resume": _menu_resume,
    "settings_page": _settings_page,
    "name_speller": _name_speller,
    "picker_pieces": lambda: picker_screen("Which piece?", PIECES, 2),
    "confirm_undo": lambda: confirm_screen("Undo?", "Ana: build eagle on 2"),
    "message_bulgarian": lambda: message_screen(
        wakanda_t("setup.title", lang="bg"),
        [wakanda_t("scan_tile", lang="bg", n=3), wakanda_t("or_buttons", lang="bg")]),
}


#: The screens with a line for every registered game.
EVERY_GAME = {"menu_resume"}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_its_golden_image(name, golden):
    if name in EVERY_GAME:
        only_the_shipped_games()
    golden(name, SCREENS[name]())
