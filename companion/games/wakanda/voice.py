"""What the box's voice says of Wakanda (``companion/voice``): the final score, the status
page and "Where are we?" — whose turn, each player's points so far (W7, W8), the pieces left
in the bag (W4), the last action. Hands stay unsaid while they are hidden (a draw is said
as "Ana drew a piece", the list of pieces a player may build is not read out): the voice
says the public view (``public.py``).
"""

from __future__ import annotations

from companion.games.wakanda.flow import WakandaFlow, describe
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.views import StatusView
from companion.games.wakanda.words import t
from companion.voice.lines import RESULT, SCREEN, GameVoice, Line, joined, result


def _last(game: Wakanda) -> str:
    if not game.history:
        return t("voice.no_action")
    player, move = game.history[-1]
    return t("voice.last", action=describe(game, player, move))


def _points(game: Wakanda) -> list[str]:
    return [t("voice.points", name=name, n=game.score(p).total) for p, name in enumerate(game.players)]


def final(game: Wakanda) -> str:
    """The final score said: who wins (or a shared win), then each player's points."""
    return result(game, _points(game))


def where(flow: WakandaFlow) -> str:
    """Where the game stands: whose turn, the points so far, the bag, the last action."""
    game = flow.game
    if game.phase == "over":
        return joined([final(game), _last(game)])
    return joined([t("voice.turn", name=game.players[game.to_move]), *_points(game),
                      t("voice.bag", n=sum(game.bag.values())), _last(game)])


def said(flow: WakandaFlow, view: object) -> tuple[Line, ...] | None:
    """The lines of Wakanda's own views: the result, the status page."""
    game = flow.game
    if getattr(view, "kind", None) == "score":  # the score pages and the review: the result
        return (Line(final(game), RESULT),)
    if isinstance(view, StatusView):
        return (Line(where(flow), SCREEN),)
    return None


VOICE = GameVoice(said=said, where=where)
