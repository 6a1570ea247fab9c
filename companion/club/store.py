"""The club's database: SQLite (a file, the default) or PostgreSQL (a ``postgresql://`` URL,
through psycopg 3, imported only then).

Tables: ``games`` (the truth: one row a game, ``id`` unique, ``seq`` the order received),
``ratings`` (each player's rating a game) and ``rating_history`` (each player's rating
after each of their games) — both derived, rewritten by ``rebuild`` from the games.
``add`` keeps a game and its ratings in one transaction: committed, or not at all; a game
already kept changes nothing (however many times it arrives).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.club import ratings
from companion.club.ratings import Rating
from companion.club.results import Result
from companion.errors import UserError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    seq {serial} PRIMARY KEY, id TEXT NOT NULL UNIQUE, game TEXT NOT NULL, box TEXT NOT NULL,
    finished TEXT NOT NULL, received DOUBLE PRECISION NOT NULL, record TEXT NOT NULL,
    players TEXT NOT NULL, points TEXT NOT NULL, winners TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ratings (
    game TEXT NOT NULL, name TEXT NOT NULL, mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL, wins INTEGER NOT NULL,
    PRIMARY KEY (game, name));
CREATE TABLE IF NOT EXISTS rating_history (
    seq BIGINT NOT NULL, game TEXT NOT NULL, name TEXT NOT NULL, mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL, PRIMARY KEY (seq, name));
CREATE INDEX IF NOT EXISTS games_box ON games (box);
CREATE INDEX IF NOT EXISTS history_player ON rating_history (game, name)
"""


@dataclass(frozen=True)
class KeptGame:
    """A game as the club keeps it."""

    seq: int
    id: str
    game: str
    box: str
    finished: str
    received: float
    result: Result


