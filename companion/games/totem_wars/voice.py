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
from companion.games.totem_wars.flow import TotemWarsFlow, describe
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.moves import ChooseTotems
from companion.games.totem_wars.round_screens import outcome_line, refill_line
from companion.games.totem_wars.views import DealView, DeclareView, EndView, RoundView, StatusView
from companion.games.totem_wars.words import animal_name, t
from companion.voice.lines import PROMPT, QUESTION, RESULT, SCREEN, GameVoice, Line, joined, note_lines, result


def _last(game: TotemWars) -> str:
    if not game.history:
        return t("voice.no_action")
    player, move = game.history[-1]
    # The totems are laid face down: that they are, never which (T2).
    done = t("replay.totems_down") if isinstance(move, ChooseTotems) else describe(game, player, move)
    return t("voice.last", action=done)


def _points(game: TotemWars) -> list[str]:
    return [t("voice.points", name=name, n=game.points(p)) for p, name in enumerate(game.players)]


def final(game: TotemWars) -> str:
    """The end of a small game said: who wins (or a shared win), each player's points."""
    return result(game, _points(game))


def where(flow: TotemWarsFlow) -> str:
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


def _declare(game: TotemWars, view: DeclareView) -> tuple[Line, ...]:
    """A war's question (R2): who declares, where their totem fights, the habitat lit with
    its war points; a refusal when there is one (the footer's keys are not said)."""
    due = game.declaration_due
    totem = game.totems[due.player] if due is not None else None
    if due is None or totem is None:  # a war is declared once the totems are down (T2)
        return ()
    habitat = due.habitats[view.selected]
    points = war_grouping(totem, game.table[due.player], habitat).points
    # The question and the habitat lit, one sentence: "Crocodile fights in: land, 3 points".
    ask = t("tw.declare.ask", animal=animal_name(totem.animal))
    lines = (Line(t("tw.declare.title", name=game.players[due.player]), QUESTION),
             Line(f"{ask} {t(f'habitat.{habitat}')}, {t('tw.declare.points', n=points)}", QUESTION))
    return lines + note_lines(view.message, view.refused)


def said(flow: TotemWarsFlow, view: object) -> tuple[Line, ...] | None:
    """The lines of Totem Wars's own views: the deal, a war's question, a round's result,
    the end, the status page."""
    game = flow.game
    if isinstance(view, DealView):  # whole sentences, not the screen's lines (the OK is not said)
        first = game.players[(game.dealer + 1) % len(game.players)]
        return (Line(t("tw.deal.title"), PROMPT),
                Line(t("voice.deal", dealer=game.players[game.dealer], first=first), PROMPT))
    if isinstance(view, DeclareView):
        return _declare(game, view)
    if isinstance(view, RoundView):
        result = game.rounds[-1]  # a round's result page: a round has resolved
        title = t("tw.round", n=result.number) + (t("tw.round.war") if result.war else "")
        return tuple(Line(text, RESULT) for text in (title, outcome_line(game, result), refill_line(game, result)))
    if isinstance(view, EndView):
        return (Line(final(game), RESULT),)
    if isinstance(view, StatusView):
        return (Line(where(flow), SCREEN),)
    return None


VOICE = GameVoice(said=said, where=where)
