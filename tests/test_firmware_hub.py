"""The hub's side of the protocol, its serial loop and main.py, on a simulated Pico."""

import io
import os
import re
import runpy
import sys
import types

import fake_machine
import pytest
from firmware_bench import FIRMWARE, board, body, hub, make_pico, protocol

frame, parse = protocol.frame, protocol.parse
UID = "04A1B2C3D4E5F6"


@pytest.fixture
def pico(monkeypatch):
    return make_pico(monkeypatch)


def request(seq, verb):
    return frame(seq, verb).encode()


HELLO = f"hello totem-hub {hub.VERSION} slots=7"
#: The chip lines after a hello when every reader is a genuine MFRC522 2.0.
CHIPS = [f"chip {slot} 92" for slot in range(7)]


def test_hello_at_power_up_then_the_chips_and_err_for_a_silent_reader(pico):
    pico.bench.chip(4).fail()
    lines = pico.hub.start()
    assert lines == [frame(0, HELLO)] + [frame(seq, f"chip {slot} 92") for seq, slot in enumerate((0, 1, 2, 3), 1)] + [
        frame(5, "err 4 no answer (VersionReg 00)")] + [frame(seq, f"chip {slot} 92") for seq, slot in ((6, 5), (7, 6))]


def test_requests_are_answered_before_the_scan(pico):
    pico.hub.start()
    assert pico.step() == []
    pico.put(2, UID)
    assert pico.step(request(0, "state?")) == ["state 0:- 1:- 2:- 3:- 4:- 5:- 6:-", f"on 2 {UID}"]
    assert pico.step(request(1, "state?") + request(2, "ping") + request(3, "hello?")) == [
        f"state 0:- 1:- 2:{UID} 3:- 4:- 5:- 6:-", "pong", HELLO, *CHIPS]


def test_no_state_before_the_first_scan_is_done(pico):
    # A hub that restarted with pieces lying still: its first state tells them, so the
    # host reports none of them gone (and back again).
    pico.put(2, UID)
    pico.hub.start()
    assert pico.step(request(0, "state?")) == [f"on 2 {UID}", f"state 0:- 1:- 2:{UID} 3:- 4:- 5:- 6:-"]
    assert pico.step(request(1, "state?")) == [f"state 0:- 1:- 2:{UID} 3:- 4:- 5:- 6:-"]


def test_a_clone_chip_is_taken_and_named_by_its_version(pico):
    pico.bench.chip(3).version = 0x89
    pico.put(3, UID)
    assert body(pico.hub.start()[4]) == "chip 3 89"
    assert pico.step() == [f"on 3 {UID}"]
    assert pico.step(request(0, "hello?")) == [HELLO, *CHIPS[:3], "chip 3 89", *CHIPS[4:]]


@pytest.mark.parametrize("leftover", [
    b"\r\x03\r\x01",                   # mpremote, when the Pico was not in BOOTSEL
    b"12 sta",                          # half a line of a host that was cut off
    b"0 ping *0",                       # a line cut just before its last digit
])
def test_a_leftover_partial_line_does_not_eat_the_next_request(pico, leftover):
    pico.hub.start()
    pico.step()
    assert pico.step(leftover) == []
    assert pico.step(request(0, "ping")) == ["pong"]


def test_state_leaves_out_a_silent_reader_and_says_why_after(pico):
    pico.hub.start()
    pico.bench.chip(6).fail()
    assert pico.step() == ["err 6 no answer (VersionReg 00)"]
    assert pico.step(request(0, "state?")) == ["state 0:- 1:- 2:- 3:- 4:- 5:-", "err 6 no answer (VersionReg 00)"]


@pytest.mark.parametrize("received", [
    b"0 ping *01\n",                    # a bad checksum
    b"0 ping\n",                        # none at all
    b"0 reboot *" + b"%02X" % protocol.checksum("0 reboot") + b"\n",     # a request the hub has not
    b"\x03\x03\x04\r\n",                # Ctrl-C, Ctrl-D: just bytes
    b"x" * 5000 + b" 0 ping *02\n",     # a flood, then a ping on the same line
])
def test_what_is_not_a_request_gets_no_answer(pico, received):
    pico.hub.start()
    assert pico.step(received) == []
    assert pico.step(request(1, "ping")) == ["pong"]        # and the hub still listens


