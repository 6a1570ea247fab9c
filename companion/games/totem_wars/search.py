"""Totem Wars coach: which cards to place and why, from the seat's hand and the public table
(shared/DESIGN.md, "Engine protocol"; ``companion/search.py`` for the API every game's
search offers).

The box never sees hands, so the player names theirs (``hand``). Everything else the coach
uses is public: the totems, the cards on the table this round, the level, the taken piles,
the hand sizes and the unseen cards (hands and deck together).

- **Totems** (T2): the card of the tribe the hand holds most — those cards score in the
  totem column (T8) and at the end (T15) —, then the one whose animal other cards share
  (they may join its column, T7), then two habitats (more ways to win a war, T10, R2).
- **A placement** (T4-T6, T14), by level:

  - ``easy`` and ``standard-2026`` (the default before 2027, kept to measure against):
    the two placements of each legal count that score most this round (T8, R1) are
    played out to the end of the round — the other hands dealt from the unseen cards at
    their known sizes, every later placement the one that scores most, each war declared
    as is best for its owner (R2) — 4 or 6 times. ``easy`` then places what scores most
    now, fewest cards on a tie; ``standard-2026`` the placement with the best expected
    change in end points (T15) against the others (``_gain``).
  - ``standard`` (the default) and ``strong``: information-set Monte Carlo
    (``ismcts.py``). Every legal placement is played out from 48 or 96 deals of the cards
    the seat cannot see (the other hands at their sizes, the deck in a random order), two
    rounds on or to the end of the game (``playout.py``: every later placement greedy, but
    the seat's own when it is the last to place and knows how the round ends, ``canny``),
    all candidates on the same deals; after 8 or 12 deals only the best 8 or 12 go on.
    A play-out is worth the seat's lead in end points (T15) over the others' mean, each
    card of its totem's tribe still in a hand counting a point for its holder.
  - ``ismc-20``, to measure against: every legal placement played out to the end of the
    game from 20 deals, every seat greedy, a win worth 1 (shared: split), the lead at the
    end a little.

  No level suggests a placement that surely ties a war nobody wins while the deck still
  deals, unless every placement does: the cards would go under the deck and come back to
  the same hands round after round (T12, T13; R4 only once the deck is empty).
- **A war declaration** (R2): the habitat best for the owner, as the engine orders them.

The suggestion's ``value`` is the estimated chance to take the round (``hint.value_words``). Its
reason, and each alternative's, says first the figure that orders them — the expected end
points (T15) to the nearest half (at ``standard`` and ``strong`` the lead the play-outs
value, less the lead now), or at ``easy`` the points now (T8) —, then the other of
the two, the chance to take the round in words (never a percentage of a few play-outs),
what a raise costs (T5) and the chance of a war (T10).

>>> from companion.games.totem_wars import TotemWars
>>> g = TotemWars(["Ana", "Ben"])
>>> hand = ["indians/snake", "indians/wolf", "africans/snake", "indians/bear", "eskimos/seal"]
>>> s = suggest(g, 0, hand=hand)
>>> move_line(s.player, s.move), s.reason
({'p': 0, 'totem': 'indians/snake'}, 'totem Snake (Indians): 2 more of your cards are Indians')
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from companion.errors import UserError
from companion.files import shown
from companion.games.totem_wars.arrangement import best_arrangement, war_grouping
from companion.games.totem_wars.deck import Card
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.ismcts import MARGIN, Judge, Root, evaluate
from companion.games.totem_wars.levels import LEVELS
from companion.games.totem_wars.moves import ChooseTotems, Declare, Move, Play
from companion.games.totem_wars.playout import Policy, canny, greedy
from companion.games.totem_wars.record import event_line
from companion.games.totem_wars.rounds import HAND_SIZE, UNDER_DECK, RoundResult
from companion.games.totem_wars.simulation import deal
from companion.games.totem_wars.words import card_label, illegal, t
from companion.games.totem_wars.words import cards as cards_words
from companion.search import Alternative, Duel, Search, Suggestion


@dataclass(frozen=True)
class _Level:
    """How a level places (T4-T6): ``samples`` deals of the unseen cards, each candidate
    played out to the end of the round (``to_end`` False) or of the game (True, T15);
    ``width`` candidates a count (the best by points now); ``by_gain`` False: choose by the
    points now alone."""

    samples: int
    to_end: bool
    width: int = 2
    by_gain: bool = True
    judge: Judge = Judge()
    screen: int = 0
    keep: int = 0
    own: Policy = canny


#: Every placement of each legal count (at most 5 cards: 31 placements).
_ALL = 31
#: How ``standard`` and ``strong`` value a play-out: two rounds on (or to the end, T15), the
#: seat's lead over the others' mean, each card of its totem tribe in hand a point.
_JUDGE = Judge(rounds=2, win=0.0, mean=True, hand=1.0)
#: How each level of ``levels.py`` places, in its order.
_LEVELS = dict(zip(LEVELS, (_Level(4, False, by_gain=False), _Level(6, False),
                             _Level(20, True, width=_ALL, judge=Judge(rounds=0, win=1), own=greedy),
                             _Level(48, True, width=_ALL, judge=_JUDGE, screen=8, keep=8),
                             _Level(96, True, width=_ALL, judge=_JUDGE, screen=12, keep=12)), strict=True))
#: The default: within the hint budget (≤ 50 ms median; tests/test_bench_search.py) and as
#: strong as ``strong``, which played it even (docs/search.md) with steadier percentages.
DEFAULT_LEVEL = "standard"
#: Candidates played out, per number of cards: the best by points now.
_PER_COUNT = 2
#: How much a card of another player's tribe taken away from them is worth, against a
#: card of one's own tribe taken (1).
DENIAL = 1.0


@dataclass(frozen=True)
class TotemChoice:
    """The seat's totem (T2): answered as ``{"p": seat, "totem": card}``; every player lays
    theirs at once, so it is not a record line of its own."""

    card: Card


def move_line(player: int, move: Move | TotemChoice) -> dict[str, object]:
    """The line a suggested move is answered with: a record line, or for the totem choice
    ``{"p": seat, "totem": card}``."""
    if isinstance(move, TotemChoice):
        return {"p": player, "totem": move.card.name}
    return event_line(player, move)


def suggest(game: TotemWars, seat: int | None = None, *, level: str | None = None, seed: int = 0,
            hand: list[str] | None = None) -> Suggestion:
    """The suggested move for ``seat`` (default: the player to move) holding ``hand``.

    ``IllegalMove`` when the seat cannot move now (the game over, T15; another player's
    turn, T5, R2); ``UserError`` for a missing or impossible hand or an unknown level.
    """
    level = level or DEFAULT_LEVEL
    if level not in _LEVELS:
        raise UserError(f"unknown level {shown(level)} (levels: {', '.join(LEVELS)})")
    if seat is not None and not 0 <= seat < len(game.players):
        raise UserError(f"seat must be 0 to {len(game.players) - 1}, got {seat!r}")
    if game.phase == "over":
        raise illegal("game_over", rule="T15")
    if game.phase == "totems":
        if seat is None:
            raise UserError("name the seat: every player lays a totem at once (T2)")
        return _totem(seat, _hand(game, seat, hand))
    to_move = game.to_move
    assert to_move is not None, "a round under way has a player to move"
    if seat is not None and seat != to_move:
        raise illegal("not_turn_of", rule="R2" if game.phase == "declare" else "T5",
                          name=game.players[seat])
    if game.phase == "declare":
        return _declare(game, to_move)
    how = _LEVELS[level]
    cards = _hand(game, to_move, hand)
    if how.to_end:
        return _search(game, to_move, cards, how, random.Random(seed))
    return _place(game, to_move, cards, how.samples, how.by_gain, random.Random(seed))


def _hand(game: TotemWars, seat: int, names: list[str] | None) -> list[Card]:
    """The seat's cards from their names; ``UserError`` when they cannot be its hand."""
    if names is None:
        raise UserError("a Totem Wars hint needs the seat's hand: the box never sees hands")
    cards = []
    for name in names:
        try:
            card = game.deck.card(name)
        except KeyError:
            raise UserError(f"{name} is not a card of this game's deck (T1a)") from None
        if card in cards:
            raise UserError(f"{name} is named twice")
        if card not in game.unseen:
            raise UserError(f"{name} cannot be in a hand: it is a totem, on the table, taken or "
                            "out of the game (T2, T9, R4)")
        cards.append(card)
    size = HAND_SIZE if game.phase == "totems" else game.hand_sizes[seat]
    if len(cards) != size:
        raise UserError(f"{game.players[seat]} holds {size} cards, not {len(cards)} (T2, T13)")
    return sorted(cards)


