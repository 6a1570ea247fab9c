"""The box offers its reader hub the firmware it ships (issue 34): a hub over a pty, running
firmware 1.0 on a simulated Pico, read by the box's loop while the box ships 2.0. The menu
asks over its top line; OK updates the Pico (the reader lets its port go, the firmware is
"copied", the reader opens the port again and hears the hello in 2.0), BACK declines."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fakes import WordsDisplay
from firmware_bench import hub as firmware_hub
from hub_pty import PtyHub, plugged_hub

from companion.errors import UserError
from companion.events import Press
from companion.hub_offer import VERSION_CHARS, HubGreeted, HubOffer, HubUpdated, short
from companion.languages import LANGUAGES
from companion.table.app_loop import AppLoop
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.ui.canvas import SMALL, WIDTH, text_width
from companion.ui.text import speaking, t
from hardware.hub_reader import HubReader

#: The longest the box may take to answer, on a loaded machine.
WAIT = 30.0
OFFER, DONE, FAILED, WORKING = "Update hub 1.0→2.0? OK", "Hub updated to 2.0", "Hub update failed", "Updating the hub…"


class Hub:
    """The reader as the box's source, with the hub's hellos counted as they are put."""

    def __init__(self, reader: HubReader) -> None:
        self.reader = reader
        self.greeted: list[HubGreeted] = []
        self.came = threading.Condition()

    def start(self, put: Callable[[Any], None]) -> None:
        def seen(event: Any) -> None:
            put(event)
            if isinstance(event, HubGreeted):
                with self.came:
                    self.greeted.append(event)
                    self.came.notify_all()
        self.reader.start(seen)

    def close(self) -> None:
        self.reader.close()

    def wait_greeted(self, times: int) -> None:
        with self.came:
            assert self.came.wait_for(lambda: len(self.greeted) >= times, WAIT), self.greeted


@pytest.fixture
def pico(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[PtyHub]:
    """A hub plugged in at ``pico.plug.path`` running firmware 1.0."""
    with plugged_hub(tmp_path, monkeypatch, "1.0") as running:
        yield running


@pytest.fixture
def shipped(tmp_path: Path) -> Path:
    """The box's firmware folder: version 2.0."""
    folder = tmp_path / "firmware"
    folder.mkdir()
    (folder / "hub.py").write_text('"""The hub."""\n\nVERSION = "2.0"\n')
    return folder


def flasher(pico: PtyHub, monkeypatch: pytest.MonkeyPatch,
            version: str = "2.0") -> tuple[list[str], Callable[[str], None]]:
    """What copying the firmware does: the Pico restarts on ``version``, its USB line gone a
    moment. The copies made, by port."""
    copies: list[str] = []

    def copy(port: str) -> None:
        copies.append(port)
        pico.unplug()
        monkeypatch.setattr(firmware_hub, "VERSION", version)
        threading.Timer(0.3, pico.plug_in).start()
    return copies, copy


class Box:
    """The box's loop with the hub as its reader, on a thread; ``game``: set up at the start."""

    def __init__(self, data: Path, pico: PtyHub, firmware: Path, copy: Callable[[str], None],
                 game: str | None = None) -> None:
        self.display, self.err = WordsDisplay(WAIT), io.StringIO()
        self.hub = Hub(HubReader(pico.plug.path, retry_seconds=0.05, firmware=firmware, copy=copy))
        self.loop = AppLoop(Session(data, TagRegistry(data / "tags.json"), game=game), self.display, err=self.err)
        self.thread = threading.Thread(target=self.loop.run, args=([self.hub],))
        self.thread.start()

    def stop(self) -> None:
        self.loop.stop()
        self.thread.join(WAIT)
        assert not self.thread.is_alive()


@pytest.fixture
def box(tmp_path: Path, pico: PtyHub, shipped: Path) -> Iterator[Callable[..., Box]]:
    """``box(copy, game=None)``: the box started; stopped after the test."""
    made: list[Box] = []

    def start(copy: Callable[[str], None], game: str | None = None) -> Box:
        made.append(Box(tmp_path / "data", pico, shipped, copy, game))
        return made[-1]
    yield start
    for one in made:
        if one.thread.is_alive():
            one.stop()


def test_the_menu_offers_the_firmware_shipped_and_ok_updates_the_hub(box, pico, monkeypatch):
    copies, copy = flasher(pico, monkeypatch)
    running = box(copy)
    running.display.wait_for(OFFER)
    running.loop.put(Press("ok"))
    running.display.wait_for(DONE)
    assert copies == [pico.plug.path]
    assert running.hub.reader.link.version == "2.0"
    assert running.display.ever(WORKING)
    menu = running.display.shown[-1]
    running.loop.put(Press("down"))     # the next press is the menu's again
    running.display.wait_for(DONE, present=False)
    assert running.display.shown[-1] != menu
    running.hub.wait_greeted(2)         # the hub greets in 2.0: nothing more to offer
    running.stop()
    assert OFFER not in running.display.shown[-1] and running.err.getvalue() == ""


def test_back_declines_and_the_hub_is_not_asked_again_while_the_box_runs(box, pico, monkeypatch):
    copies, copy = flasher(pico, monkeypatch)
    running = box(copy)
    running.display.wait_for(OFFER)
    running.loop.put(Press("back"))
    running.display.wait_for(OFFER, present=False)
    asked = running.display.ever(OFFER)
    pico.unplug()                       # unplugged and back: it greets in 1.0 again
    pico.plug_in()
    running.hub.wait_greeted(2)
    running.stop()
    assert running.display.ever(OFFER) == asked and copies == []


