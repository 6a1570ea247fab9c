"""Whole games of every registered game, the way OpenSpiel's ``random_sim_test`` plays them:
after every move the record round-trips (written, read back: the same state), taking the
move back restores the state before it (``pop`` after ``push``), and at the end the
``score`` command says what the game's report says.

A game is set up as its demo sets it up (the header of the demo's record: players, the lot,
the deck), then played by seeded random legal moves where its legal moves are moves (a
draw from the bag is one of them: chance is an action), and by its demo's own moves where
they are not (Totem Wars lists counts of hidden cards, T5: its demo deals them).
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Hashable
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.engine import Engine, IllegalMove
from companion.games import GAMES
from companion.games.definition import GameDefinition
from companion.table.table_game import DemoOptions
from hardware.displays import NullDisplay

SEEDS = (1, 2, 3)
#: More moves than any game of the registry takes; a game still going after them never ends.
MAX_MOVES = 2000


def record_text(entry: GameDefinition[Any], game: Engine[Any]) -> str:
    """The game's record as the box writes it: its header, then a line a move."""
    lines = [entry.record.header_line(game), *(entry.record.event_line(p, m) for p, m in game.history)]
    return "".join(json.dumps(line) + "\n" for line in lines)


def state(entry: GameDefinition[Any], game: Engine[Any]) -> tuple[object, ...]:
    """All that can be seen of a game: its record, whose move, what may be played, its
    outcome and its score."""
    return (record_text(entry, game), game.to_move, game.phase, tuple(game.legal_moves()),
            game.outcome(), json.dumps(entry.report.score_json(game), sort_keys=True))


def demo_record(entry: GameDefinition[Any], seed: int, folder: Path) -> str:
    """The record of the game's demo with ``seed`` (its bots' moves, its chance)."""
    record = folder / f"demo-{seed}.jsonl"
    with redirect_stdout(io.StringIO()):
        assert entry.table.demo(DemoOptions(seed=seed, record=str(record), display=NullDisplay(),
                                            data_dir=folder / "data")) == 0
    return record.read_text(encoding="utf-8")


def moves_are_pushed(game: Engine[Any]) -> bool:
    """Whether the game's legal moves are moves it takes (not descriptions of hidden ones)."""
    move = game.legal_moves()[0]
    try:
        game.push(move)
    except IllegalMove:
        return False
    game.pop()
    return True


def checked_push(entry: GameDefinition[Any], game: Engine[Any], move: Hashable, folder: Path) -> None:
    """Push ``move``, then check the record round-trips and that ``pop`` restores the state
    before it (and pushing again the state after)."""
    before = state(entry, game)
    game.push(move)
    after = state(entry, game)
    read, warnings = entry.record.read_record(record_text(entry, game), folder / "data")
    assert state(entry, read) == after and warnings == []
    assert game.pop() == move
    assert state(entry, game) == before
    game.push(move)
    assert state(entry, game) == after


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", list(GAMES))
def test_a_whole_game_of_random_moves(tmp_path: Path, name: str, seed: int) -> None:
    entry = GAMES[name]
    played = demo_record(entry, seed, tmp_path)
    header = played.splitlines(keepends=True)[0]
    game, _ = entry.record.read_record(header, tmp_path / "data")
    if moves_are_pushed(game):
        rng = random.Random(seed)
        for _ in range(MAX_MOVES):
            if game.outcome() is not None:
                break
            legal = list(game.legal_moves())
            before = state(entry, game)
            for move in legal:                  # each legal move is taken, and taken back
                game.push(move)
                assert game.pop() == move and state(entry, game) == before
            checked_push(entry, game, rng.choice(legal), tmp_path)
    else:
        demo, _ = entry.record.read_record(played, tmp_path / "data")
        for _, move in demo.history:
            checked_push(entry, game, move, tmp_path)
    assert game.outcome() is not None and game.phase == "over" and not game.legal_moves()
    assert len(game.history) > 5, game.history

    record = tmp_path / "played.jsonl"
    record.write_text(record_text(entry, game), encoding="utf-8")
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["score", str(record), "--json", "--data", str(tmp_path / "data")]) == 0
    assert json.loads(out.getvalue()) == entry.report.score_json(game)


@pytest.mark.parametrize("name", list(GAMES))
def test_taking_back_with_nothing_played_is_refused(tmp_path: Path, name: str) -> None:
    entry = GAMES[name]
    header = demo_record(entry, 1, tmp_path).splitlines(keepends=True)[0]
    game, _ = entry.record.read_record(header, tmp_path / "data")
    before = state(entry, game)
    with pytest.raises(IllegalMove):
        game.pop()
    assert state(entry, game) == before
