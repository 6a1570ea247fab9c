"""The club's leaderboard and tables page as Debian's Chromium shows them, for the README:
``.venv/bin/python tests/club_screenshots.py`` writes docs/club-leaderboard.png and
docs/club-tables.png.

A real Mosquitto and club server (SQLite) in a folder of their own; three boxes send their
games; a fourth box plays a game (``run --input``) that pauses mid-way, its live table on the
tables page while the picture is taken.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.cli import main  # noqa: E402
from companion.club.box import sync  # noqa: E402
from companion.club.outbox import Outbox  # noqa: E402
from companion.club.pages import make_app, serve  # noqa: E402
from tests.club_servers import Broker, free_port, wait_for_port  # noqa: E402
from tests.test_club import PASSWORDS, Club, _demo, address, games_for, make_box, with_players  # noqa: E402
from tests.web_browser import CHROMIUM, FLAGS  # noqa: E402


def _two(text: str) -> bool:
    """Whether the record's two players are two people (not one name twice)."""
    import json
    players = json.loads(text.split("\n", 1)[0])["players"]
    return len(set(players)) == len(players)


def main_screens(out: Path) -> None:
    from playwright.sync_api import sync_playwright

    from tests.test_app import greedy_bot, play_game, random_bot, script_of

    folder = Path(tempfile.mkdtemp(prefix="club-shots-"))
    base = [_demo("wakanda", 1, folder), _demo("wakanda", 2, folder), _demo("totem-wars", 1, folder),
            _demo("totem-wars", 2, folder)]
    broker = Broker(folder / "broker", PASSWORDS)
    broker.start()
    club = Club(str(folder / "club.sqlite"), broker)
    club.start()
    people = ["Ana", "Ben", "Chloé", "Dev", "Eli", "Fatou", "Gus", "Hana"]
    for k, box in enumerate(("box1", "box2", "box3")):
        records = [with_players(text, [people[(n + k) % 8], people[(n * 3 + 2 * k + 1) % 8]])
                   for n, text in enumerate(games_for(base, box, 12, pool=6))]
        make_box(folder / box, [text for text in records if _two(text)])
        sync(Outbox(folder / box), address(broker, box), wait=20)
    port = free_port()
    stop = asyncio.Event()
    loop_of: list[asyncio.AbstractEventLoop] = []

    def web():
        async def run():
            loop_of.append(asyncio.get_running_loop())
            await serve(make_app(club.store, club.server, "en"), "127.0.0.1", port, lambda: None, stop)
        asyncio.run(run())
    threading.Thread(target=web, daemon=True).start()
    wait_for_port(port)
    # A box in play: its game paused half-way for the picture.
    script = script_of(play_game(4, bots=(greedy_bot, random_bot))).splitlines()
    half = len(script) // 2
    (folder / "game.txt").write_text("\n".join(script[:half] + ["wait 15"] + script[half:]) + "\n")
    (folder / "box.toml").write_text(f'[club]\nbroker = "{broker.address}"\nbox = "box1"\npassword = "one"\n')
    player = threading.Thread(target=lambda: main(["run", "--config", str(folder / "box.toml"), "--input",
                                                   str(folder / "game.txt"), "--data", str(folder / "playing"),
                                                   "--display", "none"]), daemon=True)
    player.start()
    deadline = time.monotonic() + 20
    while "box1" not in club.server.live and time.monotonic() < deadline:
        time.sleep(0.1)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        page.goto(f"http://localhost:{port}/")
        page.screenshot(path=str(out / "club-leaderboard.png"), full_page=True)
        page.goto(f"http://localhost:{port}/tables")
        page.screenshot(path=str(out / "club-tables.png"), full_page=True)
        browser.close()
    player.join(30)
    loop_of[0].call_soon_threadsafe(stop.set)
    club.stop()
    broker.stop()


if __name__ == "__main__":
    main_screens(Path(__file__).resolve().parent.parent / "docs")
