"""The reader hub as an input source, over a pty, with the firmware at the far end:
tags coming and going, noise, bad checksums, lost lines, a hub unplugged and plugged
back, a hub that hangs, a reader of the hub that fails."""

import queue
import time

import pytest
import serial
from fakes import Plug
from firmware_bench import board, scanner
from hub_pty import plugged_hub

from companion.errors import UserError
from companion.events import ReaderState, Tag, TagGone
from hardware.hub_reader import HubReader
from hardware.serial_reader import open_reader

A, B, C = "04A1B2C3D4E5F6", "04112233445566", "DEADBEEF"
WAIT = 5    # seconds: the longest any test waits for an event that should come


def events_until(q, last, timeout=WAIT):
    """The events up to and including ``last``; fails when it does not come in time."""
    out = []
    deadline = time.monotonic() + timeout
    while not out or out[-1] != last:
        try:
            out.append(q.get(timeout=max(0.01, deadline - time.monotonic())))
        except queue.Empty:
            pytest.fail(f"{last} did not come within {timeout} s; came: {out}")
    return out


def hub_and(q, *events, timeout=WAIT):
    """True when the hub is reported first and then ``events`` in any order: which slot
    the hub reads first as the pieces are laid is not the point."""
    came = [q.get(timeout=timeout) for _ in range(len(events) + 1)]
    assert came[0] == ReaderState("hub", True) and sorted(map(repr, came[1:])) == sorted(map(repr, events)), came
    return True


