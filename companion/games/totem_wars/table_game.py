"""Totem Wars as the table plays it: the parts the session, demo, replay and enroll take."""

from __future__ import annotations

from companion.games.totem_wars import TotemWars, items
from companion.games.totem_wars.deck import default_deck, load_deck
from companion.games.totem_wars.deck_transcription import DeckTranscription
from companion.games.totem_wars.demo import run_demo
from companion.games.totem_wars.flow import TotemWarsFlow, describe
from companion.games.totem_wars.replay import frames
from companion.games.totem_wars.report import result_line
from companion.games.totem_wars.score_flow import TotemWarsScoreFlow
from companion.games.totem_wars.setup_flow import TotemWarsSettings, TotemWarsSetupFlow
from companion.table.items import EnrollmentStep
from companion.table.table_game import TableGame


def new_game(settings: TotemWarsSettings) -> tuple[TotemWars, None]:
    """The game a finished set-up starts."""
    return TotemWars(settings.players, settings.dealer, settings.deck), None


def enrollment_steps(deck_file: str | None) -> list[EnrollmentStep]:
    """The 52 cards of the default deck, or of ``deck_file``, in the deck's order."""
    deck = load_deck(deck_file) if deck_file else default_deck()
    return items.enrollment_steps([card.name for card in deck])


TABLE_GAME = TableGame(
    item_noun="items.totem_wars",
    game_name="game.totem_wars",
    resumed="resumed.totem_wars",
    setup=lambda names, rng, data_dir: TotemWarsSetupFlow(names, data_dir),
    new_game=new_game,
    play=TotemWarsFlow,
    score=TotemWarsScoreFlow,
    describe=describe,
    result=result_line,
    frames=frames,
    demo=run_demo,
    enrollment_steps=enrollment_steps,
    transcription=DeckTranscription,
)
