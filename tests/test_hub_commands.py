"""``doctor`` and ``listen`` with the reader hub: the firmware on a simulated Pico behind a pty."""

import os
import select
import threading

import pytest
from fakes import Plug
from firmware_bench import make_pico
from hub_pty import PtyHub

from companion.cli import main
from companion.config import Config
from companion.events import ReaderState, Tag, parse_event
from hardware import checks, platform
from hardware.checks import check_reader
from hardware.hub_protocol import encode

A = "04A1B2C3D4E5F6"


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch, mocker):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    mocker.patch.object(platform, "is_raspberry_pi", return_value=False)


@pytest.fixture
def hub(tmp_path, monkeypatch):
    plug = Plug(str(tmp_path / "ttyACM0"))
    running = PtyHub(plug, make_pico(monkeypatch))
    yield running
    running.stop()
    plug.close()


def findings(report):
    return [(f.ok, f.text) for f in report.findings]


def test_doctor_finds_the_hub_and_every_slot_answering(hub, tmp_path):
    hub.put(4, A)
    report = check_reader(Config(reader=f"hub:{hub.plug.path}"), cmdline=tmp_path / "none")
    assert report.ok
    assert findings(report) == [
        (True, f"serial port {hub.plug.path} is present"),
        (True, "the reader hub answers: totem-hub 1.1, 7 slots"),
        (True, "all 7 slots answer"),
        (True, "1 tag on the readers now; totem-companion listen shows them come and go")]


def test_doctor_names_a_clone_reader_chip_and_counts_it_as_answering(hub, tmp_path, monkeypatch):
    plug = Plug(str(tmp_path / "ttyACM1"))
    pico = make_pico(monkeypatch)
    pico.bench.chip(3).version = 0x89  # widely sold boards answer 0x89, 0x15, 0x80
    running = PtyHub(plug, pico)
    try:
        report = check_reader(Config(reader=f"hub:{plug.path}"), cmdline=tmp_path / "none")
    finally:
        running.stop()
        plug.close()
    assert report.ok
    assert (True, "all 7 slots answer") in findings(report)
    assert (True, "slot 3: MFRC522 clone, version 0x89") in findings(report)


def test_doctor_names_the_slots_that_do_not_answer(hub, tmp_path):
    with hub.lock:
        hub.pico.bench.chip(0).fail()
        hub.pico.bench.chip(3).fail()
    report = check_reader(Config(reader=f"hub:{hub.plug.path}"), cmdline=tmp_path / "none")
    assert not report.ok
    problem = report.findings[2]
    assert problem.text == ("5 of 7 slots answer; slot 0 (the scan pad): no answer (VersionReg 00); "
                            "slot 3 (village 3): no answer (VersionReg 00)")
    assert "firmware/README.md" in problem.fix


def test_doctor_with_nothing_answering_on_the_port(tmp_path):
    plug = Plug(str(tmp_path / "ttyACM0"))
    try:
        report = check_reader(Config(reader=f"hub:{plug.path}"), cmdline=tmp_path / "none")
    finally:
        plug.close()
    assert not report.ok
    assert report.findings[-1].text.startswith(f"the reader hub on {plug.path} does not answer: ")
    assert "./setup.sh flash" in report.findings[-1].fix


class HelloOnly(threading.Thread):
    """A device that says hello when greeted, and nothing else."""

    def __init__(self, plug):
        super().__init__(daemon=True)
        self.plug = plug
        self.stopping = threading.Event()
        self.start()

    def run(self):
        while not self.stopping.is_set():
            ready, _, _ = select.select([self.plug.master], [], [], 0.01)
            if ready and b"hello?" in os.read(self.plug.master, 256):
                self.plug.write(encode(0, "hello totem-hub 0.9 slots=3"))


def test_doctor_when_the_hub_never_gives_its_state(tmp_path):
    plug = Plug(str(tmp_path / "ttyACM0"))
    device = HelloOnly(plug)
    try:
        link = checks._serial(plug.path, checks.BAUD["hub"])
        found = checks._talk_hub(plug.path, link, wait=0.3)
    finally:
        device.stopping.set()
        device.join(timeout=5)
        plug.close()
    assert [(f.ok, f.text) for f in found] == [
        (True, "the reader hub answers: totem-hub 0.9, 3 slots"),
        (False, "the hub did not say which slots answer")]


def test_the_doctor_command_with_a_hub(hub, capsys):
    assert main(["doctor", "--reader", f"hub:{hub.plug.path}", "--display", "none", "--buttons", "none"]) == 0
    out = capsys.readouterr().out
    assert f"reader   hub:{hub.plug.path}" in out and "all 7 slots answer" in out and out.endswith("all good\n")


def test_listen_prints_the_hub_events(hub, capsys):
    hub.put(0, "DEADBEEF")
    hub.put(5, A)
    status = main(["listen", "--reader", f"hub:{hub.plug.path}", "--buttons", "none", "--count", "3",
                   "--seconds", "10"])
    assert status == 0
    lines = capsys.readouterr().out.splitlines()
    # The pad is read between villages when its turn is due: the two may come in either order.
    assert lines[0] == "reader hub connected"
    assert sorted(lines[1:]) == sorted(["tag DEADBEEF pad", f"tag {A} slot5"])


def test_listen_after_a_partial_line_on_each_side(hub, capsys):
    # ./setup.sh flash ran without BOOTSEL (mpremote's bytes reached the hub), and the
    # hub was cut off mid-line: the first listen works all the same.
    hub.put(5, A)
    with hub.lock:
        hub.pico.hub.step(b"\r\x03\r\x01")
        hub.inject(b"17 on 5 04A1")
    status = main(["listen", "--reader", f"hub:{hub.plug.path}", "--buttons", "none", "--count", "2",
                   "--seconds", "10"])
    assert status == 0
    assert capsys.readouterr().out.splitlines() == ["reader hub connected", f"tag {A} slot5"]


def test_what_listen_prints_is_an_input_script(hub, capsys):
    """The words listen prints for the hub read back as events (an input script)."""
    hub.put(2, A)
    main(["listen", "--reader", f"hub:{hub.plug.path}", "--buttons", "none", "--count", "2", "--seconds", "10"])
    lines = capsys.readouterr().out.splitlines()
    assert [parse_event(line) for line in lines] == [ReaderState("hub", True), Tag(A, "slot2")]
