"""Totem Wars at the table: one input event to a finished frame (budget ≤ 1 ms median).

Figures: .venv/bin/python -m pytest tests/test_bench_tw_table.py --benchmark-enable --benchmark-only
"""

from tw_table_helpers import make, play_war_round

from companion.events import Press, Tag, TagGone


def test_bench_scan_and_take_back_a_card(benchmark, tmp_path):
    """A card scanned onto the placement, then Back: two events, each a new frame."""
    t = make(tmp_path)
    play_war_round(t)
    t.handle(Press("ok"))
    t.handle(Tag("africans/lion"))
    t.handle(TagGone("africans/lion"))

    def step():
        t.handle(Tag("africans/zebra"))
        t.handle(TagGone("africans/zebra"))
        return t.handle(Press("back"))
    assert benchmark(step).frame.size == (128, 64)


def test_bench_place_and_undo_a_round_ending_play(benchmark, tmp_path):
    """The heaviest step: a placement that ends a round (war, result pages), then its undo;
    each goes to the journal with an fsync."""
    t = make(tmp_path)
    play_war_round(t)
    t.handle(Press("back")); t.handle(Press("ok"))

    def step():
        t.handle(Tag("africans/vulture")); t.handle(TagGone("africans/vulture"))
        t.handle(Press("ok"))
        t.handle(Press("back"))
        return t.handle(Press("ok"))
    assert benchmark(step).frame.size == (128, 64)
