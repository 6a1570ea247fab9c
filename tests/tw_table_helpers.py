"""Helpers for the Totem Wars table tests: a box in a temporary folder, raw events."""

from __future__ import annotations

import json

from box_helpers import choose, scan

from companion.events import Press
from companion.games.totem_wars import Match
from companion.table.registry import TagRegistry
from companion.table.session import Session

NAMES = ("Ana", "Ben", "Cleo", "Dan")

# Three players, Ana deals, Ben starts: Ben places 3, Cleo raises to 4, Ana places 4,
# Ben answers 1. All three score 7; in the war Ana has 5, Ben and Cleo 7, and Ben's air
# totem beats Cleo's water totem (T10, T11): Ben takes the 12 cards.
WAR_RECORD = (
    '{"game": "totem-wars", "players": ["Ana", "Ben", "Cleo"], "dealer": 0, "deck": "default"}\n'
    '{"totems": ["indians/buffalo", "indians/eagle", "eskimos/narwhal"]}\n'
    '{"p": 1, "play": ["aborigines/eagle", "indians/bear", "indians/hawk"]}\n'
    '{"p": 2, "play": ["aborigines/kookaburra", "aborigines/turtle", "eskimos/owl", "eskimos/whale"]}\n'
    '{"p": 0, "play": ["eskimos/polar_bear", "eskimos/walrus", "indians/raven", "indians/salmon"]}\n'
    '{"p": 1, "play": ["africans/vulture"]}\n'
)


def as_written(record: str) -> str:
    """A record kept without the format's version, as the box writes it now (version 2, R2)."""
    return record.replace('{"game": "totem-wars", ', '{"game": "totem-wars", "version": 2, ', 1)


#: The same game played on a box (its Hints setting on, the default, marks the record).
WAR_RECORD_ON_THE_BOX = as_written(WAR_RECORD.replace('"deck": "default"}', '"deck": "default", "hints": true}', 1))


def make(tmp_path, players=NAMES, tags=None):
    """A box with its data folder under ``tmp_path``, past the start menu: the unfinished
    game resumed when there is one, else a new Totem Wars set-up."""
    registry = TagRegistry(tmp_path / "tags.json", tags or {})
    session = Session(tmp_path / "data", registry, players=players)
    choose(session, "resume" if "resume" in session.view.choice.values else "totem-wars")
    return session


def set_up(table, names, dealer):
    """Players, names, dealer (the default deck)."""
    choose(table, len(names))
    for name in names:
        if table.flow.step.startswith("name"):  # names are asked when some are offered
            choose(table, name)
    choose(table, dealer)
    assert table.screen == "totems"
    return table.game


def place(table, *cards):
    """Scan the cards and press OK; the output of OK."""
    for card in cards:
        assert scan(table, card).signal == "accepted", table.message
    return table.handle(Press("ok"))


def journal(table):
    """The record lines of the game in progress."""
    return [json.loads(line) for line in
            (table.data_dir / "current.jsonl").read_text().splitlines()]


def play_war_round(table):
    """Set up the war record's game and play it through events, up to the round result."""
    set_up(table, ("Ana", "Ben", "Cleo"), 0)
    for card in ("indians/eagle", "eskimos/narwhal", "indians/buffalo"):  # Ben, Cleo, Ana
        scan(table, card)
    table.handle(Press("ok"))                                               # the deal reminder
    place(table, "aborigines/eagle", "indians/bear", "indians/hawk")
    place(table, "aborigines/kookaburra", "aborigines/turtle", "eskimos/owl", "eskimos/whale")
    place(table, "eskimos/polar_bear", "eskimos/walrus", "indians/raven", "indians/salmon")
    return place(table, "africans/vulture")


def match_of(players, totals, first_dealer=0):
    """A big game whose small games add up to ``totals``, each giving 1 to 13 points
    (T15, T16), spread evenly so that nobody reaches 42 before the last one."""
    count = max(1, -(-max(totals) // 13))
    assert min(totals) >= count, "every small game gives each player at least 1 (T15)"
    games = [[total // count + (i < total % count) for total in totals] for i in range(count)]
    match = Match(tuple(players), first_dealer)
    for points in games:
        match = match.add_points(points)
    return match
