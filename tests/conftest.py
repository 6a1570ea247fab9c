"""Shared pytest options and fixtures.

``--regen-golden`` rewrites the golden screen images under tests/data/golden/ instead of
comparing against them (see docs/screens.md).
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regen-golden", action="store_true", default=False,
                     help="rewrite tests/data/golden/*.png from the current screens")


@pytest.fixture
def regen_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to rewrite the golden images."""
    return bool(request.config.getoption("--regen-golden"))


# A whole game that ends in the rulebook's worked example (rules/wakanda.md: 20 vs 16), one
# move a token: d:<piece> draw, b:<piece>:<village> build, c:<village> claim, p pass,
# r:<village> reveal.
WORKED_EXAMPLE = (
    "d:chief b:chief:2 d:chief b:chief:3 d:teepee b:teepee:1 d:eagle b:eagle:1 "
    "d:skin b:skin:1 d:teepee b:teepee:3 d:tomahawk c:1 d:sun b:sun:2 "
    "d:tomahawk b:tomahawk:2 d:sun b:sun:3 d:tomahawk c:2 d:skin b:skin:3 "
    "d:skin b:tomahawk:5 d:teepee b:teepee:5 d:sun b:sun:4 d:skin c:5 "
    "d:sun b:sun:4 d:teepee b:skin:4 d:sun b:sun:6 d:sun b:sun:6 "
    "d:teepee b:skin:6 c:4 b:teepee:6 c:6 c:3"
)
WORKED_EXAMPLE_ROW = ("teepee", "eagle", "chief", "variety", "sun", "tomahawk")


def play(tokens: str, villages=WORKED_EXAMPLE_ROW, **settings):
    """A Wakanda game (Ana v Ben) after the moves written as tokens (see WORKED_EXAMPLE)."""
    from companion.games.wakanda import Build, Claim, Draw, Pass, Reveal, Wakanda

    game = Wakanda(list(villages), players=("Ana", "Ben"), **settings)
    for token in tokens.split():
        kind, *args = token.split(":")
        move = {"d": lambda: Draw(args[0]), "b": lambda: Build(args[0], int(args[1])),
                "c": lambda: Claim(int(args[0])), "p": Pass,
                "r": lambda: Reveal(args[0])}[kind]()
        game.push(move)
    return game


@pytest.fixture
def wakanda_play():
    """``play(tokens, villages=…, **settings)``: a game after the moves given as tokens."""
    return play


@pytest.fixture
def worked_example():
    """The finished game of the rulebook's worked example: Ana 20, Ben 16."""
    return play(WORKED_EXAMPLE)


@pytest.fixture
def midgame():
    """The worked example after 25 moves: Ana to play with a skin and two tomahawks in
    hand, villages 1 and 2 hers, 4 and 5 open, 6 still turned."""
    return play(" ".join(WORKED_EXAMPLE.split()[:25]))