def test_an_update_that_fails_says_so_in_one_line_and_the_hub_is_read_again(box, pico):
    def copy(port: str) -> None:
        raise UserError(f"the Pico on {port} did not take the firmware")
    running = box(copy)
    running.display.wait_for(OFFER)
    running.loop.put(Press("ok"))
    running.display.wait_for(FAILED)
    running.hub.wait_greeted(2)         # the port opened again: the hub still runs 1.0
    assert running.hub.reader.link.version == "1.0"
    running.stop()
    assert OFFER not in running.display.shown[-1]
    err = running.err.getvalue()
    assert err.count("\n") == 1 and err.startswith("totem-companion: the reader hub's firmware update failed: "
                                                   "the Pico on ")


def test_a_copy_that_breaks_is_a_failure_the_box_never_waits_for_ever(box):
    def copy(port: str) -> None:
        raise RuntimeError("mpremote vanished")
    running = box(copy)
    running.display.wait_for(OFFER)
    running.loop.put(Press("ok"))
    running.display.wait_for(FAILED)
    running.loop.put(Press("down"))     # the menu's again
    running.display.wait_for(FAILED, present=False)
    running.stop()
    assert "the copy failed: RuntimeError: mpremote vanished" in running.err.getvalue()


def test_a_hub_that_comes_back_in_another_version_is_a_failure(box, pico, monkeypatch):
    _, copy = flasher(pico, monkeypatch, version="1.5")
    running = box(copy)
    running.display.wait_for(OFFER)
    running.loop.put(Press("ok"))
    running.display.wait_for(FAILED)
    running.stop()
    assert "greets in 1.5, not 2.0" in running.err.getvalue()


def test_a_game_being_set_up_is_never_covered_the_offer_waits_for_the_menu(box, pico, monkeypatch):
    _, copy = flasher(pico, monkeypatch)
    running = box(copy, game="wakanda")
    running.hub.wait_greeted(1)
    running.loop.put(Press("down"))     # handled after the hello: the set-up is still shown
    with running.display.changed:
        assert running.display.changed.wait_for(lambda: len(running.display.shown) >= 2, WAIT)
    assert running.display.ever(OFFER) == 0
    running.loop.put(Press("back"))     # the menu: asked there
    running.display.wait_for(OFFER)


def test_a_hub_running_the_firmware_shipped_is_not_offered_it(box, pico, monkeypatch):
    monkeypatch.setattr(firmware_hub, "VERSION", "2.0")
    pico.unplug()
    pico.plug_in()
    running = box(flasher(pico, monkeypatch)[1])
    running.hub.wait_greeted(1)
    running.stop()
    assert running.display.ever("Update hub") == 0


# --- the decision alone ----------------------------------------------------------------------

def test_the_offer_takes_only_the_hub_s_news_and_presses_while_it_asks():
    asked: list[str] = []
    offer = HubOffer(io.StringIO())
    assert offer.line(True) is None and not offer.heard(Press("ok"), True)
    assert not offer.took("not news") and not offer.took(Press("ok"))
    assert offer.took(HubGreeted("1.0", "2.0", lambda: asked.append("update")))
    assert offer.line(False) is None                      # not over a game
    assert offer.line(True) == ("hub.offer", {"old": "1.0", "new": "2.0"})
    assert not offer.heard("not a press", True) and offer.line(True) is not None
    assert not offer.heard(Press("up"), True) and offer.line(True) is None   # put away, for the menu's up
    offer.screen(True)
    assert offer.line(True) is None                       # still at the menu: still away
    offer.screen(False)
    assert offer.line(True) is not None                   # the menu again: asked again
    assert offer.heard(Press("ok"), True) and asked == ["update"]
    assert offer.line(True) == ("hub.working", {"old": "1.0", "new": "2.0"})
    assert offer.heard(Press("down"), False)              # no press while the hub is updated
    assert offer.took(HubUpdated("2.0"))
    assert offer.line(False) == ("hub.done", {"old": "1.0", "new": "2.0"})
    assert not offer.heard(Press("down"), True) and offer.line(True) is None


def test_news_of_an_update_never_asked_for_is_a_failure_in_one_line():
    err = io.StringIO()
    offer = HubOffer(err)
    assert offer.took(HubUpdated(None, "the hub did not greet within 20 s of its update"))
    assert offer.line(True) is None                       # no hello yet: nothing to say
    assert err.getvalue() == ("totem-companion: the reader hub's firmware update failed: "
                              "the hub did not greet within 20 s of its update\n")


def test_a_long_version_is_shortened_to_fit():
    assert short("1.10") == "1.10" and short("1.2.3-beta") == "1.2…" and len(short("x" * 20)) == VERSION_CHARS


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hub_s_lines_fit_one_line_in_every_language(lang):
    with speaking(lang):
        for key in ("hub.offer", "hub.working", "hub.done", "hub.failed"):
            line = t(key, old=short("10.10"), new=short("10.11.2"))
            assert text_width(line, SMALL) <= WIDTH - 4, (key, line)


def test_the_box_s_hub_is_given_the_firmware_to_offer_and_listen_s_is_not(pico):
    from companion.config import Config
    from hardware.hub_firmware import FIRMWARE
    from hardware.inputs import open_inputs

    config = Config(reader=f"hub:{pico.plug.path}", buttons="none")
    for offer, firmware in ((True, FIRMWARE), (False, None)):
        (reader,) = open_inputs(config, offer_firmware=offer)
        try:
            assert isinstance(reader, HubReader) and reader.firmware == firmware
        finally:
            reader.close()
