"""The learner of ``tutorial --game totem-wars --demo``: the box plays the newcomers' part
in the Totem Wars lesson, through the whole stack, as players at the table would — with
hands dealt from a shuffled deck (``simulation.deal``), reading each page with OK, scanning
the cards they place (now and then with the buttons instead, the demo's
``TotemWarsPlayer``), doing what each step asks and now and then what newcomers do
instead: scanning a totem twice, raising with too few cards, answering with one card too
many, or placing more than the step asks. The box must refuse or take back each of those,
and the lesson goes on.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations

from companion.events import Event, Press, Tag, TagGone
from companion.games.totem_wars.arrangement import best_arrangement
from companion.games.totem_wars.deck import Card
from companion.games.totem_wars.demo import TotemWarsPlayer
from companion.games.totem_wars.flow import TotemWarsFlow, totem_order
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.moves import ChooseTotems, Move, Play
from companion.games.totem_wars.setup_flow import TotemWarsSetupFlow
from companion.games.totem_wars.simulation import Simulation, best_declaration, deal, greedy_bot
from companion.table.app_loop import AppLoop
from companion.table.demo_player import DemoError
from companion.table.lesson import Step
from companion.table.tutorial_flow import TutorialFlow

#: How likely the learner is to make each step's newcomer's mistake (the first one always).
MISTAKE_SHARE = 0.5


class Learner(TotemWarsPlayer):
    """Acts for every player of the lesson in ``loop``'s session, one thing per
    ``advance()``; knows the hands the box never sees."""

    @staticmethod
    def tags() -> dict[str, str]:
        """No tags to enroll: the demo scans cards by name."""
        return {}

    def __init__(self, loop: AppLoop, tags: dict[str, str], rng: random.Random) -> None:
        super().__init__(loop.session, rng)
        self._deliver = loop.deliver
        self.count = rng.choice((2, 3, 4))
        self.sim: Simulation | None = None
        self.mistakes: set[str] = set()
        self.erring = False  # a mistake is under way: the box is to refuse it
        self.refusals = 0

    @property
    def tutorial(self) -> TutorialFlow:
        """The lesson on screen."""
        flow = self.session.flow
        assert isinstance(flow, TutorialFlow)  # the learner plays a lesson
        return flow

    def advance(self) -> None:
        """Do the next thing: read on, set up, lay the totems, place, declare, turn the
        result pages."""
        lesson = self.tutorial
        if lesson.page is not None or lesson.finished:
            self.send(Press("ok"))
            return
        flow = lesson.inner
        if isinstance(flow, TotemWarsSetupFlow):
            self._set_up(flow)
            return
        game: TotemWars = lesson.game
        step = lesson.step if lesson.start is not None else None
        if (not isinstance(flow, TotemWarsFlow) or game.phase == "over" or flow.showing is not None
                or (step is not None and step.kind == "read")):
            self.send(Press("ok"))  # a page of the game, or the score: OK
            return
        if self.sim is None:
            self.sim = deal(self.rng, game.players, game.dealer, game.deck)
        if step is not None and step.key not in self.mistakes and self._mistake(step.key, game, flow):
            self.mistakes.add(step.key)
            return
        if game.phase == "totems":
            self._totems(flow)
        elif game.phase == "declare":
            self._kept(best_declaration(game), lambda: self.send(Press("ok")))
        else:
            move = self._placement(game, step)
            self._kept(move, lambda: self._place(move, flow))

    # --- the game -------------------------------------------------------------------------

    def _kept(self, move: Move, enter: Callable[[], object]) -> None:
        """Enter ``move`` (``enter()``) and keep the hands in step when the box kept it; a
        move the lesson took back stays in the hand."""
        sim = self.sim
        assert sim is not None
        game: TotemWars = self.tutorial.game
        before = len(game.history)
        enter()
        if len(game.history) == before + 1 and game.history[-1][1] == move:
            sim.push(move)
        elif len(game.history) != before:
            raise DemoError(f"the box did not take {move}")

    def _totems(self, flow: TotemWarsFlow) -> None:
        """Lay and scan the totems, each player's best tribe, in the box's order (T2)."""
        sim = self.sim
        assert sim is not None
        totems = greedy_bot(sim, self.rng)
        assert isinstance(totems, ChooseTotems)
        order = totem_order(sim.game)

        def enter() -> None:
            for seat in order[len(flow.totems):]:
                self.card(totems.cards[seat])
        self._kept(totems, enter)

    def _placement(self, game: TotemWars, step: Step | None) -> Play:
        """The cards the player to move places: those scanned already and more, as many as
        the step asks (the most points among them), else the greedy bot's choice."""
        sim = self.sim
        assert sim is not None
        inner = self.tutorial.inner
        assert isinstance(inner, TotemWarsFlow)  # a placement is made in the play
        pending = tuple(inner.pending)
        counts = game.legal_counts()
        if step is not None and step.wants is not None:
            situation = self.tutorial.situation()
            counts = [n for n in counts if step.wants(situation, Play(tuple(sim.hands[sim.seat][:n])))]
        if not pending and step is None:
            move = greedy_bot(sim, self.rng)
            assert isinstance(move, Play)
            return move
        player = sim.seat
        rest = [card for card in sorted(sim.hands[player]) if card not in pending]
        totem, down = game.totems[player], game.table[player]
        assert totem is not None  # the totems are down in play (T2)
        best: tuple[Card, ...] = ()
        best_points = -1
        for count in counts or game.legal_counts():
            for more in combinations(rest, count - len(pending)):
                cards = pending + more
                points = best_arrangement(totem, down + cards).points
                if points > best_points:
                    best, best_points = cards, points
        return Play(best)

    def _place(self, move: Play, flow: TotemWarsFlow) -> None:
        """Scan the cards not scanned yet, then OK."""
        for card in move.cards:
            if card not in flow.pending:
                self.card(card)
        self.send(Press("ok"))

    def _set_up(self, flow: TotemWarsSetupFlow) -> None:
        step = flow.step
        if step == "count":
            self.choose(self.count)
        elif step.startswith("name"):
            self.choose(self.session.view.choice.values[0])  # the first name offered
        elif step == "dealer":
            self.choose(self.rng.randrange(flow.count))
        else:
            self.choose(None)  # the default deck

    # --- a newcomer's mistakes --------------------------------------------------------------

    def refused(self, event: Event) -> None:
        """A refusal is a defect, except of a mistake the learner makes on purpose (then it
        is counted)."""
        if not self.erring:
            super().refused(event)
        self.refusals += 1

    def card(self, card: Card) -> None:
        """A card on the pad and off again; with the buttons now and then (not while erring:
        the picker offers only the cards that can be placed)."""
        if self.erring:
            self.send(Tag(card.name))
            self.send(TagGone(card.name))
            return
        super().card(card)

    def _mistake(self, key: str, game: TotemWars, flow: TotemWarsFlow) -> bool:
        """Make the mistake of ``key``'s step, if it has one and the dice say so (the first
        one always); whether one was made. The box must refuse it, or take it back."""
        if self.mistakes and self.rng.random() >= MISTAKE_SHARE:
            return False
        sim = self.sim
        assert sim is not None
        before = len(game.history)
        self.erring, self.refusals = True, 0
        try:
            if key == "totems" and game.phase == "totems" and not flow.totems:
                totems = greedy_bot(sim, self.rng)
                assert isinstance(totems, ChooseTotems)
                totem = totems.cards[totem_order(game)[0]]
                self.card(totem)
                self.card(totem)  # the same card again: it is down already (T2)
            elif key == "start" and game.phase == "play":
                hand = sorted(sim.hands[sim.seat])
                self._place(Play(tuple(hand[:3])), flow)  # more than the step asks
            elif key == "raise" and game.phase == "play":
                self._place(Play(tuple(sorted(sim.hands[sim.seat])[:1])), flow)  # below the level (T5)
            elif key == "answer" and game.phase == "play":
                owed = game.legal_counts()[0]
                hand = sorted(sim.hands[sim.seat])
                if len(hand) <= owed:
                    return False
                for card in hand[:owed + 1]:
                    self.card(card)  # one card too many (T6)
            else:
                return False
        finally:
            self.erring = False
        if len(game.history) != before or not self.refusals:
            raise DemoError(f"the box let the mistake at step {key} stand")
        return True
