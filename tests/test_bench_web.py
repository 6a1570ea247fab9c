"""The phone page's cost to the box (issue 23: event to frame unchanged with five pages
open) and its latency (the OLED's frame on a page within 0.2 s). Figures:
.venv/bin/python -m pytest tests/test_bench_web.py --benchmark-enable --benchmark-only -s

Each call is one event of a player's cycle mid-game (test_bench_session.py) through the app
loop's ``deliver``: session, display, watchers. Without the page, the watcher is there and
off; with it, the page is served on 127.0.0.1 to five open event streams. The latency is
from ``deliver`` to the table's arrival on all five pages.
"""

from __future__ import annotations

import http.client
import itertools
import json
import socket
import threading

import pytest
from test_bench_session import MemoryJournal, mid_game

from companion.table.app_loop import AppLoop
from companion.table.settings import SettingsStore
from companion.web.page import PhonePage

PAGES = 5
JOIN = 20


class Display:
    def show(self, image):
        return 1

    def close(self):
        pass


class Pages:
    """Five open pages, each on its own thread, counting the tables they receive."""

    def __init__(self, port: int):
        self.port = port
        self.counts = [0] * PAGES
        self.changed = threading.Condition()
        self.threads = [threading.Thread(target=self._read, args=(i,), daemon=True) for i in range(PAGES)]
        for thread in self.threads:
            thread.start()

    def _read(self, i: int) -> None:
        # Each page from an address of its own: five phones (the box keeps two pages an address).
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=JOIN,
                                                source_address=(f"127.0.3.{i + 1}", 0))
        connection.request("GET", "/events")
        with connection.getresponse() as stream:
            for line in stream:
                if line.startswith(b"data: "):
                    json.loads(line[6:])
                    with self.changed:
                        self.counts[i] += 1
                        self.changed.notify_all()

    def wait_all(self, count: int) -> None:
        """Wait until every page has received ``count`` tables."""
        with self.changed:
            assert self.changed.wait_for(lambda: min(self.counts) >= count, JOIN)


def box(tmp_path, port: int | None):
    s, cycle = mid_game(tmp_path)
    s.play.journal = MemoryJournal()
    s.settings = SettingsStore(None, web_port=port or 0, web_bind="127.0.0.1")
    page = PhonePage()
    loop = AppLoop(s, Display(), watchers=(page,))
    return loop, page, itertools.cycle(cycle)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_bench_event_to_frame_without_the_page(benchmark, tmp_path):
    loop, page, events = box(tmp_path, None)
    out = benchmark(lambda: loop.deliver(next(events)))
    assert out.frame.size == (128, 64) and page.where is None


@pytest.fixture
def five_pages(tmp_path):
    port = free_port()
    loop, page, events = box(tmp_path, port)
    loop.tell_watchers()
    assert page.wait_ready(JOIN)
    pages = Pages(port)
    pages.wait_all(1)  # every page open, the table now received
    yield loop, page, events, pages
    loop.close()


def test_bench_event_to_frame_with_five_pages_open(benchmark, five_pages):
    loop, page, events, pages = five_pages
    out = benchmark(lambda: loop.deliver(next(events)))
    assert out.frame.size == (128, 64) and page.where is not None


def test_bench_event_to_the_table_on_five_pages(benchmark, five_pages):
    loop, _, events, pages = five_pages
    sent = [1]

    def one():
        loop.deliver(next(events))
        sent[0] += 1
        pages.wait_all(sent[0])
    benchmark.pedantic(one, rounds=100, warmup_rounds=5)
    assert min(pages.counts) == sent[0]


MEMORY_CHILD = """
import sys, tempfile, pathlib, itertools
sys.path.insert(0, "tests")
from test_bench_session import mid_game, MemoryJournal
from test_bench_web import Display, Pages
from companion.table.app_loop import AppLoop
from companion.table.settings import SettingsStore
from companion.web.page import PhonePage

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

s, cycle = mid_game(pathlib.Path(tempfile.mkdtemp()))
s.play.journal = MemoryJournal()
events = itertools.cycle(cycle)
page = PhonePage()
loop = AppLoop(s, Display(), watchers=(page,))
for _ in range(50):
    loop.deliver(next(events))
before = rss()
s.settings = SettingsStore(None, web_port=int(sys.argv[1]), web_bind="127.0.0.1")
loop.tell_watchers()
assert page.wait_ready(20)
pages = Pages(int(sys.argv[1]))
pages.wait_all(1)
for n in range(200):
    loop.deliver(next(events))
    pages.wait_all(n + 2)
print(before, rss())
loop.close()
"""


@pytest.mark.skipif(not __import__("os").path.exists("/proc/self/status"), reason="no /proc: Linux only")
def test_bench_memory_of_the_page_with_five_pages_open(benchmark):
    """The box's resident memory before the page is on and after 200 frames sent to five
    pages (issue 23: at most 20 MB more); the five pages' readers are threads of the same
    process, so the figure is an upper bound."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).parent.parent
    figures = []

    def once():
        out = subprocess.run([sys.executable, "-c", MEMORY_CHILD, str(free_port())], cwd=root,
                             capture_output=True, text=True, timeout=120, check=True).stdout
        figures.append([int(n) for n in out.split()])
    benchmark.pedantic(once, rounds=1, iterations=1)
    before, after = figures[0]
    print(f"\nresident memory: {before / 1024:.1f} MB before the page, {after / 1024:.1f} MB with five "
          f"pages open: {(after - before) / 1024:.1f} MB more (budget 20 MB)")
    assert after > before