def is_postgres(where: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database rather than an SQLite file."""
    return where.startswith(("postgresql://", "postgres://"))


class Store:
    """One connection to the club's database (``where``: a file path or a PostgreSQL URL).
    Safe to share between threads: one statement group at a time."""

    def __init__(self, where: str | Path) -> None:
        self.where = str(where)
        self.postgres = is_postgres(self.where)
        self._lock = threading.Lock()
        self._db: Any = None
        self._connect()
        serial = "BIGSERIAL" if self.postgres else "INTEGER"
        with self._transaction() as cur:
            for statement in _SCHEMA.format(serial=serial).split(";"):
                cur.execute(statement)

    def _connect(self) -> None:
        try:
            if self.postgres:
                import psycopg  # only for a PostgreSQL club
                self._db = psycopg.connect(self.where, connect_timeout=10)
            else:
                Path(self.where).parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.where, check_same_thread=False, timeout=30)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
        except Exception as exc:  # psycopg's and sqlite's errors: one line
            raise UserError(f"cannot open the club's database: {str(exc).strip().splitlines()[0]}") from None

    def close(self) -> None:
        """Close the connection."""
        self._db.close()

    def _sql(self, statement: str) -> str:
        return statement.replace("?", "%s") if self.postgres else statement

    class _Cursor:
        def __init__(self, store: Store, cursor: Any) -> None:
            self.store, self.cursor = store, cursor

        def execute(self, statement: str, params: tuple[Any, ...] = ()) -> Any:
            self.cursor.execute(self.store._sql(statement), params)
            return self.cursor

    def _transaction(self) -> Any:
        store = self

        class _Tx:
            def __enter__(self) -> Store._Cursor:
                store._lock.acquire()
                try:
                    if store.postgres and store._db.closed:
                        store._connect()  # the server restarted: the games not kept meanwhile come again
                    self.cursor = store._db.cursor()
                except BaseException:
                    store._lock.release()
                    raise
                return Store._Cursor(store, self.cursor)

            def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
                try:
                    if kind is None:
                        store._db.commit()
                    else:
                        with contextlib.suppress(Exception):  # a connection gone: the first error tells
                            store._db.rollback()
                finally:
                    self.cursor.close()
                    store._lock.release()
        return _Tx()

    def add(self, key: str, box: str, finished: str, record: bytes, result: Result) -> bool:
        """Keep the game ``key`` and move its players' ratings, in one transaction; False
        when it was kept already (nothing changes). Returns once committed."""
        with self._transaction() as cur:
            row = cur.execute(
                "INSERT INTO games (id, game, box, finished, received, record, players, points, winners) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING seq",
                (key, result.game, box, finished, time.time(), record.decode("utf-8"),
                 json.dumps(result.players), json.dumps(result.points), json.dumps(result.winners))).fetchone()
            if row is None:
                return False
            seq = row[0]
            before = []
            for name in result.players:
                found = cur.execute("SELECT mu, sigma, games, wins FROM ratings WHERE game = ? AND name = ?",
                                    (result.game, name)).fetchone()
                before.append(Rating(*found) if found else ratings.fresh())
            for name, rating in zip(result.players, ratings.rate(result, before)):
                self._put_rating(cur, seq, result.game, name, rating)
        return True

    @staticmethod
    def _put_rating(cur: Store._Cursor, seq: int, game: str, name: str, rating: Rating) -> None:
        cur.execute("INSERT INTO ratings (game, name, mu, sigma, games, wins) VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (game, name) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                    "games = excluded.games, wins = excluded.wins",
                    (game, name, rating.mu, rating.sigma, rating.games, rating.wins))
        cur.execute("INSERT INTO rating_history (seq, game, name, mu, sigma) VALUES (?, ?, ?, ?, ?)",
                    (seq, game, name, rating.mu, rating.sigma))

    def games(self, game: str | None = None, player: str | None = None,
              after: int = 0, limit: int | None = None) -> list[KeptGame]:
        """The kept games in the order received (of one game, of one player's name)."""
        where: list[str] = ["seq > ?"]
        params: list[object] = [after]
        if game is not None:
            where.append("game = ?")
            params.append(game)
        if player is not None:
            # The JSON list holds the name quoted: a first filter, the exact test below.
            where.append("players LIKE ?")
            params.append("%" + json.dumps(player).replace("\\", "\\\\").replace("%", "\\%")
                          .replace("_", "\\_") + "%")
        statement = (f"SELECT seq, id, game, box, finished, received, players, points, winners FROM games "
                     f"WHERE {' AND '.join(where)}" + (" ESCAPE '\\'" if player is not None else "")
                     + " ORDER BY seq" + (f" LIMIT {int(limit)}" if limit else ""))
        with self._transaction() as cur:
            rows = cur.execute(statement, tuple(params)).fetchall()
        kept = [KeptGame(seq, key, name, box, finished, received,
                         Result(name, tuple(json.loads(players)), tuple(json.loads(points)),
                                tuple(json.loads(winners))))
                for seq, key, name, box, finished, received, players, points, winners in rows]
        return [k for k in kept if player is None or player in k.result.players]

    def game(self, key: str) -> tuple[KeptGame, str] | None:
        """The kept game ``key`` and its record; None when the club has no such game."""
        with self._transaction() as cur:
            row = cur.execute("SELECT seq, record FROM games WHERE id = ?", (key,)).fetchone()
        if row is None:
            return None
        kept = self.games(after=int(row[0]) - 1, limit=1)
        return (kept[0], str(row[1])) if kept else None

    def count(self) -> int:
        """How many games are kept."""
        with self._transaction() as cur:
            return int(cur.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def ratings(self, game: str | None = None) -> dict[tuple[str, str], Rating]:
        """The kept ratings, ``(game, name)`` → rating."""
        statement = "SELECT game, name, mu, sigma, games, wins FROM ratings"
        with self._transaction() as cur:
            rows = (cur.execute(statement + " WHERE game = ?", (game,)) if game is not None
                    else cur.execute(statement)).fetchall()
        return {(g, n): Rating(mu, sigma, games, wins) for g, n, mu, sigma, games, wins in rows}

    def history(self, game: str, name: str) -> list[tuple[int, float]]:
        """A player's shown rating after each of their games: ``(seq, rating)``."""
        with self._transaction() as cur:
            rows = cur.execute("SELECT seq, mu, sigma FROM rating_history WHERE game = ? AND name = ? "
                               "ORDER BY seq", (game, name)).fetchall()
        return [(seq, Rating(mu, sigma).shown) for seq, mu, sigma in rows]

    def results(self) -> Iterator[Result]:
        """Every kept game's result, in the order received (for ``ratings.recompute``)."""
        return iter([k.result for k in self.games()])

    def rebuild(self) -> None:
        """Rewrite the ratings from the games, from scratch."""
        kept = self.games()
        with self._transaction() as cur:
            cur.execute("DELETE FROM ratings")
            cur.execute("DELETE FROM rating_history")
            table: dict[tuple[str, str], Rating] = {}
            for k in kept:
                keys = [(k.result.game, name) for name in k.result.players]
                after = ratings.rate(k.result, [table.get(key) or ratings.fresh() for key in keys])
                for (game, name), rating in zip(keys, after):
                    table[game, name] = rating
                    self._put_rating(cur, k.seq, game, name, rating)
