"""The hub's firmware from the box (issue 34): the box knows the version its hub runs (its
hello, over a pty with the firmware on a simulated Pico at the far end) and the one it
ships, updates the Pico when they differ, and checks the hub greets in the new version."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest
from firmware_bench import hub as firmware_hub
from hub_pty import plugged_hub

from companion.errors import UserError
from hardware import hub_firmware

ROOT = Path(__file__).parent.parent
SHIPPED = re.search(r'^VERSION = "(.+)"$', (ROOT / "firmware" / "hub.py").read_text(), re.MULTILINE).group(1)


@pytest.fixture
def hub(tmp_path, monkeypatch):
    """A hub plugged in at ``hub.plug.path`` running firmware 1.0, the Pico behind it."""
    with plugged_hub(tmp_path, monkeypatch, "1.0") as running:
        yield running


def flasher(hub, monkeypatch, version: str = SHIPPED):
    """What copying the firmware does to the Pico: it restarts on ``version`` (its USB line
    gone a moment, as when it resets). The copies made, by port."""
    copies: list[str] = []

    def copy(port: str) -> None:
        copies.append(port)
        hub.unplug()
        monkeypatch.setattr(firmware_hub, "VERSION", version)
        threading.Timer(0.3, hub.plug_in).start()   # the Pico's USB comes back after its reset
    return copies, copy


def test_the_box_knows_the_version_shipped_and_the_one_its_hub_runs(hub):
    assert hub_firmware.shipped_version() == SHIPPED
    assert hub_firmware.hub_version(hub.plug.path) == "1.0"
    assert hub_firmware.compare(hub.plug.path) == ("1.0", SHIPPED)
    assert hub_firmware.advice("1.0", SHIPPED) == (f"the reader hub runs firmware 1.0; this box ships {SHIPPED}: "
                                                  "./setup.sh flash updates it")
    assert hub_firmware.advice(SHIPPED, SHIPPED) is None


def test_an_older_hub_is_updated_and_checked_by_its_hello_in_the_new_version(hub, monkeypatch):
    copies, copy = flasher(hub, monkeypatch)
    done = hub_firmware.update(hub.plug.path, copy=copy)
    assert done == f"the reader hub's firmware went from 1.0 to {SHIPPED}, and the hub answers"
    assert copies == [hub.plug.path]
    assert hub_firmware.hub_version(hub.plug.path) == SHIPPED
    # Up to date: nothing copied again.
    up_to_date = f"the reader hub runs firmware {SHIPPED}, the one this box ships"
    assert hub_firmware.update(hub.plug.path, copy=copy) == up_to_date
    assert len(copies) == 1
    assert hub_firmware.update(hub.plug.path, copy=copy, force=True).startswith(f"the reader hub's firmware went "
                                                                                 f"from {SHIPPED} to {SHIPPED}")
    assert len(copies) == 2


def test_an_update_that_did_not_take_is_one_line(hub, monkeypatch):
    _, copy = flasher(hub, monkeypatch, version="1.0")
    with pytest.raises(UserError, match=rf"runs 1.0 after its update, not {re.escape(SHIPPED)}: copy the firmware"):
        hub_firmware.update(hub.plug.path, copy=copy)


def test_a_hub_that_does_not_come_back_is_one_line(hub):
    def copy(port: str) -> None:
        hub.unplug()
    with pytest.raises(UserError, match=r"did not greet within 1 s of its update to .*: unplug it, plug it back"):
        hub_firmware.update(hub.plug.path, copy=copy, restart_seconds=1)
    hub.plug_in()


def test_a_pico_without_the_hub_s_firmware_is_given_it(hub, monkeypatch):
    hub.frozen = True           # it says nothing: MicroPython alone, or a hub that hangs
    copies, copy = flasher(hub, monkeypatch)

    def unfreeze_and_copy(port: str) -> None:
        hub.frozen = False
        copy(port)
    assert hub_firmware.update(hub.plug.path, copy=unfreeze_and_copy).startswith(
        f"the reader hub's firmware went from none to {SHIPPED}")


def test_the_command_says_both_versions_and_refuses_in_one_line(hub, tmp_path, capsys):
    assert hub_firmware.main([hub.plug.path]) == 1
    assert capsys.readouterr().out == (f"the reader hub runs firmware 1.0; this box ships {SHIPPED}: "
                                       "./setup.sh flash updates it\n")
    (tmp_path / "fw").mkdir()
    (tmp_path / "fw" / "hub.py").write_text("VERSION = 11\n")
    with pytest.raises(UserError, match="no VERSION in the hub's firmware"):
        hub_firmware.shipped_version(tmp_path / "fw")
    with pytest.raises(UserError, match="cannot open the reader hub"):
        hub_firmware.hub_version(str(tmp_path / "no-such-port"))