def _totem(seat: int, hand: list[Card]) -> Suggestion:
    def key(card: Card) -> tuple[int, int, int]:
        same_tribe = sum(other.tribe == card.tribe for other in hand) - 1
        guests = sum(other.animal == card.animal and other.tribe != card.tribe for other in hand)
        return same_tribe, guests, len(card.habitats)

    ranked = sorted(hand, key=key, reverse=True)  # a stable sort: the card order on a tie

    def reason(card: Card) -> str:
        why = t("tw.hint.totem_why", n=key(card)[0], tribe=t(f"tribe.{card.tribe}"))
        return t("hint.because", move=t("tw.hint.totem", card=card_label(card)), why=why)

    best = ranked[0]
    return Suggestion(player=seat, move=TotemChoice(best), value=1.0, reason=reason(best),
                      alternatives=tuple(Alternative(TotemChoice(c), 1.0, reason(c)) for c in ranked[1:]))


def _declare(game: TotemWars, seat: int) -> Suggestion:
    due = game.declaration_due
    assert due is not None, "phase declare has a declaration due"
    totem = game.totems[seat]
    assert totem is not None
    moves = [Declare(h) for h in due.habitats]   # the engine lists the best for the owner first

    def reason(habitat: str) -> str:
        points = war_grouping(totem, game.table[seat], habitat).points
        return t("hint.because", move=t("tw.hint.declare", habitat=t(f"habitat.{habitat}")),
                 why=t("tw.hint.war_points", n=points))

    return Suggestion(player=seat, move=moves[0], reason=reason(moves[0].habitat), value=1.0,
                      alternatives=tuple(Alternative(m, 0.0, reason(m.habitat)) for m in moves[1:]))


