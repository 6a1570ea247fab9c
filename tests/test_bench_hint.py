"""Hint benchmark on the box (budget: the hint ≤ 50 ms median a decision at the default
level, shared/DESIGN.md "Budgets"): the time from the HINT press to the finished frame, the
search included, through the table session. Prints the median and 95th percentile of the
first press (the search, then the board with the move lit), of the second (the next best:
no search again, within the 1 ms event-to-frame budget), and of the search alone on the
same positions just before (what the box adds is the difference; the machine's load moves
both alike):
.venv/bin/python -m pytest tests/test_bench_hint.py --benchmark-enable --benchmark-only -s

Each round is the next of a fixed set of real decisions — every turn with more than one
legal move of eight seeded games between greedy players — resumed on a box of its own, as
after a restart (not timed).
"""

import itertools
import random
import statistics
import time

from companion.events import Press
from companion.games.wakanda import hints as coach_module
from companion.games.wakanda import write_record
from companion.games.wakanda.bots import greedy_bot
from companion.games.wakanda.chance import sample_draw
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.search import DEFAULT_LEVEL, suggest
from companion.games.wakanda.setup import random_setup
from companion.table.registry import TagRegistry
from companion.table.session import Session

BUDGET_MS = 50
#: One input event to a finished frame, when nothing is searched.
FRAME_BUDGET_MS = 1


def decisions(games=8):
    """The records of ``games`` seeded greedy games (played with hints on) at each turn
    where the player to move has a choice."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        game = Wakanda(random_setup(rng), first=seed % 2, hints=True)
        while game.phase != "over":
            if game.phase == "draw":
                game.push(sample_draw(game, rng))
                continue
            if len(game.legal_moves()) > 1:
                found.append(write_record(game))
            game.push(greedy_bot(game, rng))
    return found


RECORDS = decisions()


def report(what, times, budget=BUDGET_MS):
    median = statistics.median(times) * 1000
    p95 = sorted(times)[int(0.95 * len(times))] * 1000
    print(f"\nwakanda {DEFAULT_LEVEL}, {what}: median {median:.1f} ms, p95 {p95:.1f} ms over "
          f"{len(times)} decisions — budget {budget} ms median: {'kept' if median <= budget else 'OVER'}")


def test_bench_hint_press_to_frame(benchmark, tmp_path, mocker):
    records = itertools.cycle(enumerate(RECORDS))
    searched = mocker.spy(coach_module, "suggest")
    first, second, alone = [], [], []

    def setup():
        index, record = next(records)
        data = tmp_path / f"box{index}-{len(first)}"
        data.mkdir()
        (data / "current.jsonl").write_text(record, encoding="utf-8")
        box = Session(data, TagRegistry(tmp_path / "tags.json", {}))
        box.handle(Press("ok"))                      # resume
        assert box.screen == "board"
        return (box,), {}

    def hint(box):
        calls = searched.call_count
        start = time.perf_counter()
        suggest(box.game)                            # the search alone (the coach's is its own)
        alone.append(time.perf_counter() - start)
        start = time.perf_counter()
        out = box.handle(Press("hint"))              # the search and the board with the move
        first.append(time.perf_counter() - start)
        start = time.perf_counter()
        box.handle(Press("hint"))                    # the next best: no search
        second.append(time.perf_counter() - start)
        assert searched.call_count == calls + 1 and box.screen == "hint"
        return out

    out = benchmark.pedantic(hint, setup=setup, rounds=len(RECORDS), iterations=1)
    assert out.frame.size == (128, 64)
    report("HINT, first press (search + frame)", first)
    report("HINT, second press (frame)", second, FRAME_BUDGET_MS)
    report("the search alone", alone)
