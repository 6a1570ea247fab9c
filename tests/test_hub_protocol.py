"""The reader hub's protocol, host side: the shared vectors, and the picture of the board
kept through noise, bad checksums, gaps, silent readers, restarts and reconnects."""

import pytest
from fakes import FakeClock
from firmware_bench import vectors

from companion.events import ReaderState, Tag, TagGone
from hardware.hub_protocol import (
    BadLine,
    HubLine,
    HubLink,
    LineSplitter,
    checksum,
    decode,
    encode,
    hello_info,
    reader_name,
)

A, B, C = "04A1B2C3D4E5F6", "04112233445566", "DEADBEEF"


# --- lines ----------------------------------------------------------------------------------

@pytest.mark.parametrize("line", [row[0] for row in vectors("hub")])
def test_every_line_of_the_hub_decodes(line):
    decoded = decode(line.encode())
    words = line.rsplit(" *", 1)[0].split(" ")
    assert decoded == HubLine(int(words[0]), words[1], tuple(words[2:]))


@pytest.mark.parametrize("line", [row[0] for row in vectors("host")])
def test_the_host_frames_its_requests_as_the_vectors_have_them(line):
    text, digits = line.rsplit(" *", 1)
    seq, body = text.split(" ", 1)
    assert encode(int(seq), body) == line.encode() + b"\n"
    assert checksum(text.encode()) == int(digits, 16)


@pytest.mark.parametrize("line, why", vectors("bad"))
def test_every_bad_line_is_refused(line, why):
    with pytest.raises(BadLine):
        decode(line.encode())


def test_a_carriage_return_is_allowed():
    assert decode(encode(1, "pong").replace(b"\n", b"\r")) == HubLine(1, "pong", ())


@pytest.mark.parametrize("raw", [b"1 p\xf6ng *03", b"1 pong\x00 *03", b"\xff\xfe"])
def test_bytes_that_are_not_printable_ascii(raw):
    with pytest.raises(BadLine, match="not printable ASCII"):
        decode(raw)


def test_hello_info():
    assert hello_info(decode(b"0 hello totem-hub 1.0 slots=7 *35")) == ("1.0", 7)
    for body in ("hello other-hub 1.0 slots=7", "hello totem-hub 1.0 slots=0", "hello totem-hub 1.0 slots=17",
                 "hello totem-hub 1.0 slot=7", "hello totem-hub 1.0", "pong"):
        assert hello_info(decode(encode(0, body)[:-1])) is None, body


def test_reader_names():
    assert [reader_name(slot) for slot in (0, 1, 6, 12)] == ["pad", "slot1", "slot6", "slot12"]


def test_the_splitter_keeps_partial_lines_and_drops_long_ones():
    splitter = LineSplitter(limit=16)
    assert splitter.feed(b"1 po") == ([], 0)
    assert splitter.feed(b"ng *03\n2 p") == ([b"1 pong *03"], 0)
    assert splitter.feed(b"x" * 100) == ([], 0)
    assert splitter.feed(b"x" * 100 + b"\n3 pong *03\n") == ([b"3 pong *03"], 1)
    splitter.feed(b"4 po")
    splitter.clear()
    assert splitter.feed(b"5 pong *05\n") == ([b"5 pong *05"], 0)


# --- the link -------------------------------------------------------------------------------

class Hub:
    """What a hub sends: numbered, framed lines."""

    def __init__(self, seq=0):
        self.seq = seq

    def line(self, body, *, skip=0):
        """The next line, after ``skip`` lines that went missing."""
        self.seq += skip
        line = encode(self.seq, body)
        self.seq = (self.seq + 1) % 10000
        return line


@pytest.fixture
def clock():
    return FakeClock()


def connected(clock, state="state 0:- 1:- 2:- 3:- 4:- 5:- 6:-", slots=7):
    """A link just connected to a hub of ``slots`` slots, the state answered; and the hub."""
    link = HubLink(clock=clock)
    hub = Hub()
    hello = decode(hub.line(f"hello totem-hub 1.0 slots={slots}")[:-1])
    assert link.connected(hello) == [ReaderState("hub", True)]
    assert link.take_outbox() == encode(0, "state?")
    link.feed(hub.line(state))
    return link, hub