@dataclass
class _Tally:
    """What the played-out rounds of one candidate gave; ``certain`` while no other player
    chose anything after the seat's placement in any of them (only the seat's own war
    declaration, R2): the round's end hung on no deal and no one else's choice."""

    gain: float = 0.0
    takes: int = 0
    wars: int = 0
    rounds: int = 0
    certain: bool = True


def _points_now(game: TotemWars, seat: int) -> tuple[Callable[[tuple[Card, ...]], int],
                                                      Callable[[tuple[Card, ...]], tuple[int, int, int]]]:
    """For ``seat``'s placements: the points each scores now (T8), and the greedy order —
    points now; on a tie fewer cards, and keeping the cards of the totem's tribe."""
    totem = game.totems[seat]
    assert totem is not None, "the totems are down before any play"
    down = game.table[seat]

    def now(cards: tuple[Card, ...]) -> int:
        return best_arrangement(totem, down + cards).points

    def greedy_key(cards: tuple[Card, ...]) -> tuple[int, int, int]:
        return now(cards), -len(cards), -sum(c.tribe == totem.tribe for c in cards)

    return now, greedy_key


def _place(game: TotemWars, seat: int, hand: list[Card], samples: int, by_gain: bool,
           rng: random.Random) -> Suggestion:
    now, greedy_key = _points_now(game, seat)
    candidates, _ = _candidates(game, seat, hand, _PER_COUNT, greedy_key)
    tallies = {cards: _Tally() for cards in candidates}
    others = sorted(game.unseen - set(hand))
    for _ in range(samples):
        hands = _deal(game, seat, others, rng)
        hands[seat] = hand
        for cards in candidates:
            _tally(tallies[cards], game, seat, cards, hands)
    if by_gain:
        ranked = sorted(candidates, key=lambda c: (tallies[c].gain, greedy_key(c)), reverse=True)
    else:
        ranked = sorted(candidates, key=greedy_key, reverse=True)

    def value(cards: tuple[Card, ...]) -> float:
        return tallies[cards].takes / samples

    def reason(cards: tuple[Card, ...]) -> str:
        return _place_reason(game, seat, cards, now(cards), tallies[cards], by_gain)

    best = ranked[0]
    return Suggestion(player=seat, move=Play(best), value=value(best), reason=reason(best),
                      alternatives=tuple(Alternative(Play(c), value(c), reason(c)) for c in ranked[1:]))


