"""The firmware's line protocol against the shared vectors (tests/data/hub_vectors.txt)."""

import doctest

import pytest
from firmware_bench import protocol, vectors

LineReader, checksum, frame, parse = protocol.LineReader, protocol.checksum, protocol.frame, protocol.parse


@pytest.mark.parametrize("line", [row[0] for row in vectors("hub") + vectors("host")])
def test_the_hub_frames_every_good_line_as_the_vectors_have_it(line):
    text, digits = line.rsplit(" *", 1)
    seq, body = text.split(" ", 1)
    assert frame(int(seq), body) == line + "\n"
    assert checksum(text) == int(digits, 16)


@pytest.mark.parametrize("line", [row[0] for row in vectors("hub") + vectors("host")])
def test_every_good_line_parses(line):
    seq, verb, args = parse(line.encode())
    words = line.rsplit(" *", 1)[0].split(" ")
    assert (seq, verb, args) == (int(words[0]), words[1], words[2:])


@pytest.mark.parametrize("line, why", vectors("bad"))
def test_every_bad_line_is_dropped(line, why):
    assert parse(line.encode()) is None, why


def test_a_carriage_return_before_the_newline_is_allowed():
    assert parse(b"1 state? *59\r")[1] == "state?"


@pytest.mark.parametrize("raw", [b"1 state? *59\x00", b"1 st\xe4te? *59", b"\x03\x03", b"1 state?\t*59"])
def test_control_and_non_ascii_bytes_make_a_line_bad(raw):
    assert parse(raw) is None


def test_the_line_reader_splits_and_keeps_partial_lines():
    reader = LineReader()
    assert reader.feed(b"0 hel") == []
    assert reader.feed(b"lo? *4D\n1 sta") == [b"0 hello? *4D"]
    assert reader.feed(b"te? *59\n\n") == [b"1 state? *59", b""]


def test_the_line_reader_drops_a_line_too_long_and_recovers():
    reader = LineReader()
    flood = b"x" * (protocol.MAX_HOST_LINE * 10)
    assert reader.feed(flood) == []
    assert reader.feed(b"tail\n2 ping *02\n") == [b"2 ping *02"]


def test_the_examples_in_the_module_hold():
    assert doctest.testmod(protocol).failed == 0
