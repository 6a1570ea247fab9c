"""The learner of ``tutorial --game wakanda --demo``: the box plays a newcomer's part in the
Wakanda lesson, through the whole stack, as players at the table would — reading each page
with OK, scanning the tiles and pieces or using the buttons (the demo's ``TablePlayer``),
doing what each step asks, and now and then what newcomers do instead: building on a
village not open yet, pressing a village before drawing, claiming with the other player's
headdress, scanning a piece when a tile waits to be turned up, or building when the step
asks for a claim. The box must refuse or take back each of those, and the lesson goes on.
"""

from __future__ import annotations

import random

from companion.events import Event, Press
from companion.games.wakanda.bots import greedy_bot
from companion.games.wakanda.chance import sample_draw, sample_reveal
from companion.games.wakanda.demo import TablePlayer, demo_tags
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.moves import Build, Move
from companion.games.wakanda.rules import ROW
from companion.games.wakanda.setup import random_setup
from companion.games.wakanda.setup_flow import SetupFlow
from companion.table.app_loop import AppLoop
from companion.table.demo_player import DemoError
from companion.table.lesson import Step
from companion.table.tutorial_flow import TutorialFlow

#: How likely the learner is to make each step's newcomer's mistake (the first one always).
MISTAKE_SHARE = 0.5


class Learner(TablePlayer):
    """Acts for both players of the lesson in ``loop``'s session, one thing per ``act()``."""

    tags = staticmethod(demo_tags)

    def __init__(self, loop: AppLoop, tags: dict[str, str], rng: random.Random) -> None:
        super().__init__(loop, tags, rng)
        self.variant = rng.choice(("open", "hidden"))
        self.row = random_setup(rng, self.variant)
        self.first = rng.randrange(2)
        self.mistakes: set[str] = set()
        self.erring = False  # a mistake is under way: the box is to refuse it
        self.refusals = 0

    @property
    def tutorial(self) -> TutorialFlow:
        """The lesson on screen."""
        flow = self.session.flow
        if not isinstance(flow, TutorialFlow):
            raise DemoError(f"the lesson left the screen for {flow.kind}")
        return flow

    def advance(self) -> None:
        """Do the next thing: read on, set up, or play what the step asks (now and then
        after a mistake)."""
        lesson = self.tutorial
        if lesson.page is not None or lesson.finished:
            self.send(Press("ok"))
            return
        flow = lesson.inner
        if isinstance(flow, SetupFlow):
            self._set_up(flow)
            return
        game = lesson.game
        step = lesson.step if lesson.start is not None else None
        if flow.kind != "play" or game.phase == "over" or (step is not None and step.kind == "read"):
            self.send(Press("ok"))  # a page to read, or the score: OK
            return
        if step is not None and step.key not in self.mistakes and self._mistake(step.key, game):
            self.mistakes.add(step.key)
            return
        if game.phase == "draw":
            self.draw(sample_draw(game, self.rng))
        elif game.phase == "reveal":
            self.reveal(sample_reveal(game, self.rng))
        else:
            self.act(self._move(game, step))

    def _move(self, game: Wakanda, step: Step | None) -> Move:
        """What the learner plays: the step's kind of move, the better of them; in free
        play, the greedy bot's move."""
        moves = game.legal_moves()
        if step is not None and step.wants is not None:
            situation = self.tutorial.situation()
            wanted = [move for move in moves if step.wants(situation, move)]
            if wanted:
                best = greedy_bot(game.copy(), self.rng)
                return best if best in wanted else self.rng.choice(wanted)
        return greedy_bot(game.copy(), self.rng)

    # --- the set-up -----------------------------------------------------------------------

    def _set_up(self, flow: SetupFlow) -> None:
        current = flow.current
        if current in ("name0", "name1"):
            self.choose(self.session.view.choice.values[0])  # the first name offered
        elif current == "variant":
            self.choose(self.variant)
        elif current == "tiles":
            village = self.row[len(flow.tiles)]
            assert village is not None  # only the tiles laid face up are scanned
            if self.buttons():
                self.choose(village)
            else:
                self.scan(self.tiles[village])
        else:
            self.choose(self.first)

    # --- a newcomer's mistakes --------------------------------------------------------------

    def refused(self, event: Event) -> None:
        """A refusal is a defect, except of a mistake the learner makes on purpose (then it
        is counted)."""
        if not self.erring:
            super().refused(event)
        self.refusals += 1

    def _mistake(self, key: str, game: Wakanda) -> bool:
        """Make the mistake of ``key``'s step, if it has one and the dice say so (the
        first one always); whether one was made. The box must refuse it, or take it back,
        and the game must stay as it was."""
        if self.mistakes and self.rng.random() >= MISTAKE_SHARE:
            return False
        before = len(game.history)
        player = game.to_move
        assert player is not None, game.phase  # a mistake is made before the end
        self.erring, self.refusals = True, 0
        try:
            if key == "build" and game.phase == "action":
                self.send(Press(f"v{ROW}"))  # the last village is not open yet (W4)
            elif key == "draw2" and game.phase == "draw":
                self.send(Press("v1"))  # a village before drawing (W4)
            elif key == "claim" and game.phase == "action" and self.rng.random() < 0.5:
                self._not_now(game)
            elif key == "claim" and game.phase == "action":
                self.scan(self.headdresses[1 - player][-1])  # the other player's headdress (W4)
            elif key == "reveal" and game.phase == "reveal":
                self.scan(next(uids[0] for uids in self.bag.values() if uids))  # not the tile (W10)
            else:
                return False
        finally:
            self.erring = False
        if len(game.history) != before or not self.refusals:
            raise DemoError(f"the box let the mistake at step {key} stand")
        return True

    def _not_now(self, game: Wakanda) -> None:
        """Build when the step asks for a claim: the box takes the build back and says to
        take the piece back to the hand, where it is again."""
        assert game.to_move is not None, game.phase  # a claim is asked of the player to move
        hand = self.hands[game.to_move]
        kept = list(hand)
        self.act(self.rng.choice([move for move in game.legal_moves() if isinstance(move, Build)]))
        hand[:] = kept
