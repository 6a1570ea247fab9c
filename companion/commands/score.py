"""``totem-companion score RECORD… [--json] [--review]``: the final or provisional score of
records; with ``--review``, where each player lost the most points too (a game whose
report offers a review: Wakanda, ``review.py``)."""

from __future__ import annotations

import importlib
from types import ModuleType

from companion.commands.records_each import print_each
from companion.games import GAMES


def run(args) -> int:
    """Print the score of each record, a JSON object a line with ``--json``."""
    if not getattr(args, "review", False):
        return print_each(args,
                          lambda game, state: game.score_json(state),
                          lambda game, state: game.format_score(state))
    return print_each(args,
                      lambda game, state: {**game.score_json(state), "review": _review_json(game, state)},
                      lambda game, state: f"{game.format_score(state)}\n\n{_review_text(game, state)}")


def _report(game: ModuleType) -> ModuleType:
    """The report module of a game package (``score_json``, ``format_score`` and, for a
    game with a review, ``review_json`` and ``format_review``)."""
    return importlib.import_module(f"{game.__name__}.report")


def _review_json(game: ModuleType, state) -> dict | None:
    """The review's JSON object (None for a game without a review)."""
    report = _report(game)
    return report.review_json(state) if hasattr(report, "review_json") else None


def _review_text(game: ModuleType, state) -> str:
    """The review in words, or that the game has none."""
    report = _report(game)
    if hasattr(report, "format_review"):
        return report.format_review(state)
    title = next(entry.title for entry in GAMES.values() if entry.package == game.__name__)
    return f"No review: {title} games have none."
