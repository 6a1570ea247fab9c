"""The club (companion/club) against a real Mosquitto and, for both databases, SQLite and a
real PostgreSQL: games from several boxes arrive once each, whatever stops mid-sync; a box
away for long sends everything when back; a tampered record is refused and the box told
why; a box cannot publish as another; the ratings are a recomputation of the games."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import html
import io
import json
import threading
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest

from companion.cli import main
from companion.club import names, ratings, wire
from companion.club.box import ClubAddress, ClubLink, ClubUnreachable, sync
from companion.club.outbox import Outbox, game_id
from companion.club.server import ClubServer
from companion.club.store import Store
from tests.club_servers import Broker, Postgres, free_port, needs_mosquitto, needs_postgres

PASSWORDS = {"club": "club-secret", "box1": "one", "box2": "two", "box3": "three"}
WAIT = 20.0  # seconds a sync may wait for answers that must come: generous, never reached when all is well


def _demo(game: str, seed: int, folder: Path) -> str:
    path = folder / f"{game}-{seed}.jsonl"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["demo", "--game", game, "--seed", str(seed), "--record", str(path),
                     "--data", str(folder / "data"), "--display", "none"]) == 0
    return path.read_text()


@pytest.fixture(scope="session")
def base_records(tmp_path_factory) -> list[str]:
    folder = tmp_path_factory.mktemp("records")
    return [_demo("wakanda", 1, folder), _demo("wakanda", 2, folder), _demo("totem-wars", 1, folder)]


def with_players(text: str, players: list[str]) -> str:
    """The record ``text`` with other players' names: another game to the club, as legal."""
    header, rest = text.split("\n", 1)
    fields = json.loads(header)
    fields["players"] = players
    return json.dumps(fields) + "\n" + rest


def make_box(folder: Path, records: list[str], first: int = 0) -> Path:
    """A data folder whose DATA/games/ holds ``records`` as finished games."""
    games = folder / "games"
    games.mkdir(parents=True, exist_ok=True)
    for n, text in enumerate(records, start=first):
        name = json.loads(text.split("\n", 1)[0])["game"]
        (games / f"20261201-12{n // 60:02d}{n % 60:02d}-{name}.jsonl").write_text(text)
    return folder


def games_for(base: list[str], box: str, count: int, pool: int = 5) -> list[str]:
    """``count`` different games of ``box``, among a pool of ``pool`` player names."""
    out: list[str] = []
    for n in range(count):
        a, b = (n % pool), ((n * 3 + 1) % pool)
        if a == b:
            b = (b + 1) % pool
        text = with_players(base[n % len(base)], [f"P{a}", f"P{b}"])
        if text in out:  # the same players at the same game again: a newcomer instead
            text = with_players(base[n % len(base)], [f"{box}-{n}", f"P{b}"])
        out.append(text)
    return out


@pytest.fixture(scope="session")
def postgres():
    needs_postgres()
    cluster = Postgres()
    try:
        cluster.start()
    except Exception as exc:  # noqa: BLE001 - said as the reason of the skip
        cluster.stop()
        pytest.skip(f"PostgreSQL could not start here: {exc}")
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def db(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "club.sqlite")
    return request.getfixturevalue("postgres").database()


@pytest.fixture
def broker(tmp_path):
    needs_mosquitto()
    b = Broker(tmp_path / "broker", PASSWORDS)
    b.start()
    yield b
    b.stop()


class Club:
    """The club server under test, restartable on the same database."""

    def __init__(self, db: str, broker: Broker) -> None:
        self.db, self.broker = db, broker
        self.server: ClubServer | None = None
        self.store: Store | None = None
        self.kept = threading.Event()
        self.on_kept = None

    def start(self) -> ClubServer:
        self.store = Store(self.db)
        self.server = ClubServer(self.store, self.broker.address, PASSWORDS["club"], on_kept=self._kept)
        self.server.start()
        return self.server

    def _kept(self, key: str) -> None:
        self.kept.set()
        if self.on_kept is not None:
            self.on_kept(key)

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.store.close()
            self.server = None


@pytest.fixture
def club(db, broker):
    c = Club(db, broker)
    c.start()
    yield c
    c.stop()


def address(broker: Broker, box: str) -> ClubAddress:
    return ClubAddress(broker.address, box, password=PASSWORDS[box])


def kept_ids(db: str) -> list[str]:
    store = Store(db)
    try:
        return [k.id for k in store.games()]
    finally:
        store.close()


def ids_of(records: list[str]) -> set[str]:
    return {game_id(text.encode()) for text in records}


