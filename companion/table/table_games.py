"""The games the table plays, and what the session needs of each: its set-up, how a set-up
becomes a game, its play and score flows, how a record is read back.

The session itself knows no game; adding one means adding a ``TableGame`` here.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Callable

from companion.games import game_module
from companion.games.wakanda import result_line as wakanda_result_line
from companion.table.score_flow import ScoreFlow
from companion.table.setup_flow import Settings, SetupFlow
from companion.table import totem_wars_flow, wakanda_flow
from companion.table.totem_wars_score import TotemWarsScoreFlow
from companion.table.totem_wars_setup import TotemWarsSettings, TotemWarsSetupFlow
from companion.ui.text import t


@dataclass(frozen=True)
class TableGame:
    """One game as the table plays it."""

    name: str                    # as in record headers and ``--game``
    title: str                   # as in the start menu
    wrong_item: str              # text key: said when a tag of the other game is scanned
    resumed: str                 # text key: said when an unfinished game comes back
    setup: Callable              # (session) -> the set-up flow
    new_game: Callable           # (settings) -> (game, note or None)
    play: Callable               # (game, journal, tracker) -> the play flow
    score: Callable              # (game, data_dir) -> the score flow
    describe: Callable           # (game, player, move) -> what the move did, one line
    result: Callable             # (finished game) -> who won, by how much and why, one line

    @property
    def engine(self) -> ModuleType:
        """The rules engine package (``header_line``, ``read_record`` …)."""
        return game_module(self.name)


def _new_wakanda(settings: Settings):
    from companion.games.wakanda import Wakanda
    game = Wakanda(list(settings.villages), first=settings.first,
                   players=settings.players, variant=settings.variant)
    note = t("start.by_lot", name=game.name(game.first)) if settings.by_lot else None
    return game, note


def _new_totem_wars(settings: TotemWarsSettings):
    from companion.games.totem_wars import TotemWars
    return TotemWars(settings.players, settings.dealer, settings.deck), None


WAKANDA = TableGame(
    name="wakanda", title="Wakanda",
    wrong_item="wrong_game.wakanda",
    resumed="resumed.wakanda",
    setup=lambda session: SetupFlow(session.players, session.rng),
    new_game=_new_wakanda,
    play=wakanda_flow.PlayFlow,
    score=lambda game, data_dir: ScoreFlow(game),
    describe=wakanda_flow.describe,
    result=wakanda_result_line,
)

TOTEM_WARS = TableGame(
    name="totem-wars", title="Totem Wars",
    wrong_item="wrong_game.totem_wars",
    resumed="resumed.totem_wars",
    setup=lambda session: TotemWarsSetupFlow(session.players, session.data_dir),
    new_game=_new_totem_wars,
    play=totem_wars_flow.TotemWarsFlow,
    score=TotemWarsScoreFlow,
    describe=totem_wars_flow.describe,
    result=lambda game: game.outcome().reason,
)

#: Record name → the game at the table, in menu order.
TABLE_GAMES = {game.name: game for game in (WAKANDA, TOTEM_WARS)}
