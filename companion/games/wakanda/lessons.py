"""The Wakanda lesson: a first game played with the box, one real action a step.

The steps follow a first game at the table: the pieces and the set-up (W1, W2, W3, W10),
the first draws and builds and the poles (W4), the first claim and the tile it opens (W4,
W10), what the villages are worth on this row (W7) and the sun penalty (W8), then the game
goes on with short notes on new situations — a player out of headdresses (W6), the empty
bag (W4) — to the end (W6) and its score, explained on the real final position (W7, W8,
W9). Every text reads the real table: the piece just drawn, the tiles laid out, who owns
what.

The runner is ``companion/table/tutorial_flow.py``; the words are the catalogue's
``tutorial.wakanda.*``; the demo's learner is ``lesson_demo.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.contract import Flow
from companion.engine import Refusal
from companion.games.wakanda.flow import WakandaFlow
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.lesson_demo import Learner
from companion.games.wakanda.lesson_screens import row_picture
from companion.games.wakanda.moves import Build, Claim, Draw, Move, Reveal
from companion.games.wakanda.rules import PIECE_VILLAGE_POINTS
from companion.games.wakanda.setup_flow import SetupFlow
from companion.games.wakanda.views import BoardView
from companion.games.wakanda.words import in_text, t
from companion.table.lesson import Lesson, Situation, Step

PIECES_TOPIC = "tutorial.topic.pieces"
SETUP_TOPIC = "tutorial.topic.setup"
TURN_TOPIC = "tutorial.topic.turn"
CLAIM_TOPIC = "tutorial.topic.claim"
SCORES_TOPIC = "tutorial.topic.scores"
PLAY_TOPIC = "tutorial.topic.play"
END_TOPIC = "tutorial.topic.end"


def _w(key: str, **fields: Any) -> str:  # format fields, as the catalogue takes them
    return t(f"tutorial.wakanda.{key}", **fields)


def _mover(s: Situation) -> str:
    """The name of the player to move (the next to move while a tile waits)."""
    game = s.game
    return game.name(game.to_move) if game is not None and game.to_move is not None else ""


def _setup(s: Situation) -> SetupFlow | None:
    """The set-up on screen; None when the flow is another."""
    return s.flow if isinstance(s.flow, SetupFlow) else None


def _setup_step(s: Situation) -> str | None:
    setup = _setup(s)
    return setup.current if setup is not None else None


def _setup_at(*steps: str) -> Callable[[Situation], bool]:
    """Whether the set-up on screen asks one of ``steps``."""
    return lambda s: s.game is None and _setup_step(s) in steps


def _setup_past(*steps: str) -> Callable[[Situation], bool]:
    """Whether the set-up has got past its step (it is at one of ``steps``, or over)."""
    return lambda s: s.game is not None or _setup_step(s) in steps


def _setup_variant(s: Situation) -> str:
    """The variant the set-up on screen is at (the rulebook's, open, before it is chosen)."""
    setup = _setup(s)
    return setup.variant if setup is not None else "open"


def _phase(*phases: str) -> Callable[[Situation], bool]:
    return lambda s: s.game is not None and s.game.phase in phases


def _is(kind: type[Move]) -> Callable[[Situation, object], bool]:
    return lambda s, move: isinstance(move, kind)


def _any(s: Situation, move: object) -> bool:
    return True


# --- what the pieces and villages are worth, on the real row ------------------------------

def _village_number(game: Wakanda, village: str) -> int | None:
    return game.villages.index(village) + 1 if village in game.villages else None


def worth(game: Wakanda, piece: str) -> str:
    """What ``piece`` can score in this game, from the row laid out (W7, W8)."""
    number = _village_number(game, piece)
    if piece == "sun":
        if number is not None:
            return _w("worth.sun", n=number)
        return _w("worth.sun_hidden" if None in game.villages else "worth.sun_none")
    if number is not None:
        return _w("worth.piece", piece=in_text(piece), points=PIECE_VILLAGE_POINTS[piece], n=number)
    return _w("worth.piece_none", piece=in_text(piece))


# --- the pages ------------------------------------------------------------------------------

def _tiles_page(s: Situation) -> str:
    hidden = _setup_variant(s) == "hidden"
    return _w("tiles.hidden" if hidden else "tiles.open")


def _tiles_did(s: Situation) -> str:
    setup = _setup(s)
    villages = s.game.villages if s.game is not None else setup.tiles if setup is not None else ()
    return ", ".join(in_text(v) if v else "?" for v in villages)


def _drawn(s: Situation) -> str | None:
    """The piece the player to move drew this turn; None when the turn began without a
    draw (the bag is empty)."""
    history = s.game.history
    return history[-1][1].piece if history and isinstance(history[-1][1], Draw) else None


def _build_page(s: Situation) -> str:
    piece = _drawn(s)
    if piece is None:
        return _w("build.plain", last=s.game.open_count)
    return _w("build.page", name=_mover(s), piece=in_text(piece), worth=worth(s.game, piece),
              last=s.game.open_count)


def _pole_page(s: Situation) -> str:
    piece = _drawn(s)
    return _w("pole.page", worth=worth(s.game, piece) if piece is not None else "")


def _claimed(s: Situation) -> tuple[int, int]:
    """The player who made the last claim and the village's number."""
    player, move = next((p, m) for p, m in reversed(s.game.history) if isinstance(m, Claim))
    return player, move.village


def _reveal_page(s: Situation) -> str:
    return _w("reveal.page", n=s.game.open_count)


def _opened_page(s: Situation) -> str:
    game = s.game
    number = game.open_count
    return _w("opened.page", n=number, village=in_text(game.villages[number - 1]))


def _owned_page(s: Situation) -> str:
    game = s.game
    player, number = _claimed(s)
    village = game.villages[number - 1]
    name = game.name(player)
    if village in PIECE_VILLAGE_POINTS:
        scores = _w("scores.piece", points=PIECE_VILLAGE_POINTS[village], piece=in_text(village), name=name)
    else:
        scores = _w(f"scores.{village}", name=name)
    return _w("owned.page", name=name, n=number, village=in_text(village), scores=scores)


def _sun_page(s: Situation) -> str:
    game = s.game
    number = _village_number(game, "sun")
    if number is not None:
        return _w("sun.page", n=number)
    return _w("sun.page_hidden" if None in game.villages else "sun.page_none")


def _out_page(s: Situation) -> str:
    game = s.game
    out = next(p for p in (0, 1) if not game.headdresses[p])
    return _w("out.page", name=game.name(out))


def _end_page(s: Situation) -> str:
    game = s.game
    left = sum(game.bag.values()) + sum(sum(hand.values()) for hand in game.hands)
    return _w("end.page", left=left)


def _villages_page(s: Situation) -> str:
    game = s.game
    lines = [_w("villages.intro")]
    for player in (0, 1):
        score = game.score(player)
        parts = ", ".join(f"{in_text(v)} {points}" for v, points in score.villages.items())
        lines.append(_w("villages.player", name=game.name(player), parts=parts or "-"))
    return "\n".join(lines)


def _suns_page(s: Situation) -> str:
    game = s.game
    lines = []
    for player in (0, 1):
        score = game.score(player)
        suns = sum(pole.count("sun") for pole, owner in zip(game.poles, game.owners) if owner == player)
        if "sun" in score.villages:
            lines.append(_w("suns.owner", name=game.name(player), n=suns))
        elif suns:
            lines.append(_w("suns.penalty", name=game.name(player), n=suns))
        else:
            lines.append(_w("suns.none", name=game.name(player)))
    return "\n".join([_w("suns.intro"), *lines])


def _winner_page(s: Situation) -> str:
    game = s.game
    totals = [game.score(p).total for p in (0, 1)]
    outcome = game.outcome()
    winner = outcome.winners[0] if outcome is not None and outcome.winners else 0
    key = "winner.higher" if totals[0] != totals[1] else "winner.tie"
    return _w(key, a=game.name(0), b=game.name(1), x=totals[0], y=totals[1],
              name=game.name(winner))


def _variant_did(s: Situation) -> str:
    game = s.game
    variant = game.variant if game is not None else _setup_variant(s)
    return t("setup.open" if variant == "open" else "setup.hidden")


def _first_did(s: Situation) -> str:
    game = s.game
    return _w("did.first", name=game.name(game.first)) if game is not None else ""


def _playing(s: Situation) -> bool:
    return s.game is not None


def _has_claim(s: Situation) -> bool:
    return s.game is not None and any(isinstance(m, Claim) for _, m in s.game.history)


def _claim_possible(s: Situation) -> bool:
    game = s.game
    return (game is not None and game.phase == "action"
            and any(isinstance(m, Claim) for m in game.legal_moves()))


def _out_of_headdresses(s: Situation) -> bool:
    game = s.game
    return game is not None and game.phase != "over" and 0 in game.headdresses


def _bag_empty(s: Situation) -> bool:
    game = s.game
    return game is not None and game.phase != "over" and not any(game.bag.values())


def _opened(s: Situation) -> bool:
    game = s.game
    return (game is not None and game.variant == "open" and game.phase != "over"
            and any(owner is not None for owner in game.owners))


STEPS = (
    Step("pieces", "W1", PIECES_TOPIC, "tutorial.wakanda.title.pieces",
         ask=lambda s: _w("pieces.ask"), page=lambda s: _w("pieces.page")),
    Step("variant", "W10", SETUP_TOPIC, "tutorial.wakanda.title.variant",
         ask=lambda s: _w("variant.ask"), page=lambda s: _w("variant.page"),
         when=_setup_at("variant"), passed=_setup_past("tiles", "first"), did=_variant_did),
    Step("tiles", "W2", SETUP_TOPIC, "tutorial.wakanda.title.tiles",
         ask=lambda s: _w("tiles.ask"), page=_tiles_page,
         when=_setup_at("tiles"), passed=_setup_past("first"), did=_tiles_did),
    Step("first", "W3", SETUP_TOPIC, "tutorial.wakanda.title.first",
         ask=lambda s: _w("first.ask"), page=lambda s: _w("first.page"),
         when=_setup_at("first"), passed=_setup_past(), did=_first_did),
    Step("draw", "W4", TURN_TOPIC, "tutorial.wakanda.title.draw",
         ask=lambda s: _w("draw.ask", name=_mover(s)), page=lambda s: _w("draw.page", name=_mover(s)),
         when=_phase("draw"), wants=_is(Draw)),
    Step("build", "W4", TURN_TOPIC, "tutorial.wakanda.title.build",
         ask=lambda s: _w("build.ask", name=_mover(s), last=s.game.open_count), page=_build_page,
         when=_phase("action"), wants=_is(Build)),
    Step("draw2", "W4", TURN_TOPIC, "tutorial.wakanda.title.draw",
         ask=lambda s: _w("draw2.ask", name=_mover(s)), when=_phase("draw"), wants=_is(Draw)),
    Step("pole", "W4", TURN_TOPIC, "tutorial.wakanda.title.pole",
         ask=lambda s: _w("pole.ask", name=_mover(s)), page=_pole_page,
         when=_phase("action"), wants=_is(Build)),
    Step("draw3", "W4", CLAIM_TOPIC, "tutorial.wakanda.title.draw",
         ask=lambda s: _w("draw2.ask", name=_mover(s)), when=_phase("draw"), wants=_is(Draw)),
    Step("claim", "W4", CLAIM_TOPIC, "tutorial.wakanda.title.claim",
         ask=lambda s: _w("claim.ask", name=_mover(s)),
         page=lambda s: _w("claim.page", name=_mover(s)), when=_claim_possible, wants=_is(Claim)),
    Step("reveal", "W10", CLAIM_TOPIC, "tutorial.wakanda.title.reveal",
         ask=lambda s: _w("reveal.ask", n=s.game.open_count), page=_reveal_page,
         when=_phase("reveal"), wants=_is(Reveal), optional=True),
    Step("opened", "W2", CLAIM_TOPIC, "tutorial.wakanda.title.opened",
         ask=lambda s: _w("opened.ask"), page=_opened_page, when=_opened, optional=True),
    Step("owned", "W7", CLAIM_TOPIC, "tutorial.wakanda.title.owned",
         ask=lambda s: _w("owned.ask"), page=_owned_page, when=_has_claim),
    Step("row", "W7", SCORES_TOPIC, "tutorial.wakanda.title.row",
         ask=lambda s: _w("row.ask"), page=lambda s: _w("row.page"),
         picture=lambda s: row_picture(s.game), when=_playing),
    Step("sun", "W8", SCORES_TOPIC, "tutorial.wakanda.title.sun",
         ask=lambda s: _w("sun.ask"), page=_sun_page, when=_playing),
    Step("play_on", "W5", PLAY_TOPIC, "tutorial.wakanda.title.play_on",
         ask=lambda s: _w("play_on.ask", name=_mover(s)), page=lambda s: _w("play_on.page"),
         when=_phase("draw", "action", "reveal"), wants=_any),
    Step("out", "W6", PLAY_TOPIC, "tutorial.wakanda.title.out",
         ask=lambda s: _w("play_on.ask", name=_mover(s)), page=_out_page,
         when=_out_of_headdresses, wants=_any, optional=True),
    Step("bag_empty", "W4", PLAY_TOPIC, "tutorial.wakanda.title.bag_empty",
         ask=lambda s: _w("bag_empty.ask", name=_mover(s)), page=lambda s: _w("bag_empty.page"),
         when=_bag_empty, wants=_any, optional=True),
    Step("end", "W6", END_TOPIC, "tutorial.wakanda.title.end",
         ask=lambda s: _w("end.ask"), page=_end_page, when=_phase("over")),
    Step("villages", "W7", END_TOPIC, "tutorial.wakanda.title.villages",
         ask=lambda s: _w("villages.ask"), page=_villages_page, when=_phase("over")),
    Step("suns", "W8", END_TOPIC, "tutorial.wakanda.title.suns",
         ask=lambda s: _w("suns.ask"), page=_suns_page, when=_phase("over")),
    Step("winner", "W9", END_TOPIC, "tutorial.wakanda.title.winner",
         ask=lambda s: _w("winner.ask"), page=_winner_page, when=_phase("over")),
)


def explain(s: Situation, refusal: Refusal) -> str | None:
    """The lesson's words for an action the rules refused, on the real table; None: the
    rule's own page says it."""
    game = s.game
    if game is None:
        return None
    key = refusal.key
    if key == "not_open":
        return _w("wrong.not_open", last=game.open_count)
    if key == "not_yours":
        return _w("wrong.not_yours", a=game.name(0), b=game.name(1))
    if key in ("draw_first", "one_draw", "empty_pole", "claimed", "not_in_hand"):
        return _w(f"wrong.{key}")
    if key == "turn_up_first":
        return _w("wrong.turn_up_first", n=game.open_count)
    return None


def asks_on(flow: Flow) -> bool:
    """Whether the board waits for the next action of the player to move: the step's ask
    then takes the band (not while a piece waits for its village, nor on a list)."""
    return (isinstance(flow, WakandaFlow) and flow.game.phase != "over" and flow.pending is None
            and isinstance(flow.view(), BoardView))


LESSON = Lesson(STEPS, explain=explain, asks_on=asks_on, learner=Learner,
                demo_tags=Learner.tags, options={"variant": "open", "empty_claim": "when_stuck"})
