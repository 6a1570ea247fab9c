"""Golden images of the key Totem Wars screens at the table, compared pixel for pixel.

On a mismatch the actual picture is written next to the golden one as ``*.actual.png``.
After a deliberate change of a screen, rewrite the goldens and look at them:
``.venv/bin/python -m pytest tests/test_tw_table_golden.py --regen-golden``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tw_table_helpers import WAR_RECORD, match_of  # WAR_RECORD: a three-way tie, won by Ben's totem

from companion.games.totem_wars import Declare, default_deck, read_record
from companion.games.totem_wars.round_screens import end_pages, round_page, round_page_count
from companion.games.totem_wars.screens import board_screen, deal_screen, declare_screen, status_screen, totems_screen

DATA = Path(__file__).parent / "data"
#: Ana's crocodile (water, land) against Ben's eagle (air), a war of 0 against 0 (R2, T11).
EXAMPLE = (DATA / "totem_wars_r2_example.jsonl").read_text()


def war_game(lines: int):
    """The war record's game after its first ``lines`` lines."""
    return read_record("".join(WAR_RECORD.splitlines(True)[:lines]))[0]


def _finished():
    return read_record((DATA / "totem_wars_finished.jsonl").read_text())[0]


def _end(page: int, totals=(12, 30, 9)):
    game = _finished()  # three players, dealt by Ben, 5, 4 and 5 points: after three games
    return end_pages(game, match_of(game.players, totals, first_dealer=1).add(game))[page]


def _declared_war():
    game = read_record(EXAMPLE)[0]
    game.push(Declare("land"))
    return round_page(game, game.last_round, 3)  # summary, 2 arrangements, then Ana's war


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
    "tw_board_done": lambda: board_screen(war_game(3), done="Cleo raises to 4 (T5)",
                                          message="Ana: 4+ cards"),
    "tw_status": lambda: status_screen(war_game(4)),
    "tw_round_summary_war": lambda: round_page(war_game(6), war_game(6).rounds[0], 0),
    "tw_round_arrangement": lambda: round_page(war_game(6), war_game(6).rounds[0], 2),
    "tw_round_war_grouping": lambda: round_page(war_game(6), war_game(6).rounds[0], 5),
    "tw_round_next": _round_next,
    "tw_end_result": lambda: _end(0),
    "tw_end_taken": lambda: _end(1),
    "tw_end_big_game": lambda: _end(2),
    "tw_end_big_game_shared": lambda: _end(2, totals=(37, 38, 36)),  # 42, 42, 41 (T16)
    "tw_declare": lambda: declare_screen(read_record(EXAMPLE)[0]),
    "tw_declare_other": lambda: declare_screen(read_record(EXAMPLE)[0], 1),
    "tw_round_war_declared": _declared_war,
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_its_golden_image(name, golden):
    golden(name, SCREENS[name]())
