"""Totem Wars as the table plays it: the parts the session, demo, replay and enroll take."""

from __future__ import annotations

from companion.engine import Cited
from companion.games.totem_wars import TotemWars
from companion.games.totem_wars.box_seat import BoxSeats
from companion.games.totem_wars.box_setup import BoxSetupFlow
from companion.games.totem_wars.deck_transcription import DeckTranscription
from companion.games.totem_wars.demo import run_demo
from companion.games.totem_wars.flow import TotemWarsFlow, describe, totem_order
from companion.games.totem_wars.lessons import LESSON
from companion.games.totem_wars.phone import PHONE
from companion.games.totem_wars.public import PUBLIC
from companion.games.totem_wars.replay import frames, narrate
from companion.games.totem_wars.score_flow import TotemWarsScoreFlow
from companion.games.totem_wars.setup_flow import TotemWarsSettings
from companion.games.totem_wars.voice import VOICE
from companion.games.totem_wars.words import t
from companion.table.table_game import TableGame
from companion.ui.screens import prompt_line


def new_game(settings: TotemWarsSettings, *, hints: bool = False) -> tuple[TotemWars, None]:
    """The game a finished set-up starts, coached on the box when ``hints`` (the box's Hints
    setting; its record says so)."""
    return TotemWars(settings.players, settings.dealer, settings.deck, hints=hints, box=dict(settings.box)), None


def resumed(game: TotemWars) -> str:
    """Where an unfinished game resumes: at a placement, the player to move asked to scan
    again the cards laid (``Resumed. Ben: rescan cards laid, then OK``: cards scanned
    without OK were never in the journal), in the band as a prompt; the totems still to lay
    (T2); or, when a war's habitat is due (R2), ``Game resumed: round 3, Ben to play``. When
    the box wants something (a card dealt to it, its totem, its spots laid), what it asks."""
    ask = BoxSeats(game.box).prompt(game, 0, totem_order(game), [], True) if game.box else None
    if ask is not None:
        return t("resumed.totem_wars_box", ask=ask)
    if game.to_move is None:
        return Cited(t("resumed.totem_wars_totems"), "T2")
    name = game.players[game.to_move]
    if game.declaration_due is not None:
        return t("resumed.totem_wars", round=len(game.rounds) + 1, name=name)
    return prompt_line(t("resumed.totem_wars_again", name="{name}"), name)


def box_seats(game: TotemWars) -> frozenset[int]:
    """The seats the box plays (``box_seat.py``)."""
    return frozenset(game.box)


TABLE_GAME: TableGame[TotemWars] = TableGame(
    item_noun="items.totem_wars",
    game_name="game.totem_wars",
    resumed=resumed,
    setup=lambda names, rng, data_dir, options: BoxSetupFlow(names, data_dir),
    new_game=new_game,
    play=TotemWarsFlow,
    score=TotemWarsScoreFlow,
    describe=describe,
    frames=frames,
    demo=run_demo,
    transcription=DeckTranscription,
    narrate=narrate,
    lessons=LESSON,
    voice=VOICE,
    phone=PHONE,
    public=PUBLIC,
    box_seats=box_seats,
)
