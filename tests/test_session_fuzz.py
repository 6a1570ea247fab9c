"""Any sequence of input events — button mashing, stray tags, a reader coming and going —
leaves the box standing: no exception, and the journal always replays to the game shown.

Hypothesis draws the events (short scripts of any events, and long walks weighted like
play), so a failing sequence shrinks to the few events that matter."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.events import BUTTONS, Hold, Press, ReaderState, Tag, TagGone
from companion.games import read_any_record
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.tutorial_flow import TutorialFlow

ITEMS = ("eagle", "chief", "tomahawk", "skin", "teepee", "sun", "wings", "crests",
         "village:eagle", "village:sun", "village:teepee", "village:height", "village:variety",
         "village:chief", "village:skin", "village:tomahawk",
         "indians/snake", "africans/lion", "eskimos/seal", "aborigines/emu", "indians/wolf",
         "eskimos/wolf", "africans/snake", "indians/eagle", "0A1B2C3D4E", "nonsense")

events = st.one_of(
    st.builds(Press, st.sampled_from(BUTTONS)),
    st.builds(Press, st.sampled_from(("ok", "down", "up", "v1", "v2", "v3"))),  # the common ones
    st.builds(Hold, st.sampled_from(BUTTONS)),
    st.builds(Tag, st.sampled_from(ITEMS), st.sampled_from(("pad", "slot2"))),
    st.builds(TagGone, st.sampled_from(ITEMS), st.sampled_from(("pad", "slot2"))),
    st.builds(ReaderState, st.just("pad"), st.booleans()),
)

def journal_of(box, data):
    """The record of the game on screen: a lesson's game is in the lesson's own journal."""
    folder = box.flow.folder if isinstance(box.flow, TutorialFlow) else data
    return (folder / "current.jsonl").read_text(encoding="utf-8")


def restarted(box, folder):
    """The box after a restart, back where a player finds the game on screen: the menu's
    resume for a game, the same lesson for a lesson's game."""
    lesson = box.flow.name if isinstance(box.flow, TutorialFlow) else None
    return Session(folder / "data", TagRegistry(folder / "tags.json"), tutorial=lesson)


#: The box draws lots for the start player: from a Random hypothesis draws, so that a walk
#: always plays the same way again (an unseeded one would make hypothesis report it flaky).
lots = st.randoms(use_true_random=False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(events, min_size=1, max_size=120), st.sampled_from((None, "wakanda", "totem-wars")), lots)
def test_any_events_keep_the_box_and_its_journal_sound(tmp_path_factory, script, game, rng):
    folder = tmp_path_factory.mktemp("box")
    box = Session(folder / "data", TagRegistry(folder / "tags.json"), game=game, rng=rng)
    for event in script:
        out = box.handle(event)
        assert out.frame.size == (128, 64) and out.frame.mode == "1"
        if box.game is not None:
            _, replayed, warnings = read_any_record(journal_of(box, folder / "data"))
            assert warnings == []
            assert replayed.history == box.game.history
    # And the box comes back to the same game after a restart.
    if box.game is not None and box.game.phase != "over":
        again = restarted(box, folder)
        if isinstance(box.flow, TutorialFlow):
            assert again.game.history == box.game.history
        else:
            assert again.view.choice.values[0] == "resume"


def weighted(*shares):
    """Events to draw from uniformly, each kind repeated to about its share of a thousand."""
    return tuple(event for share, kind in shares for event in kind * round(share / len(kind)))


#: One event of a long walk, weighted towards what players mostly do.
WALK = weighted(
    (500, tuple(Press(b) for b in ("ok", "down", "up", "back", "v1", "v2", "v3", "v4", "v5", "v6"))),
    (50, tuple(Hold(b) for b in BUTTONS)),
    (350, tuple(Tag(item) for item in ITEMS)),
    (80, tuple(TagGone(item) for item in ITEMS)),
    (20, (ReaderState("pad", False), ReaderState("pad", True))),
)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(("wakanda", "totem-wars")), st.lists(st.sampled_from(WALK), min_size=300, max_size=400), lots)
def test_long_walks_keep_the_box_and_its_journal_sound(tmp_path_factory, game, walk, rng):
    folder = tmp_path_factory.mktemp("walk")
    box = Session(folder / "data", TagRegistry(folder / "tags.json"), game=game, rng=rng)
    for event in walk:
        box.handle(event)
    if box.game is not None:
        assert read_any_record(journal_of(box, folder / "data"))[1].history == box.game.history
        if box.game.phase != "over":
            again = restarted(box, folder)
            if isinstance(box.flow, TutorialFlow):
                assert again.game.history == box.game.history
            else:
                assert again.view.choice.values[0] == "resume"


def test_most_long_walks_get_into_a_real_game(tmp_path):
    """A statistic, not a property, so it stays seeded: a walk may leave the set-up or loop in
    the menus, but the long walks above test the game only when they get into one. Most walks
    drawn from WALK (here by ``random``) play five moves within 400 events."""
    reached = []
    for seed in range(12):
        rng = random.Random(seed)
        folder = tmp_path / str(seed)
        box = Session(folder / "data", TagRegistry(folder / "tags.json"),
                      game=("wakanda", "totem-wars")[seed % 2], rng=rng)
        for step in range(400):
            box.handle(rng.choice(WALK))
            if box.game is not None and len(box.game.history) >= 5:
                reached.append(step)
                break
    assert len(reached) >= 6, reached