def test_games_from_several_boxes_arrive_once_each_and_the_ratings_are_a_recomputation(
        club, broker, base_records, tmp_path):
    boxes = {name: games_for(base_records, name, 6) for name in ("box1", "box2", "box3")}
    for name, records in boxes.items():
        make_box(tmp_path / name, records)
    for _ in range(2):  # a second sync sends nothing and changes nothing
        for name in boxes:
            result = sync(Outbox(tmp_path / name), address(broker, name), wait=WAIT)
            assert result.pending == 0 and not result.refused
    kept = kept_ids(club.db)
    expected = set().union(*(ids_of(r) for r in boxes.values()))
    assert sorted(kept) == sorted(expected)  # each once
    store = club.store
    assert store.ratings() == ratings.recompute(store.results())
    before = store.ratings()
    store.rebuild()
    assert store.ratings() == before
    assert sum(r.games for r in before.values()) == 2 * len(expected)
    # Each box's outbox: everything acknowledged, nothing pending.
    assert Outbox(tmp_path / "box1").counts() == {"outbox": 0, "acknowledged": 6, "refused": 0}


def test_the_broker_stopped_mid_sync_loses_nothing_and_duplicates_nothing(club, broker, base_records, tmp_path):
    records = games_for(base_records, "box1", 8)
    make_box(tmp_path / "box1", records)

    def stop_the_broker(key):  # after the club kept the first game, the others on their way
        club.on_kept = None
        broker.stop()
    club.on_kept = stop_the_broker
    with pytest.raises(ClubUnreachable, match="lost the club's broker"):
        sync(Outbox(tmp_path / "box1"), address(broker, "box1"), wait=WAIT)
    assert Outbox(tmp_path / "box1").counts()["outbox"] > 0
    broker.start()
    result = sync(Outbox(tmp_path / "box1"), address(broker, "box1"), wait=WAIT)
    assert result.pending == 0
    assert sorted(kept_ids(club.db)) == sorted(ids_of(records))
    assert sum(r.games for r in club.store.ratings().values()) == 2 * len(records)


def test_the_club_server_stopped_mid_sync_loses_nothing_and_duplicates_nothing(club, broker, base_records, tmp_path):
    records = games_for(base_records, "box2", 8)
    make_box(tmp_path / "box2", records)
    stopped = threading.Event()

    def stop_the_club(key):
        club.on_kept = None
        threading.Thread(target=lambda: (club.stop(), stopped.set())).start()
    club.on_kept = stop_the_club
    result = sync(Outbox(tmp_path / "box2"), address(broker, "box2"), wait=1.0)
    assert stopped.wait(WAIT)
    assert result.pending > 0  # the club went away before answering them all
    club.start()  # its persistent session: the broker kept the games published meanwhile
    result = sync(Outbox(tmp_path / "box2"), address(broker, "box2"), wait=WAIT)
    assert result.pending == 0
    assert sorted(kept_ids(club.db)) == sorted(ids_of(records))
    assert club.store.ratings() == ratings.recompute(club.store.results())


