"""``totem-companion hint RECORD [--seat N] [--level L] [--seed N] [--hand CARDS] [--json]``:
the suggested next move for the player to move (or seat N) after a game record, and why.

The search uses only what that seat knows at the table (shared/DESIGN.md, "Engine
protocol"); the same record, seat, level and seed give the same answer. With ``--json``:
``{"move": <record line>, "reason": "...", "value": 0.72, "alternatives": [{"move": ...,
"value": ...}, ...]}``, the values being the search's estimates (Wakanda: the chance to
win; Totem Wars: the chance to take the round), the alternatives the other moves, best
first. Totem Wars hands are never in the record: ``--hand`` names the
seat's cards. As text: the move and its reason, then the next best with their values — or,
when the search words each of them (Totem Wars), with their reasons, as the box shows them.
"""

from __future__ import annotations

import argparse
import contextlib
import sys

from companion.advice import advise, search_of
from companion.commands.records_each import about, data_folder, read_record_file
from companion.errors import UsageError, UserError
from companion.files import printable, shown_path
from companion.games import game_of_record
from companion.records import json_text
from companion.ui.text import speaking, t

#: How many next-best moves the text output lists.
SHOWN_ALTERNATIVES = 5


def parse_hand(value: str | None) -> list[str] | None:
    """``--hand indians/snake,africans/lion`` as a list of card names (None when absent)."""
    if value is None:
        return None
    cards = [card.strip() for card in value.split(",") if card.strip()]
    if not cards:
        raise UsageError("--hand names the seat's cards, separated by commas")
    return cards


def run(args: argparse.Namespace) -> int:
    """Print the hint for the record ``args.record``; its words (the reason, the record's
    warnings) in ``--language`` when given, the JSON in machine English."""
    lang: str | None = None if args.json else getattr(args, "language", None)
    with speaking(lang) if lang else contextlib.nullcontext():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    path: str = args.record
    text = read_record_file(path)
    hand = parse_hand(args.hand)
    data_dir = data_folder(args)
    try:
        advice = advise(text, seat=args.seat, level=args.level, seed=args.seed, hand=hand,
                        data_dir=data_dir)
    except UsageError:
        raise
    except UserError as exc:
        raise UserError(about(path, exc)) from None
    for warning in advice.warnings:
        print(t("record.warning", path=shown_path(path), warning=warning), file=sys.stderr)
    suggestion = advice.suggestion
    if args.json:
        print(json_text({
            "move": advice.move_line, "reason": suggestion.reason,
            "value": round(suggestion.value, 3),
            "alternatives": [{"move": line, "value": round(alternative.value, 3)}
                             for line, alternative in zip(advice.alternative_lines, suggestion.alternatives)],
        }))
        return 0
    print(printable(f"{advice.name}: {suggestion.reason}"))  # a record's name may hold escape codes
    shown = suggestion.alternatives[:SHOWN_ALTERNATIVES]
    if any(alternative.reason for alternative in shown):
        # The search words each move as it words the best (Totem Wars: its chances in words,
        # not percentages of a few play-outs): the next best are said the same way.
        print(t("hint.cli.next", level=advice.level))
        for alternative in shown:
            print(printable(f"  {alternative.reason}"))
        return 0
    print(t("hint.cli.value_next" if shown else "hint.cli.value", level=advice.level, value=advice.value_words,
            percent=_percent(suggestion.value)))
    if shown:
        words = search_of(game_of_record(text)).move_words
        moves = [words(alternative.move) for alternative in shown]
        width = max(len(move) for move in moves)
        for move, alternative in zip(moves, shown):
            print(f"  {move:<{width}}  {_percent(alternative.value)}")
    return 0


def _percent(value: float) -> str:
    return f"{round(100 * value)}%"