def test_a_request_split_over_two_steps(pico):
    pico.hub.start()
    line = request(5, "ping")
    assert pico.step(line[:4]) == []
    assert pico.step(line[4:]) == ["pong"]


class Quiet:
    """A scanner with no slots: the hub's numbering alone, at no cost."""

    slots = []

    def start(self):
        return []

    def scan(self):
        return []

    def state(self):
        return []

    def failures(self):
        return []


def test_sequence_numbers_count_every_line_and_wrap_after_9999():
    quiet = hub.Hub(Quiet())
    assert quiet.start() == [frame(0, f"hello totem-hub {hub.VERSION} slots=0")]
    lines = quiet.step(request(0, "ping") * 10001)
    assert [parse(line.encode()[:-1])[0] for line in lines[-3:]] == [9999, 0, 1]
    assert len(lines) == 10001


# --- the serial loop and main.py ------------------------------------------------------------

class Stops:
    """``stop()`` for the loop: False ``steps`` times, then True."""

    def __init__(self, steps):
        self.left = steps

    def __call__(self):
        self.left -= 1
        return self.left < 0


@pytest.fixture
def line_in():
    """The USB line from the host's side: ``(host end, hub's stdin)``, bytes both ways."""
    read_fd, write_fd = os.pipe()
    stdin = os.fdopen(read_fd, "rb", buffering=0)
    host = os.fdopen(write_fd, "wb", buffering=0)
    yield host, stdin
    host.close()
    stdin.close()


def test_serve_answers_the_host_and_reports_tags(pico, line_in):
    host, stdin = line_in
    out = io.BytesIO()
    pico.put(0, UID)
    host.write(request(0, "hello?") + b"noise\n" + request(1, "ping"))
    board.serve(pico.hub, stdin, out, Stops(2))
    assert [body(line) for line in out.getvalue().decode().splitlines(keepends=True)] == [
        HELLO, *CHIPS, f"on 0 {UID}", HELLO, *CHIPS, "pong"]


def test_serve_takes_a_flood_a_little_at_a_time(pico, line_in, mocker):
    host, stdin = line_in
    host.write(b"z" * (board.MAX_READ * 3))
    step = mocker.spy(pico.hub, "step")
    board.serve(pico.hub, stdin, io.BytesIO(), Stops(4))
    assert [len(call.args[0]) for call in step.call_args_list] == [board.MAX_READ] * 3 + [0]


def test_serve_when_the_host_hangs_up(pico, line_in):
    host, stdin = line_in
    host.close()                        # end of file: the loop must not spin on it
    board.serve(pico.hub, stdin, io.BytesIO(), Stops(2))


def test_main_turns_ctrl_c_off_and_runs_the_hub_until_bootsel(pico, line_in, monkeypatch):
    host, stdin = line_in
    calls = []
    micropython = types.SimpleNamespace(kbd_intr=lambda char: calls.append(("kbd_intr", char)))
    presses = Stops(3)
    rp2 = types.SimpleNamespace(bootsel_button=lambda: calls.append("bootsel") or presses())
    out = io.BytesIO()
    monkeypatch.setitem(sys.modules, "micropython", micropython)
    monkeypatch.setitem(sys.modules, "rp2", rp2)
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=stdin))
    monkeypatch.setattr(sys, "stdout", types.SimpleNamespace(buffer=out))
    fake_machine.use(pico.bench)
    host.write(request(0, "ping"))
    runpy.run_path(str(FIRMWARE / "main.py"))
    assert calls[0] == ("kbd_intr", -1) and calls[-1] == ("kbd_intr", 3)
    assert calls.count("bootsel") == 4
    assert [body(line) for line in out.getvalue().decode().splitlines(keepends=True)] == [
        HELLO, *CHIPS, "pong"]


def test_bench_times_the_scans_on_the_pico(pico, monkeypatch, capsys):
    fake_machine.use(pico.bench)
    pico.put(0, UID)
    pico.bench.chip(5).fail()
    # bench.py runs on the Pico, with MicroPython's time module: here, the simulated clock.
    monkeypatch.setitem(sys.modules, "time", pico.bench.clock)
    runpy.run_path(str(FIRMWARE / "bench.py"))
    # An exchange on the model: 40 us of MicroPython and two bytes at 2 MHz.
    assert re.fullmatch(r"7 slots \(1 not answering\), 1 tags: \d+\.\d ms a full scan, 48 us an SPI exchange\n",
                        capsys.readouterr().out)
