"""The club under load (issue 30): 50 boxes send 2,000 finished games at once through a real
Mosquitto to the club server, on SQLite and on PostgreSQL. Figures:
.venv/bin/python -m pytest tests/test_bench_club.py --benchmark-enable --benchmark-only -s

Each simulated box is an MQTT client of its own, logged in as its box, publishing its 40
games (QoS 1) as fast as the broker takes them. The figures: games kept a second (first
publish to the last commit) and the delay of each game from its box's publish to the
commit that puts it on the leaderboard (the pages read the database: a page asked after
the commit shows it), median, 95th percentile and worst.
"""

from __future__ import annotations

import json
import statistics
import threading
import time

import paho.mqtt.client as mqtt
import pytest

from companion.club import names, wire
from companion.club.outbox import game_id
from companion.club.store import Store
from tests.club_servers import Broker, needs_mosquitto
from tests.test_club import Club, base_records, db, games_for, postgres, with_players  # noqa: F401 - fixtures

BOXES, PER_BOX = 50, 40
TIMEOUT = 600.0


def test_bench_50_boxes_send_2000_games(benchmark, db, base_records, tmp_path):  # noqa: F811
    if benchmark.disabled:  # 20 s of load: a bench's, not the suite's (./setup.sh bench)
        pytest.skip("the club's load bench runs with --benchmark-enable")
    needs_mosquitto()
    boxes = [f"cafe{n:02d}" for n in range(BOXES)]
    broker = Broker(tmp_path / "broker", {"club": "club-secret", **{box: box for box in boxes}})
    broker.start()
    club = Club(db, broker)
    club.server = None
    # Every game distinct: one of the club's 20 regulars against a newcomer at that box.
    games = {box: [with_players(text, [json.loads(text.split("\n", 1)[0])["players"][0], f"{box}-{n}"])
                   for n, text in enumerate(games_for(base_records, box, PER_BOX, pool=20))] for box in boxes}
    total = len({game_id(text.encode()) for records in games.values() for text in records})
    assert total == BOXES * PER_BOX
    published: dict[str, float] = {}
    committed: dict[str, float] = {}
    all_kept, one_kept = threading.Event(), threading.Event()
    alone: list[bytes] = []

    def kept(key: str) -> None:
        committed.setdefault(key, time.monotonic())
        one_kept.set()
        if len(committed) == total:
            all_kept.set()

    def once():
        from companion.club.server import ClubServer
        club.store = Store(db)
        club.server = ClubServer(club.store, broker.address, "club-secret", on_kept=kept)
        club.server.start()
        clients = []
        for box in boxes:
            client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"bench-{box}", protocol=mqtt.MQTTv311)
            client.username_pw_set(box, box)
            client.connect(*names.check_broker(broker.address))
            client.loop_start()
            clients.append(client)
        began = time.monotonic()
        for n in range(PER_BOX):  # the boxes' games interleaved, as a café's evening ends
            for box, client in zip(boxes, clients):
                record = games[box][n].encode()
                key = game_id(record)
                published.setdefault(key, time.monotonic())
                client.publish(names.games_topic(box), wire.game_message(key, "2026-12-01T20:00:00Z", record), qos=1)
        assert all_kept.wait(TIMEOUT)
        # One game more, alone: its delay without a queue before it.
        alone.extend(with_players(games[boxes[0]][0], ["Alone", "Again"]).encode() for _ in range(1))
        key = game_id(alone[0])
        one_kept.clear()
        published[key] = time.monotonic()
        clients[0].publish(names.games_topic(boxes[0]), wire.game_message(key, "2026-12-01T21:00:00Z", alone[0]), qos=1)
        assert one_kept.wait(TIMEOUT)
        for client in clients:
            client.disconnect()
            client.loop_stop()
        return began

    try:
        began = benchmark.pedantic(once, rounds=1, iterations=1)
        assert club.store.count() == total + 1
    finally:
        club.stop()
        broker.stop()
    key = game_id(alone[0])
    single = committed.pop(key) - published.pop(key)
    delays = sorted(committed[k] - published[k] for k in committed)
    rate = total / (max(committed.values()) - began)
    kind = "PostgreSQL" if db.startswith("postgresql") else "SQLite"
    print(f"\n{kind}: {total} games from {BOXES} boxes: {rate:.0f} games kept a second; publish to "
          f"leaderboard median {statistics.median(delays) * 1000:.0f} ms, 95th percentile "
          f"{delays[int(len(delays) * 0.95)] * 1000:.0f} ms, worst {delays[-1] * 1000:.0f} ms; "
          f"a game alone {single * 1000:.1f} ms")


pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
