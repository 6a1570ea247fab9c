"""Setting up a Wakanda game: checking the settings and laying out a random row (W2, W3, W10, R1, R2)."""

from __future__ import annotations

import random

from companion.games.wakanda.rules import EMPTY_CLAIM, OPEN_AT_START, ROW, VILLAGES
from companion.records import shown_value

VARIANTS = ("open", "hidden")


class SetupError(ValueError):
    """Settings that do not describe a Wakanda game; the message is one line for players."""


def check_setup(villages: object, first: object, players: object, variant: object, empty_claim: object,
                open_hands: object) -> None:
    """Raise ``SetupError`` naming the first problem with these settings, if any.

    >>> try:
    ...     check_setup(["eagle"] * 6, 0, ("Ana", "Ben"), "open", "when_stuck", False)
    ... except SetupError as exc:
    ...     print(exc)
    village 'eagle' appears twice in the row (W2)
    """
    if not isinstance(players, (list, tuple)) or len(players) != 2 or not all(
            isinstance(name, str) and name.strip() for name in players):
        raise SetupError("players must be two non-empty names (W1)")
    if variant not in VARIANTS:
        raise SetupError(f"variant must be 'open' or 'hidden', got {shown_value(variant)} (W10)")
    if empty_claim not in EMPTY_CLAIM:
        raise SetupError(f"empty_claim must be one of {', '.join(EMPTY_CLAIM)}, got {shown_value(empty_claim)} (R1)")
    if not isinstance(open_hands, bool):
        raise SetupError(f"open_hands must be true or false, got {shown_value(open_hands)} (R2)")
    if isinstance(first, bool) or not isinstance(first, int) or first not in (0, 1):
        raise SetupError(f"first must be player 0 or 1, got {shown_value(first)} (W3)")
    if not isinstance(villages, (list, tuple)) or len(villages) != ROW:
        raise SetupError(f"villages must list the {ROW} tiles of the row (W2)")
    seen = set()
    for position, name in enumerate(villages, start=1):
        if name is None:
            if variant != "hidden" or position <= OPEN_AT_START:
                raise SetupError(f"village {position} is missing: only tiles 4-6 of the hidden "
                                 "variant may be face down (W10)")
            continue
        if name not in VILLAGES:
            raise SetupError(f"unknown village {shown_value(name)} (W1: {', '.join(VILLAGES)})")
        if name in seen:
            raise SetupError(f"village {shown_value(name)} appears twice in the row (W2)")
        seen.add(name)


def random_setup(rng: random.Random, variant: str = "open") -> list[str | None]:
    """Shuffle the 8 tiles, put 2 back unseen, lay 6 in a row (W2); face down 4-6 if hidden (W10).

    >>> row = random_setup(random.Random(1), "hidden")
    >>> len(row), row[3:]
    (6, [None, None, None])
    """
    if variant not in VARIANTS:
        raise SetupError(f"variant must be 'open' or 'hidden', got {variant!r} (W10)")
    row: list[str | None] = rng.sample(VILLAGES, ROW)
    if variant == "hidden":
        row[OPEN_AT_START:] = [None] * (ROW - OPEN_AT_START)
    return row
