"""The OLED frames of a Totem Wars record, for ``replay``.

The screen after an action follows from the game alone (the deal reminder after the totems,
the first result page after a round, else the board: ``views.after_action``), so replaying
a record line by line gives the frames the box showed. A finished game then ends as on the
box, with the end pages (T15, T16). The record does not hold the big game's totals: the
data folder's ``big_game.json`` gives them as of this game when it still keeps this game's
points; else the page shows this game's own points and says the totals stay on the box that
played it, or that the folder's file cannot be read.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from PIL import Image

from companion.errors import UserError
from companion.games.totem_wars.big_game_store import load_big_game, totals_as_of
from companion.games.totem_wars.flow import describe
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.match import Match
from companion.games.totem_wars.moves import ChooseTotems, Move
from companion.games.totem_wars.record import games_by_line, read_record
from companion.games.totem_wars.report import result_line
from companion.games.totem_wars.round_screens import end_pages, outcome_line, refill_line
from companion.games.totem_wars.views import after_action, frame_after
from companion.games.totem_wars.words import t
from companion.table.replay_frames import LineNotes


def frames(text: str, data_dir: str | os.PathLike[str] | None = None) -> Iterator[tuple[Image.Image, str]]:
    """``(image, note)`` after each line of a record, in order, then the end pages of a
    finished game (noted with its result); each line is played once. ``data_dir`` is the
    data folder, whose ``decks/`` holds a deck the header names.

    ``RecordError`` (``line N: reason``) when the record is bad, before any frame.
    """
    read_record(text, data_dir)  # the whole record checked first: a bad one gives no frame
    notes = LineNotes(describe, _made)
    game: TotemWars | None = None
    for number, game in enumerate(games_by_line(text, data_dir=data_dir)):
        if number:
            note = notes.after(game)
        else:
            note = t("replay.dealt", names=", ".join(game.players), dealer=game.players[game.dealer])
        yield frame_after(game, note), note
    if game is not None and game.outcome() is not None:
        match, readable = _big_game_after(game, data_dir)
        for image in end_pages(game, match, elsewhere=readable):
            yield image, result_line(game)


def _big_game_after(game: TotemWars, data_dir: str | os.PathLike[str] | None) -> tuple[Match | None, bool]:
    """The big game's totals with ``game`` counted (T16), and whether the data folder could
    be read: its totals as of this game, even when games were counted since; ``(None,
    True)`` when they are not there (no folder, no file, the game not among its games or
    the big game started anew since), ``(None, False)`` when its file is damaged."""
    if data_dir is None:
        return None, True
    try:
        big = load_big_game(data_dir)
    except UserError:
        return None, False
    return (None if big is None else totals_as_of(big, game)), True


def _made(game: TotemWars, player: int | None, move: Move) -> str:
    # The totems are laid face down: the line says that they are, never which (T2).
    return t("replay.totems_down") if isinstance(move, ChooseTotems) else describe(game, player, move)


def narrate(game: TotemWars) -> list[str]:
    """What the game's last move did, a line each, for a narrated input script: that the
    totems are down (never which, T2); any other move, then the round's result when it
    ended one — the war, where the cards went and the refill (T9–T14)."""
    player, move = game.history[-1]
    if isinstance(move, ChooseTotems):
        return [t("replay.totems_down")]
    lines = [describe(game, player, move)]
    if after_action(game) == "round":
        result = game.rounds[-1]
        title = t("tw.round", n=result.number) + (t("tw.round.war") if result.war else "")
        lines.append(f"{title} · {outcome_line(game, result)} · {refill_line(game, result)}")
    return lines