def test_a_box_away_for_a_week_sends_everything_when_back(db, broker, base_records, tmp_path, capsys):
    records = games_for(base_records, "box3", 30)
    folder = make_box(tmp_path / "box3", records)
    config = tmp_path / "box3.toml"
    config.write_text(f'[club]\nbroker = "127.0.0.1:{free_port()}"\nbox = "box3"\npassword = "three"\n')
    # Away: the broker cannot be reached. One line, exit 1, every game kept in the outbox.
    assert main(["club", "sync", "--config", str(config), "--data", str(folder)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot reach the club's broker" in err
    assert Outbox(folder).counts()["outbox"] == 30
    # Back: the broker and the club there.
    config.write_text(f'[club]\nbroker = "{broker.address}"\nbox = "box3"\npassword = "three"\n')
    c = Club(db, broker)
    c.start()
    try:
        assert main(["club", "sync", "--config", str(config), "--data", str(folder), "--wait", str(WAIT)]) == 0
        out = capsys.readouterr().out
        assert "sent 30\nacknowledged 30\nrefused 0\npending 0\n" == out
        assert sorted(kept_ids(db)) == sorted(ids_of(records))
    finally:
        c.stop()


def test_the_club_not_answering_is_one_line_and_the_games_stay_pending(broker, base_records, tmp_path, capsys):
    folder = make_box(tmp_path / "box1", games_for(base_records, "box1", 2))
    assert main(["club", "sync", "--data", str(folder), "--broker", broker.address, "--box", "box1",
                 "--wait", "0.5", "--config", str(_config(tmp_path, "one"))]) == 1
    captured = capsys.readouterr()
    assert captured.out.endswith("pending 2\n")
    assert captured.err.count("\n") == 1 and "did not answer for 2 games" in captured.err


def _config(tmp_path: Path, password: str) -> Path:
    path = tmp_path / "login.toml"
    path.write_text(f'[club]\npassword = "{password}"\n')
    return path


def test_a_wrong_password_is_one_line(broker, tmp_path, capsys):
    make_box(tmp_path / "box1", [])
    assert main(["club", "sync", "--data", str(tmp_path / "box1"), "--broker", broker.address, "--box", "box1",
                 "--config", str(_config(tmp_path, "not-it"))]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "refused the login of 'box1'" in err


def test_a_tampered_record_is_refused_and_the_box_told_why(club, broker, base_records, tmp_path):
    good = games_for(base_records, "box1", 2)
    lines = good[0].split("\n")
    # A move changed after the game: the same player draws twice in a row.
    tampered_line = next(n for n, line in enumerate(lines) if '"draw"' in line and n > 2)
    lines[tampered_line] = lines[tampered_line].replace('"p": 0', '"p": 9').replace('"p": 1', '"p": 9')
    tampered = "\n".join(lines)
    make_box(tmp_path / "box1", [tampered, good[1]])
    result = sync(Outbox(tmp_path / "box1"), address(broker, "box1"), wait=WAIT)
    assert result.acknowledged == 1 and result.pending == 0
    [(key, reason)] = result.refused
    assert key == game_id(tampered.encode())
    assert reason.startswith(f"line {tampered_line + 1}:")
    assert Outbox(tmp_path / "box1").reason(key) == reason
    assert kept_ids(club.db) == [game_id(good[1].encode())]  # never counted

    # A record whose bytes are not those of its id: refused, told why.
    answers = _listen(broker, "box1", names.acks_topic("box1"))
    bad_id = "0" * 64
    _publish(broker, "box1", names.games_topic("box1"), wire.game_message(bad_id, "2026-12-01T12:00:00Z",
                                                                           good[0].encode()))
    assert answers.wait_for(bad_id) == (bad_id, "the record does not match its id (changed after the game?)")


class _Answers:
    def __init__(self) -> None:
        self.got: list[tuple[str, str | None]] = []
        self.changed = threading.Condition()

    def add(self, answer) -> None:
        with self.changed:
            self.got.append(answer)
            self.changed.notify_all()

    def wait_for(self, key: str):
        with self.changed:
            assert self.changed.wait_for(lambda: any(k == key for k, _ in self.got), WAIT)
            return next(a for a in self.got if a[0] == key)


def _client(broker: Broker, user: str, client_id: str) -> mqtt.Client:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
    client.username_pw_set(user, PASSWORDS[user])
    connected = threading.Event()
    client.on_connect = lambda *args: connected.set()
    host, port = names.check_broker(broker.address)
    client.connect(host, port)
    client.loop_start()
    assert connected.wait(WAIT)
    return client


def _listen(broker: Broker, user: str, *topics: str) -> _Answers:
    answers = _Answers()
    client = _client(broker, user, f"listener-{user}")
    client.on_message = lambda c, u, message: answers.add(wire.read_answer(message.payload))
    subscribed = threading.Event()
    client.on_subscribe = lambda *args: subscribed.set()
    client.subscribe([(topic, 1) for topic in topics])
    assert subscribed.wait(WAIT)
    return answers


def _publish(broker: Broker, user: str, topic: str, payload: bytes) -> None:
    client = _client(broker, user, f"publisher-{user}")
    client.publish(topic, payload, qos=1).wait_for_publish(WAIT)
    client.disconnect()
    client.loop_stop()


def test_a_box_cannot_publish_as_another_nor_read_its_answers(club, broker, base_records, tmp_path):
    box1_games = games_for(base_records, "box1", 2)
    box2_game = games_for(base_records, "box2", 1)[0]
    # box1 listens to its own answers and to box2's (the broker must not pass box2's on).
    answers = _listen(broker, "box1", names.acks_topic("box1"), names.acks_topic("box2"))
    make_box(tmp_path / "box2", [box2_game])
    assert sync(Outbox(tmp_path / "box2"), address(broker, "box2"), wait=WAIT).acknowledged == 1
    # box1 publishes a game of its own under box2's topic, then one under its own.
    forged = box1_games[0].encode()
    _publish(broker, "box1", names.games_topic("box2"),
             wire.game_message(game_id(forged), "2026-12-01T12:00:00Z", forged))
    own = box1_games[1].encode()
    _publish(broker, "box1", names.games_topic("box1"), wire.game_message(game_id(own), "2026-12-01T12:00:01Z", own))
    answers.wait_for(game_id(own))  # the club answered the later one: the forged one would have come first
    assert [k for k, _ in answers.got] == [game_id(own)]  # nothing of box2's
    assert sorted(kept_ids(club.db)) == sorted([game_id(box2_game.encode()), game_id(own)])
    store = Store(club.db)
    try:
        assert {k.box for k in store.games()} == {"box1", "box2"}
        assert next(k.box for k in store.games() if k.id == game_id(own)) == "box1"
    finally:
        store.close()


def test_the_club_pages_and_json(club, broker, base_records, tmp_path):
    records = games_for(base_records, "box1", 4)
    make_box(tmp_path / "box1", records)
    assert sync(Outbox(tmp_path / "box1"), address(broker, "box1"), wait=WAIT).pending == 0
    from aiohttp import ClientSession
    from aiohttp.test_utils import TestServer

    from companion.club.pages import make_app

    async def visit():
        server = TestServer(make_app(club.store, club.server, "fr"), host="127.0.0.1")
        await server.start_server()
        base = f"http://127.0.0.1:{server.port}"
        try:
            async with ClientSession() as http:
                async def get(path, **headers):
                    async with http.get(base + path, headers=headers) as response:
                        return response.status, await response.text()
                games = json.loads((await get("/api/games"))[1])
                players = json.loads((await get("/api/players"))[1])
                front = await get("/")
                player = await get("/players/wakanda/P0")
                tables = await get("/tables")
                csv = await get("/plays.csv")
                missing = await get("/players/wakanda/nobody")
                rebound = await get("/", Host="evil.example")
                async with http.post(base + "/api/games") as response:
                    posted = response.status
                return games, players, front, player, tables, csv, missing, rebound, posted
        finally:
            await server.close()

    games, players, front, player, tables, csv, missing, rebound, posted = asyncio.run(visit())
    assert sorted(g["id"] for g in games) == sorted(ids_of(records))
    assert set(games[0]) == {"id", "game", "box", "players", "scores", "winners", "finished"}
    assert all(g["box"] == "box1" and set(g["winners"]) <= set(g["players"]) for g in games)
    assert {p["name"] for p in players} >= {"P0", "P1"}
    assert set(players[0]) == {"name", "game", "rating", "games", "wins"}
    assert sum(p["games"] for p in players) == 2 * len(records)
    assert front[0] == 200 and "Classement: Wakanda" in front[1] and "Dernières parties" in front[1]
    assert player[0] == 200 and "Cote après chaque partie" in player[1]
    assert tables[0] == 200 and "Aucune partie en cours" in tables[1]
    assert csv[0] == 200 and csv[1].count("\n") == 1 + 2 * len(records)
    assert missing[0] == 404 and rebound[0] == 421 and posted == 405


def test_the_box_link_syncs_in_the_background_and_never_holds_the_box(club, broker, base_records, tmp_path):
    folder = make_box(tmp_path / "box1", games_for(base_records, "box1", 1))
    away = ClubLink(folder, ClubAddress(f"127.0.0.1:{free_port()}", "box1", password="one"))
    away.start()  # returns at once, the broker unreachable
    assert away.synced.wait(WAIT) and "cannot reach" in str(away.last)
    away.stop()
    link = ClubLink(folder, address(broker, "box1"))
    link.LOOK = 0.05
    link.start()
    assert link.synced.wait(WAIT)
    link.synced.clear()
    # A game finishes: the link sees the games folder change and sends it.
    later = games_for(base_records, "box1", 3)[2]
    make_box(folder, [later], first=10)
    assert link.synced.wait(WAIT)
    link.stop()
    assert Outbox(folder).counts() == {"outbox": 0, "acknowledged": 2, "refused": 0}


def test_add_box_prints_a_login_the_broker_accepts(tmp_path, capsys):
    needs_mosquitto()
    assert main(["club", "add-box", "cafe-7", "--broker", "club.local:1883"]) == 0
    out = capsys.readouterr().out
    line = next(row for row in out.splitlines() if row.startswith("cafe-7:$7$101$"))
    password = out.split('password = "')[1].split('"')[0]
    assert '[club]\nbroker = "club.local:1883"\nbox = "cafe-7"\n' in out
    b = Broker(tmp_path / "b", {"club": "x"})
    (b.folder / "passwd").write_text(line + "\n")
    b.start()
    try:
        folder = make_box(tmp_path / "cafe", [])
        # Logged in (no answer needed: nothing to send).
        assert sync(Outbox(folder), ClubAddress(b.address, "cafe-7", password=password), wait=0.1).pending == 0
        with pytest.raises(ClubUnreachable, match="refused the login"):
            sync(Outbox(folder), ClubAddress(b.address, "cafe-7", password="wrong"), wait=0.1)
    finally:
        b.stop()


def test_server_login_and_acl_are_what_the_broker_reads(tmp_path, base_records, capsys):
    needs_mosquitto()
    assert main(["club", "server-login"]) == 0
    out = capsys.readouterr().out
    line = next(row for row in out.splitlines() if row.startswith("club:$7$"))
    password = out.split("TOTEM_CLUB_PASSWORD=")[1].strip()
    assert main(["club", "acl"]) == 0
    acl = capsys.readouterr().out
    b = Broker(tmp_path / "b", {"box1": "one"})
    (b.folder / "passwd").write_text((b.folder / "passwd").read_text() + line + "\n")
    (b.folder / "acl").write_text(acl)
    b.start()
    try:
        store = Store(str(tmp_path / "club.sqlite"))
        server = ClubServer(store, b.address, password)
        server.start()
        try:
            folder = make_box(tmp_path / "box1", games_for(base_records, "box1", 1))
            assert sync(Outbox(folder), ClubAddress(b.address, "box1", password="one"), wait=WAIT).acknowledged == 1
        finally:
            server.stop()
            store.close()
    finally:
        b.stop()


@pytest.mark.parametrize("name", ["club", "a/b", "a+", "#", "", "x" * 33, "é"])
def test_add_box_refuses_a_name_that_cannot_be_a_topic(name, capsys):
    assert main(["club", "add-box", name]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("section, what", [
    ('broker = "club.local:99999"\nbox = "b"', "club.broker: expected HOST:PORT"),
    ('broker = "club.local:1883"\nbox = "a/b"', "club.box: expected a box name"),
    ('broker = 5', "club.broker: expected text"),
    ('door = "x"', "club.door: unknown key"),
    ('tls = "yes"', "club.tls: expected true or false"),
])
def test_a_bad_club_section_is_one_line_naming_its_key(section, what, tmp_path):
    from companion.config import load_config
    from companion.errors import UserError
    path = tmp_path / "c.toml"
    path.write_text(f"[club]\n{section}\n")
    with pytest.raises(UserError, match=what):
        load_config(str(path))


def test_a_game_played_with_the_club_silent_is_kept_and_sent_later(club, broker, tmp_path, monkeypatch):
    from tests.test_app import greedy_bot, play_game, random_bot, run_in_thread, script_of

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    # A "broker" that takes the connection and never answers: the worst a café's network does.
    import socket
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    config = tmp_path / "box.toml"
    config.write_text(f'[club]\nbroker = "127.0.0.1:{silent.getsockname()[1]}"\nbox = "box1"\npassword = "one"\n')
    script = tmp_path / "game.txt"
    script.write_text(script_of(play_game(4, bots=(greedy_bot, random_bot))))
    data = tmp_path / "data"
    status = []
    try:
        run_in_thread(lambda: status.append(main(["run", "--config", str(config), "--input", str(script),
                                                  "--data", str(data), "--display", "none"])))
    finally:
        silent.close()
    assert status == [0]
    [kept] = list((data / "games").iterdir())
    # Later, the club reachable: the game goes, once.
    result = sync(Outbox(data), address(broker, "box1"), wait=WAIT)
    assert (result.sent, result.acknowledged, result.pending) == (1, 1, 0)
    assert kept_ids(club.db) == [game_id(kept.read_bytes())]


def test_club_serve_as_a_process_takes_games_serves_pages_and_stops_on_sigterm(broker, base_records, tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import urllib.request

    from tests.club_servers import wait_for_port

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "club", "serve", "--broker", broker.address, "--data", str(tmp_path),
         "--web", str(port), "--bind", "127.0.0.1", "--language", "de"],
        env={**os.environ, "TOTEM_CLUB_PASSWORD": PASSWORDS["club"]}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        wait_for_port(port)
        folder = make_box(tmp_path / "box1", games_for(base_records, "box1", 3))
        assert sync(Outbox(folder), address(broker, "box1"), wait=WAIT).acknowledged == 3
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as page:
            assert "Rangliste: Wakanda" in page.read().decode()
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=WAIT)
    assert process.returncode == 0
    assert out.startswith(f"club: games from {broker.address} into {tmp_path / 'club.sqlite'}")
    assert err == "club: stopped (3 games kept, 0 repeated, 0 refused)\n"


@pytest.mark.parametrize("args, what", [
    (["--broker", "127.0.0.1:1"], "cannot reach the broker 127.0.0.1:1"),
    (["--broker", "nowhere:99999"], "--broker: expected HOST:PORT"),
    (["--broker", "127.0.0.1:1883", "--web", "80"], "--web: expected a port from 1024"),
    (["--broker", "127.0.0.1:1883", "--db", "postgresql://nobody@127.0.0.1:1/x"], "cannot open the club's database"),
])
def test_club_serve_says_what_is_wrong_in_one_line(args, what, tmp_path, capsys):
    assert main(["club", "serve", "--data", str(tmp_path), *args]) in (1, 2)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and what in err


def test_the_live_table_is_the_public_view_retained_while_the_game_runs(club, broker, tmp_path, monkeypatch):
    from tests.test_app import greedy_bot, play_game, random_bot, run_in_thread, script_of

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    tables: list[bytes] = []
    ended = threading.Event()
    watcher = _client(broker, "club", "live-watcher")

    def on_message(client, userdata, message):
        tables.append(message.payload)
        if not message.payload:
            ended.set()
    watcher.on_message = on_message
    watcher.subscribe(names.live_topic("box1"), qos=1)
    config = tmp_path / "box.toml"
    config.write_text(f'[club]\nbroker = "{broker.address}"\nbox = "box1"\npassword = "one"\n')
    script = tmp_path / "game.txt"
    # Slow enough for a few tables (one a second at most): a pause before each scan.
    script.write_text(script_of(play_game(4, bots=(greedy_bot, random_bot))).replace("tag ", "wait 0.05\ntag ", 40))
    status = []
    run_in_thread(lambda: status.append(main(["run", "--config", str(config), "--input", str(script),
                                              "--data", str(tmp_path / "data"), "--display", "none"])))
    assert status == [0]
    assert ended.wait(WAIT)  # the game over: the table cleared
    shown = [json.loads(payload) for payload in tables if payload]
    assert shown and all(table["game"] == "wakanda" and "settings" not in table for table in shown)
    assert shown[-1]["table"] is not None
    watcher.disconnect()
    watcher.loop_stop()


def test_a_box_speaks_tls_where_the_broker_offers_it_and_checks_its_certificate(tmp_path, base_records):
    needs_mosquitto()
    import shutil
    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make the test's certificates")
    from tests.club_servers import certificates
    ca, cert, key = certificates(tmp_path / "tls")
    b = Broker(tmp_path / "broker", PASSWORDS, tls=(ca, cert, key))
    b.start()
    try:
        folder = make_box(tmp_path / "box1", [])
        secure = ClubAddress(b.address, "box1", password="one", tls=True, ca=str(ca))
        assert sync(Outbox(folder), secure, wait=0.1).pending == 0
        # The system's authorities do not know the club's own CA: refused, one line.
        with pytest.raises(ClubUnreachable, match="failed the TLS check"):
            sync(Outbox(folder), ClubAddress(b.address, "box1", password="one", tls=True), wait=0.1)
        with pytest.raises(ClubUnreachable, match="club.ca: cannot use"):
            sync(Outbox(folder), ClubAddress(b.address, "box1", password="one", tls=True,
                                             ca=str(tmp_path / "none.pem")), wait=0.1)
    finally:
        b.stop()


@pytest.mark.parametrize("payload", [b"", b"not json\n{}", b'{"id": 5}\nrecord', b"[" * 100_000 + b"\n",
                                     b'{"id": "x", "finished": "now"}\n' + b"\xff" * 10, b"x" * 1_500_000])
def test_a_hostile_message_is_one_line_and_the_club_goes_on(payload, club, broker, base_records, tmp_path):
    import io as _io
    club.server.err = _io.StringIO()
    _publish(broker, "box1", names.games_topic("box1"), payload)
    folder = make_box(tmp_path / "box1", games_for(base_records, "box1", 1))
    assert sync(Outbox(folder), address(broker, "box1"), wait=WAIT).acknowledged == 1
    said = club.server.err.getvalue()
    assert said.count("\n") <= 1 and "Traceback" not in said
    assert len(kept_ids(club.db)) == 1


def test_the_database_server_restarted_the_club_goes_on_and_loses_nothing(postgres, broker, base_records, tmp_path):
    c = Club(postgres.database(), broker)
    c.start()
    try:
        records = games_for(base_records, "box1", 4)
        folder = make_box(tmp_path / "box1", records[:2])
        assert sync(Outbox(folder), address(broker, "box1"), wait=WAIT).acknowledged == 2
        postgres.restart()
        make_box(folder, records[2:], first=2)
        # The first game after the restart may find the connection gone (not acknowledged,
        # it waits); the club reconnects, and a next sync sends what waits.
        for _ in range(3):
            if sync(Outbox(folder), address(broker, "box1"), wait=2.0).pending == 0:
                break
        assert Outbox(folder).counts()["outbox"] == 0
        assert sorted(kept_ids(c.db)) == sorted(ids_of(records))
    finally:
        c.stop()


async def _pages(club: Club, lang: str, *paths: str) -> list[tuple[int, str]]:
    """The club's pages at ``paths``, in ``lang``, over a real socket."""
    from aiohttp import ClientSession
    from aiohttp.test_utils import TestServer

    from companion.club.pages import make_app

    server = TestServer(make_app(club.store, club.server, lang), host="127.0.0.1")
    await server.start_server()
    try:
        async with ClientSession() as http:
            got = []
            for path in paths:
                async with http.get(f"http://127.0.0.1:{server.port}{path}") as response:
                    got.append((response.status, await response.text()))
            return got
    finally:
        await server.close()


def test_each_game_is_a_bgstats_link_and_qr_and_the_csv_has_what_a_play_log_needs(club, broker, base_records,
                                                                                  tmp_path):
    import re
    from urllib.parse import unquote

    records = games_for(base_records, "box1", 3)
    make_box(tmp_path / "box1", records)
    assert sync(Outbox(tmp_path / "box1"), address(broker, "box1"), wait=WAIT).pending == 0
    kept = {k.id: k for k in club.store.games()}
    (front_status, front), = asyncio.run(_pages(club, "fr", "/"))
    linked = re.findall(r'href="/bgstats/([0-9a-f]{64})"', front)
    assert front_status == 200 and sorted(linked) == sorted(kept)
    pages = asyncio.run(_pages(club, "fr", *[f"/bgstats/{key}" for key in linked], "/bgstats/" + "0" * 64,
                               "/bgstats/xyz", "/plays.csv"))
    by_id = {game_id(text.encode()): text for text in records}
    for key, (status, text) in zip(linked, pages):
        assert status == 200 and "<svg" in text and "Scanne ce code" in text and "Ajouter à BG Stats" in text
        link = html.unescape(re.search(r'href="(bgstats://[^"]+)"', text).group(1))
        data = json.loads(unquote(link.split("?data=", 1)[1]))
        r = kept[key].result
        assert [p["name"] for p in data["players"]] == list(r.players)
        assert [p["score"] for p in data["players"]] == [int(p) for p in r.points]
        assert [s for s, p in enumerate(data["players"]) if p["winner"]] == list(r.winners)
        first = next(json.loads(line)["p"] for line in by_id[key].splitlines()[1:] if '"p"' in line)
        assert [p["startPlayer"] for p in data["players"]].index(True) == first
        assert data["location"] == "box1" and data["game"]["sourceGameId"] == r.game
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", data["playDate"])
    assert [status for status, _ in pages[-3:-1]] == [404, 404]
    rows = list(csv.DictReader(io.StringIO(pages[-1][1])))
    assert list(rows[0]) == ["id", "game", "title", "box", "finished", "player", "score", "winner", "rank"]
    assert len(rows) == sum(len(k.result.players) for k in kept.values())
    for row in rows:
        r = kept[row["id"]].result
        seat = r.players.index(row["player"])
        assert row["title"] in ("Wakanda", "Totem Wars") and int(row["winner"]) == (seat in r.winners)
        assert (row["rank"] == "1") == (seat in r.winners) or not r.winners


def test_the_tables_page_labels_each_players_figures_in_the_clubs_language(club, broker, tmp_path):
    from companion.games import read_any_record

    record = (Path(__file__).parent / "data" / "totem_wars_finished.jsonl").read_text()
    game, state, _ = read_any_record(record, None)
    table = game.table.phone.table(state, None)
    view = {"game": "totem-wars", "lang": "en", "kind": "board", "title": "", "lines": [], "note": "Ana's turn",
            "done": None, "table": table}
    _publish(broker, "box1", names.live_topic("box1"), json.dumps(view).encode())
    # A box's table the game cannot read: shown plainly, the page goes on.
    _publish(broker, "box2", names.live_topic("box2"),
             json.dumps({"game": "wakanda", "table": {"players": [{"name": "<b>Eve</b>"}], "villages": 3}}).encode())
    deadline = threading.Event()
    for _ in range(int(WAIT * 20)):   # the club takes both tables from the broker
        if {"box1", "box2"} <= set(club.server.live):
            break
        deadline.wait(0.05)
    (status, page), = asyncio.run(_pages(club, "fr", "/tables"))
    assert status == 200
    one = page.split('<div class="live">')[1]
    assert "<th>Joueur</th><th>Totem</th><th>Sur la table</th>" in one
    assert all(f"<td>{html.escape(p)}" in one or f"▶ {html.escape(p)}" in one for p in state.players)
    assert [f"<td>{r['points']}</td>" in one for r in table["rows"]] == [True] * len(table["rows"])
    assert "&lt;b&gt;Eve&lt;/b&gt;" in page and "<b>Eve</b>" not in page


def test_a_box_cannot_knock_the_club_server_off_by_taking_its_client_id(club, broker, base_records, tmp_path):
    secret = names.club_client_id(PASSWORDS["club"])
    taken = f"Client {secret} already connected"   # Mosquitto's line when an id is taken over
    log = broker.folder / "mosquitto.log"
    # The ids a box might try: the well-known one of earlier versions, the club's login, guesses.
    for tried in ("totem-club-server", "club", "totem-club", "totem-club-0"):
        guess = _client(broker, "box2", tried)
        guess.disconnect()
        guess.loop_stop()
    assert taken not in log.read_text()
    # The club took no notice: games still go in at once.
    make_box(tmp_path / "box1", games_for(base_records, "box1", 1))
    assert sync(Outbox(tmp_path / "box1"), address(broker, "box1"), wait=WAIT).acknowledged == 1
    assert taken not in log.read_text()
    assert secret != names.club_client_id("another password") and len(secret) > 40
    # Only the id itself would do it (which no box can learn: the ACL keeps $SYS and the
    # club's topics from the boxes) — and this test would see it.
    thief = _client(broker, "box2", secret)
    seen = threading.Event()
    for _ in range(int(WAIT * 20)):
        if taken in log.read_text():
            break
        seen.wait(0.05)
    assert taken in log.read_text()
    thief.disconnect()
    thief.loop_stop()


def test_the_tables_page_and_a_games_bgstats_page_in_a_real_browser(club, broker, base_records, tmp_path):
    from tests.web_browser import CHROMIUM, FLAGS, browser_missing

    if (why := browser_missing()) is not None:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    from companion.club.pages import make_app, serve
    from companion.games import read_any_record

    make_box(tmp_path / "box1", games_for(base_records, "box1", 1))
    assert sync(Outbox(tmp_path / "box1"), address(broker, "box1"), wait=WAIT).acknowledged == 1
    key = club.store.games()[0].id
    game, state, _ = read_any_record((Path(__file__).parent / "data" / "wakanda_worked_example.jsonl").read_text())
    view = {"game": "wakanda", "note": "", "done": None, "table": game.table.phone.table(state, None)}
    _publish(broker, "box3", names.live_topic("box3"), json.dumps(view).encode())
    port, stop, started = free_port(), None, threading.Event()
    loops: list[asyncio.AbstractEventLoop] = []

    def web():
        async def run():
            nonlocal stop
            stop = asyncio.Event()
            loops.append(asyncio.get_running_loop())
            await serve(make_app(club.store, club.server, "de"), "127.0.0.1", port, started.set, stop)
        asyncio.run(run())
    threading.Thread(target=web, daemon=True).start()
    assert started.wait(WAIT)
    problems: list[str] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            page = browser.new_page()
            page.on("console", lambda message: problems.append(message.text)
                    if "Content Security Policy" in message.text else None)
            page.goto(f"http://localhost:{port}/tables")
            page.wait_for_selector(".live table")
            headings = page.locator(".live th").all_text_contents()
            tiles = [village["tile"] for village in view["table"]["villages"]]
            assert headings[:6] == [game.text("done.turned_up", "de", n=v + 1, village=tile)
                                    for v, tile in enumerate(tiles)]
            assert headings[6:] == ["Spieler", "Hand", "Punkte"]
            page.goto(f"http://localhost:{port}/bgstats/{key}")
            assert page.locator("a[href^='bgstats://']").text_content() == "Zu BG Stats hinzufügen"
            box = page.locator("svg").bounding_box()
            assert box is not None and box["width"] > 150
            browser.close()
    finally:
        loops[0].call_soon_threadsafe(stop.set)
    assert problems == []   # nothing the page's Content-Security-Policy refused
