"""What the box's voice says of Totem Wars (``companion/voice``): the deal reminder (T2,
T3), a war's declaration (R2), a round's result (T9-T14), the end (T15), the status page and
"Where are we?" — whose turn, the round, each player's points so far, the cards left in the
deck (T13), the last action.

Never said: a hand (the hint's hand screen and its card picker, ``hand_hint.py``), a card
picked with the buttons and a totem being laid (T2, T4): the voice says the public view
(``public.py``).
"""

from __future__ import annotations

from companion.games.totem_wars.arrangement import war_grouping
from companion.games.totem_wars.flow import describe
from companion.games.totem_wars.moves import ChooseTotems
from companion.games.totem_wars.round_screens import outcome_line, refill_line
from companion.games.totem_wars.screens import deal_lines
from companion.games.totem_wars.views import DealView, DeclareView, EndView, RoundView, StatusView
from companion.games.totem_wars.words import animal_name, t
from companion.voice.lines import PROMPT, QUESTION, RESULT, SCREEN, GameVoice, Line, joined, note_lines, result


def _last(game) -> str:
    if not game.history:
        return t("voice.no_action")
    player, move = game.history[-1]
    # The totems are laid face down: that they are, never which (T2).
    done = t("replay.totems_down") if isinstance(move, ChooseTotems) else describe(game, player, move)
    return t("voice.last", action=done)


def _points(game) -> list[str]:
    return [t("voice.points", name=name, n=game.points(p)) for p, name in enumerate(game.players)]


def final(game) -> str:
    """The end of a small game said: who wins (or a shared win), each player's points."""
    return result(game, _points(game))


def where(flow) -> str:
    """Where the game stands: whose turn, the round, the points, the deck, the last action."""
    game = flow.game
    if game.phase == "over":
        return joined([final(game), _last(game)])
    if game.to_move is not None:
        turn = t("voice.turn", name=game.players[game.to_move])
    else:  # the totems: who lays one now (a lesson's flow has no prompt of its own)
        prompt = getattr(flow, "prompt", None)
        turn = str(prompt() or "") if prompt is not None else ""
    return joined([turn, t("tw.board.round", n=len(game.rounds) + 1), *_points(game),
                      t("voice.deck", n=game.deck_count), _last(game)])


def _declare(game, view: DeclareView) -> tuple[Line, ...]:
    """A war's question (R2): who declares, where their totem fights, the habitat lit with
    its war points; a refusal when there is one (the footer's keys are not said)."""
    due = game.declaration_due
    if due is None:
        return ()
    habitat = due.habitats[view.selected]
    totem = game.totems[due.player]
    points = war_grouping(totem, game.table[due.player], habitat).points
    lines = (Line(t("tw.declare.title", name=game.players[due.player]), QUESTION),
             Line(t("tw.declare.ask", animal=animal_name(totem.animal)).rstrip(":"), QUESTION),
             Line(f"{t(f'habitat.{habitat}')}, {t('tw.declare.points', n=points)}", QUESTION))
    return lines + note_lines(view.message, view.refused)


def said(flow, view) -> tuple[Line, ...] | None:
    """The lines of Totem Wars's own views: the deal, a war's question, a round's result,
    the end, the status page."""
    game = flow.game
    if isinstance(view, DealView):
        return tuple(Line(text, PROMPT) for text in (
            t("tw.deal.title"), t("tw.deal.dealer", name=game.players[game.dealer]), t("tw.deal.more"),
            *deal_lines(game)))
    if isinstance(view, DeclareView):
        return _declare(game, view)
    if isinstance(view, RoundView):
        result = game.last_round
        title = t("tw.round", n=result.number) + (t("tw.round.war") if result.war else "")
        return tuple(Line(text, RESULT) for text in (title, outcome_line(game, result), refill_line(game, result)))
    if isinstance(view, EndView):
        return (Line(final(game), RESULT),)
    if isinstance(view, StatusView):
        return (Line(where(flow), SCREEN),)
    return None


VOICE = GameVoice(said=said, where=where)
