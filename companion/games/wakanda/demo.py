"""The Wakanda demo: two bots play a whole game through the full stack.

The bots' choices become the raw input events a player would make at the table — scan the
drawn piece and take it off the pad, press the village's button, hold it to claim, pick
with up/down and OK — and those events go through the session, the screens and the display,
exactly as on the box. Each turn and the result are printed; the same seed gives the same
game. The demo keeps its journal in a temporary folder unless ``--data`` is given.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from companion.errors import UserError
from companion.events import Hold, Press, Tag, TagGone
from companion.games.wakanda import Build, Claim, Draw, Move, Pass, Reveal
from companion.games.wakanda.bots import Bot, greedy_bot, random_bot
from companion.games.wakanda.chance import sample_draw, sample_reveal
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.items import VILLAGE_PREFIX, enrollment_steps
from companion.games.wakanda.record import write_record
from companion.games.wakanda.report import result_line
from companion.games.wakanda.rules import HEADDRESSES, PIECES
from companion.games.wakanda.setup import random_setup
from companion.games.wakanda.setup_flow import SetupFlow
from companion.games.wakanda.words import in_text, t
from companion.table.app_loop import AppLoop
from companion.table.demo_player import DemoError, DemoPlayer, demo_session, write_demo_record
from companion.table.registry import TAGS_FILE, TagRegistry
from companion.table.score_flow import ScorePagesFlow
from companion.table.table_game import DemoOptions, Display

DEFAULT_NAMES = ("Ana", "Ben")
#: How often the bots use the buttons instead of a scan (buttons-only play is exercised too).
BUTTONS_SHARE = 0.3


def demo_tags() -> dict[str, str]:
    """A fully enrolled box: one made-up UID per physical piece, tile and headdress."""
    return {f"D{n:09X}": step.item for n, step in enumerate(enrollment_steps(), start=1)}


class TablePlayer(DemoPlayer):
    """Turns the bots' decisions into input events and feeds them to the app loop."""

    def __init__(self, loop: AppLoop, tags: dict[str, str], rng: random.Random,
                 delay: float = 0.0):
        super().__init__(loop.session, loop.deliver)
        self.rng = rng
        self.delay = delay
        by_item: dict[str, list[str]] = {}
        for uid, item in tags.items():
            by_item.setdefault(item, []).append(uid)
        self.bag = {item: uids for item, uids in by_item.items() if item in PIECES}
        self.tiles = {item[len(VILLAGE_PREFIX):]: uids[0] for item, uids in by_item.items()
                      if item.startswith(VILLAGE_PREFIX)}
        self.headdresses = [list(by_item[h]) for h in HEADDRESSES]
        self.hands: tuple[list[str], list[str]] = ([], [])

    # --- raw events ------------------------------------------------------------------------

    def scan(self, uid: str) -> None:
        """Put a tag on the pad and take it off again."""
        self.send(Tag(uid))
        self.send(TagGone(uid))

    def buttons(self) -> bool:
        """Whether this action is entered with the buttons rather than a scan."""
        return self.rng.random() < BUTTONS_SHARE

    # --- the game --------------------------------------------------------------------------

    def set_up(self, players: Sequence[str], variant: str, row: Sequence[str | None], first: int) -> None:
        """New game from the menu, names, variant, the tiles in row order, who starts."""
        self.choose("wakanda")
        setup = self.session.flow
        if isinstance(setup, SetupFlow) and setup.current in ("name0", "name1"):
            self.choose(players[0])
            self.choose(players[1])
        self.choose(variant)
        for village in row:
            if village is None:
                break
            if self.buttons():
                self.choose(village)
            else:
                self.scan(self.tiles[village])
        self.choose(first)

    def draw(self, move: Draw) -> None:
        """Take a piece of the drawn type out of the bag and scan it (or pick its type)."""
        uid = self.bag[move.piece].pop(self.rng.randrange(len(self.bag[move.piece])))
        self.hands[self.session.game.to_move].append(uid)
        if self.buttons():
            self.send(Press("ok"))
            self.choose(move)
        else:
            self.scan(uid)

    def reveal(self, move: Reveal) -> None:
        """Turn up the tile: scan it, or pick it."""
        if self.buttons():
            self.send(Press("ok"))
            self.choose(move)
        else:
            self.scan(self.tiles[move.village])

    def act(self, move: Move) -> None:
        """A build, a claim or the forced pass, as a player would enter it."""
        game = self.session.game
        player = game.to_move
        village = f"v{getattr(move, 'village', 0)}"
        if isinstance(move, Pass):
            self.send(Press("ok"))
        elif isinstance(move, Build):
            hand = self.hands[player]
            uid = next(u for u in hand if self._item(u) == move.piece)
            hand.remove(uid)
            if self.buttons():
                self.send(Press(village))
                if self.session.screen == "picker":
                    self.choose(move)
            else:
                self.scan(uid)
                self.send(Press(village))
        elif isinstance(move, Claim):
            if self.buttons():
                self.send(Hold(village))
            else:
                self.scan(self.headdresses[player].pop())
                self.send(Press(village))

    def _item(self, uid: str) -> str | None:
        return self.session.registry.resolve(uid)

    def play(self, bots: Sequence[Bot], out: TextIO) -> None:
        """Play to the end, printing each turn, checking that the box took every move."""
        game = self.session.game
        turn = 0
        drawn_piece = ""  # the piece drawn this turn, told with the action (W4)
        while game.phase != "over":
            before = len(game.history)
            move: Move
            if game.phase == "draw":
                move = drawn = sample_draw(game, self.rng)
                self.draw(drawn)
            elif game.phase == "reveal":
                move = revealed = sample_reveal(game, self.rng)
                self.reveal(revealed)
            else:
                move = bots[game.to_move](game.copy(), self.rng)
                self.act(move)
            if len(game.history) != before + 1 or game.history[-1][1] != move:
                raise DemoError(f"the box did not take {move}")
            if isinstance(move, Draw):
                drawn_piece = move.piece
                continue
            if isinstance(move, Reveal):
                print("        " + t("demo.turned_up", n=game.open_count, village=in_text(move.village)), file=out)
                continue
            turn += 1
            name = game.name(game.history[-1][0])
            what = (t("demo.drew_then", name=name, piece=in_text(drawn_piece), action=_action(move))
                    if drawn_piece else t("demo.acts", name=name, action=_action(move)))
            print(t("demo.turn", n=turn, what=what), file=out)
            drawn_piece = ""
            if self.delay:
                time.sleep(self.delay)


