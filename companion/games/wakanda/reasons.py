"""Why a suggested Wakanda move is good, in one line of plain words from the catalogue
(``hint.*`` in ``companion/ui/text.py``, in the box's language): ``<move>: <why>``, the why
being what the seat can see — the points a claim locks (W7, W8) or keeps from the other
player, what a build adds to a pole for whoever claims it, gives away or gives nobody — or
else the search's chance to win.

>>> from companion.games.wakanda import Build, Claim, Draw, Wakanda
>>> from companion.games.wakanda.information import information_set
>>> g = Wakanda(["teepee", "eagle", "chief", "variety", "sun", "tomahawk"], players=("Ana", "Ben"))
>>> for move in (Draw("eagle"), Build("eagle", 2), Draw("sun"), Build("sun", 1), Draw("teepee")):
...     g.push(move)
>>> reason(information_set(g, 0), Claim(2), 0.7)
'claim village 2: locks 8 points for you'
>>> reason(information_set(g, 0), Build("teepee", 1), 0.6, lang="bg")
'сложи типи на село 1: +2 точки за теб, когато го вземеш'
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.wakanda.information import InformationSet
from companion.games.wakanda.moves import Build, Claim, Move
from companion.games.wakanda.rules import OPEN_AT_START, ROW
from companion.games.wakanda.scoring import breakdown
from companion.games.wakanda.words import in_text, t


def _total(info: InformationSet, player: int, poles: Sequence[Sequence[str]],
           owners: Sequence[int | None]) -> int:
    return breakdown(player, info.villages, poles, owners).total


def claim_gain(info: InformationSet, player: int, village: int,
               poles: Sequence[Sequence[str]] | None = None) -> int:
    """How much ``player``'s total rises by claiming village ``village`` (1 to 6) now, over
    all their poles (W7, W8); ``poles`` replaces the poles on the table when given."""
    poles = info.poles if poles is None else poles
    owners = list(info.owners)
    before = _total(info, player, poles, owners)
    owners[village - 1] = player
    return _total(info, player, poles, owners) - before


def points_words(n: int, lang: str | None = None) -> str:
    """``1 point``, ``8 points`` in the box's language."""
    return t("hint.points", lang, n=n)


def move_words(move: Move, lang: str | None = None) -> str:
    """A move as the hint says it: ``build eagle on village 2``, ``claim village 2``."""
    if isinstance(move, Build):
        return t("hint.build", lang, piece=in_text(move.piece, lang), n=move.village)
    if isinstance(move, Claim):
        return t("hint.claim", lang, n=move.village)
    return t("hint.pass", lang)


def reason(info: InformationSet, move: Move, value: float, lang: str | None = None, *,
           best: bool = True) -> str:
    """One line saying why ``move`` (the seat's) is suggested; ``value`` is the search's
    chance to win with it, said when nothing plainer explains the move. ``best``: the move
    is the search's first choice (else one of the next best, the hint's second press)."""
    return t("hint.because", lang, move=move_words(move, lang), why=_why(info, move, value, lang, best))


def _why(info: InformationSet, move: Move, value: float, lang: str | None, best: bool) -> str:
    me, them = info.seat, info.other
    name = info.players[them]
    if isinstance(move, Claim):
        n = move.village
        owners = list(info.owners)
        owners[n - 1] = me
        claims = sum(owner is not None for owner in owners)
        if claims == ROW:  # W6: the last pole ends the game
            return t("hint.ends", lang, mine=_total(info, me, info.poles, owners),
                     theirs=_total(info, them, info.poles, owners))
        gain = claim_gain(info, me, n)
        if gain > 0:
            return t("hint.locks", lang, points=points_words(gain, lang))
        denied = claim_gain(info, them, n) if info.headdresses[them] else 0
        if denied > 0:
            return t("hint.keeps", lang, points=points_words(denied, lang), name=name)
        if claims <= ROW - OPEN_AT_START and value > 0:  # W4 B: the next tile turns available
            return t("hint.opens", lang, next=OPEN_AT_START + claims)
        return t("hint.spends", lang, n=info.headdresses[me] - 1)
    elif isinstance(move, Build):
        n = move.village
        poles = list(info.poles)
        poles[n - 1] = poles[n - 1] + (move.piece,)
        mine = claim_gain(info, me, n, poles) - claim_gain(info, me, n)
        theirs = (claim_gain(info, them, n, poles) - claim_gain(info, them, n)
                  if info.headdresses[them] else 0)
        if mine > 0 and mine >= theirs and value > 0:
            return t("hint.more", lang, points=points_words(mine, lang))
        if theirs < 0 and value > 0:
            return t("hint.less", lang, points=points_words(-theirs, lang), name=name)
        # In game terms what the build gives away, before any percentage.
        if mine == 0 and theirs == 0 and value > 0:
            return t("hint.safe", lang, name=name)
        if theirs > 0 and mine <= 0 and value > 0:
            return t("hint.gives", lang, points=points_words(theirs, lang), name=name)
    else:
        return t("hint.no_move", lang)
    if not best:
        return t("hint.chance", lang, pct=round(100 * value))
    if value <= 0:
        return t("hint.least_loss", lang)
    return t("hint.best", lang, pct=round(100 * value))
