"""``totem-companion score RECORD… [--json] [--review]``: the final or provisional score of
records; with ``--review``, where each player lost the most points too (a game whose
report offers a review: Wakanda, ``review.py``)."""

from __future__ import annotations

import argparse
import contextlib
from typing import Any

from companion.commands.records_each import print_each
from companion.games.definition import GameDefinition
from companion.ui.text import speaking, t


def run(args: argparse.Namespace) -> int:
    """Print the score of each record, a JSON object a line with ``--json``; the words in
    ``--language`` when given (the JSON keeps the records' machine English)."""
    lang: str | None = getattr(args, "language", None)
    with speaking(lang) if lang else contextlib.nullcontext():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    if not getattr(args, "review", False):
        return print_each(args,
                          lambda game, state: game.report.score_json(state),
                          lambda game, state: game.report.format_score(state))
    return print_each(args,
                      lambda game, state: {**game.report.score_json(state), "review": _review_json(game, state)},
                      lambda game, state: f"{game.report.format_score(state)}\n\n{_review_text(game, state)}")


def _review_json(game: GameDefinition[Any], state: Any) -> dict[str, Any] | None:
    """The review's JSON object (None for a game without a review)."""
    review = game.report.review_json
    return review(state) if review is not None else None


def _review_text(game: GameDefinition[Any], state: Any) -> str:
    """The review in words, or that the game has none."""
    review = game.report.format_review
    if review is not None:
        return review(state)
    return t("score.no_review", title=game.shown_title())
