"""The why-pages of Totem Wars: every rule the box can cite (rules/totem-wars.md T1–T16,
T1a and the project's rulings R1–R4); and the rule behind
what a Totem Wars flow asks at the moment (``rule_of``), shown when no refusal is on screen.

The pages' words are messages of the game's catalogue (``rule.<id>.title``,
``rule.<id>.text`` in ``locale/<lang>/LC_MESSAGES/totem_wars.po``). The hint button opens them
(``companion/table/why_flow.py``); each text is wrapped into pages of four lines of about
twenty characters, one to three pages a rule.
"""

from __future__ import annotations

from typing import cast

from companion.contract import Flow
from companion.games.totem_wars.flow import TotemWarsFlow
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.rounds import RoundResult
from companion.games.totem_wars.score_flow import TotemWarsScoreFlow
from companion.games.totem_wars.setup_flow import TotemWarsSetupFlow
from companion.games.totem_wars.views import DealView, RoundView

#: The rules behind the set-up's steps (``TotemWarsSetupFlow.step``; a name step is a seat).
SETUP_RULES = {"count": "T1", "dealer": "T2", "deck": "T1a"}
#: The rules behind the pages of the end: the winner, the taken cards, the big game.
END_RULES = ("T15", "T15", "T16")


def rule_of(flow: Flow) -> str | None:
    """The rule behind what a Totem Wars ``flow`` asks now: the set-up step (T1, T2, T1a;
    T16 when the big game's dealer is offered), the totems (T2), the placement due
    (T4–T6, T14), a war's habitat to declare (R2), the page of a round's result (where the
    cards went, R1, T10, T13) or of the end (T15, T16); None for a flow of another kind."""
    # The kind names the flow's class, and a caller may give a stand-in of its shape: cast,
    # not isinstance.
    if flow.kind == "setup":
        flow = cast(TotemWarsSetupFlow, flow)
        if flow.step == "dealer" and flow.due is not None:
            return "T16"
        return SETUP_RULES.get(flow.step, "T1")
    if flow.kind == "score":
        flow = cast(TotemWarsScoreFlow, flow)
        return END_RULES[min(flow.page, len(END_RULES) - 1)]
    if flow.kind != "play":
        return None
    flow = cast(TotemWarsFlow, flow)
    game = flow.game
    view = flow.view()
    if isinstance(view, DealView):
        return "T2"
    if isinstance(view, RoundView):
        return _round_page_rule(game.rounds[-1], view.page, view.count)
    if game.phase == "totems":
        return "T2"
    if game.phase == "declare":
        return "R2"
    if game.phase == "over":
        return "T15"
    return _placement_rule(game)


def _round_page_rule(result: RoundResult, page: int, count: int) -> str:
    """The rule of a round result's page: the summary (where the cards went), a player's
    arrangement (R1), a war grouping (T10), the refill (T13)."""
    if page == 0:
        return result.rule
    if page == count - 1:
        return "T13"
    arranged = sum(a is not None for a in result.arrangements)
    return "R1" if page <= arranged else "T10"


def _placement_rule(game: TotemWars) -> str:
    """The rule of the placement the player to move makes: the last player with cards
    (T14), the starter (T4), an answer (T6), a first placement (T5)."""
    player = game.to_move
    assert player is not None  # a placement is due (T4–T6)
    holding = sum(1 for hand, down in zip(game.hand_sizes, game.table) if hand or down)
    if len(game.legal_counts()) == 1 and holding == 1:
        return "T14"
    if game.level == 0:
        return "T4"
    return "T6" if game.table[player] else "T5"
