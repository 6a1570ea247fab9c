"""Whole Wakanda games in slot mode, driven by a reader hub: the firmware on a simulated
Pico behind a pty (tests/hub_pty.py), the host's hub reader, the session — with noise and
bad checksums on the line, a lost line (a gap in the numbering), the cable pulled out and
plugged back mid-game, a lifted piece, a refused placement and an undo by lifting.

The game of tests/data/wakanda_slot_game.txt is played twice: as an input script
(``run --input``), and on the emulated hub, each ``tag``/``gone`` line laying a tag on or
lifting it off a slot; both must keep the same record."""

from __future__ import annotations

import json
import queue
import random
import time
from pathlib import Path

import pytest
from fakes import Plug
from firmware_bench import make_pico
from hub_pty import PtyHub
from slot_helpers import ROW, enrolled, uid

from companion.cli import main
from companion.events import Hold, Press, ReaderState, Tag, TagGone, Wait
from companion.games.wakanda import Build, Claim, Draw, Pass, Wakanda, write_record
from companion.games.wakanda.rules import HEADDRESSES
from companion.table.registry import TagRegistry
from companion.table.session import Session
from hardware.hub_reader import HubReader
from hardware.script_input import ScriptInput

SCRIPT = Path(__file__).parent / "data" / "wakanda_slot_game.txt"
WAIT = 5    # seconds: the longest any step waits for the hub's events
NOISE = b"\x00\xfe\x1b[2J line noise\r\n"
BAD_CHECKSUM = b"57 on 4 04A1B2C3D4E5F6 *00\n"


def expected_record(worked_example) -> list[dict]:
    """The worked example's record, with the skin built on village 1 taken back once by
    lifting it (the 10th move) and built again."""
    lines = [json.loads(line) for line in write_record(worked_example).splitlines()]
    lines[0]["players"] = ["Player 1", "Player 2"]
    lines[0]["hints"] = True                           # started on the box: hints on
    skin = 1 + 9                                       # after the header
    assert lines[skin] == {"p": 0, "build": "skin", "village": 1}
    return lines[:skin + 1] + [{"undo": True}] + lines[skin:]


def record(data: Path) -> list[dict]:
    return [json.loads(line) for line in (data / "current.jsonl").read_text().splitlines()]


@pytest.fixture
def data(tmp_path, monkeypatch):
    """A data folder with every Wakanda tag enrolled; no configuration file."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    folder = tmp_path / "data"
    TagRegistry(folder / "tags.json", enrolled()).save()
    return folder


def test_the_slot_game_as_an_input_script(data, capsys, worked_example):
    assert main(["run", "--input", str(SCRIPT), "--display", "text", "--data", str(data)]) == 0
    frames = capsys.readouterr().out.splitlines()
    assert record(data) == expected_record(worked_example)
    said = " ".join(frames)
    for note in ("Take the eagle off | village 5: village 5 is | not open yet — W4",
                 "Take back? | Player 1 built skin | on village 1",
                 "Put the chief back on | village 2", "Fix village 2 first"):
        assert note in said
    # Played with hints on (the default): the score's 3 pages, then a review page each.
    assert frames[-1].endswith("Player 1 wins 1/5▼ | Player 1 20 | Player 2 16 | Higher total (W9)")


# --- on the emulated hub --------------------------------------------------------------------------------

@pytest.fixture
def hub(tmp_path, monkeypatch):
    """A hub plugged in at ``hub.plug.path``, the firmware on a simulated Pico behind it."""
    plug = Plug(str(tmp_path / "ttyACM0"))
    running = PtyHub(plug, make_pico(monkeypatch))
    yield running
    running.stop()
    plug.close()


class HubTable:
    """Players at a table with the hub: what they do with tags happens on the emulated
    hub, what they press goes to the box; each step waits until the box has taken the
    events it causes (those of a hub unplugged: once it is back)."""

    def __init__(self, hub: PtyHub, box: Session, reader: HubReader):
        self.hub, self.box, self.reader = hub, box, reader
        self.events: queue.Queue = queue.Queue()
        self.laid: dict[tuple[int, str], object] = {}
        self.unplugged = False
        self.waiting: list = []         # events the hub owes the box once plugged back
        self.said: list[str] = []       # every note the box showed
        self.steps = 0
        reader.start(self.events.put)
        self.pump([ReaderState("hub", True)])

    def play(self, item, *, noise_every: int = 0, lose_at: int | None = None) -> None:
        """Do what one input-script line says; every ``noise_every``-th tag step, noise and
        a line with a bad checksum first; at step ``lose_at``, the hub's next line is lost."""
        if isinstance(item, Wait):
            return
        if isinstance(item, (Press, Hold)):
            self.handle(item)
            return
        if isinstance(item, ReaderState):
            assert item.reader == "hub", item
            if item.connected:
                self.hub.plug_in()
                self.unplugged = False
                waiting, self.waiting = [item, *self.waiting], []
                self.pump(waiting)
            else:
                self.hub.unplug()
                self.unplugged = True
                self.pump([item])
            return
        self.steps += 1
        if noise_every and self.steps % noise_every == 0:
            self.hub.inject(NOISE + BAD_CHECKSUM)
        if self.steps == lose_at:
            self.hub.lose(1)
        slot = 0 if item.reader == "pad" else int(item.reader.removeprefix("slot"))
        if isinstance(item, Tag):
            self.laid[(slot, item.uid)] = self.hub.put(slot, item.uid)
        else:
            self.hub.take(slot, self.laid.pop((slot, item.uid)))
        if self.unplugged:
            self.waiting.append(item)
        else:
            self.pump([item])

    def handle(self, event) -> None:
        self.box.handle(event)
        if self.box.message:
            self.said.append(self.box.message)

    def pump(self, expected: list) -> None:
        """Give the box the hub's events until every one of ``expected`` has come."""
        left = list(expected)
        deadline = time.monotonic() + WAIT
        while left:
            try:
                event = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"the hub did not report {left} within {WAIT} s")
            self.handle(event)
            if event in left:
                left.remove(event)


