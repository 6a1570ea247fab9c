"""Readers on serial ports: presence, ptys, loop:// (given by the tests: a user gives device
paths only), unplugging and plugging back."""

import itertools
import os
import queue
import select
import socket
import threading
import time

import pytest
import serial
from fakes import FakeClock, FakePN532, Plug

from companion.errors import UserError
from companion.events import ReaderState, Tag, TagGone
from hardware.pn532 import IN_LIST_PASSIVE_TARGET
from hardware.rdm6300 import frame
from hardware.serial_reader import SerialReader, TagPresence, open_reader, parse_reader

UID = "0A1B2C3D4E"
WAIT = 3    # seconds: the longest any test waits for an event that should come


def wait_until(condition, what, timeout=WAIT):
    """Return once ``condition()`` is true; fail saying ``what`` did not happen in time."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout} s"
        time.sleep(0.005)


# --- presence -----------------------------------------------------------------------------

def test_presence_reports_a_tag_once_and_gone_after_silence():
    clock = FakeClock()
    presence = TagPresence("pad", gone_after=0.25, clock=clock)
    assert presence.seen(UID) == [Tag(UID, "pad")]
    for _ in range(10):               # the reader repeats its frame every 0.1 s
        clock.now += 0.1
        assert presence.seen(UID) == []
    assert presence.deadline() == pytest.approx(clock.now + 0.25)
    clock.now += 0.2
    assert presence.poll() == []
    clock.now += 0.06
    assert presence.poll() == [TagGone(UID, "pad")]
    assert presence.deadline() is None
    assert presence.seen(UID) == [Tag(UID, "pad")]     # put back: a new arrival


def test_presence_of_two_tags_and_clear():
    clock = FakeClock()
    presence = TagPresence("slot2", gone_after=0.25, clock=clock)
    presence.seen("AA000000")
    clock.now += 0.2
    assert presence.seen("BB000000") == [Tag("BB000000", "slot2")]
    clock.now += 0.1
    assert presence.poll() == [TagGone("AA000000", "slot2")]
    assert presence.clear() == [TagGone("BB000000", "slot2")]
    assert presence.poll() == []


def test_a_sighting_after_the_silence_reports_gone_then_tag():
    clock = FakeClock()
    presence = TagPresence(gone_after=0.25, clock=clock)
    presence.seen(UID)
    clock.now += 1
    assert presence.seen(UID) == [TagGone(UID, "pad"), Tag(UID, "pad")]


# --- specs and errors ---------------------------------------------------------------------

def test_reader_specs():
    assert parse_reader("rdm6300:/dev/serial0") == ("rdm6300", "/dev/serial0")
    assert parse_reader("pn532:/dev/ttyUSB0") == ("pn532", "/dev/ttyUSB0")
    assert parse_reader("hub:/dev/ttyACM0") == ("hub", "/dev/ttyACM0")


@pytest.mark.parametrize("kind", ["rdm6300", "pn532", "hub"])
@pytest.mark.parametrize("url", ["socket://127.0.0.1:{port}", "rfc2217://127.0.0.1:{port}"])
def test_a_pyserial_url_is_refused_and_connects_nowhere(kind, url):
    with socket.create_server(("127.0.0.1", 0)) as server:
        server.settimeout(0)
        spec = f"{kind}:{url.format(port=server.getsockname()[1])}"
        with pytest.raises(UserError) as info:
            open_reader(spec)
        assert str(info.value) == (f"reader {spec!r}: the port is a device path, "
                                   "such as /dev/serial0 or /dev/ttyUSB0")
        with pytest.raises(BlockingIOError):
            server.accept()         # nobody knocked


def test_a_port_with_a_nul_byte_or_escape_codes_is_one_escaped_line():
    with pytest.raises(UserError) as info:
        open_reader("rdm6300:/dev/tty\0S0")
    assert "NUL" in str(info.value)
    with pytest.raises(UserError) as info:
        open_reader("rdm6300:/dev/\x1b[2Jtty")
    assert "\x1b" not in str(info.value) and "\\x1b" in str(info.value)


@pytest.mark.parametrize("spec, words", [
    ("hub", "name its serial port, e.g. hub:/dev/serial0"),
    ("rdm6300", "name its serial port, e.g. rdm6300:/dev/serial0"),
    ("rdm6300: ", "name its serial port"),
    ("rc522:/dev/spidev0.0", "unknown kind"),
    ("rdm6300:loop://", "the port is a device path"),
    ("pn532:ttyUSB0", "the port is a device path, such as /dev/serial0"),
])
def test_bad_reader_specs_are_one_line(spec, words):
    with pytest.raises(UserError) as info:
        open_reader(spec)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_a_missing_port_is_one_line(tmp_path):
    with pytest.raises(UserError) as info:
        open_reader(f"rdm6300:{tmp_path}/ttyNOPE")
    assert str(info.value) == (f"cannot open the rdm6300 reader on {tmp_path}/ttyNOPE: "
                               "no such port (is the reader plugged in, the UART enabled?)")


# --- ptys ---------------------------------------------------------------------------------

class PtyPN532(threading.Thread):
    """A FakePN532 answering on a pty master until stopped."""

    def __init__(self, plug, device):
        super().__init__(daemon=True)
        self.plug, self.device = plug, device
        self._stopping = threading.Event()
        self.start()

    def stop(self):
        # Stopped before its pty is closed: the fd number may be reused by the next pty.
        self._stopping.set()
        self.join(timeout=WAIT)

    def run(self):
        master = self.plug.master
        while not self._stopping.is_set():
            try:
                ready, _, _ = select.select([master], [], [], 0.02)
                if ready:
                    answer = self.device.receive(os.read(master, 256))
                    if answer:
                        os.write(master, answer)
            except (OSError, ValueError):
                return      # unplugged


def events_until(q, last, timeout=WAIT):
    out = []
    deadline = time.monotonic() + timeout
    while not out or out[-1] != last:
        out.append(q.get(timeout=max(0.01, deadline - time.monotonic())))
    return out


@pytest.fixture
def plug(tmp_path):
    p = Plug(str(tmp_path / "ttyRFID"))
    yield p
    p.close()


def test_rdm6300_on_a_pty_tag_once_then_gone(plug):
    source = SerialReader("rdm6300", plug.path, gone_after=0.3, retry_seconds=0.05)
    q = queue.Queue()
    source.start(q.put)
    try:
        assert q.get(timeout=WAIT) == ReaderState("pad", True)
        # The reader repeats its frame while the tag stays; all at once here, so that a
        # slow machine cannot stretch the repeats into a silence (TagPresence has its own
        # timing tests on a fake clock).
        plug.write(frame(UID) * 6)
        assert q.get(timeout=WAIT) == Tag(UID, "pad")
        assert q.get(timeout=WAIT) == TagGone(UID, "pad")
        assert q.empty()
    finally:
        source.close()


def test_rdm6300_unplugged_and_plugged_back(plug, mocker):
    open_port = mocker.Mock(wraps=serial.Serial)    # the default opener: a device path
    source = SerialReader("rdm6300", plug.path, gone_after=5, retry_seconds=0.05, open_port=open_port)
    q = queue.Queue()
    source.start(q.put)
    try:
        assert q.get(timeout=WAIT) == ReaderState("pad", True)
        plug.write(b"\x02\x41junk" + frame(UID))
        assert q.get(timeout=WAIT) == Tag(UID, "pad")
        plug.unplug()
        # The tag cannot stay on a reader that is gone.
        assert events_until(q, ReaderState("pad", False)) == [TagGone(UID, "pad"),
                                                             ReaderState("pad", False)]
        tries = open_port.call_count
        wait_until(lambda: open_port.call_count >= tries + 3, "three tries to reopen the port")
        assert q.empty()            # they all failed, quietly
        plug.plug()
        assert q.get(timeout=WAIT) == ReaderState("pad", True)
        plug.write(frame(UID))
        assert q.get(timeout=WAIT) == Tag(UID, "pad")
    finally:
        source.close()


def test_rdm6300_over_loop_url_and_closed_port_reopens(mocker):
    open_loop = mocker.spy(serial, "serial_for_url")
    ports = open_loop.spy_return_list
    source = SerialReader("rdm6300", "loop://", gone_after=0.1, retry_seconds=0.05,
                          open_port=open_loop)
    q = queue.Queue()
    source.start(q.put)
    try:
        assert q.get(timeout=WAIT) == ReaderState("pad", True)
        bad = frame(UID)[:12] + b"00\x03"
        ports[0].write(b"noise" + bad + frame(UID)[:8] + frame("1122334455"))
        assert q.get(timeout=WAIT) == Tag("1122334455", "pad")
        assert q.get(timeout=WAIT) == TagGone("1122334455", "pad")
        ports[0].close()
        assert q.get(timeout=WAIT) == ReaderState("pad", False)
        assert q.get(timeout=WAIT) == ReaderState("pad", True)
        assert len(ports) == 2
    finally:
        source.close()


def test_pn532_on_a_pty(plug):
    device = FakePN532()
    answering = PtyPN532(plug, device)
    source = SerialReader("pn532", plug.path, gone_after=0.3, poll_seconds=0.01,
                          retry_seconds=0.05, pn532_timeout=0.1)
    q = queue.Queue()
    source.start(q.put)
    try:
        assert q.get(timeout=WAIT) == ReaderState("pad", True)
        device.tag = "04a1b2c3d4e5f6"
        assert q.get(timeout=WAIT) == Tag("04A1B2C3D4E5F6", "pad")
        polls = device.commands.count(IN_LIST_PASSIVE_TARGET)
        wait_until(lambda: device.commands.count(IN_LIST_PASSIVE_TARGET) >= polls + 5, "five more polls")
        assert q.empty()            # they all found it: still one tag
        device.tag = None
        assert q.get(timeout=WAIT) == TagGone("04A1B2C3D4E5F6", "pad")
        device.tag = "DEADBEEF"
        assert q.get(timeout=WAIT) == Tag("DEADBEEF", "pad")
        answering.stop()
        plug.unplug()
        assert events_until(q, ReaderState("pad", False)) == [TagGone("DEADBEEF", "pad"),
                                                             ReaderState("pad", False)]
        plug.plug()
        answering = PtyPN532(plug, FakePN532(tag="CAFEF00D"))
        assert q.get(timeout=WAIT) == ReaderState("pad", True)
        assert q.get(timeout=WAIT) == Tag("CAFEF00D", "pad")
    finally:
        source.close()
        answering.stop()


def test_pn532_that_does_not_answer_is_one_line(plug):
    device = FakePN532()
    device.silent = True
    answering = PtyPN532(plug, device)
    with pytest.raises(UserError) as info:
        SerialReader("pn532", plug.path, pn532_timeout=0.02)
    answering.stop()
    message = str(info.value)
    assert message.startswith(f"the PN532 on {plug.path} does not answer (")
    assert "HSU" in message and "\n" not in message


def test_close_before_start_closes_the_port(mocker):
    open_port = mocker.spy(serial, "serial_for_url")
    source = SerialReader("rdm6300", "loop://", open_port=open_port)
    port = open_port.spy_return
    assert port.is_open
    source.close()
    assert not port.is_open


def test_reopening_is_tried_once_per_interval():
    first = serial.serial_for_url("loop://")
    attempts = []

    def open_port(url, **settings):
        if not attempts and first.is_open:
            attempts.append(None)       # the first opening succeeds
            return first
        attempts.append(time.monotonic())
        raise serial.SerialException(2, "could not open port")

    source = SerialReader("rdm6300", "loop://", retry_seconds=0.05, open_port=open_port)
    q = queue.Queue()
    source.start(q.put)
    try:
        assert q.get(timeout=WAIT) == ReaderState("pad", True)
        first.close()
        assert q.get(timeout=WAIT) == ReaderState("pad", False)
        wait_until(lambda: len(attempts) >= 1 + 5, "five tries to reopen the port")
    finally:
        source.close()
    tries = attempts[1:]
    # Never sooner than the interval after the last try (later is fine: a busy machine).
    assert all(b - a >= 0.045 for a, b in itertools.pairwise(tries))
    assert q.empty()