def wait_until(condition, what, timeout=WAIT):
    """Return once ``condition()`` is true; fail saying ``what`` did not happen in time."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s"
        time.sleep(0.005)


@pytest.fixture
def hub(tmp_path, monkeypatch):
    """A hub plugged in at ``hub.plug.path``, the firmware on a simulated Pico behind it."""
    with plugged_hub(tmp_path, monkeypatch) as running:
        yield running


@pytest.fixture
def listen(hub):
    """``listen(**options)``: a HubReader on the hub's port, started; its events' queue."""
    sources = []

    def start(**options):
        options.setdefault("retry_seconds", 0.05)
        reader = HubReader(hub.plug.path, **options)
        q = queue.Queue()
        reader.start(q.put)
        sources.append(reader)
        return reader, q

    yield start
    for reader in sources:
        reader.close()


def test_the_board_as_it_lies_when_the_hub_is_opened(hub, listen):
    hub.put(3, A)
    hub.put(0, C)
    hub.pico.bench.chip(5).fail()
    reader, q = listen()
    assert hub_and(q, Tag(C, "pad"), Tag(A, "slot3"), ReaderState("slot5", False))
    assert reader.link.version == "1.1" and reader.link.slots == 7


def test_tags_arriving_and_leaving(hub, listen):
    reader, q = listen()
    assert q.get(timeout=WAIT) == ReaderState("hub", True)
    tag = hub.put(2, A)
    assert q.get(timeout=WAIT) == Tag(A, "slot2")
    hub.put(0, C)
    assert q.get(timeout=WAIT) == Tag(C, "pad")
    hub.take(2, tag)
    assert q.get(timeout=WAIT) == TagGone(A, "slot2")
    assert (reader.link.bad_lines, reader.link.gaps) == (0, 0)


def test_noise_and_bad_checksums_on_the_line(hub, listen):
    reader, q = listen()
    assert q.get(timeout=WAIT) == ReaderState("hub", True)
    hub.inject(b"\x00\xfe\x1b[2J line noise\r\n")
    hub.inject(b"57 on 4 04A1B2C3D4E5F6 *00\n")         # a good-looking line, a bad checksum
    hub.put(4, B)
    assert events_until(q, Tag(B, "slot4")) == [Tag(B, "slot4")]
    assert reader.link.bad_lines == 2


@pytest.mark.parametrize("hub_leftover, host_leftover", [
    (b"\r\x03\r\x01", b""),                # mpremote's, when BOOTSEL was not pressed
    (b"3 sta", b""),                        # half a line of a host cut off
    (b"", b"41 on 2 04A1B2"),               # half a line of the hub, before the host opened
    (b"\r\x03\r\x01", b"41 on 2 04A1B2"),
])
def test_a_partial_line_left_on_either_side_eats_no_request(hub, listen, hub_leftover, host_leftover):
    hub.put(3, A)
    with hub.lock:
        hub.pico.hub.step(hub_leftover)     # what the hub holds of a line without its end
        hub.inject(host_leftover)           # what waits for the host, without its end
    reader, q = listen()
    assert events_until(q, Tag(A, "slot3")) == [ReaderState("hub", True), Tag(A, "slot3")]
    hub.put(0, C)
    assert events_until(q, Tag(C, "pad")) == [Tag(C, "pad")]


def test_a_hub_restart_with_pieces_lying_still_reports_nothing(hub, listen):
    hub.put(3, A)
    hub.put(0, C)
    reader, q = listen()
    assert hub_and(q, Tag(C, "pad"), Tag(A, "slot3"))
    states = reader.link.states
    with hub.lock:                          # the Pico restarts; its readers keep their power
        hub.pico.hub = board.open_hub()
        hub.plug.write("".join(hub.pico.hub.start()).encode())
    wait_until(lambda: reader.link.restarts == 1 and reader.link.states > states, "the state after the restart")
    hub.put(5, B)
    # Nothing gone and back in between: the first state after the restart had the pieces.
    assert events_until(q, Tag(B, "slot5")) == [Tag(B, "slot5")]
    assert reader.link.board == {0: [C], 1: [], 2: [], 3: [A], 4: [], 5: [B], 6: []}


def test_a_lost_line_is_made_good_by_the_state(hub, listen):
    reader, q = listen(ping_after=0.3)
    assert q.get(timeout=WAIT) == ReaderState("hub", True)
    wait_until(lambda: reader.link.board.get(6) == [], "the first state")
    hub.lose(1)
    hub.put(6, A)                       # its "on" line is lost on the way
    # The next line (the answer to a ping, at the latest) shows the gap; the state, the tag.
    assert events_until(q, Tag(A, "slot6")) == [Tag(A, "slot6")]
    assert reader.link.gaps == 1


def test_unplugged_and_plugged_back_mid_game(hub, listen, mocker):
    open_port = mocker.Mock(wraps=serial.Serial)    # the default opener: a device path
    hub.put(1, A)
    on_the_pad = hub.put(0, C)
    reader, q = listen(open_port=open_port)
    assert hub_and(q, Tag(C, "pad"), Tag(A, "slot1"))
    hub.unplug()
    # The pieces do not leave the board because the cable did.
    assert q.get(timeout=WAIT) == ReaderState("hub", False)
    tries = open_port.call_count
    wait_until(lambda: open_port.call_count >= tries + 3, "three tries to reopen the port")
    hub.take(0, on_the_pad)             # meanwhile, on the table
    hub.put(4, B)
    assert q.empty()
    hub.plug_in()
    # Back: only what changed while it was away.
    assert events_until(q, Tag(B, "slot4")) == [ReaderState("hub", True), TagGone(C, "pad"), Tag(B, "slot4")]
    assert reader.link.reconnects == 1
    hub.put(2, "0411223344556677889A")
    assert q.get(timeout=WAIT) == Tag("0411223344556677889A", "slot2")


def test_a_hub_that_stops_answering(hub, listen):
    reader, q = listen(ping_after=0.2, answer_within=0.5)
    assert q.get(timeout=WAIT) == ReaderState("hub", True)
    hub.put(5, A)
    assert q.get(timeout=WAIT) == Tag(A, "slot5")
    hub.frozen = True
    assert q.get(timeout=WAIT) == ReaderState("hub", False)        # no pong
    hub.frozen = False
    assert q.get(timeout=WAIT) == ReaderState("hub", True)
    hub.put(3, B)
    assert q.get(timeout=WAIT) == Tag(B, "slot3")


def test_a_reader_of_the_hub_fails_and_comes_back(hub, listen, monkeypatch):
    monkeypatch.setattr(scanner, "RETRY_SCANS", 2)
    hub.put(2, A)
    reader, q = listen()
    assert events_until(q, Tag(A, "slot2")) == [ReaderState("hub", True), Tag(A, "slot2")]
    with hub.lock:
        hub.pico.bench.chip(2).fail()
    assert q.get(timeout=WAIT) == ReaderState("slot2", False)
    assert reader.link.silent == {2: "no answer (VersionReg 00)"}
    with hub.lock:
        hub.pico.bench.chip(2).mend()
    assert events_until(q, Tag(A, "slot2")) == [ReaderState("slot2", True), Tag(A, "slot2")]


def test_a_port_that_is_not_there_is_one_line(tmp_path):
    with pytest.raises(UserError) as info:
        open_reader(f"hub:{tmp_path}/ttyACM9")
    assert str(info.value) == (f"cannot open the reader hub on {tmp_path}/ttyACM9: "
                               "no such port (is the reader plugged in, the UART enabled?)")


def test_a_port_where_no_hub_answers_is_one_line(tmp_path):
    plug = Plug(str(tmp_path / "ttyUSB0"))      # a serial device that says nothing
    try:
        started = time.monotonic()
        with pytest.raises(UserError) as info:
            HubReader(plug.path, answer_within=0.3)
        assert time.monotonic() - started < 2
    finally:
        plug.close()
    assert str(info.value).startswith(f"the reader hub on {plug.path} does not answer: ")
    assert "\n" not in str(info.value)


def test_open_reader_builds_the_hub_source(hub):
    reader = open_reader(f"hub:{hub.plug.path}")
    try:
        assert isinstance(reader, HubReader)
    finally:
        reader.close()


def test_close_does_not_wait_for_the_next_ping(hub, listen):
    reader, q = listen(ping_after=60)
    assert q.get(timeout=WAIT) == ReaderState("hub", True)
    started = time.monotonic()
    reader.close()
    assert time.monotonic() - started < 1
