"""The Totem Wars lesson: a first small game played with the box, one real action a step.

The steps follow the table: the cards and the deal (T1, T2), the totems (T2), the card
dealt after them and who starts (T3); a first round played by the lesson's plan — the
starter places 2 (T4), the next player raises to 3 (T5), the starter answers (T6) — then
its real result, page by page: the points (T8), who takes the table (T9), the columns and
the animals that join other tribes' columns (T7), the refill (T13). The game then goes on
with a short note on each new situation as it comes — a war and the totems' habitats (T10,
T11), a round nobody wins (T12), the empty deck (T14) — and what never came is said at the
end, with the final points (T15) and the big game (T16). Every text reads the real table:
the points scored, the cards that joined a column, who took what.

The runner is ``companion/table/tutorial_flow.py``; the words are the catalogue's
``tutorial.totem_wars.*``; the demo's learner is ``lesson_demo.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.contract import Flow
from companion.engine import Refusal
from companion.games.totem_wars.deck import Card
from companion.games.totem_wars.flow import TotemWarsFlow, totem_order
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.lesson_demo import Learner
from companion.games.totem_wars.moves import ChooseTotems, Play
from companion.games.totem_wars.rounds import REMOVED, RoundResult
from companion.games.totem_wars.setup_flow import TotemWarsSetupFlow
from companion.games.totem_wars.views import PlacementView, TotemsView
from companion.games.totem_wars.words import card_label, cards, t
from companion.table.lesson import Lesson, Situation, Step

DEAL_TOPIC = "tutorial.topic.deal"
ROUND_TOPIC = "tutorial.topic.round"
RESULT_TOPIC = "tutorial.topic.result"
PLAY_TOPIC = "tutorial.topic.play"
END_TOPIC = "tutorial.topic.end"

#: The first round's plan: the starter places this many, the next player one more.
START = 2


def _w(key: str, **fields: Any) -> str:  # the fields as the catalogue's t takes them
    return t(f"tutorial.totem_wars.{key}", **fields)


def _name(s: Situation, player: int | None) -> str:
    return s.game.players[player] if s.game is not None and player is not None else ""


def _mover(s: Situation) -> str:
    return _name(s, s.game.to_move) if s.game is not None else ""


def _listed(parts: list[str]) -> str:
    return ", ".join(parts)


# --- where the table is ------------------------------------------------------------------

def _setup(s: Situation) -> TotemWarsSetupFlow | None:
    """The set-up on screen; None when the flow is another."""
    return s.flow if isinstance(s.flow, TotemWarsSetupFlow) else None


def _setup_step(s: Situation) -> str | None:
    setup = _setup(s)
    return setup.step if setup is not None else None


def _showing(s: Situation) -> str | None:
    """The pages the play flow on screen shows over the board (``deal``, ``round``); None
    for the board, or a flow that is not the play."""
    return s.flow.showing if isinstance(s.flow, TotemWarsFlow) else None


def _setup_at(*steps: str) -> Callable[[Situation], bool]:
    return lambda s: s.game is None and _setup_step(s) in steps


def _setup_past(*steps: str) -> Callable[[Situation], bool]:
    return lambda s: s.game is not None or _setup_step(s) in steps


def _totems(s: Situation) -> bool:
    return s.game is not None and s.game.phase == "totems"


def _dealing(s: Situation) -> bool:
    return s.game is not None and s.game.phase != "totems" and _showing(s) == "deal"


def _dealt(s: Situation) -> bool:
    """Past the reminder to deal one more card (T2, T3)."""
    game = s.game
    return game is not None and (len(game.history) > 1 or _showing(s) != "deal")


def _totems_down(s: Situation) -> bool:
    return s.game is not None and s.game.phase != "totems"


def _started(s: Situation) -> bool:
    """The first round's level is set (or the round is over): too late to start it."""
    return s.game is not None and (bool(s.game.rounds) or s.game.level > 0)


def _placing(s: Situation) -> bool:
    """The first round is under way on the board (not its pages)."""
    game = s.game
    return (game is not None and game.phase == "play" and not game.rounds
            and _showing(s) is None)


def _starting(s: Situation) -> bool:
    return _placing(s) and s.game.level == 0


def _first_after_start(s: Situation) -> bool:
    game = s.game
    return _placing(s) and game.level == START and not game.table[game.to_move]


def _answering(s: Situation) -> bool:
    game = s.game
    return _placing(s) and 0 < len(game.table[game.to_move]) < game.level


