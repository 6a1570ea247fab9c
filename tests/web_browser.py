"""A box on a thread with its phone page, and a headless Chromium to open it: for the
browser test and for the screenshots in docs/ (``.venv/bin/python tests/web_browser.py``).

The browser is Debian's (``/usr/bin/chromium``), driven by Playwright; Playwright never
downloads one of its own. Everything is on 127.0.0.1.
"""

from __future__ import annotations

import random
import shutil
import socket
import sys
import tempfile
import threading
from pathlib import Path

from companion.table.app_loop import AppLoop
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.settings import SettingsStore
from companion.web.page import PhonePage

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
JOIN = 20


def browser_missing() -> str | None:
    """Why the browser cannot run here (one line), or None."""
    if shutil.which(CHROMIUM) is None:
        return f"no {CHROMIUM} (apt-get install chromium): the browser test is skipped"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "no playwright (pip install playwright): the browser test is skipped"
    return None


class Display:
    """Keeps the frames shown; ``wait(n)`` waits for the n-th."""

    def __init__(self):
        self.frames = []
        self.changed = threading.Condition()

    def show(self, image):
        with self.changed:
            self.frames.append(image)
            self.changed.notify_all()
        return 1

    def wait(self, count: int):
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.frames) >= count, JOIN)
            return self.frames[count - 1]

    def close(self):
        pass


class Seen:
    """A watcher after the page's: ``wait(n)`` waits until the n-th frame was handed on."""

    def __init__(self):
        self.count = 0
        self.changed = threading.Condition()

    def seen(self, session, out=None):
        with self.changed:
            self.count += 1
            self.changed.notify_all()

    def wait(self, count: int) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: self.count >= count, JOIN)

    def heard(self, session, event):
        return False

    def close(self):
        pass


class Steps:
    """An input source the test plays one event at a time."""

    def start(self, put):
        self.put = put

    def close(self):
        pass


class Box:
    """A box with its page on at 127.0.0.1, its app loop on a thread; ``play(event)`` puts one
    event and returns the frame and the page's table once the OLED shows it and the page's
    watcher has it."""

    def __init__(self, data: Path, players=("Ana", "Ben"), seed: int = 1):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        store = SettingsStore(None, names=players, web_port=self.port, web_bind="127.0.0.1")
        self.session = Session(data, TagRegistry(data / "tags.json"), rng=random.Random(seed),
                               settings=store)
        self.display, self.steps, self.page, self.seen = Display(), Steps(), PhonePage(), Seen()
        self.loop = AppLoop(self.session, self.display, watchers=(self.page, self.seen))
        self.page.put = self.loop.put
        self.thread = threading.Thread(target=self.loop.run, args=([self.steps],), daemon=True)
        self.thread.start()
        self.display.wait(1)
        assert self.page.wait_ready(JOIN)

    def play(self, event):
        # Frames and tables are counted apart: the pairing code's overlay is a frame no
        # watcher is told of (the code is the OLED's alone).
        count, seen = len(self.display.frames) + 1, self.seen.count + 1
        self.steps.put(event)
        frame = self.display.wait(count)
        self.seen.wait(seen)  # the page's watcher has the table of this frame
        return frame, self.page.latest

    def close(self):
        self.loop.stop()
        self.thread.join(JOIN)


def keep_games(data: Path) -> Path:
    """``data`` with two finished games in its ``games/`` (the tests' records)."""
    records = Path(__file__).parent / "data"
    games = data / "games"
    games.mkdir(parents=True)
    for name, record in (("20260301-201500-wakanda.jsonl", "wakanda_worked_example.jsonl"),
                         ("20260302-193000-totem-wars.jsonl", "totem_wars_finished.jsonl")):
        (games / name).write_text((records / record).read_text())
    return data


def open_browser(playwright, profile: Path, width: int = 412, height: int = 915):
    """Debian's Chromium, headless, a new empty profile, a phone-sized window."""
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, headless=True, args=FLAGS,
        viewport={"width": width, "height": height}, device_scale_factor=2)
    return context


def screenshots(out: Path) -> None:
    """The live table of a Wakanda game and of a Totem Wars round, a finished game's score in
    French and the past games, as a phone shows them."""
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(Path(__file__).parent))
    from box_helpers import MAX_STEPS

    from companion.events import Press, Tag, TagGone

    def choose(box, value):
        for _ in range(MAX_STEPS):
            if box.session.view.choice.value == value:
                return box.play(Press("ok"))
            box.play(Press("down"))
        raise AssertionError(value)

    def scan(box, token):
        box.play(Tag(token, "pad"))
        box.play(TagGone(token, "pad"))

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        box = Box(Path(tmp) / "w")
        choose(box, "wakanda"); choose(box, "Ana"); choose(box, "Ben"); choose(box, "open")
        for village in ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]:
            scan(box, f"village:{village}")
        choose(box, 0)
        for piece, village in (("sun", 2), ("eagle", 1), ("chief", 2), ("teepee", 3)):
            scan(box, piece); scan(box, piece); box.play(Press(f"v{village}"))
        scan(box, "sun")
        context = open_browser(playwright, Path(tmp) / "profile")
        page = context.new_page()
        page.goto(box.url)
        page.wait_for_selector("#table .board")
        page.locator("main").screenshot(path=str(out / "phone-page-wakanda.png"))
        box.close()

        box = Box(Path(tmp) / "tw", players=("Ana", "Ben", "Cleo"))
        choose(box, "totem-wars"); choose(box, 3)
        for name in ("Ana", "Ben", "Cleo"):
            choose(box, name)
        choose(box, 0)
        for card in ("indians/eagle", "eskimos/narwhal", "indians/buffalo"):   # the totems
            scan(box, card)
        box.play(Press("ok"))                                                   # the deal
        for cards in (("aborigines/eagle", "indians/bear", "indians/hawk"),
                      ("aborigines/kookaburra", "aborigines/turtle", "eskimos/owl", "eskimos/whale")):
            for card in cards:
                scan(box, card)
            box.play(Press("ok"))
        scan(box, "eskimos/polar_bear")
        page.goto(box.url)
        page.wait_for_selector("#table table")
        page.locator("main").screenshot(path=str(out / "phone-page-totem-wars.png"))
        box.close()

        # A finished game's score in French, as a phone shows it (390 px wide): the result,
        # the board, each player's villages, the sun penalty and the total.
        data = Path(tmp) / "score"
        data.mkdir()
        record = Path(__file__).parent / "data" / "wakanda_worked_example.jsonl"
        (data / "current.jsonl").write_text(record.read_text())
        box = Box(data)
        box.session.settings.change(language="fr")
        box.play(Press("ok"))                                                   # Resume: the score
        phone = open_browser(playwright, Path(tmp) / "phone", 390, 844)
        score = phone.new_page()
        score.goto(box.url)
        score.wait_for_selector("#table table")
        score.locator("#live").screenshot(path=str(out / "phone-page-score-fr.png"))
        phone.close()
        box.close()

        box = Box(keep_games(Path(tmp) / "past"))
        page.goto(box.url)
        page.click("#history summary")
        page.wait_for_selector("#stats table")
        page.locator("#history").screenshot(path=str(out / "phone-page-past-games.png"))
        box.close()
        context.close()


if __name__ == "__main__":
    reason = browser_missing()
    if reason:
        sys.exit(reason)
    screenshots(Path(__file__).resolve().parent.parent / "docs")
