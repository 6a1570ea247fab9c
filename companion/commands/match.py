"""``totem-companion match --game G --a LEVEL --b LEVEL --games N --seed S [--variant V]
[--players P] [--jobs J] [--json]``: two levels of a game's search play each other, and the
score says which is stronger. ``--variant`` plays a variant of the game's rules (its search
module's ``VARIANTS``: Wakanda's ``hidden``, W10), else the game as its search plays it by
default. ``--players`` (a game whose search offers more than two, Totem Wars) seats A once
and B in every other seat.

Games go in groups of P (pairs at two players) on the same deal and draws, A taking each
seat in turn; the first player moves on from group to group, so over P groups each level
has played each seat with and without the start. A win counts 1, a win shared by k players
1/k: par is 1/P. The score comes with its 95% Wilson score interval, and each level's time
per decision (median and 95th percentile, counting only decisions between more than one
legal move; B's over all its seats). ``--jobs`` plays games in parallel processes: the score
is the same, the times are then those of a busier machine.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from typing import Any

from companion.advice import search_of
from companion.errors import UsageError
from companion.records import json_text
from companion.search import Duel, Search, check_level

#: z of a two-sided 95% interval.
Z95 = 1.959964


def wilson(score: float, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a share ``score`` of ``games`` games.

    >>> [round(x, 3) for x in wilson(0.7, 400)]
    [0.653, 0.743]
    """
    if games <= 0:
        return (0.0, 1.0)
    z2 = Z95 * Z95
    centre = (score + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(score * (1 - score) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def _game(task: tuple[str, str, str, int, int, int], variant: str | None = None, players: int = 2) -> Duel:
    game, a, b, seat_of_a, seed, first = task
    levels = tuple(a if p == seat_of_a else b for p in range(players))
    return search_of(game).duel(levels, seed, first, variant)


def check_variant(game: str, search: Search, variant: str | None) -> None:
    """``UsageError`` naming the variants when ``variant`` is not one of the game's."""
    variants = search.variants
    if variant is not None and variant not in variants:
        offered = f"variants: {', '.join(variants)}" if variants else "it has none"
        raise UsageError(f"unknown variant '{variant}' for {game} ({offered})")


def tasks(game: str, a: str, b: str, games: int, seed: int,
          players: int = 2) -> list[tuple[str, str, str, int, int, int]]:
    """One task per game: groups of ``players`` games share a seed (tiles, draws), A in
    each seat in turn; the first player moves on from group to group."""
    out = []
    for i in range(games):
        group = i // players
        group_seed = random.Random(f"match {seed} {group}").getrandbits(48)
        out.append((game, a, b, i % players, group_seed, group % players))
    return out


def check_players(game: str, search: Search, players: int) -> None:
    """``UsageError`` naming the numbers of players the game's search plays otherwise."""
    if players not in search.players:
        offered = ", ".join(str(n) for n in search.players)
        raise UsageError(f"--players must be one of {offered} for {game}, not {players}")


def run(args: argparse.Namespace) -> int:
    """Play the match and print the score, its interval and the times per decision."""
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    game: str = args.game or "wakanda"
    search = search_of(game)
    a, b = check_level(search, args.a), check_level(search, args.b)
    variant: str | None = args.variant
    check_variant(game, search, variant)
    players: int = getattr(args, "players", 2)
    check_players(game, search, players)
    work = tasks(game, a, b, args.games, args.seed, players)
    if args.jobs == 1:
        duels = [_game(task, variant, players) for task in work]
    else:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            duels = list(pool.map(_game, work, repeat(variant), repeat(players)))
    summary = summarise(game, a, b, args.seed, work, duels)
    if variant is not None:
        summary["variant"] = variant
    if players != 2:
        summary["players"] = players
    print(json_text(summary) if args.json else format_summary(summary))
    return 0


def summarise(game: str, a: str, b: str, seed: int, work: list[tuple[str, str, str, int, int, int]],
              duels: list[Duel]) -> dict[str, Any]:
    """The match in numbers: A's score, its interval, the margin (A's points less the mean
    of the others') and the times per decision."""
    wins = shared = 0
    score = 0.0
    margins = []
    times: tuple[list[float], list[float]] = ([], [])
    for (_, _, _, seat_of_a, _, _), duel in zip(work, duels):
        others = [p for p in range(len(duel.totals)) if p != seat_of_a]
        if seat_of_a in duel.winners:
            score += 1 / len(duel.winners)
            if len(duel.winners) > 1:
                shared += 1
            else:
                wins += 1
        margins.append(duel.totals[seat_of_a] - statistics.fmean(duel.totals[p] for p in others))
        times[0].extend(duel.times[seat_of_a])
        for p in others:
            times[1].extend(duel.times[p])
    games = len(duels)
    low, high = wilson(score / games, games)
    return {"game": game, "a": a, "b": b, "games": games, "seed": seed, "wins": wins,
            "shared": shared, "losses": games - wins - shared, "score": round(score, 4),
            "share": round(score / games, 4), "interval": [round(low, 4), round(high, 4)],
            "margin": round(statistics.fmean(margins), 2),
            "ms": {side: _times(values) for side, values in zip(("a", "b"), times)}}


def _times(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"median": None, "p95": None, "decisions": 0}
    return {"median": round(statistics.median(values) * 1000, 2),
            "p95": round(percentile(values, 0.95) * 1000, 2), "decisions": len(values)}


def format_summary(s: dict[str, Any]) -> str:
    """The match as a few lines of text."""
    low, high = s["interval"]
    game = f"{s['game']} ({s['variant']} variant)" if "variant" in s else s["game"]
    if "players" in s:
        game += f", {s['players']} players"
    lines = [f"{game}: {s['a']} (A) vs {s['b']} (B), {s['games']} games, seed {s['seed']}",
             f"A {s['a']}: {s['score']:g} of {s['games']} = {100 * s['share']:.1f}% "
             f"(95% interval {100 * low:.1f}%-{100 * high:.1f}%, Wilson; "
             f"{s['wins']} won, {s['shared']} shared, {s['losses']} lost)",
             f"mean margin A-B: {s['margin']:+.1f} points"]
    for side in ("a", "b"):
        t = s["ms"][side]
        if t["decisions"]:
            lines.append(f"time per decision, {side.upper()} {s[side]}: median {t['median']:.1f} ms, "
                         f"p95 {t['p95']:.1f} ms ({t['decisions']} decisions)")
    return "\n".join(lines)
