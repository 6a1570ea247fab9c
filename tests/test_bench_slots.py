"""Slot mode benchmark (budget: one input event to a finished frame ≤ 1 ms median, as for
any event). Figures:
.venv/bin/python -m pytest tests/test_bench_slots.py --benchmark-enable --benchmark-only

A game of tests/data/wakanda_slot_game.txt is played to its last turns, so that every pole
stands on its slot and the box compares them all at each event; then each call handles the
next event of a cycle: a piece drawn on the pad, laid on its village's slot (the build),
lifted off again (take it back?), OK, and the draw taken back with Back and OK.
"""

import itertools
import random
from pathlib import Path

from slot_helpers import enrolled

from companion.events import Press, Tag, TagGone, Wait
from companion.table.registry import TagRegistry
from companion.table.session import Session
from hardware.script_input import ScriptInput

SCRIPT = Path(__file__).parent / "data" / "wakanda_slot_game.txt"


class MemoryJournal:
    def append(self, line):
        pass


def test_bench_slot_event_to_frame(benchmark, tmp_path):
    box = Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json", enrolled()),
                  rng=random.Random(1))
    events = [e for e in ScriptInput(SCRIPT).events() if not isinstance(e, Wait)]
    last_draw = max(i for i, e in enumerate(events) if isinstance(e, Tag) and e.reader == "pad")
    for event in events[:last_draw]:
        box.handle(event)
    box.play.journal = MemoryJournal()
    piece = events[last_draw].uid
    cycle = [Tag(piece, "pad"), TagGone(piece, "pad"), Tag(piece, "slot6"), TagGone(piece, "slot6"),
             Press("ok"), Press("back"), Press("ok")]
    history = len(box.game.history)
    for event in cycle:
        box.handle(event)
    assert len(box.game.history) == history                 # the cycle goes round
    cycle_events = itertools.cycle(cycle)
    out = benchmark(lambda: box.handle(next(cycle_events)))
    assert out.frame.size == (128, 64)
