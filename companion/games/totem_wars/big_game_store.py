"""The big game (T16) kept across small games: ``DATA/big_game.json``.

The file holds the running match (players, first dealer, points of each small game) and a
fingerprint of every small game counted, so a game is never counted twice — not when its
score pages are finished again after an undo, nor when the box lost power between saving
the match and filing the record. It is saved atomically (a temporary file, fsynced, then
renamed), so a power cut leaves the old or the new totals, never a mix.

>>> import tempfile
>>> from companion.games.totem_wars import Match
>>> folder = tempfile.mkdtemp()
>>> load_big_game(folder) is None
True
>>> save_big_game(folder, BigGame(Match(("Ana", "Ben")).add_points((5, 3)), ("a1",)))
>>> load_big_game(folder).match.totals
(5, 3)
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.errors import UserError
from companion.files import SMALL_BYTES, read_bytes, shown_path, write_atomically
from companion.games.totem_wars import Match, TotemWars, write_record
from companion.records import JsonError, parse_json

#: The big game's file inside the data folder.
BIG_GAME_FILE = "big_game.json"


@dataclass(frozen=True)
class BigGame:
    """The running match and the fingerprints of the small games already in it."""

    match: Match
    counted: tuple[str, ...] = ()


def fingerprint(game: TotemWars) -> str:
    """A short, stable name for one small game: a hash of its whole record."""
    return hashlib.sha256(write_record(game).encode("utf-8")).hexdigest()[:16]


def load_big_game(data_dir: str | os.PathLike[str]) -> BigGame | None:
    """The stored big game, ``None`` when there is none; one ``UserError`` line if it is
    not a regular file of at most 1 MB or is damaged (a key given twice too)."""
    path = Path(data_dir) / BIG_GAME_FILE
    raw = read_bytes(path, "the big game's totals", SMALL_BYTES, missing_ok=True)
    if raw is None:
        return None
    try:
        data = parse_json(raw.decode("utf-8"))
    except (UnicodeDecodeError, JsonError) as exc:
        reason = exc.reason if isinstance(exc, JsonError) else "not UTF-8 text"
        raise UserError(f"{shown_path(path)}: the big game's totals are damaged ({reason}); remove "
                        "the file to start a new big game") from None
    if not isinstance(data, dict) or set(data) != {"match", "counted"} or not isinstance(
            data["counted"], list) or not all(isinstance(c, str) for c in data["counted"]):
        raise UserError(f"{shown_path(path)}: not a big game file (expected match and counted)")
    try:
        match = Match.from_json(data["match"])
    except UserError as exc:
        raise UserError(f"{shown_path(path)}: {exc}") from None
    return BigGame(match, tuple(data["counted"]))


def save_big_game(data_dir: str | os.PathLike[str], big: BigGame) -> None:
    """Write the big game atomically; one ``UserError`` line if the folder is not writable."""
    folder = Path(data_dir)
    text = json.dumps({"match": big.match.to_json(), "counted": list(big.counted)}, indent=1) + "\n"
    try:
        write_atomically(folder / BIG_GAME_FILE, text)
    except OSError as exc:
        raise UserError(f"cannot save the big game's totals in {folder}: {exc.strerror}") from None


def next_dealer(big: BigGame | None, players: Sequence[str]) -> int | None:
    """The dealer of the next small game of the stored big game (T16) when it is these
    players' and still running; ``None`` otherwise (a new big game then starts)."""
    if big is None or big.match.over or big.match.players != tuple(players):
        return None
    return big.match.dealer


def with_game(big: BigGame | None, game: TotemWars) -> BigGame:
    """The big game with the finished small ``game`` counted (T16).

    A game already counted leaves it unchanged. A game of other players, of another dealer
    than the one due, or after the big game was won starts a new big game with it.
    """
    key = fingerprint(game)
    if big is not None and key in big.counted:
        return big
    if big is None or big.match.over or (big.match.players, big.match.dealer) != (game.players, game.dealer):
        big = BigGame(Match(game.players, game.dealer))
    return BigGame(big.match.add(game), big.counted + (key,))


def count_game(data_dir: str | os.PathLike[str], game: TotemWars) -> BigGame:
    """Count the finished ``game`` in the stored big game and save it; returns the result."""
    before = load_big_game(data_dir)
    after = with_game(before, game)
    if after != before:
        save_big_game(data_dir, after)
    return after


def totals_as_of(big: BigGame, game: TotemWars) -> Match | None:
    """The big game as it stood once the finished ``game`` was counted (T16), from the
    stored fingerprints: ``None`` when it is not among them, or when the store cannot tell
    which points were this game's (a game counted out of step with the stored points)."""
    key = fingerprint(game)
    if key not in big.counted or len(big.counted) != len(big.match.games):
        return None
    index = big.counted.index(key)
    match = big.match
    dealer = (match.first_dealer + index) % len(match.players)
    if (match.players, dealer, match.games[index]) != (game.players, game.dealer, game.all_points()):
        return None
    return Match(match.players, match.first_dealer, match.games[:index + 1])
