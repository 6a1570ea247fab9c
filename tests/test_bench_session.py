"""Table session benchmark (budget: one input event to a finished frame — session + engine +
render — ≤ 1 ms median). Figures:
.venv/bin/python -m pytest tests/test_bench_session.py --benchmark-enable --benchmark-only

Each call handles the next event of a cycle a player makes mid-game (scan the drawn piece,
take it off, press the village, take both back with Back and OK), so every kind of frame is
in the median. The first benchmark keeps the journal in memory (the budget's measure); the
second writes and fsyncs it, as the box does, to show what the disk adds.
"""

import itertools
import random

from companion.events import Press, Tag, TagGone
from companion.games.wakanda import Build, Draw, write_record
from companion.games.wakanda.bots import greedy_bot, play_game, random_bot
from companion.table.registry import TagRegistry
from companion.table.session import Session


class MemoryJournal:
    def __init__(self):
        self.lines = []

    def append(self, line):
        self.lines.append(line)


def mid_game(tmp_path):
    """A session resumed 30 lines into a real game: poles standing, hands full."""
    game = play_game(6, bots=(greedy_bot, random_bot))
    data = tmp_path / "data"
    data.mkdir()
    (data / "current.jsonl").write_text("".join(write_record(game).splitlines(True)[:31]))
    s = Session(data, TagRegistry(tmp_path / "tags.json"), rng=random.Random(0))
    s.handle(Press("ok"))
    assert s.screen == "board" and s.game.phase == "draw"
    piece = next(p for p, n in s.game.bag.items() if n)
    village = next(m.village for m in _builds(s.game, piece))
    cycle = [Tag(piece), TagGone(piece), Press(f"v{village}"),
             Press("back"), Press("ok"), Press("back"), Press("ok")]
    return s, cycle


def _builds(game, piece):
    """The builds of ``piece`` that would be legal once it is drawn."""
    after = game.copy()
    after.push(Draw(piece))
    return [m for m in after.legal_moves() if isinstance(m, Build) and m.piece == piece]


def test_bench_event_to_frame(benchmark, tmp_path):
    s, cycle = mid_game(tmp_path)
    s.play.journal = MemoryJournal()
    events = itertools.cycle(cycle)
    out = benchmark(lambda: s.handle(next(events)))
    assert out.frame.size == (128, 64)


def test_bench_event_to_frame_with_fsynced_journal(benchmark, tmp_path):
    s, cycle = mid_game(tmp_path)
    events = itertools.cycle(cycle)
    out = benchmark(lambda: s.handle(next(events)))
    assert out.frame.size == (128, 64)
