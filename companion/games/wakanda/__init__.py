"""Wakanda (Blue Orange, 2014): the rules engine, its records and the score/moves outputs.

See rules/wakanda.md for the rules (W1-W10) and the project's rulings (R1-R8), and
docs/internals.md for the API other parts rely on. Where the rulebook is silent the engine
follows the project's rulings, and a few decisions of its own:

- R1 ``empty_claim``: a claim needs a piece on the pole, except (``when_stuck``, the
  default) when the bag and both hands are empty; ``never`` and ``always`` as named.
- R3: the pass is a move, legal only when no build or claim is; then it is the only move.
- R6: two passes in a row end the game (only ``never`` can reach it); a tie then goes to
  the only player with a third headdress down, and is shared when neither has one.
  ``outcome()`` is the shared ``companion.engine.Outcome``: winners, ``Termination``
  (``ALL_CLAIMED`` or ``BOTH_PASSED``) and the deciding rule (W9 or R6).
- A refused move raises the shared ``companion.engine.IllegalMove`` (a message key, its
  raw parameters and the rule); ``str(exc)`` is the English ``reason (RULE)``.
- R7: pieces left in hands or in the bag score nothing, suns included.
- Hidden variant (W10): while a face-down tile waits to be turned up the phase is
  ``"reveal"`` and ``to_move`` is the player who moves after it; a record's reveal line has
  no player. A hidden tile the header already names needs no reveal line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.lazy_exports import lazy_exports

if TYPE_CHECKING:  # the names as the type checker sees them; at run time, ``__getattr__``
    from companion.engine import IllegalMove, Outcome, Termination
    from companion.games.wakanda import moves
    from companion.games.wakanda.chance import sample_draw, sample_reveal
    from companion.games.wakanda.game import Wakanda
    from companion.games.wakanda.moves import Build, Claim, Draw, Move, Pass, Reveal
    from companion.games.wakanda.record import event_line, header_line, read_record, write_record
    from companion.games.wakanda.report import (
        format_moves,
        format_score,
        moves_json,
        outcome_reason,
        result_line,
        score_json,
    )
    from companion.games.wakanda.scoring import ScoreBreakdown
    from companion.games.wakanda.setup import SetupError, random_setup

__all__ = [
    "Wakanda", "IllegalMove", "Outcome", "Termination", "ScoreBreakdown", "SetupError", "moves",
    "Draw", "Build", "Claim", "Pass", "Reveal", "Move",
    "sample_draw", "sample_reveal", "random_setup",
    "read_record", "write_record", "header_line", "event_line",
    "score_json", "format_score", "moves_json", "format_moves", "result_line", "outcome_reason",
]

#: The module of each exported name (a submodule of the same name is that module).
_FROM = {
    "companion.engine": ("IllegalMove", "Outcome", "Termination"),
    "companion.games.wakanda.moves": ("moves", "Build", "Claim", "Draw", "Move", "Pass", "Reveal"),
    "companion.games.wakanda.chance": ("sample_draw", "sample_reveal"),
    "companion.games.wakanda.game": ("Wakanda",),
    "companion.games.wakanda.record": ("event_line", "header_line", "read_record", "write_record"),
    "companion.games.wakanda.report": ("format_moves", "format_score", "moves_json",
                                       "outcome_reason", "result_line", "score_json"),
    "companion.games.wakanda.scoring": ("ScoreBreakdown",),
    "companion.games.wakanda.setup": ("SetupError", "random_setup"),
}

#: An exported name, its module imported when it is first asked for: the registry and the
#: menu take the game's words without its engine.
__getattr__ = lazy_exports(__name__, _FROM, globals())