def test_the_first_state_puts_every_tag_on_the_board(clock):
    link = HubLink(clock=clock)
    hub = Hub()
    link.connected(decode(hub.line("hello totem-hub 1.0 slots=7")[:-1]))
    assert link.feed(hub.line(f"state 0:{C} 1:- 2:{A} 2:{B} 3:- 5:- 6:-")) == [
        Tag(C, "pad"), Tag(A, "slot2"), Tag(B, "slot2"), ReaderState("slot4", False)]
    assert (link.version, link.slots, link.board[2]) == ("1.0", 7, [A, B])


def test_arrivals_and_departures(clock):
    link, hub = connected(clock)
    assert link.feed(hub.line(f"on 3 {A}") + hub.line(f"on 0 {C}")) == [Tag(A, "slot3"), Tag(C, "pad")]
    assert link.feed(hub.line(f"on 3 {A}")) == []              # already there
    assert link.feed(hub.line(f"off 4 {A}")) == []             # was never there
    assert link.feed(hub.line(f"off 3 {A}")) == [TagGone(A, "slot3")]
    assert (link.bad_lines, link.gaps) == (0, 0)


def test_noise_and_bad_checksums_are_dropped_and_counted(clock):
    link, hub = connected(clock)
    good = hub.line(f"on 1 {A}")
    broken = good.replace(b"on 1", b"on 2")                 # a byte changed: same checksum
    assert link.feed(b"\x00\xff garbage\r\n" + broken + b"*" * 5000 + b"\n") == []
    assert link.bad_lines == 3
    assert link.feed(good) == [Tag(A, "slot1")]              # and the next good line counts
    assert link.gaps == 0


@pytest.mark.parametrize("body", [f"on 7 {A}", f"on 1 {A[:-1]}", "on 1 04a1b2c3d4e5f6", "on 1", f"off x {A}",
                                  "err 3", "state 0:- 1", f"state 0:{A} 9:-"])
def test_lines_whose_words_make_no_sense_count_as_bad(clock, body):
    link, hub = connected(clock)
    assert link.feed(hub.line(body)) == []
    assert link.bad_lines == 1


def test_a_gap_in_the_numbering_asks_for_the_state_and_reconciles(clock):
    link, hub = connected(clock)
    link.feed(hub.line(f"on 2 {A}"))
    # "off 2 A" and "on 5 B" went missing; the next line shows the gap.
    assert link.feed(hub.line(f"on 6 {C}", skip=2)) == [Tag(C, "slot6")]
    assert link.gaps == 1
    assert link.take_outbox() == encode(1, "state?")
    assert link.feed(hub.line(f"state 0:- 1:- 2:- 3:- 4:- 5:{B} 6:{C}")) == [TagGone(A, "slot2"), Tag(B, "slot5")]
    assert link.board == {0: [], 1: [], 2: [], 3: [], 4: [], 5: [B], 6: [C]}


def test_numbering_wraps_without_a_gap(clock):
    link, hub = connected(clock)
    hub.seq = 9998
    link.feed(hub.line("on 1 DEADBEEF", skip=0))        # a gap: 2 -> 9998
    link.take_outbox()
    link.feed(hub.line("state 0:- 1:DEADBEEF 2:- 3:- 4:- 5:- 6:-"))
    assert link.feed(hub.line(f"on 2 {A}")) == [Tag(A, "slot2")]   # 0 after 9999
    assert link.gaps == 1


def test_a_state_that_went_missing_is_asked_for_again(clock):
    link, hub = connected(clock)
    link.feed(hub.line(f"on 1 {A}", skip=1))
    assert link.take_outbox() == encode(1, "state?")
    clock.advance(0.5)
    link.feed(hub.line("pong", skip=1))           # the state was lost: the hub still talks
    clock.advance(0.6)
    link.poll()
    assert link.take_outbox() == encode(2, "state?")
    assert link.alive


