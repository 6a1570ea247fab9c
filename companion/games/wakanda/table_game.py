"""Wakanda as the table plays it: the parts the session, demo, replay and enroll take."""

from __future__ import annotations

from companion.games.wakanda import Wakanda
from companion.games.wakanda.box_player import BoxPlayer
from companion.games.wakanda.demo import run_demo
from companion.games.wakanda.flow import WakandaFlow, describe
from companion.games.wakanda.lessons import LESSON
from companion.games.wakanda.phone import PHONE
from companion.games.wakanda.public import PUBLIC
from companion.games.wakanda.replay import frames
from companion.games.wakanda.rules import EMPTY_CLAIM
from companion.games.wakanda.score_flow import ScoreFlow
from companion.games.wakanda.screens import turn_number
from companion.games.wakanda.setup_flow import Settings, SetupFlow
from companion.games.wakanda.voice import VOICE
from companion.games.wakanda.words import t
from companion.table.settings import GameOption
from companion.table.table_game import TableGame
from companion.ui.screens import prompt_line


def new_game(settings: Settings, *, hints: bool = False) -> tuple[Wakanda, str | None]:
    """The game a finished set-up starts, and the note that says who drew the lot; played
    with move hints when ``hints`` (its record says so)."""
    game = Wakanda(list(settings.villages), first=settings.first, players=settings.players,
                   variant=settings.variant, empty_claim=settings.empty_claim, hints=hints,
                   box=dict(settings.box))
    if not settings.by_lot:
        return game, None
    # The note takes the prompt's place: after the lot, what to do now (W4).
    ask = BoxPlayer(game.box).prompt(game, pending=False, short=True) if game.box else None
    if ask is None:
        ask = prompt_line(t("prompt.draw.short", name="{name}"), game.name(game.first), game.players, short=True)
    return game, t("start.by_lot", ask=ask)


def resumed(game: Wakanda) -> str:
    """Where an unfinished game resumes: ``Game resumed: turn 14, Ana to play``; on the box's
    turn, what it asks the players to do for it (``Game resumed, turn 3. I claim village 2``),
    since the note takes the place of its ask."""
    ask = BoxPlayer(game.box).prompt(game, pending=False, short=True) if game.box else None
    if ask is not None:
        return t("resumed.wakanda_box", turn=turn_number(game), ask=ask)
    return t("resumed.wakanda", turn=turn_number(game), name=game.players[game.to_move or 0])


#: The settings page's Wakanda settings: the variant offered first at set-up (W10) and the
#: empty-claim house rule (R1).
SETTINGS = (
    GameOption("variant", "settings.wakanda.variant", "settings.wakanda.variant_about",
               ("open", "hidden"), ("settings.wakanda.open", "settings.wakanda.hidden")),
    GameOption("empty_claim", "settings.wakanda.empty_claim", "settings.wakanda.empty_claim_about",
               EMPTY_CLAIM, tuple(f"settings.wakanda.{rule}" for rule in EMPTY_CLAIM)),
)


def box_seats(game: Wakanda) -> frozenset[int]:
    """The seats the box plays (``BoxPlayer``)."""
    return frozenset(game.box)


TABLE_GAME: TableGame[Wakanda] = TableGame(
    item_noun="items.wakanda",
    game_name="game.wakanda",
    resumed=resumed,
    setup=lambda names, rng, data_dir, options: SetupFlow(
        names, rng, variant=options["variant"], empty_claim=options["empty_claim"]),
    new_game=new_game,
    play=WakandaFlow,
    score=lambda game, data_dir: ScoreFlow(game),
    describe=describe,
    frames=frames,
    demo=run_demo,
    settings=SETTINGS,
    lessons=LESSON,
    box_seats=box_seats,
    voice=VOICE,
    phone=PHONE,
    public=PUBLIC,
)
