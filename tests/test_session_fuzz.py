"""Any sequence of input events — button mashing, stray tags, a reader coming and going —
leaves the box standing: no exception, and the journal always replays to the game shown."""

import random

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.events import BUTTONS, Hold, Press, ReaderState, Tag, TagGone
from companion.games import read_any_record
from companion.table.registry import TagRegistry
from companion.table.session import Session

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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(events, min_size=1, max_size=120), st.sampled_from((None, "wakanda", "totem-wars")))
def test_any_events_keep_the_box_and_its_journal_sound(tmp_path_factory, script, game):
    folder = tmp_path_factory.mktemp("box")
    box = Session(folder / "data", TagRegistry(folder / "tags.json"), game=game)
    for event in script:
        out = box.handle(event)
        assert out.frame.size == (128, 64) and out.frame.mode == "1"
        if box.game is not None:
            journal = (folder / "data" / "current.jsonl").read_text(encoding="utf-8")
            _, replayed, warnings = read_any_record(journal)
            assert warnings == []
            assert replayed.history == box.game.history
    # And the box comes back to the same game after a restart.
    if box.game is not None and box.game.phase != "over":
        again = Session(folder / "data", TagRegistry(folder / "tags.json"))
        assert again.view.choice.values[0] == "resume"


def random_event(rng):
    """One event of a long random walk, weighted towards what players mostly do."""
    roll = rng.random()
    if roll < 0.5:
        return Press(rng.choice(("ok", "down", "up", "back", "v1", "v2", "v3", "v4", "v5", "v6")))
    if roll < 0.55:
        return Hold(rng.choice(BUTTONS))
    if roll < 0.9:
        return Tag(rng.choice(ITEMS))
    if roll < 0.98:
        return TagGone(rng.choice(ITEMS))
    return ReaderState("pad", rng.random() < 0.5)


def random_walk(folder, seed: int, steps: int = 400) -> int:
    """Play a random walk on a fresh box; check the journal at the end; the longest game."""
    rng = random.Random(seed)
    box = Session(folder / "data", TagRegistry(folder / "tags.json"),
                  game=("wakanda", "totem-wars")[seed % 2])
    longest = 0
    for _ in range(steps):
        box.handle(random_event(rng))
        if box.game is not None:
            longest = max(longest, len(box.game.history))
    if box.game is not None:
        journal = (folder / "data" / "current.jsonl").read_text(encoding="utf-8")
        assert read_any_record(journal)[1].history == box.game.history
    return longest


def test_long_random_walks_play_real_games_and_stay_sound(tmp_path):
    played = [random_walk(tmp_path / str(seed), seed) for seed in range(24)]
    # Most walks get past the set-up into a real game (some leave it or loop in menus).
    assert sum(longest >= 5 for longest in played) >= 12, played