def _action(move: Move) -> str:
    """A turn's action, in the language spoken."""
    if isinstance(move, Build):
        return t("demo.builds", piece=in_text(move.piece), n=move.village)
    if isinstance(move, Claim):
        return t("demo.claims", n=move.village)
    return t("demo.passes")


def play_demo(seed: int, display: Display, data_dir: Path | None, *,
              players: Sequence[str] = DEFAULT_NAMES, out: TextIO | None = None,
              delay: float = 0.0, player_type: type[TablePlayer] = TablePlayer) -> Wakanda:
    """Play the game of ``seed`` through a session on ``display``; returns the finished game.

    Prints the set-up, each turn and nothing else on ``out``; ``player_type`` turns the
    bots' moves into events (tests give one that presses mocked GPIO buttons).
    """
    out = out or sys.stdout
    rng = random.Random(seed)
    bots = (greedy_bot, rng.choice((random_bot, greedy_bot)))
    if rng.random() < 0.5:
        bots = bots[::-1]
    variant = rng.choice(("open", "hidden"))
    row = random_setup(rng, variant)
    first = rng.randrange(2)
    a, b = (t("demo.seat", name=players[p], bot=t("demo.bot.greedy" if bots[p] is greedy_bot else "demo.bot.random"))
            for p in (0, 1))
    print(t("demo.header", seed=seed, players=t("demo.versus", a=a, b=b), variant=t(f"demo.variant.{variant}")),
          file=out, flush=True)
    with tempfile.TemporaryDirectory(prefix="totem-demo-") as scratch:
        tags = demo_tags()
        registry = TagRegistry(Path(scratch) / TAGS_FILE, tags)  # made up, never saved
        try:
            session = demo_session(data_dir or scratch, registry, players=tuple(players), rng=rng)
        except UserError:
            display.close()
            raise
        loop = AppLoop(session, display)
        try:
            loop.show(session.frame())
            player = player_type(loop, tags, rng, delay=delay)
            player.set_up(tuple(players), variant, row, first)
            villages = ", ".join(in_text(v) if v else "?" for v in session.game.villages)
            print(t("demo.villages", villages=villages), file=out, flush=True)
            game: Wakanda = session.game
            player.play(bots, out)
            pages = session.flow.pages if isinstance(session.flow, ScorePagesFlow) else []
            for _ in range(len(pages) - 1):
                player.send(Press("down"))
            player.leave_score(kept=data_dir is not None)
        except DemoError as exc:
            raise UserError(f"seed {seed}: {exc}") from None
        finally:
            loop.close()
    return game


def run_demo(options: DemoOptions) -> int:
    """``demo``: play the game of ``options.seed`` (the configured names, or Ana and Ben),
    print it and who won, write the record when asked; the exit status."""
    if options.display is None:  # the game is played through the box's screens
        raise UserError("the Wakanda demo needs a display to play through")
    players = options.players[:2] if len(options.players) >= 2 else DEFAULT_NAMES
    game = play_demo(options.seed, options.display, options.data_dir, players=players,
                     delay=options.delay)
    print(result_line(game))
    if options.record:
        write_demo_record(options.record, write_record(game))
        print(t("demo.record_written", file=options.record))
    return 0
