"""The Totem Wars demo: bots with known hands play a whole game through the full stack.

A shuffled deck is dealt by the rules (``simulation.deal``); each bot's choice becomes the
raw input events players make at the table — the set-up with the buttons, each card put on
the pad and taken off (``Tag``/``TagGone``), now and then a card entered with the buttons
instead, OK to place, the habitat a war asks of a two-habitat totem chosen with ▲▼ and OK
(R2), OK to turn the result pages — and those events go through the table session, the
flows and the screens (and the display, when one is given). Every round and the result are
printed; the same seed gives the same game.
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Sequence
from pathlib import Path

from companion.errors import UserError
from companion.events import Event, Press, Tag, TagGone
from companion.games.totem_wars import (
    Card,
    ChooseTotems,
    Declare,
    Move,
    Play,
    RoundResult,
    Simulation,
    TotemWars,
    deal,
    greedy_bot,
    random_bot,
    write_record,
)
from companion.games.totem_wars.box_demo import Bot, Out, play_with_box
from companion.games.totem_wars.flow import totem_order
from companion.games.totem_wars.report import result_line
from companion.games.totem_wars.round_screens import outcome_line, refill_line
from companion.games.totem_wars.score_flow import TotemWarsScoreFlow
from companion.games.totem_wars.simulation import NAMES
from companion.games.totem_wars.words import card_label, t
from companion.table.app_loop import Display
from companion.table.demo_player import DemoError, DemoPlayer, demo_session, write_demo_record
from companion.table.registry import TAGS_FILE, TagRegistry
from companion.table.session import Output, Session
from companion.table.table_game import DemoOptions

#: How often a card is entered with the buttons rather than scanned.
BUTTONS_SHARE = 0.2
MAX_PAGES = 16


class TotemWarsPlayer(DemoPlayer):
    """Feeds a table session the events of players at the table; shows each frame."""

    def __init__(self, table: Session, rng: random.Random, display: Display | None = None) -> None:
        super().__init__(table, self._through)
        self.rng = rng
        self.display = display

    def _through(self, event: Event) -> Output:
        out = self.session.handle(event)
        if self.display is not None:
            self.display.show(out.frame)
        return out

    def card(self, card: Card) -> None:
        """Put a card on the pad and take it off; or enter it with the buttons."""
        if self.rng.random() < BUTTONS_SHARE:
            self.send(Press("up"))  # opens the card picker: tribe, then animal
            self.choose(card.tribe)
            self.choose(card)
        else:
            self.send(Tag(card.name))
            self.send(TagGone(card.name))

    def declare(self, habitat: str) -> None:
        """Answer the box's question for a war (R2): ▼ down to ``habitat``, then OK."""
        due = self.session.game.declaration_due
        if self.session.screen != "declare" or due is None:
            raise DemoError("the box does not ask for the habitat")
        for _ in range(due.habitats.index(habitat)):
            self.send(Press("down"))
        self.send(Press("ok"))

    def play(self, move: Move) -> None:
        """A bot's move as its player enters it: a war's habitat (R2), or the cards of a
        placement, then OK (T4)."""
        if isinstance(move, Declare):
            self.declare(move.habitat)
        elif isinstance(move, Play):
            for card in move.cards:
                self.card(card)
            self.send(Press("ok"))

    def set_up(self, players: Sequence[str], dealer: int) -> None:
        """Number of players, the names seat by seat, the dealer."""
        self.choose(len(players))
        for name in players:
            self.choose(name)
        self.choose(dealer)

    def turn_pages(self) -> None:
        """OK through the pages on screen (a round's result or the end)."""
        for _ in range(MAX_PAGES):
            if self.session.screen not in ("round", "deal"):
                return
            self.send(Press("ok"))
        raise DemoError("the result pages do not end")


def _print_round(game: TotemWars, result: RoundResult, out: Out) -> None:
    names = game.players
    n = len(names)
    order = [(result.starter + i) % n for i in range(n)]
    placed = ", ".join(f"{names[p]} {len(result.placed[p])}" for p in order if result.placed[p])
    points = ", ".join(f"{names[p]} {result.points[p]}" for p in order if result.placed[p])
    out(t("tw.demo.round", n=result.number, placed=placed, points=points))
    if result.war:
        parts = [t("tw.demo.war", war=", ".join(f"{names[p]} {result.war_points[p]}" for p in result.warring))]
        declared = [f"{names[p]} {t(f'habitat.{result.declared[p]}')}" for p in range(n) if result.declared[p]]
        habitats = [f"{names[p]} {t(f'habitat.{result.habitats[p]}')}" for p in range(n) if result.habitats[p]]
        if declared:
            parts.append(t("tw.demo.declared", list=", ".join(declared)))
        if habitats:
            parts.append(t("tw.demo.habitats", list=", ".join(habitats)))
        out("        " + " · ".join(parts))
    out(f"        {outcome_line(game, result)} · {refill_line(game, result)}")