def _round_shown(page: str) -> Callable[[Situation], bool]:
    """The first round's result is there, and its pages have reached ``page`` (``summary``,
    ``columns`` or ``refill``) or were left."""
    def when(s: Situation) -> bool:
        game = s.game
        if game is None or not game.rounds:
            return False
        flow = s.flow
        if not isinstance(flow, TotemWarsFlow) or flow.showing != "round" or len(game.rounds) > 1:
            return True
        last = flow.page_count - 1
        return {"summary": True, "columns": flow.page >= 1, "refill": flow.page == last}[page]
    return when


def _first(game: TotemWars, test: Callable[[RoundResult], bool]) -> RoundResult | None:
    """The first resolved round that passes ``test``, or None."""
    return next((r for r in game.rounds if test(r)), None)


def _had_war(s: Situation) -> bool:
    return s.game is not None and _first(s.game, lambda r: r.war) is not None


def _first_was_war(s: Situation) -> bool:
    """The first round's result is there and it was a war (T10): the war is explained
    before who took the table because of it (T9)."""
    return _round_shown("summary")(s) and bool(s.game.rounds[0].war)


def _later_war(s: Situation) -> bool:
    """A war came in a later round, the first having none (its war was explained then)."""
    return _had_war(s) and not s.game.rounds[0].war


def _had_habitats(s: Situation) -> bool:
    return s.game is not None and _first(s.game, lambda r: any(r.habitats)) is not None


def _had_no_winner(s: Situation) -> bool:
    return s.game is not None and _first(s.game, lambda r: r.taker is None) is not None


def _over(s: Situation) -> bool:
    return s.game is not None and s.game.phase == "over"


def _never(seen: Callable[[Situation], bool]) -> Callable[[Situation], bool]:
    return lambda s: _over(s) and not seen(s)


def _deck_empty(s: Situation) -> bool:
    game = s.game
    return game is not None and game.phase != "totems" and game.deck_count == 0 and bool(game.rounds)


def _plays(count: int | None = None) -> Callable[[Situation, object], bool]:
    """A placement (of ``count`` cards, when given)."""
    return lambda s, move: isinstance(move, Play) and (count is None or len(move.cards) == count)


# --- the pages -------------------------------------------------------------------------------

def _starter(game: TotemWars) -> int:
    return (game.dealer + 1) % len(game.players)


def _deal_more_page(s: Situation) -> str:
    game = s.game
    return _w("deal_more.page", dealer=game.players[game.dealer],
              starter=game.players[_starter(game)])


def _scores(game: TotemWars, result: RoundResult) -> str:
    return _listed([f"{game.players[p]} {points}" for p, points in enumerate(result.points)
                    if points is not None])


def _points_page(s: Situation) -> str:
    game = s.game
    return _w("points.page", scores=_scores(game, game.rounds[0]))


def _taking_page(s: Situation) -> str:
    game = s.game
    result = game.rounds[0]
    n = len(result.cards)
    if result.taker is None:
        return _w("taking.none")
    key = "taking.war" if result.war else "taking.taker"
    return _w(key, name=game.players[result.taker], n=n)


def _guest(game: TotemWars, result: RoundResult) -> tuple[int, Card, str] | None:
    """``(player, card, column's tribe)`` of a card that joined another tribe's column in
    ``result`` (T7), or None."""
    for player, arrangement in enumerate(result.arrangements):
        if arrangement is None:
            continue
        for column in arrangement.columns:
            for card in column.cards:
                if card.tribe != column.key:
                    return player, card, column.key
    return None


def _columns_page(s: Situation) -> str:
    game = s.game
    result = game.rounds[0]
    guest = _guest(game, result)
    if guest is None:
        shown = next(p for p, a in enumerate(result.arrangements) if a is not None)
        example = _w("columns.own")
    else:
        shown, card, tribe = guest
        example = _w("columns.joins", card=card_label(card), tribe=t(f"tribe.{tribe}"))
    return _w("columns.page", name=game.players[shown], example=example)


def _refill_page(s: Situation) -> str:
    game = s.game
    result = game.rounds[0]
    parts = _listed([t("tw.round.refill_to", n=count, name=game.players[p])
                     for p, count in result.refill]) or _w("refill.nothing")
    return _w("refill.page", refill=parts, name=_name(s, result.next_starter))