def test_the_slot_game_on_the_emulated_hub(hub, data, worked_example):
    box = Session(data, TagRegistry.load(data / "tags.json"), rng=random.Random(1))
    reader = HubReader(hub.plug.path, ping_after=0.2, retry_seconds=0.05)
    try:
        table = HubTable(hub, box, reader)
        for item in ScriptInput(SCRIPT).events():
            table.play(item, noise_every=7, lose_at=40)
    finally:
        reader.close()
    assert record(data) == expected_record(worked_example)
    assert box.screen == "score"
    for note in ("Take the eagle off village 5: village 5 is not open yet — W4",
                 "Taken back: skin off village 1, to the hand",
                 "Put the chief back on village 2", "Fix village 2 first",
                 "Reader unplugged: go on with the buttons"):
        assert note in table.said
    link = reader.link
    assert link.bad_lines >= 2 * (table.steps // 7) and link.gaps >= 1 and link.reconnects == 1


def physical(moves, players=("Player 1", "Player 2")):
    """An input script's events for a game played with tags: each draw laid on the pad and
    lifted, each build laid on its village's slot (the piece drawn, from the hand), each
    claim a headdress of the player laid on the slot, each forced pass OK."""
    game = Wakanda(list(ROW), players=players)
    used: dict[str, int] = {}
    hands: tuple[list, list] = ([], [])
    events: list = []

    def tag_of(kind):
        used[kind] = used.get(kind, 0) + 1
        return uid(kind, used[kind])

    for move in moves:
        player = game.to_move
        if isinstance(move, Draw):
            tag = tag_of(move.piece)
            hands[player].append((move.piece, tag))
            events += [Tag(tag, "pad"), TagGone(tag, "pad")]
        elif isinstance(move, Build):
            held = next(entry for entry in hands[player] if entry[0] == move.piece)
            hands[player].remove(held)
            events.append(Tag(held[1], f"slot{move.village}"))
        elif isinstance(move, Claim):
            events.append(Tag(tag_of(HEADDRESSES[player]), f"slot{move.village}"))
        else:
            assert move == Pass()
            events.append(Press("ok"))
        game.push(move)
    return game, events


@pytest.mark.parametrize("seed", [3, 11])
def test_a_random_game_from_placements_alone(hub, data, seed):
    rng = random.Random(seed)
    game = Wakanda(list(ROW))
    while game.phase != "over":
        game.push(rng.choice(game.legal_moves()))
    played, events = physical([move for _, move in game.history])
    box = Session(data, TagRegistry.load(data / "tags.json"), rng=random.Random(1))
    for button in ("ok", "ok"):                              # a new game, open tiles
        box.handle(Press(button))
    for village in ROW:
        box.handle(Tag(f"village:{village}")); box.handle(TagGone(f"village:{village}"))
    box.handle(Press("ok"))                                  # Player 1 starts
    reader = HubReader(hub.plug.path, retry_seconds=0.05)
    try:
        table = HubTable(hub, box, reader)
        for event in events:
            table.play(event)
    finally:
        reader.close()
    expected = [json.loads(line) for line in write_record(played).splitlines()]
    expected[0]["hints"] = True                              # started on the box: hints on
    assert expected == record(data)
    assert table.said == ["Reader connected"] and box.screen == "score"   # nothing to put right