def run_totem_wars_demo(seed: int, record: str | None = None, display: Display | None = None, out: Out = print, *,
                        players: Sequence[str] | None = None, data_dir: str | os.PathLike[str] | None = None,
                        box: int | None = None) -> int:
    """Play one demo game of Totem Wars; prints each round and the result.

    ``players`` (2 to 4 names) default to 2–4 of Ana, Ben, Cleo, Dan drawn by the seed;
    ``data_dir`` keeps the journal, the record and the big game (default: a temporary
    folder); ``record`` is a file to write the game's record to; ``box`` a seat (from 0)
    the box plays (``box_demo.py``), the others the names. Returns the exit status.
    """
    rng = random.Random(seed)
    if box is None:
        players = tuple(players) if players else NAMES[:rng.choice((2, 3, 4))]
    else:  # the box takes a seat of its own: one to three people
        if not 0 <= box <= 3:
            raise UserError("--box: a seat from 1 to 4 (T1)")
        people = tuple(players)[:3] if players else NAMES[:rng.choice(range(max(box, 1), 4))]
        if not 0 <= box <= len(people):
            raise UserError(f"--box: a seat from 1 to {len(people) + 1}")
        players = people[:box] + (t("tw.box.name"),) + people[box:]
    if not 2 <= len(players) <= 4:
        raise UserError(f"Totem Wars is for 2 to 4 players, not {len(players)} (T1)")
    n = len(players)
    dealer = rng.randrange(n)
    bots = [rng.choice((greedy_bot, random_bot)) for _ in range(n)]
    names = ", ".join(players[p] if p == box else
                      f"{players[p]} ({t('tw.demo.bot.greedy' if bots[p] is greedy_bot else 'tw.demo.bot.random')})"
                      for p in range(n))
    out(t("tw.demo.header", seed=seed, players=names, name=players[dealer]))
    with tempfile.TemporaryDirectory(prefix="totem-demo-") as scratch:
        folder = Path(data_dir) if data_dir is not None else Path(scratch)
        people = tuple(name for p, name in enumerate(players) if p != box)
        table = demo_session(folder, TagRegistry(Path(scratch) / TAGS_FILE), players=people)
        player = TotemWarsPlayer(table, rng, display)
        try:
            player.choose("totem-wars")
            if box is None:
                game = _play(table, player, players, dealer, bots, rng, out, kept=data_dir is not None)
            else:
                game = play_with_box(table, player, people, box, dealer, bots, rng, out, _print_round)
                _end(table, player, data_dir is not None, out)
        except DemoError as exc:
            raise UserError(f"seed {seed}: {exc}") from None
    out(result_line(game))
    if record:
        write_demo_record(record, write_record(game))
        out(t("demo.record_written", file=record))
    return 0


def _play(table: Session, player: TotemWarsPlayer, players: Sequence[str], dealer: int, bots: Sequence[Bot],
          rng: random.Random, out: Out, *, kept: bool = True) -> TotemWars:
    """The set-up, the totems, every round and the end pages (left with OK when the data
    folder is ``kept``); returns the finished game."""
    player.set_up(players, dealer)
    sim = deal(rng, players, dealer, table.game.deck)
    game: TotemWars = table.game
    totems = ChooseTotems(tuple(_totem(bots[p], sim, rng, p) for p in range(len(players))))
    for seat in totem_order(game):
        player.card(totems.cards[seat])
    sim.push(totems)
    if game.history[-1][1] != totems:
        raise DemoError("the box did not take the totems")
    out(t("tw.demo.totems", list=", ".join(f"{players[p]} {card_label(c)}" for p, c in enumerate(totems.cards))))
    player.turn_pages()
    while sim.game.phase != "over":
        move = bots[sim.seat](sim, rng)
        player.play(move)
        rounds = len(sim.game.rounds)
        sim.push(move)
        if game.history[-1][1] != move or game.history != sim.game.history:
            raise DemoError(f"the box did not take {move}")
        if len(sim.game.rounds) > rounds:
            _print_round(game, game.rounds[-1], out)
            player.turn_pages()
    _end(table, player, kept, out)
    return game


def _totem(bot: Bot, sim: Simulation, rng: random.Random, seat: int) -> Card:
    """``seat``'s totem as ``bot`` would choose the totems (T2)."""
    move = bot(sim, rng)
    assert isinstance(move, ChooseTotems), move
    return move.cards[seat]


def _end(table: Session, player: TotemWarsPlayer, kept: bool, out: Out) -> None:
    """The end pages, left with OK when the data folder is ``kept``; the big game's totals."""
    if table.screen != "score":
        raise DemoError("the end pages are not shown")
    assert isinstance(table.flow, TotemWarsScoreFlow)  # the score screen of this game
    match = table.flow.match
    for _ in range(len(table.flow.pages) - 1):
        player.send(Press("down"))
    player.leave_score(kept)
    if match is not None:
        totals = ", ".join(f"{name} {total}" for name, total in zip(match.players, match.totals))
        out(t("tw.demo.big", totals=totals))


def run_demo(options: DemoOptions) -> int:
    """``demo --game totem-wars``: the game of ``options.seed`` with up to four of the
    configured names (at least two, else names drawn by the seed); the exit status."""
    players = options.players[:4] if len(options.players) >= 2 else None
    return run_totem_wars_demo(options.seed, options.record, options.display, players=players,
                               data_dir=options.data_dir, box=options.box)
