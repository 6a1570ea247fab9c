"""Replay benchmark: ``replay`` plays each line of a record once, so its time grows with the
record's length, not with its square (each line used to replay the record up to it: 500,
1,000 and 2,000 lines took 0.76, 2.49 and 9.09 s). Prints the time per line of records of
500, 1,000 and 2,000 lines (the frames drawn, not written as PNG files):
.venv/bin/python -m pytest tests/test_bench_replay.py --benchmark-enable --benchmark-only -s

The records are a real game and then its last move taken back and made again until the
record is long enough: every line is a legal event, and the board stays full.
"""

import time

from companion.games.wakanda import write_record
from companion.games.wakanda.bots import play_game
from companion.games.wakanda.replay import frames

LENGTHS = (500, 1000, 2000)


def long_record(lines: int) -> str:
    """A Wakanda record of exactly ``lines`` lines."""
    game = write_record(play_game(3)).splitlines()[:-1]  # unfinished: its last move is made again
    last = game[-1]
    while len(game) < lines:
        game += ['{"undo": true}', last]
    return "\n".join(game[:lines]) + "\n"


def replay(text: str) -> int:
    return sum(1 for _ in frames(text))


def test_bench_replay_of_a_2000_line_record(benchmark):
    text = long_record(LENGTHS[-1])
    assert benchmark.pedantic(replay, args=(text,), rounds=3 if benchmark.enabled else 1) == LENGTHS[-1]
    if benchmark.enabled:
        for lines in LENGTHS:
            record = long_record(lines)
            best = min(_timed(record) for _ in range(3))
            print(f"\nreplay of {lines} lines: {best:.2f} s, {best / lines * 1000:.2f} ms a line")


def _timed(text: str) -> float:
    start = time.perf_counter()
    replay(text)
    return time.perf_counter() - start