def _war_page(s: Situation) -> str:
    game = s.game
    result = _first(game, lambda r: r.war)
    assert result is not None  # the step comes once a war was fought (T10)
    names = _listed([game.players[p] for p in result.warring])
    tied = max(p for p in result.points if p is not None)
    war = [(points, p) for p, points in enumerate(result.war_points) if points is not None]
    best = max(points for points, _ in war)
    tops = [p for points, p in war if points == best]
    won = _w("war.won", name=game.players[tops[0]], points=best) if len(tops) == 1 else _w("war.tied")
    return _w("war.page", n=result.number, names=names, points=tied, won=won)


def _habitats_page(s: Situation) -> str:
    game = s.game
    result = _first(game, lambda r: any(r.habitats))
    assert result is not None  # the step comes once habitats were compared (T11)
    if result.taker is not None:
        end = _w("habitats.took", name=game.players[result.taker])
    else:
        end = _w("habitats.nobody")
    return _w("habitats.page", n=result.number, end=end)


def _no_winner_page(s: Situation) -> str:
    game = s.game
    result = _first(game, lambda r: r.taker is None)
    assert result is not None  # the step comes once a round had no winner (T12)
    key = "no_winner.removed" if result.destination == REMOVED else "no_winner.page"
    return _w(key, n=result.number, cards=cards(len(result.cards)))


def _end_page(s: Situation) -> str:
    game = s.game
    scores = _listed([f"{name} {game.points(p)}" for p, name in enumerate(game.players)])
    outcome = game.outcome()
    winners = [game.players[p] for p in outcome.winners] if outcome is not None else []
    won = _w("end.wins", name=winners[0]) if len(winners) == 1 else _w("end.shared", names=_listed(winners))
    return _w("end.page", scores=scores, won=won)


def _players_did(s: Situation) -> str:
    setup = _setup(s)
    count = len(s.game.players) if s.game is not None else setup.count if setup is not None else 2
    return t("tw.setup.count", n=count)


def _dealer_did(s: Situation) -> str:
    game = s.game
    return _w("did.dealer", name=game.players[game.dealer]) if game is not None else ""


def _totem_ask(s: Situation) -> str:
    game = s.game
    laid = len(s.flow.totems) if isinstance(s.flow, TotemWarsFlow) else 0
    order = totem_order(game)
    return _w("totems.ask", name=game.players[order[min(laid, len(order) - 1)]])


def _answer_count(s: Situation) -> int:
    game = s.game
    counts = game.legal_counts()
    return counts[0] if counts else 0