def _search(game: TotemWars, seat: int, hand: list[Card], how: _Level, rng: random.Random) -> Suggestion:
    """The placement with the best value over play-outs from re-dealt hands (``ismcts.py``,
    ``how.judge``), among the ``how.width`` that score most now of each legal count (``_candidates``);
    the alternatives are the others played out to the last deal (``how.keep``)."""
    now, greedy_key = _points_now(game, seat)
    candidates, ends = _candidates(game, seat, hand, how.width, greedy_key)
    root = Root(game, seat, hand)
    stats = dict(zip(candidates, evaluate(root, [tuple(root.index[c] for c in cards) for cards in candidates],
                                          how.samples, rng, how.judge, how.own, screen=how.screen,
                                          keep=how.keep)))
    # Only the candidates played to the last sample (``keep``) are weighed against each other.
    played = max(got.samples for got in stats.values())
    ranked = sorted((c for c in candidates if stats[c].samples == played),
                    key=lambda c: (stats[c].value, greedy_key(c)), reverse=True)
    lead = how.judge.lead(root.points, seat)

    def tally(cards: tuple[Card, ...]) -> _Tally:
        got, end = stats[cards], ends[cards]
        # The figure that orders them, as points: the lead the value counts, less the lead now
        # (a win counted in it, only the lead at the end).
        gain = (got.margin if how.judge.win else got.value / MARGIN) - lead * got.samples
        if end is None:
            return _Tally(gain=gain, takes=got.takes, wars=got.wars, rounds=got.samples, certain=False)
        return _Tally(gain=gain, takes=got.samples * (end.taker == seat), wars=got.samples * end.war,
                      rounds=got.samples)

    tallies = {c: tally(c) for c in ranked}

    def reason(cards: tuple[Card, ...]) -> str:
        return _place_reason(game, seat, cards, now(cards), tallies[cards], True)

    def value(cards: tuple[Card, ...]) -> float:
        return tallies[cards].takes / tallies[cards].rounds

    best = ranked[0]
    return Suggestion(player=seat, move=Play(best), value=value(best), reason=reason(best),
                      alternatives=tuple(Alternative(Play(c), value(c), reason(c)) for c in ranked[1:]))


def _candidates(game: TotemWars, seat: int, hand: list[Card], width: int,
                key: Callable[[tuple[Card, ...]], tuple[int, ...]]
                ) -> tuple[list[tuple[Card, ...]], dict[tuple[Card, ...], RoundResult | None]]:
    """The ``width`` placements of each legal count that rank first by ``key``, and how the
    round surely ends after each, when it does (``_round_end``). A placement that surely
    ties a war nobody wins while the deck still deals is left out — the next of its count
    takes its place — unless every placement does: the cards would go under the deck and
    come back to the same hands, round after round (T12, T13; R4 only once it is empty)."""
    ranked = [sorted(combinations(hand, n), key=key, reverse=True) for n in game.legal_counts()]
    ends = {cards: _round_end(game, seat, cards) for by_count in ranked for cards in by_count}
    ending = [[c for c in by_count if not _endless(game, ends[c])][:width] for by_count in ranked]
    if not any(ending):
        ending = [by_count[:width] for by_count in ranked]
    return [c for by_count in ending for c in by_count], ends


def _round_end(game: TotemWars, seat: int, cards: tuple[Card, ...]) -> RoundResult | None:
    """How the round ends when the seat places ``cards``, if no one else places or declares
    after it (only the seat's own war declarations, the best for it, R2); else None."""
    rounds = len(game.rounds)
    pushed = 0
    try:
        game.push(Play(cards))
        pushed += 1
        while len(game.rounds) == rounds:
            due = game.declaration_due
            if due is None or due.player != seat:
                return None
            game.push(Declare(due.habitats[0]))
            pushed += 1
        return game.rounds[-1]
    finally:
        for _ in range(pushed):
            game.pop()


