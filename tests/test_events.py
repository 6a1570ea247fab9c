"""The text form of input events (listen output, input scripts)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.events import BUTTONS, Hold, Press, ReaderState, Tag, TagGone, Wait, format_event, parse_event


@pytest.mark.parametrize("line, event", [
    ("press v3", Press("v3")),
    ("hold ok", Hold("ok")),
    ("tag 0a1b2c3d4e", Tag("0A1B2C3D4E", "pad")),
    ("tag eagle slot2", Tag("eagle", "slot2")),
    ("gone village:sun", TagGone("village:sun", "pad")),
    ("reader pad disconnected", ReaderState("pad", False)),
    ("wait 0.25", Wait(0.25)),
    ("  press back   # a comment", Press("back")),
])
def test_parse(line, event):
    assert parse_event(line) == event


@pytest.mark.parametrize("line", ["", "   ", "# only a comment"])
def test_blank_lines_are_nothing(line):
    assert parse_event(line) is None


@pytest.mark.parametrize("line, words", [
    ("press v9", "unknown button"),
    ("press", "takes one button"),
    ("tag", "takes a UID"),
    ("reader pad maybe", "connected|disconnected"),
    ("wait soon", "number of seconds"),
    ("wait -1", "number of seconds"),
    ("wait nan", "number of seconds"),
    ("jump v1", "unknown event"),
])
def test_bad_lines_say_why(line, words):
    with pytest.raises(ValueError, match=words):
        parse_event(line)


events = st.one_of(
    st.builds(Press, st.sampled_from(BUTTONS)),
    st.builds(Hold, st.sampled_from(BUTTONS)),
    st.builds(Tag, st.text("0123456789ABCDEF", min_size=8, max_size=20), st.sampled_from(["pad", "slot1"])),
    st.builds(TagGone, st.text("0123456789ABCDEF", min_size=8, max_size=20), st.sampled_from(["pad", "slot6"])),
    st.builds(ReaderState, st.sampled_from(["pad", "hub"]), st.booleans()),
)


@given(events)
def test_format_then_parse_is_identity(event):
    assert parse_event(format_event(event)) == event