STEPS = (
    Step("players", "T1", DEAL_TOPIC, "tutorial.totem_wars.title.players",
         ask=lambda s: _w("players.ask"), page=lambda s: _w("players.page"),
         when=_setup_at("count"), passed=_setup_past(*(f"name{i}" for i in range(4)), "dealer", "deck"),
         did=_players_did),
    Step("dealer", "T2", DEAL_TOPIC, "tutorial.totem_wars.title.dealer",
         ask=lambda s: _w("dealer.ask"), page=lambda s: _w("dealer.page"),
         when=_setup_at("dealer"), passed=_setup_past("deck"), did=_dealer_did),
    Step("totems", "T2", DEAL_TOPIC, "tutorial.totem_wars.title.totems",
         ask=_totem_ask, page=lambda s: _w("totems.page"), when=_totems, passed=_totems_down,
         wants=lambda s, move: isinstance(move, ChooseTotems), did=lambda s: t("replay.totems_down")),
    Step("deal_more", "T3", DEAL_TOPIC, "tutorial.totem_wars.title.deal_more",
         ask=lambda s: _w("deal_more.ask"), page=_deal_more_page, when=_dealing, passed=_dealt),
    Step("start", "T4", ROUND_TOPIC, "tutorial.totem_wars.title.start",
         ask=lambda s: _w("start.ask", name=_mover(s), n=START),
         page=lambda s: _w("start.page", name=_mover(s), n=START),
         when=_starting, wants=_plays(START), passed=_started),
    Step("raise", "T5", ROUND_TOPIC, "tutorial.totem_wars.title.raise",
         ask=lambda s: _w("raise.ask", name=_mover(s), n=START + 1),
         page=lambda s: _w("raise.page", name=_mover(s), level=START, n=START + 1),
         when=_first_after_start, wants=_plays(START + 1), optional=True),
    Step("answer", "T6", ROUND_TOPIC, "tutorial.totem_wars.title.answer",
         ask=lambda s: _w("answer.ask", name=_mover(s), cards=cards(_answer_count(s))),
         page=lambda s: _w("answer.page", name=_mover(s), cards=cards(_answer_count(s))),
         when=_answering, wants=_plays(), optional=True),
    Step("points", "T8", RESULT_TOPIC, "tutorial.totem_wars.title.points",
         ask=lambda s: _w("points.ask"), page=_points_page, when=_round_shown("summary")),
    # A war in the first round is explained before its result: who takes the table (T9).
    Step("war_first", "T10", RESULT_TOPIC, "tutorial.totem_wars.title.war",
         ask=lambda s: _w("war.ask"), page=_war_page, when=_first_was_war, optional=True),
    Step("taking", "T9", RESULT_TOPIC, "tutorial.totem_wars.title.taking",
         ask=lambda s: _w("taking.ask"), page=_taking_page, when=_round_shown("summary")),
    Step("columns", "T7", RESULT_TOPIC, "tutorial.totem_wars.title.columns",
         ask=lambda s: _w("columns.ask"), page=_columns_page, when=_round_shown("columns")),
    Step("refill", "T13", RESULT_TOPIC, "tutorial.totem_wars.title.refill",
         ask=lambda s: _w("refill.ask"), page=_refill_page, when=_round_shown("refill")),
    # Notes on situations a game may or may not reach, each as it comes; what never came
    # is said at the end (these run in any order: the runner plays the first that is due).
    Step("war", "T10", PLAY_TOPIC, "tutorial.totem_wars.title.war",
         ask=lambda s: _w("war.ask"), page=_war_page, when=_later_war, optional=True),
    Step("habitats", "T11", PLAY_TOPIC, "tutorial.totem_wars.title.habitats",
         ask=lambda s: _w("habitats.ask"), page=_habitats_page, when=_had_habitats, optional=True),
    Step("no_winner", "T12", PLAY_TOPIC, "tutorial.totem_wars.title.no_winner",
         ask=lambda s: _w("no_winner.ask"), page=_no_winner_page, when=_had_no_winner, optional=True),
    Step("empty_deck", "T14", PLAY_TOPIC, "tutorial.totem_wars.title.empty_deck",
         ask=lambda s: _w("empty_deck.ask"), page=lambda s: _w("empty_deck.page"),
         when=_deck_empty, optional=True),
    Step("war_recap", "T10", PLAY_TOPIC, "tutorial.totem_wars.title.war",
         ask=lambda s: _w("war.ask"), page=lambda s: _w("war.recap"), when=_never(_had_war),
         optional=True),
    Step("habitats_recap", "T11", PLAY_TOPIC, "tutorial.totem_wars.title.habitats",
         ask=lambda s: _w("habitats.ask"), page=lambda s: _w("habitats.recap"),
         when=_never(_had_habitats), optional=True),
    Step("no_winner_recap", "T12", PLAY_TOPIC, "tutorial.totem_wars.title.no_winner",
         ask=lambda s: _w("no_winner.ask"), page=lambda s: _w("no_winner.recap"),
         when=_never(_had_no_winner), optional=True),
    Step("end", "T15", END_TOPIC, "tutorial.totem_wars.title.end",
         ask=lambda s: _w("end.ask"), page=_end_page, when=_over),
    Step("big", "T16", END_TOPIC, "tutorial.totem_wars.title.big",
         ask=lambda s: _w("big.ask"), page=lambda s: _w("big.page"), when=_over),
)


def explain(s: Situation, refusal: Refusal) -> str | None:
    """The lesson's words for an action the rules refused; None: the rule's own page."""
    game = s.game
    if game is None:
        return None
    key = refusal.key
    if key == "at_least_level":
        return _w("wrong.at_least_level", level=game.level)
    if key == "answer_exactly":
        return _w("wrong.answer_exactly", cards=cards(_answer_count(s)))
    if key in ("totem_down", "card.on_table", "card.totem", "card.taken", "card.scanned"):
        return _w(f"wrong.{key.replace('card.', 'card_')}")
    return None


def asks_on(flow: Flow) -> bool:
    """Whether the board waits for the next action (a totem, a placement): the step's ask
    then takes the band — not while cards are being scanned, nor on a list or a page."""
    return (isinstance(flow, TotemWarsFlow) and not flow.pending and flow.picker is None
            and isinstance(flow.view(), PlacementView | TotemsView))


LESSON = Lesson(STEPS, explain=explain, asks_on=asks_on, learner=Learner, demo_tags=Learner.tags)