def test_a_ping_after_two_seconds_of_silence(clock):
    link, hub = connected(clock)
    clock.advance(1.9)
    link.poll()
    assert link.take_outbox() == b""
    assert link.deadline() == pytest.approx(clock.now + 0.1)
    clock.advance(0.1)
    link.poll()
    assert link.take_outbox() == encode(1, "ping")
    clock.advance(0.5)
    link.poll()
    assert link.take_outbox() == b""              # one ping at a time
    link.feed(hub.line("pong"))
    clock.advance(1.0)
    link.poll()
    assert link.alive


def test_no_answer_to_a_ping_means_the_hub_is_gone(clock):
    link, hub = connected(clock)
    link.feed(hub.line(f"on 3 {A}"))
    clock.advance(2.0)
    link.poll()
    assert link.take_outbox() == encode(1, "ping")
    clock.advance(1.0)
    link.poll()
    assert not link.alive
    assert link.lost() == [ReaderState("hub", False)]
    assert link.board[3] == [A]                      # kept for when it comes back


def test_no_answer_to_a_state_either(clock):
    link = HubLink(clock=clock)
    link.connected(decode(Hub().line("hello totem-hub 1.0 slots=7")[:-1]))
    clock.advance(1.0)
    link.poll()
    assert not link.alive


def test_a_reader_that_stops_answering_and_comes_back(clock):
    link, hub = connected(clock, state=f"state 0:- 1:- 2:- 3:{A} 4:- 5:- 6:-")
    assert link.feed(hub.line("err 3 no answer (VersionReg 00)")) == [ReaderState("slot3", False)]
    assert link.silent == {3: "no answer (VersionReg 00)"} and 3 not in link.board
    assert link.feed(hub.line("err 3 no answer (VersionReg 00)")) == []
    clock.advance(2.0)
    link.poll()
    assert link.take_outbox() == encode(1, "state?")   # not a ping: the state says when it is back
    assert link.feed(hub.line("state 0:- 1:- 2:- 4:- 5:- 6:-")) == []    # still left out
    assert link.feed(hub.line(f"on 3 {A}")) == [ReaderState("slot3", True), Tag(A, "slot3")]


def test_a_reader_back_with_nothing_on_it_shows_in_the_state(clock):
    link, hub = connected(clock, state="state 0:- 1:- 2:- 3:- 4:- 6:-")
    assert link.silent == {5: "left out of the hub's state"}
    clock.advance(2.0)
    link.poll()
    assert link.take_outbox() == encode(1, "state?")
    assert link.feed(hub.line("state 0:- 1:- 2:- 3:- 4:- 5:- 6:-")) == [ReaderState("slot5", True)]


def test_a_hub_that_restarts_on_its_own(clock):
    link, hub = connected(clock, state=f"state 0:- 1:{A} 2:- 3:- 4:- 5:- 6:-")
    again = Hub()
    assert link.feed(again.line("hello totem-hub 1.0 slots=7")) == []
    assert (link.restarts, link.gaps) == (1, 0)
    assert link.take_outbox() == encode(1, "state?")
    # It read the board afresh: A again (no news), and B.
    assert link.feed(again.line(f"on 1 {A}") + again.line(f"on 4 {B}")) == [Tag(B, "slot4")]
    assert link.feed(again.line(f"state 0:- 1:{A} 2:- 3:- 4:{B} 5:- 6:-")) == []


def test_a_reconnect_reports_only_what_changed(clock):
    link, hub = connected(clock, state=f"state 0:{C} 1:{A} 2:- 3:- 4:- 5:- 6:-")
    link.lost()
    again = Hub()
    assert link.connected(decode(again.line("hello totem-hub 1.0 slots=7")[:-1])) == [ReaderState("hub", True)]
    assert link.take_outbox() == encode(1, "state?")
    # Meanwhile C left the pad and B came onto village 4; A stayed on village 1.
    assert link.feed(again.line(f"state 0:- 1:{A} 2:- 3:- 4:{B} 5:- 6:-")) == [TagGone(C, "pad"), Tag(B, "slot4")]
    assert link.reconnects == 1


def test_an_unasked_hello_that_is_not_the_hubs_is_bad(clock):
    link, hub = connected(clock)
    assert link.feed(hub.line("hello other-thing 2")) == []
    assert (link.bad_lines, link.restarts) == (1, 0)