def _endless(game: TotemWars, end: RoundResult | None) -> bool:
    """Whether a round that surely ends so sends its cards back to be dealt again: nobody
    takes them and the deck still deals (T12, T13; R4 only once it is empty)."""
    return end is not None and end.taker is None and end.destination == UNDER_DECK


def _deal(game: TotemWars, seat: int, others: list[Card], rng: random.Random) -> dict[int, list[Card]]:
    """The other hands, dealt at random from the cards the seat cannot see, at their sizes."""
    pool = others[:]
    rng.shuffle(pool)
    hands = {}
    for p, size in enumerate(game.hand_sizes):
        if p != seat:
            hands[p], pool = pool[:size], pool[size:]
    return hands


def _tally(tally: _Tally, game: TotemWars, seat: int, cards: tuple[Card, ...], hands: dict[int, list[Card]]) -> None:
    """Play the round out after the seat places ``cards`` (every later placement greedy,
    the seat's answers too; R2 declarations the best for their owners) on the game itself,
    count what it gave, and take it all back. ``hands`` holds every hand, the seat's too."""
    rounds = len(game.rounds)
    pushed = 0
    held = {p: list(h) for p, h in hands.items()}
    for card in cards:
        held[seat].remove(card)
    try:
        game.push(Play(cards))
        pushed += 1
        while len(game.rounds) == rounds:
            p = game.to_move
            assert p is not None, "a round under way has a player to move"
            due = game.declaration_due
            if due is not None:
                game.push(Declare(due.habitats[0]))
            else:
                play = _greedy(game, p, held[p])
                for card in play:
                    held[p].remove(card)
                game.push(Play(play))
            # Another player's choice, placement or declaration, is a guess: no longer certain.
            tally.certain = tally.certain and p == seat and due is not None
            pushed += 1
        result = game.rounds[-1]
    finally:
        for _ in range(pushed):
            game.pop()
    tally.rounds += 1
    tally.wars += result.war
    tally.takes += result.taker == seat
    tally.gain += _gain(game, seat, result)


def _greedy(game: TotemWars, p: int, hand: list[Card]) -> tuple[Card, ...]:
    """What scores most for ``p`` this round (T8, R1), fewest cards on a tie."""
    totem = game.totems[p]
    assert totem is not None
    down = game.table[p]
    return max((cards for n in game.legal_counts() for cards in combinations(hand, n)),
               key=lambda cards: (best_arrangement(totem, down + cards).points, -len(cards)))


def _gain(game: TotemWars, seat: int, result: RoundResult) -> float:
    """The change in end points (T15) a round brings the seat, against the others: the
    taker scores the cards of their totem's tribe, and the cards of another player's tribe
    they take are points that player can no longer make (``DENIAL``); what another player
    gains is shared among the seat's opponents."""
    if result.taker is None:
        return 0.0
    n = len(game.players)

    def own(p: int) -> int:
        totem = game.totems[p]
        assert totem is not None, "the totems are down before any play"
        return sum(card.tribe == totem.tribe for card in result.cards)

    taker = result.taker
    if taker == seat:
        return own(seat) + DENIAL * sum(own(p) for p in range(n) if p != seat) / (n - 1)
    return -(own(taker) + DENIAL * own(seat)) / (n - 1)


def _place_reason(game: TotemWars, seat: int, cards: tuple[Card, ...], points: int, tally: _Tally,
                  by_gain: bool) -> str:
    """``place <cards>: <end points>, <points now>, <the round>, raises by N cards, <war>``:
    what ordered the candidates first (the points now when not ``by_gain``), a war last —
    the part a small screen cuts first."""
    now = t("tw.hint.now", n=points)
    gain = _end_points(tally.gain / tally.rounds)
    take, war = _chances(tally)
    parts = [gain, now, take] if by_gain else [now, gain, take]
    if game.level and not game.table[seat] and len(cards) > game.level:  # T5: a raise
        parts.append(t("tw.hint.raise", extra=cards_words(len(cards) - game.level)))
    if war:
        parts.append(war)
    move = t("tw.hint.place", cards=", ".join(card_label(c) for c in cards))
    return t("hint.because", move=move, why=", ".join(parts))


