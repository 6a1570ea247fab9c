"""Golden images of the key Totem Wars screens at the table, compared pixel for pixel.

On a mismatch the actual picture is written next to the golden one as ``*.actual.png``.
After a deliberate change of a screen, rewrite the goldens and look at them:
``.venv/bin/python -m pytest tests/test_tw_table_golden.py --regen-golden``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tw_table_helpers import WAR_RECORD  # round 1: a three-way tie, a war won by Ben's totem

from companion.games.totem_wars import Match, default_deck, read_record
from companion.games.totem_wars.round_screens import end_pages, round_page, round_page_count
from companion.games.totem_wars.screens import board_screen, deal_screen, totems_screen

DATA = Path(__file__).parent / "data"


def war_game(lines: int):
    """The war record's game after its first ``lines`` lines."""
    return read_record("".join(WAR_RECORD.splitlines(True)[:lines]))[0]


def _finished():
    return read_record((DATA / "totem_wars_finished.jsonl").read_text())[0]


def _end(page: int):
    game = _finished()  # three players, dealt by Ben: the second game of a big game
    match = Match(game.players, first_dealer=0).add_points((12, 30, 9))
    return end_pages(game, match.add(game))[page]


def _round_next():
    game = war_game(6)
    result = game.rounds[0]
    return round_page(game, result, round_page_count(game, result) - 1)


def _raise():
    game = war_game(4)  # Ben started with 3, Cleo raised to 4: Ana places 4, Ben owes 1
    d = default_deck().card
    return board_screen(game, (d("eskimos/polar_bear"), d("eskimos/walrus")))


SCREENS = {
    "tw_totems": lambda: totems_screen(war_game(1), 1),
    "tw_deal": lambda: deal_screen(war_game(2)),
    "tw_board_start": lambda: board_screen(war_game(2)),
    "tw_board_raise": _raise,
    "tw_board_refused": lambda: board_screen(
        war_game(3), message="Snake (Indians) is a totem — T2", refused=True),
    "tw_round_summary_war": lambda: round_page(war_game(6), war_game(6).rounds[0], 0),
    "tw_round_arrangement": lambda: round_page(war_game(6), war_game(6).rounds[0], 2),
    "tw_round_war_grouping": lambda: round_page(war_game(6), war_game(6).rounds[0], 5),
    "tw_round_next": _round_next,
    "tw_end_result": lambda: _end(0),
    "tw_end_taken": lambda: _end(1),
    "tw_end_big_game": lambda: _end(2),
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_its_golden_image(name, golden):
    golden(name, SCREENS[name]())
