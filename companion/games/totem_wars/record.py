"""Totem Wars game records (rules/totem-wars.md, "Game record"): JSON Lines, a header first.

>>> text = ('{"game": "totem-wars", "version": 2, "players": ["Ana", "Ben"], "dealer": 0, "deck": "default"}\\n'
...         '{"totems": ["indians/snake", "africans/lion"]}\\n'
...         '{"p": 1, "play": ["africans/zebra", "africans/giraffe"]}\\n')
>>> game, warnings = read_record(text)
>>> game.to_move, game.level, write_record(game) == text
(0, 2, True)

A war where the habitat of a two-habitat totem can change who takes the cards waits for
its owner's declaration, a ``{"p": 0, "habitat": "land"}`` line (R2): due, and only then
legal. The header says which version of the format the record follows (``"version": 2``,
written by the box since it asks); a record of that version whose next line is a play
while a declaration is due is refused at that line. A record with no version was kept
before owners declared: the next play shows it, and the war is read as it was scored then —
the habitat of the most war points, the first listed on a tie, said as "not declared" —
with one warning saying so.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from typing import Any

from companion.engine import IllegalMove
from companion.errors import RecordError, UserError
from companion.files import shown
from companion.games.totem_wars.deck import (
    DECKS_FOLDER,
    HABITATS,
    Card,
    Deck,
    deck_from_list,
    deck_of_data,
    default_deck,
)
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.levels import LEVELS
from companion.games.totem_wars.moves import ChooseTotems, Deal, Declare, Move, Play
from companion.games.totem_wars.words import t
from companion.records import check_keys, check_names, dump_line, integer, parse_lines, shown_value

GAME = "totem-wars"
#: The record format's version the box writes: 2 since war declarations are asked (R2); a
#: header without one is version 1.
VERSION = 2


def header_line(game: TotemWars) -> dict[str, object]:
    """The header of ``game``'s record; a deck other than the default is written out in full."""
    deck = "default" if game.deck == default_deck() else game.deck.to_list()
    header: dict[str, object] = {"game": GAME, "players": list(game.players), "dealer": game.dealer, "deck": deck}
    if not any(any(r.read_as) for r in game.rounds):
        # A war read as an old record's (nobody declared) keeps the old record's version 1,
        # written as it was: without one.
        header = {"game": GAME, "version": VERSION, **header}
    if game.hints:
        header["hints"] = True
    if game.box:
        header["box"] = {str(seat): level for seat, level in sorted(game.box.items())}
    return header


def event_line(player: int | None, move: Move) -> dict[str, object]:
    """The record line of one move (``player`` is ignored for the totems line)."""
    if isinstance(move, ChooseTotems):
        return {"totems": [c.name for c in move.cards]}
    if isinstance(move, Declare):
        return {"p": player, "habitat": move.habitat}
    if isinstance(move, Deal):
        return {"p": player, "deal": move.card.name}
    return {"p": player, "play": [c.name for c in move.cards]}


def write_record(game: TotemWars) -> str:
    """The whole record of ``game`` as text: the header, then one line per move in history."""
    lines = [dump_line(header_line(game))]
    lines += [dump_line(event_line(player, move)) for player, move in game.history]
    return "".join(lines)


def read_record(text: str, data_dir: str | os.PathLike[str] | None = None) -> tuple[TotemWars, list[str]]:
    """Replay a record: ``(game, warnings)``; a torn last line is a warning, and so (once)
    are wars without the declarations they wait for (R2), read as they were scored when
    the record was kept. ``data_dir`` is the data folder, whose ``decks/`` holds a deck the
    header names.

    A bad line raises ``RecordError`` (``line N: reason (RULE)``); nothing after it is applied.
    """
    warnings: list[str] = []
    (game,) = deque(games_by_line(text, warnings, data_dir), maxlen=1)
    return game, warnings


def games_by_line(text: str, warnings: list[str] | None = None,
                  data_dir: str | os.PathLike[str] | None = None) -> Iterator[TotemWars]:
    """The game after each line of a record, the header first: one game played on line by
    line, each line read once (copy a game you keep past the next line). The warnings of
    ``read_record`` are added to ``warnings`` at the end; ``RecordError`` at the first bad
    line."""
    lines, found = parse_lines(text)
    number, header = lines[0]
    game = _game_from_header(number, header, data_dir)
    version = header.get("version", 1)
    yield game
    undeclared: list[int] = []
    for number, obj in lines[1:]:
        if game.phase == "declare" and "play" in obj:
            due = game.declaration_due
            assert due is not None  # the declare phase waits for one
            if version >= VERSION:
                raise RecordError(number, f"{game.players[due.player]}'s habitat declaration is due "
                                          f"before the next play (p {due.player}, R2)")
            # A record kept before R2 asked: its war was scored on the most war points.
            game.declare_by_points()
            undeclared.append(number)
        _apply(game, number, obj)
        yield game
    if undeclared:
        found.append(t("tw.record.undeclared", line=undeclared[0], n=len(undeclared)))
    if warnings is not None:
        warnings.extend(found)