def _end_points(gain: float) -> str:
    """The expected change in the final points (T15) to the nearest half, signed: ``+1.5
    points at the end``, ``-1 point at the end``, ``no more points at the end`` — a few
    play-outs tell no finer."""
    halves = math.floor(2 * abs(gain) + 0.5)
    if halves == 0:
        return t("tw.hint.gain_none")
    number = str(halves // 2) if halves % 2 == 0 else t("tw.hint.half", n=halves // 2)
    sign = "+" if gain > 0 else "-"
    return t("tw.hint.gain", n=sign + number, plural_by=1 if halves == 2 else 2)


#: The shares of the play-outs from which a chance is said to be likely, and up to which
#: unlikely (with 6 play-outs: 5 or 6 likely, 0 or 1 unlikely, "rarely takes the round").
LIKELY, UNLIKELY = 0.7, 0.3


def _chances(tally: _Tally) -> tuple[str, str]:
    """The chance to take the round (T9-T11) and of a war (T10) in words, the war empty
    when none came up: plain when the round ends at the seat's placement (no deal or other
    player can change it), else likely, maybe or unlikely."""
    take, war = tally.takes / tally.rounds, tally.wars / tally.rounds
    if tally.certain:
        return t("tw.hint.take.yes" if take else "tw.hint.take.no"), t("tw.hint.war.certain") if war else ""
    said = t("tw.hint.take.likely" if take >= LIKELY else "tw.hint.take.unlikely" if take <= UNLIKELY
             else "tw.hint.take.maybe")
    return said, "" if not war else t("tw.hint.war.likely" if war >= LIKELY else "tw.hint.war.possible")


#: Rounds after which a duel is scored where it stands (T15): when every placement of the
#: last to place ties a war nobody wins, the cards go under the deck and may come back to
#: the same hands (T12, T13); players at a table would agree to stop. Games end far sooner.
DUEL_ROUNDS = 200


def duel(levels: tuple[str, ...], seed: int, first: int) -> Duel:
    """One small game of ``len(levels)`` players (2 to 4), ``levels[i]`` coaching seat ``i``
    with its own hand, ``first`` to start (T3: the dealer sits on its right); the deal comes
    from ``seed``."""
    for level in levels:
        if level not in _LEVELS:
            raise UserError(f"unknown level {shown(level)} (levels: {', '.join(LEVELS)})")
    n = len(levels)
    sim = deal(random.Random(f"totem-wars deal {seed}"), ("A", "B", "C", "D")[:n], dealer=(first - 1) % n)
    decisions = random.Random(f"totem-wars decisions {seed}")
    picks = []
    for p in range(n):
        totem = suggest(sim.game, p, level=levels[p], hand=[c.name for c in sim.hands[p]]).move
        assert isinstance(totem, TotemChoice)
        picks.append(totem.card)
    sim.push(ChooseTotems(tuple(picks)))
    times: list[list[float]] = [[] for _ in range(n)]
    while sim.game.phase != "over" and len(sim.game.rounds) < DUEL_ROUNDS:
        p = sim.seat
        choices = len(sim.game.legal_moves()) > 1 or sim.game.phase == "play" and len(sim.hands[p]) > 1
        start = time.perf_counter()
        move = suggest(sim.game, level=levels[p], seed=decisions.getrandbits(32),
                       hand=[c.name for c in sim.hands[p]]).move
        if choices:
            times[p].append(time.perf_counter() - start)
        sim.push(move)  # type: ignore[arg-type]
    points = sim.game.all_points()
    winners = tuple(p for p, v in enumerate(points) if v == max(points))
    return Duel(winners=winners, totals=points, times=tuple(tuple(t) for t in times))


#: A Totem Wars match has no variants: ``variant`` is always None here (``match`` checks).
SEARCH = Search(levels=LEVELS, default_level=DEFAULT_LEVEL, suggest=suggest,
                move_line=move_line, duel=lambda levels, seed, first, variant: duel(levels, seed, first),
                players=(2, 3, 4))
