"""Simple Wakanda players for the demo and for tests: random and one-ply greedy.

A bot takes the game (in its action phase) and a ``random.Random`` and returns the move of
the player to move. ``play_game`` plays a whole game, sampling draws and reveals.

>>> g = play_game(7, bots=(greedy_bot, random_bot))
>>> g.phase, g.outcome() is not None
('over', True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from companion.games.wakanda.chance import sample_draw, sample_reveal
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.moves import Claim, Move
from companion.games.wakanda.scoring import breakdown
from companion.games.wakanda.setup import random_setup

Bot = Callable[[Wakanda, random.Random], Move]


def _actions(game: Wakanda) -> list[Move]:
    if game.phase != "action":
        raise ValueError(f"a bot plays in the action phase, not the {game.phase} phase")
    return game.legal_moves()


def _mover(game: Wakanda) -> int:
    """The player to move; a bot is only asked in the action phase, where there is one."""
    player = game.to_move
    if player is None:
        raise ValueError("the game is over: no player to move")
    return player


def random_bot(game: Wakanda, rng: random.Random) -> Move:
    """Any legal action, uniformly."""
    return rng.choice(_actions(game))


def _best_claim_gain(game: Wakanda, player: int) -> int:
    """How much ``player``'s score would rise by claiming the best open, unclaimed pole now."""
    if not game.headdresses[player]:
        return 0
    villages, poles, owners = game.villages, game.poles, list(game.owners)
    base = breakdown(player, villages, poles, owners).total
    best = 0
    for v in range(game.open_count):
        if owners[v] is None and poles[v] and villages[v] is not None:
            owners[v] = player
            best = max(best, breakdown(player, villages, poles, owners).total - base)
            owners[v] = None
    return best


#: How much a headdress kept in hand is worth per piece left in the bag, spread over the
#: headdresses left: claiming a thin pole early wastes one (tuned against random_bot).
CLAIM_PATIENCE = 1.5


def _value(game: Wakanda, me: int) -> int:
    """Provisional score difference, minus the best claim the opponent could make next, plus
    the best one left for me (poles score only once claimed, so this is what sees builds)."""
    them = 1 - me
    diff = game.score(me).total - game.score(them).total
    return diff - _best_claim_gain(game, them) + _best_claim_gain(game, me)


def greedy_bot(game: Wakanda, rng: random.Random) -> Move:
    """The action with the best one-ply value (``_value``), ties broken at random.

    Sensible about claiming: a claim also pays for the headdress it spends, dearly while
    the bag is full and nothing at the end (``CLAIM_PATIENCE``).
    """
    moves = _actions(game)
    me = _mover(game)
    heads = game.headdresses[me]
    claim_cost = CLAIM_PATIENCE * sum(game.bag.values()) / heads if heads else 0.0
    best: list[Move] = []
    best_value: float | None = None
    for move in moves:
        game.push(move)
        value: float = _value(game, me)
        game.pop()
        if type(move) is Claim:
            value -= claim_cost
        if best_value is None or value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return rng.choice(best)


def play_game(seed: int, bots: tuple[Bot, Bot] = (random_bot, random_bot), variant: str = "open",
              empty_claim: str = "when_stuck", players: Sequence[str] = ("Player 1", "Player 2")) -> Wakanda:
    """A whole game by two bots, draws and reveals sampled; the same seed, the same game."""
    rng = random.Random(seed)
    game = Wakanda(random_setup(rng, variant), first=rng.randrange(2), players=players,
                   variant=variant, empty_claim=empty_claim)
    while game.phase != "over":
        if game.phase == "draw":
            game.push(sample_draw(game, rng))
        elif game.phase == "reveal":
            game.push(sample_reveal(game, rng))
        else:
            game.push(bots[_mover(game)](game, rng))
    return game