def _game_from_header(number: int, header: dict[str, Any], data_dir: str | os.PathLike[str] | None) -> TotemWars:
    check_keys(number, header, {"game", "players"}, {"version", "dealer", "deck", "hints", "box"})
    if header["game"] != GAME:
        raise RecordError(number, f"this is not a Totem Wars record (game {shown_value(header['game'])})")
    if "version" in header:
        integer(number, header, "version", 1, VERSION, "R2", f"a record format version from 1 to {VERSION}")
    players = header["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
        raise RecordError(number, "players must be a list of names (T1)")
    check_names(number, players, "T1")
    if not 2 <= len(players) <= 4:
        raise RecordError(number, f"Totem Wars is for 2 to 4 players, not {len(players)} (T1)")
    last = len(players) - 1
    dealer = integer(number, header, "dealer", 0, last, "T2", f"a seat from 0 to {last}") if "dealer" in header else 0
    hints = header.get("hints", False)
    if not isinstance(hints, bool):
        raise RecordError(number, f"hints must be true or false, got {shown_value(hints)}")
    return TotemWars(players, dealer, _deck(number, header.get("deck", "default"), data_dir), hints=hints,
                     box=_box(number, len(players), header.get("box", {})))


def _box(number: int, count: int, box: object) -> dict[int, str]:
    """The header's ``"box"``: the seats the box plays (``"0"`` …) → a search level."""
    seats = {str(seat) for seat in range(count)}
    if not isinstance(box, dict) or not all(seat in seats and level in LEVELS for seat, level in box.items()):
        raise RecordError(number, f'box must map a seat "0" to "{count - 1}" to a level '
                                  f'({", ".join(LEVELS)}), got {shown_value(box)}')
    return {int(seat): level for seat, level in box.items()}


def _deck(number: int, deck: object, data_dir: str | os.PathLike[str] | None) -> Deck:
    try:
        if deck == "default":
            return default_deck()
        if isinstance(deck, str):
            return deck_of_data(data_dir, deck)
        if isinstance(deck, list):
            return deck_from_list(deck, "deck")
    except UserError as exc:
        raise RecordError(number, str(exc)) from None
    raise RecordError(number, f'deck must be "default", the name of a deck in the data folder\'s '
                              f'{DECKS_FOLDER}/ or a list of 52 cards, got {shown_value(deck)} (T1a)')


def _cards(game: TotemWars, number: int, names: object, key: str) -> tuple[Card, ...]:
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RecordError(number, f"{key} must be a list of card names like \"indians/snake\"")
    cards: list[Card] = []
    for name in names:
        try:
            cards.append(game.deck.card(name))
        except KeyError:
            raise RecordError(number, f"unknown card {shown(name)} (not in this deck, T1a)") from None
    return tuple(cards)


def _seat(game: TotemWars, number: int, obj: dict[str, Any]) -> int:
    """The seat of a line's ``p``, checked."""
    last = len(game.players) - 1
    return integer(number, obj, "p", 0, last, "T1", f"a seat from 0 to {last}")


def _apply(game: TotemWars, number: int, obj: dict[str, Any]) -> None:
    if "undo" in obj:
        check_keys(number, obj, {"undo"})
        if obj["undo"] is not True:
            raise RecordError(number, "undo must be true")
        try:
            game.pop()
        except IllegalMove as exc:
            raise RecordError(number, str(exc)) from None
        return
    move: Move
    if "totems" in obj:
        check_keys(number, obj, {"totems"})
        move = ChooseTotems(_cards(game, number, obj["totems"], "totems"))
    elif "play" in obj:
        check_keys(number, obj, {"p", "play"})
        player = _seat(game, number, obj)
        if game.to_move is not None and player != game.to_move:
            rule = "T6" if game.table[game.to_move] else "T5"
            raise RecordError(number, f"it is {game.players[game.to_move]}'s turn (p {game.to_move}), "
                                      f"not {game.players[player]}'s ({rule})")
        move = Play(_cards(game, number, obj["play"], "play"))
    elif "deal" in obj:
        check_keys(number, obj, {"p", "deal"})
        player = _seat(game, number, obj)
        owed = game.deal_due
        if owed is not None and player != owed.seat:
            raise RecordError(number, f"the card due is {game.players[owed.seat]}'s (p {owed.seat}), "
                                      f"not {game.players[player]}'s (T13)")
        if not isinstance(obj["deal"], str):
            raise RecordError(number, 'deal must be a card name like "indians/snake"')
        (card,) = _cards(game, number, [obj["deal"]], "deal")
        move = Deal(card)
    elif "habitat" in obj:
        check_keys(number, obj, {"p", "habitat"})
        player = _seat(game, number, obj)
        habitat = obj["habitat"]
        if habitat not in HABITATS:
            raise RecordError(number, f"habitat must be {', '.join(HABITATS[:-1])} or {HABITATS[-1]} (T1)")
        due = game.declaration_due
        if due is not None and player != due.player:
            raise RecordError(number, f"it is {game.players[due.player]}'s declaration (p {due.player}), "
                                      f"not {game.players[player]}'s (R2)")
        move = Declare(habitat)
    else:
        raise RecordError(number, "expected a totems, play, habitat, deal or undo line")
    try:
        game.push(move)
    except IllegalMove as exc:
        raise RecordError(number, str(exc)) from None
