"""Any sequence of input events in a lesson — pages skipped and stepped back through, stray
tags, buttons mashed — leaves the box standing: no exception, the lesson's journal always
replays to the game shown, and a restart comes back to the same lesson and game."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_session_fuzz import ITEMS

from companion.events import BUTTONS, Hold, Press, ReaderState, Tag, TagGone
from companion.games import read_any_record
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.tutorial_flow import TutorialFlow

#: What learners do most: read on, go back, skip, the village buttons, scans.
events = st.one_of(
    st.builds(Press, st.sampled_from(("ok", "ok", "ok", "down", "up", "back", "v1", "v2", "v3"))),
    st.builds(Press, st.sampled_from(BUTTONS)),
    st.builds(Hold, st.sampled_from(("ok", "back", "v1", "v2"))),
    st.builds(Tag, st.sampled_from(ITEMS)),
    st.builds(TagGone, st.sampled_from(ITEMS)),
    st.builds(ReaderState, st.just("pad"), st.booleans()),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(events, min_size=1, max_size=200), st.sampled_from(("wakanda", "totem-wars")),
       st.randoms(use_true_random=False))
def test_any_events_keep_a_lesson_and_its_journal_sound(tmp_path_factory, script, game, rng):
    folder = tmp_path_factory.mktemp("lesson")
    box = Session(folder / "data", TagRegistry(folder / "tags.json"), rng=rng, tutorial=game)
    for event in script:
        out = box.handle(event)
        assert out.frame.size == (128, 64) and out.frame.mode == "1"
        if isinstance(box.flow, TutorialFlow) and box.game is not None:
            record = (box.flow.folder / "current.jsonl").read_text(encoding="utf-8")
            _, replayed, warnings = read_any_record(record)
            assert warnings == [] and replayed.history == box.game.history
    if isinstance(box.flow, TutorialFlow) and not box.flow.finished:
        again = Session(folder / "data", TagRegistry(folder / "tags.json"), tutorial=game)
        lesson = again.flow
        assert isinstance(lesson, TutorialFlow)
        assert (again.game.history if again.game else ()) == (box.game.history if box.game else ())
        # The same step, or an earlier one (a set-up step whose choices were not kept).
        assert lesson.index <= box.flow.index
