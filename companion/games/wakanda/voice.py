"""What the box's voice says of Wakanda (``companion/voice``): the final score, the status
page and "Where are we?" — whose turn, each player's points so far (W7, W8), the pieces left
in the bag (W4), the last action. Hands stay unsaid while they are hidden: a draw is said
as "Ana drew a piece", and the list of pieces a player may build is not read out.
"""

from __future__ import annotations

from companion.games.wakanda.flow import describe
from companion.games.wakanda.moves import Draw
from companion.games.wakanda.views import StatusView
from companion.games.wakanda.words import t
from companion.table.views import PickerView
from companion.voice.lines import RESULT, SCREEN, GameVoice, Line, joined, result, shared_lines


def _hidden_draw(game) -> bool:
    """Whether the last action was a draw from the bag into a hidden hand."""
    return not game.open_hands and bool(game.history) and isinstance(game.history[-1][1], Draw)


def _last(game) -> str:
    if not game.history:
        return t("voice.no_action")
    player, move = game.history[-1]
    if _hidden_draw(game):
        return t("voice.drew", name=game.players[player])
    return t("voice.last", action=describe(game, player, move))


def _points(game) -> list[str]:
    return [t("voice.points", name=name, n=game.score(p).total) for p, name in enumerate(game.players)]


def final(game) -> str:
    """The final score said: who wins (or a shared win), then each player's points."""
    return result(game, _points(game))


def where(flow) -> str:
    """Where the game stands: whose turn, the points so far, the bag, the last action."""
    game = flow.game
    if game.phase == "over":
        return joined([final(game), _last(game)])
    return joined([t("voice.turn", name=game.players[game.to_move]), *_points(game),
                      t("voice.bag", n=sum(game.bag.values())), _last(game)])


def said(flow, view) -> tuple[Line, ...] | None:
    """The lines of Wakanda's own views; () for a list of a hidden hand's pieces."""
    game = flow.game
    if view.kind == "score":  # the score pages and the review: the result
        return (Line(final(game), RESULT),)
    if isinstance(view, StatusView):
        return (Line(where(flow), SCREEN),)
    if isinstance(view, PickerView) and not game.open_hands:
        return ()
    if _hidden_draw(game):  # the piece drawn stays unsaid, in the band and the undo question
        player, move = game.history[-1]
        shown, drew = describe(game, player, move), t("voice.drew", name=game.players[player])
        return tuple(Line(line.text.replace(shown, drew), line.kind) for line in shared_lines(view))
    return None


VOICE = GameVoice(said=said, where=where)
