"""The Wakanda coach behind the hint button (``companion/table/hint_pages.py``): what the
player to move could do, best first, each with its reason in one line (``reasons.py``).

The moves come from the search (``search.py``) at its default level, which answers from what
the player to move knows — their hand, the poles, claims and tiles, the other hand's size —
never the other hand's contents. A position is searched once: the answer is kept for the
information it was found from, so pressing HINT again (the next best move), closing the
tips and opening them again costs nothing. When no choice is due — a piece to draw (W4) or
a tile to turn up (W10), both chance — the tip says what to do instead.

A game played with hints off (``Wakanda.hints``: the box's setting when it started) gets no
tips, nor does a seat the box plays (``Wakanda.box``): the hint button gives the rule alone.
"""

from __future__ import annotations

from typing import cast

from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.information import InformationSet, information_set
from companion.games.wakanda.moves import Move
from companion.games.wakanda.reasons import reason
from companion.games.wakanda.search import DEFAULT_LEVEL, suggest
from companion.games.wakanda.words import t
from companion.search import Suggestion
from companion.table.hint_pages import Tip

#: How many moves the tips offer: the best and the next two. Further down the search's
#: order says little (it spends its effort on the best moves), and the rule is one press on.
MOVES = 3


class Coach:
    """The tips for one game at the table, the search at ``level`` with ``seed`` (the same
    information, level and seed give the same tips)."""

    def __init__(self, level: str = DEFAULT_LEVEL, seed: int = 0):
        self.level = level
        self.seed = seed
        self._known: tuple[InformationSet, Suggestion] | None = None

    def tips(self, game: Wakanda) -> tuple[Tip, ...]:
        """The tips for the player to move in ``game`` (see the module docstring); none
        when the game is over, played with hints off, or when the box plays that seat (it
        says its own moves)."""
        if not game.hints or game.to_move in game.box:
            return ()
        if game.phase == "draw":
            return (Tip(None, t("hint.now.draw")),)
        if game.phase == "reveal":
            return (Tip(None, t("hint.now.reveal", n=game.open_count)),)
        if game.phase != "action" or game.to_move is None:
            return ()
        info = information_set(game, game.to_move)
        suggestion = self.suggestion(game, info)
        ranked = [(suggestion.move, suggestion.value),
                  *((alternative.move, alternative.value) for alternative in suggestion.alternatives)]
        # The reasons are put into words now, in the box's language of the moment (a line of
        # its own on screen: a capital first); Wakanda's search suggests Wakanda moves.
        said = (reason(info, cast(Move, move), value, best=index == 0) for index, (move, value)
                in enumerate(ranked[:MOVES]))
        return tuple(Tip(move, words[:1].upper() + words[1:])
                     for (move, _), words in zip(ranked, said))

    def suggestion(self, game: Wakanda, info: InformationSet) -> Suggestion:
        """The search's answer for ``game``, whose player to move knows ``info``: searched
        once for each information set (the last one is kept)."""
        known = self._known
        if known is None or known[0] != info:
            known = self._known = (info, suggest(game, level=self.level, seed=self.seed))
        return known[1]
