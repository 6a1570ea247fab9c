"""The why-pages of Wakanda: every rule the box can cite (rules/wakanda.md W1–W10 and the
project's rulings R1–R8); and the rule behind what a
Wakanda flow asks at the moment (``rule_of``), shown when no refusal is on screen.

The pages' words are messages of the game's catalogue (``rule.<id>.title``,
``rule.<id>.text`` in ``locale/<lang>/LC_MESSAGES/wakanda.po``). The hint button opens them
(``companion/table/why_flow.py``); each text is wrapped into pages of four lines of about
twenty characters, one to three pages a rule.
"""

from __future__ import annotations

from companion.contract import Flow
from companion.games.wakanda.flow import WakandaFlow
from companion.games.wakanda.moves import Pass
from companion.games.wakanda.score_flow import ScoreFlow
from companion.games.wakanda.setup_flow import SetupFlow

#: The rule behind each step of the set-up (``SetupFlow.current``).
SETUP_RULES = {"name0": "W1", "name1": "W1", "level": "W1", "variant": "W10", "tiles": "W2",
               "first": "W3"}


def rule_of(flow: Flow) -> str | None:
    """The rule behind what a Wakanda ``flow`` asks now: the set-up step (W1-W3, W10), the
    turn (W4; W10 for a tile to turn up, R3 when only a pass is left), the score page (the
    result's W9 or R6, then W7 for each player's points); None for a flow of another kind."""
    if isinstance(flow, SetupFlow):
        return SETUP_RULES[flow.current]
    if isinstance(flow, ScoreFlow):
        outcome = flow.game.outcome()
        return outcome.rule if flow.page == 0 and outcome is not None else "W7"
    if not isinstance(flow, WakandaFlow):
        return None
    game = flow.game
    if game.phase == "reveal":
        return "W10"
    if game.phase == "over":
        return "W6"
    if game.phase == "action" and list(game.legal_moves()) == [Pass()]:
        return "R3"
    return "W4"
