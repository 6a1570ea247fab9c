"""A whole game of Totem Wars against the box, as the input events players make at the table
(tests/test_tw_box_seat.py plays it through ``run --input``).

The physical game is a ``Simulation`` (a deck shuffled by a seed, every hand's faces): the
dealer deals the box's cards onto its spots and scans them when it asks, the people play the
greedy bot, and the box's totem and placements are the ones it asks for, read off the session
as it plays — so the script stays true to what the box decides, whatever its search. Written
fresh by each test (no file to regenerate). It also scans a wrong card for the box and one of
the box's cards for a person (both refused), and takes back one of the box's placements
(with the person's move before it). After each event, no card on the box's spots
can be read on the screen, the phone page or in the voice's words (``hidden_shown``).
"""

from __future__ import annotations

import random
from pathlib import Path

import box_script
from box_helpers import MAX_STEPS

from companion.events import Press
from companion.games.totem_wars import ChooseTotems, Deal, Play, deal, greedy_bot
from companion.games.totem_wars.box_setup import BOX
from companion.games.totem_wars.flow import totem_order
from companion.games.totem_wars.words import card_label
from companion.table.public_view import seen
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.ui.canvas import frame_words


class Writer(box_script.Writer):
    """Wakanda's script writer, for cards: after each event no card on the box's spots can
    be read (``hidden_shown``)."""

    COMMENTS = 28

    def check(self, line: str) -> None:
        shown = hidden_shown(self.session)
        if shown:
            raise AssertionError(f"{line}: the box's cards {shown} can be read")

    def scan(self, card, comment: str = "", refused: bool = False) -> None:
        super().scan(card.name, comment, refused)

    def choose(self, value, comment: str = "") -> None:
        for _ in range(MAX_STEPS):
            if self.session.view.choice.value == value:
                self.send("press ok", Press("ok"), comment)
                return
            self.send("press down", Press("down"))
        raise AssertionError(f"{value!r} not offered")


def hidden_shown(session: Session) -> list[str]:
    """The cards on the box's spots that anyone can read now: on the screen, or in what the
    phone page and the voice take from it (``seen``)."""
    game = session.game
    if game is None or session.flow is not session.play or not getattr(game, "box", None):
        return []
    words = " ".join(frame_words(session.frame())) + repr(seen(session))
    return [card.name for box in game.box for card in game.box_hand(box)
            if card_label(card) in words or card.name in words]


def physical(seed: int, game):
    """The table's cards for ``game`` so far: a deck shuffled by ``seed``, dealt (T2), then
    every move of ``game`` but the deals (the box's cards are the ones the deck gives)."""
    sim = deal(random.Random(seed), game.players, game.dealer)
    for _, move in game.history:
        if not isinstance(move, Deal):
            sim.push(move)
    return sim


def write(folder: Path, seed: int, players: int = 2, box_seat: int | None = 1, *, dealer: int = 0,
          undo_at: int = 2, wrong_at: int = 1) -> tuple[str, Session]:
    """The script of the game of ``seed`` with the box in ``box_seat`` (people named Ana,
    Ben…, the box the last name offered for its seat), or with ``None`` one person against
    the box in every other seat (no names: the solo set-up), and the session that played it.
    The box's placement number ``wrong_at`` gets a wrong card first; number ``undo_at`` is
    taken back once after it is played."""
    names = ("Ana", "Ben", "Cleo", "Dan")[:players - 1] if box_seat is not None else ()
    session = Session(folder / "data", TagRegistry(folder / "tags.json", {}), rng=random.Random(1),
                      players=names)
    w = Writer(session)
    w.choose("totem-wars", "New: Totem Wars")
    if box_seat is None:
        w.choose(("solo", players), f"solo against {players - 1} box seats")
        w.send("press ok", Press("ok"), "at its default level")
    else:
        w.choose(players, f"{players} players")
        people = iter(names)
        for seat in range(players):
            if seat == box_seat:
                w.choose(BOX, f"the box plays seat {seat + 1}")
                w.send("press ok", Press("ok"), "at its default level")
            else:
                w.choose(next(people))
    w.choose(dealer, f"seat {dealer + 1} deals")
    game = session.game
    rng = random.Random(seed)
    placements, undone, person_refused = 0, False, False
    while game.phase != "over":
        sim = physical(seed, game)
        flow = session.play
        due = game.deal_due
        if due is not None:
            card = next(c for c in sim.hands[due.seat] if c not in game.box_hand(due.seat))
            w.scan(card, f"dealt onto spot {due.spot}")
            continue
        if game.phase == "totems":
            order = totem_order(game)
            seat = order[len(flow.totems)]
            if seat in game.box:
                w.scan(flow.box.totem(game, seat), "the box's totem, turned up")
            else:
                picks = greedy_bot(sim, rng)
                assert isinstance(picks, ChooseTotems)
                w.scan(picks.cards[seat], f"{game.players[seat]}'s totem")
            continue
        seat = game.to_move
        if game.phase == "declare":
            w.send("press ok", Press("ok"), f"{game.players[seat]} declares")
            continue
        if seat in game.box:
            placements += 1
            move = flow.box.placement(game)
            if placements == wrong_at:
                wrong = next(c for c in sorted(game.unseen) if c not in game.box_hand(seat))
                w.scan(wrong, "refused: not one of the box's spots", refused=True)
            for card in move.cards:
                w.scan(card, "laid for the box")
            if placements == undo_at and not undone:
                undone = True
                w.send("press back", Press("back"), "take back the box's placement…")
                w.send("press ok", Press("ok"), "…and the person's before it")
            continue
        move = greedy_bot(sim, rng)
        assert isinstance(move, Play)
        mine = [card for box in game.box for card in game.box_hand(box)]
        if not person_refused and mine:
            person_refused = True
            w.scan(mine[0], "refused: a card of the box's spots", refused=True)
        for card in move.cards:
            w.scan(card, f"{game.players[seat]} lays")
        w.send("press ok", Press("ok"))
    return "\n".join(w.lines) + "\n", session
