"""The phone page (issue 23): what it shows of each frame, its server through aiohttp's test
client (every page and the event stream, bad requests answered with a plain status and
nothing changed), the watcher on the app loop, the setting and the configuration."""

from __future__ import annotations

import asyncio
import errno
import json
import random
import socket
import threading
import urllib.error
import urllib.request

import pytest
import tw_table_helpers as tw
from aiohttp.test_utils import TestClient, TestServer
from box_helpers import choose, scan

from companion.config import Config, apply_overrides
from companion.errors import UsageError, UserError
from companion.events import Press
from companion.games import GAMES
from companion.table.app_loop import AppLoop
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.settings import SettingsStore
from companion.ui.canvas import frame_words
from companion.web import server
from companion.web.page import PhonePage
from companion.web.snapshot import snapshot

ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]
JOIN = 20  # seconds: no test may hang


def box(tmp_path, store=None):
    return Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json"), rng=random.Random(1),
                   settings=store)


def wakanda(tmp_path, store=None):
    s = box(tmp_path, store)
    choose(s, "wakanda"); choose(s, "open")
    for village in ROW:
        scan(s, f"village:{village}")
    choose(s, 0)
    return s


def oled(session):
    """The words on the OLED, its lines joined (a note wraps over two)."""
    return " ".join(frame_words(session.frame()))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# --- what the page shows ---------------------------------------------------------------------

def test_a_menu_is_its_title_and_lines_with_the_one_chosen(tmp_path):
    s = box(tmp_path)
    s.handle(Press("down"))
    shot = snapshot(s)
    assert (shot["kind"], shot["title"], shot["selected"]) == ("menu", "Totem Companion", 1)
    assert shot["lines"] == list(s.view.choice.labels)
    assert frame_words(s.frame())[0] == shot["title"]


def test_the_board_says_the_oleds_prompt_and_what_was_done(tmp_path):
    s = wakanda(tmp_path)
    scan(s, "sun"); scan(s, "sun")
    shot = snapshot(s)
    assert shot["note"] == "Build the sun: press a village button"
    assert shot["note"] in oled(s)
    assert [v["state"] for v in shot["table"]["villages"]] == ["playable"] * 3 + ["turned"] * 3
    s.handle(Press("v2"))
    shot = snapshot(s)
    assert (shot["note"], shot["done"]) == ("Player 2: draw and scan", "Sun on village 2")
    assert shot["note"] in oled(s) and shot["done"] in oled(s)
    assert shot["table"]["villages"][1]["pieces"] == ["Sun"]


def test_a_refusal_is_said_with_its_rule_and_marked(tmp_path):
    s = wakanda(tmp_path)
    s.handle(Press("v5"))
    shot = snapshot(s)
    assert shot["refused"] and shot["note"] == s.message and shot["note"].endswith("W4")
    assert shot["note"] in oled(s)


def test_the_page_speaks_the_boxs_language(tmp_path):
    s = wakanda(tmp_path)
    s.settings.change(language="fr")
    s.handle(Press("back"))  # any event: the frame is drawn again in French
    shot = snapshot(s)
    assert shot["lang"] == "fr" and shot["words"]["offline"] == "La boîte ne répond pas"
    assert shot["table"]["words"]["hand"] == "Main"


def test_every_wakanda_hand_is_a_count_only_and_a_draw_names_no_piece(tmp_path):
    s = wakanda(tmp_path)
    scan(s, "sun")                  # Player 1 draws; the hand is theirs to see on the OLED
    assert "Player 1 drew sun" in oled(s) and not s.game.open_hands
    shot = snapshot(s)
    me, other = shot["table"]["players"]
    assert me["hand"] is None and me["hand_size"] == 1 and other["hand"] is None
    words = json.dumps([shot[key] for key in ("title", "lines", "note", "done")])
    assert shot["done"] == "Player 1 drew a piece" and "sun" not in words.lower()


def test_a_totem_wars_hand_and_the_cards_down_never_appear(tmp_path):
    t = tw.make(tmp_path)
    tw.set_up(t, ("Ana", "Ben", "Cleo"), 0)
    secret = ("indians/eagle", "eskimos/narwhal", "indians/buffalo")
    for card in secret:                                     # the totems, face down (T2)
        scan(t, card)
        assert not any(word in json.dumps(snapshot(t)) for word in ("eagle", "narwhal", "buffalo"))
    t.handle(Press("ok"))
    for card in ("aborigines/eagle", "indians/bear"):       # cards placed face down
        scan(t, card)
    shot = snapshot(t)
    row = next(r for r in shot["table"]["rows"] if r["to_move"])
    assert row["scanned"] == 2 and "bear" not in json.dumps(shot)
    assert shot["note"] == "2 scanned · OK to place" and shot["note"] in oled(t)
    t.handle(Press("hint"))                                 # the coach asks for the hand
    assert t.screen in ("hand", "hint")
    for card in ("indians/hawk", "africans/vulture"):
        scan(t, card)
        shot = snapshot(t)
        assert shot["lines"] == [] and shot["title"] is None and shot["note"] is None
        assert "hawk" not in json.dumps(shot) and "vulture" not in json.dumps(shot)


def test_a_rounds_result_is_laid_out_from_its_values_not_the_oleds_lines(tmp_path):
    t = tw.make(tmp_path)
    out = tw.play_war_round(t)                              # the round's result pages
    shot = snapshot(t, out.frame)
    assert shot["kind"] == "round" and shot["lines"] == []
    said = [b["text"] for b in shot["sheet"]["blocks"] if b["type"] == "text"]
    assert "Ben takes 12 cards (T11)" in said


# --- the server, through aiohttp's test client ----------------------------------------------

def served(check, hub=None, **app):
    """Run ``check(client, hub)`` against the page's app on 127.0.0.1."""
    hub = hub or server.Hub()

    async def main():
        client = TestClient(TestServer(server.make_app(hub, **app), host="127.0.0.1"))
        await client.start_server()
        try:
            await check(client, hub)
        finally:
            await client.close()
    asyncio.run(main())


def test_every_page_is_served_with_a_strict_policy():
    async def check(client, hub):
        for path, kind in (("/", "text/html"), ("/page.js", "text/javascript"), ("/page.css", "text/css"),
                           ("/favicon.svg", "image/svg+xml")):
            response = await client.get(path)
            assert response.status == 200 and response.content_type == kind
            policy = response.headers["Content-Security-Policy"]
            assert "default-src 'none'" in policy and "'unsafe-inline'" not in policy
            assert response.headers["X-Content-Type-Options"] == "nosniff"
        page = await (await client.get("/")).text()
        assert "http" not in page.replace('"http://www.w3.org', "")  # nothing from elsewhere
    served(check)


def test_the_state_is_the_table_now():
    async def check(client, hub):
        assert (await client.get("/state")).status == 503   # nothing shown yet
        hub.publish({"title": "Ana <b>&", "lines": []})
        response = await client.get("/state")
        assert response.status == 200 and (await response.json())["title"] == "Ana <b>&"
    served(check)


def test_the_event_stream_sends_the_table_now_then_each_new_one():
    async def check(client, hub):
        hub.publish({"n": 1})
        response = await client.get("/events")
        assert response.status == 200 and response.content_type == "text/event-stream"
        assert "default-src 'none'" in response.headers["Content-Security-Policy"]

        async def next_data():
            while True:
                line = (await response.content.readline()).decode()
                if line.startswith("data: "):
                    return json.loads(line[6:])
        first = await next_data()
        assert first["n"] == 1 and first["html"].startswith('<section id="screen"')  # drawn by the box
        hub.publish({"n": 2})
        assert (await next_data())["n"] == 2
        response.close()
    served(check)


def test_too_many_open_pages_are_refused(mocker):
    mocker.patch.object(server, "MAX_PAGES", 2)

    async def check(client, hub):
        hub.publish({"n": 1})
        streams = [await client.get("/events") for _ in range(2)]
        for stream in streams:
            await stream.content.readline()
        refused = await client.get("/events")
        assert refused.status == 503 and "too many pages" in await refused.text()
        for stream in streams:
            stream.close()
    served(check)


@pytest.mark.parametrize("method, path, status", [
    ("GET", "/nothing", 404),
    ("GET", "/../../etc/passwd", 404),
    ("GET", "/%2e%2e/%2e%2e/etc/passwd", 404),
    ("GET", "/static/../../companion/config.py", 404),
    ("GET", "/page.js/..%2f..%2fserver.py", 404),
    ("POST", "/", 405),
    ("PUT", "/state", 405),
    ("DELETE", "/events", 405),
])
def test_bad_paths_and_methods_get_a_plain_status_and_change_nothing(method, path, status):
    async def check(client, hub):
        hub.publish({"n": 1})
        before = hub.latest
        response = await client.request(method, path, data=b"x" * 10)
        assert response.status == status
        assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
        assert len(await response.text()) < 100 and hub.latest == before
    served(check)


def test_huge_requests_are_refused():
    async def check(client, hub):
        hub.publish({"n": 1})
        before = hub.latest
        assert (await client.post("/state", data=b"x" * (server.MAX_BODY * 50))).status in (405, 413)
        assert (await client.get("/state", headers={"X-Big": "y" * 100_000})).status in (400, 431)
        assert (await client.get("/" + "a" * 100_000)).status in (400, 414)
        assert hub.latest == before
    served(check)


def test_a_malformed_request_gets_400_and_nothing_else():
    async def check(client, hub):
        reader, writer = await asyncio.open_connection("127.0.0.1", client.port)
        writer.write(b"GET /state HTTP/1.1\r\nHost: x\r\nContent-Length: banana\r\n\r\n")
        await writer.drain()
        assert b" 400 " in await reader.readline()
        writer.close()
    served(check)


def test_too_many_requests_from_one_address_are_slowed_down():
    now = [0.0]

    async def check(client, hub):
        statuses = [(await client.get("/page.css")).status for _ in range(server.BURST + 1)]
        assert statuses[:-1] == [200] * server.BURST and statuses[-1] == 429
        now[0] += 1.0  # a second later, some again
        assert (await client.get("/page.css")).status == 200
    served(check, clock=lambda: now[0])


# --- the watcher on the app loop, the setting, the configuration ----------------------------

class Display:
    def __init__(self):
        self.frames = []

    def show(self, image):
        self.frames.append(image)
        return 1

    def close(self):
        pass


def test_the_box_serves_the_page_while_the_setting_is_on(tmp_path):
    port = free_port()
    store = SettingsStore(None, web_port=port, web_bind="127.0.0.1")
    s = box(tmp_path, store)
    page = PhonePage()
    loop = AppLoop(s, Display(), watchers=(page,))
    loop.tell_watchers()
    assert page.wait_ready(JOIN)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/state", timeout=JOIN) as answer:
        assert json.load(answer)["title"] == "Totem Companion"
    store.change(web=False)
    loop.deliver(Press("down"))                         # the next frame: the page stops
    assert page._server is None and page.where is None
    loop.close()                                        # waits for it to let the port go
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/state", timeout=JOIN)


def test_the_page_is_off_by_default_and_imports_no_server(tmp_path):
    store = SettingsStore(None)
    page = PhonePage()
    page.seen(box(tmp_path, store))
    assert not store.web and page.where is None and page.latest is None


def test_a_port_in_use_is_one_line_and_the_game_goes_on(tmp_path):
    import io
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = io.StringIO()
        store = SettingsStore(None, web_port=port, web_bind="127.0.0.1")
        s = box(tmp_path, store)
        page = PhonePage(err=err)
        page.seen(s)
        tried = page._server
        tried.thread.join(JOIN)
        page.seen(s)                                    # not tried again on every frame
        assert page._server is tried and not tried.thread.is_alive()
        assert err.getvalue().count("\n") == 1 and f"cannot open port {port}" in err.getvalue()
        assert s.handle(Press("down")).frame is not None


def test_the_settings_page_turns_the_page_on_and_shows_its_address(tmp_path):
    store = SettingsStore(tmp_path / "settings.json", web_bind="127.0.0.1")
    s = box(tmp_path, store)
    choose(s, "settings")
    choose(s, "web")
    assert s.view.kind == "qr" and store.web
    s.handle(Press("back"))
    assert s.view.choice.labels[-2] == "Phone page: on"
    assert s.view.footer == "127.0.0.1:8080"
    assert json.loads((tmp_path / "settings.json").read_text())["web"] is True
    choose(s, "web")
    assert s.view.choice.labels[-2] == "Phone page: off" and s.view.footer == "The table on a phone"


def test_a_box_allowed_no_internet_socket_says_how_to_open_the_page_and_goes_on(tmp_path, mocker):
    """The service installed with the page off (RestrictAddressFamilies=AF_UNIX): turning the
    page on in Settings says the command that lets it open its port, never a crash."""
    real = socket.socket

    def unix_only(family=socket.AF_INET, *args, **kwargs):
        if family != socket.AF_UNIX:
            raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
        return real(family, *args, **kwargs)

    mocker.patch("companion.table.page_address.socket.socket", side_effect=unix_only)
    store = SettingsStore(tmp_path / "settings.json", web_bind="0.0.0.0")
    s = box(tmp_path, store)
    choose(s, "settings")
    choose(s, "web")
    assert store.web and s.view.kind != "qr"          # no address to show as a QR code
    assert s.view.choice.labels[-2] == "Phone page: on" and s.view.footer == "Run ./setup.sh service"
    assert s.handle(Press("down")).frame is not None

def test_the_configuration_and_the_command_line_give_the_port():
    assert Config().web_port == 0
    assert apply_overrides(Config(), {"web": "8123"}).web_port == 8123
    for bad in ("80", "http", "70000", ""):
        with pytest.raises(UsageError, match="--web"):
            apply_overrides(Config(), {"web": bad})
    for key, value in (("web_port", 22), ("web_port", "8080"), ("web_bind", "localhost"),
                       ("web_bind", "1.2.3.400")):
        with pytest.raises(UserError, match=r"web\."):
            Config(**{key: value})


def test_the_page_follows_a_game_played_by_events(tmp_path):
    """Every frame the loop shows is the table on an open page, in order."""
    port = free_port()
    store = SettingsStore(None, web_port=port, web_bind="127.0.0.1")
    s = box(tmp_path, store)
    page = PhonePage()
    loop = AppLoop(s, Display(), watchers=(page,))
    loop.tell_watchers()
    assert page.wait_ready(JOIN)
    got, first = [], threading.Event()

    def read():
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/events", timeout=JOIN) as stream:
            for line in stream:
                if line.startswith(b"data: "):
                    got.append(json.loads(line[6:]))
                    first.set()                         # the page is open: the table now came
                    if len(got) == 3:
                        return
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert first.wait(JOIN)
    loop.deliver(Press("down"))
    loop.deliver(Press("down"))
    reader.join(JOIN)
    loop.close()
    assert [shot["selected"] for shot in got] == [0, 1, 2]


# --- the command line: run --input with the page on ------------------------------------------

def test_a_scripted_game_with_the_page_on_plays_as_with_it_off(tmp_path, monkeypatch, capsys, mocker):
    """``run --input SCRIPT --display text --web PORT``: the same frames as without the page,
    the page's server started on the first frame and gone when the box ends."""
    from pathlib import Path

    from companion.cli import main
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    config = tmp_path / "config.toml"
    config.write_text('[web]\nbind = "127.0.0.1"\n')
    script = str(Path(__file__).parent / "data" / "first_game_wakanda.txt")
    switched = mocker.spy(PhonePage, "_switch")

    def frames(*extra):
        assert main(["run", "--input", script, "--display", "text", "--config", str(config),
                     "--data", str(tmp_path / f"data{len(extra)}"), *extra]) == 0
        out = capsys.readouterr()
        assert out.err == ""
        return [line for line in out.out.splitlines() if line.startswith("frame ")]

    port = free_port()
    without = frames()
    assert [c.args[1] for c in switched.call_args_list] == [None]   # off: only closed
    switched.reset_mock()
    assert frames("--web", str(port)) == without
    assert [c.args[1] for c in switched.call_args_list] == [("127.0.0.1", port), None]
    with socket.socket() as again:                      # the port is free again
        again.bind(("127.0.0.1", port))


# --- pairing and names from the phone ----------------------------------------------------------

def paired_app(check):
    """``check(client, put, pairing)`` against an app that takes input events."""
    from companion.pairing import Pairing
    put, pairing = [], Pairing()

    async def run(client, hub):
        await check(client, put, pairing)
    served(run, pairing=pairing, put=put.append)


async def pair(client, put):
    """Pair the client as a phone does (the code read where the OLED is given it); its CSRF
    token (the cookie stays in the client). What reached the box meanwhile is cleared."""
    assert (await client.post("/pair/ask", json={})).status == 202
    response = await client.post("/pair", json={"code": put[0].code})
    assert response.status == 200
    cookie = response.headers.getall("Set-Cookie")
    assert any("totem-phone=" in c and "HttpOnly" in c and "SameSite=Strict" in c for c in cookie)
    put.clear()
    return (await response.json())["csrf"]


def test_asking_shows_a_code_on_the_box_only():
    from companion.events import PhoneCode

    async def check(client, put, pairing):
        response = await client.post("/pair/ask", json={})
        assert response.status == 202 and await response.json() == {}
        [shown] = put
        assert isinstance(shown, PhoneCode) and len(shown.code) == 6 and shown.code.isdigit()
        ticket = response.headers["Set-Cookie"]
        assert "totem-ticket=" in ticket and "HttpOnly" in ticket and shown.code not in ticket
    paired_app(check)


def test_a_name_from_a_paired_phone_is_an_input_event():
    from companion.events import PhoneName

    async def check(client, put, pairing):
        csrf = await pair(client, put)
        response = await client.post("/name", json={"name": "Zoé"}, headers={"X-CSRF-Token": csrf})
        assert response.status == 202 and put == [PhoneName("Zoé")]
    paired_app(check)


def test_a_wrong_code_pairs_nothing_and_changes_nothing():
    from companion.events import PhoneCode

    async def check(client, put, pairing):
        assert (await client.post("/pair/ask", json={})).status == 202
        code = put[0].code
        wrong = f"{(int(code) + 1) % 10 ** 6:06d}"
        for attempt in (wrong, "", 1234, None, "1" * 5000):
            response = await client.post("/pair", json={"code": attempt})
            assert response.status in (403, 413) and "totem-phone" not in response.headers.get("Set-Cookie", "")
        # Three wrong tries: the code died and left the OLED; even the right one is too late.
        assert put == [PhoneCode(code), PhoneCode(None)] and not pairing.showing
        assert (await client.post("/pair", json={"code": code})).status == 403
    paired_app(check)


@pytest.mark.parametrize("csrf", [None, "forged"])
def test_a_name_without_pairing_or_csrf_token_is_refused(csrf):
    async def check(client, put, pairing):
        if csrf == "forged":
            await pair(client, put)            # the cookie, but not the page's token
        headers = {"X-CSRF-Token": csrf} if csrf else {}
        response = await client.post("/name", json={"name": "Mallory"}, headers=headers)
        assert response.status == 403 and put == []
    paired_app(check)


@pytest.mark.parametrize("name", ["", " ", "x" * 17, "Ana\x1b[2J", 42, None, ["Ana"]])
def test_a_bad_name_is_refused_and_nothing_changes(name):
    async def check(client, put, pairing):
        csrf = await pair(client, put)
        response = await client.post("/name", json={"name": name}, headers={"X-CSRF-Token": csrf})
        assert response.status == 400 and put == []
    paired_app(check)


@pytest.mark.parametrize("send, status", [
    ({"data": b"{not json", "headers": {"Content-Type": "application/json"}}, 400),
    ({"data": b"[1, 2]", "headers": {"Content-Type": "application/json"}}, 400),
    ({"data": b"\xff\xfe", "headers": {"Content-Type": "application/json"}}, 400),
    ({"data": {"name": "Ana"}}, 415),                                    # a form: not from the page
    ({"json": {"name": "Ana"}, "headers": {"Origin": "http://evil.example"}}, 403),
    ({"data": b"{" + b" " * (server.MAX_BODY * 2) + b"}",
      "headers": {"Content-Type": "application/json"}}, 413),
])
def test_malformed_or_foreign_changes_are_refused(send, status):
    async def check(client, put, pairing):
        csrf = await pair(client, put)
        headers = {"X-CSRF-Token": csrf, **send.pop("headers", {})}
        response = await client.post("/name", headers=headers, **send)
        assert response.status == status and put == []
    paired_app(check)


def test_the_box_says_the_name_a_phone_sent(tmp_path):
    from companion.events import PhoneName
    store = SettingsStore(tmp_path / "settings.json", names=("Ana",))
    s = box(tmp_path, store)
    s.handle(PhoneName("Zoé"))
    assert "Zoé added" in oled(s) and store.names == ("Zoé", "Ana")
    choose(s, "wakanda")
    assert s.view.choice.values[0] == "Zoé"       # the next set-up offers it first



# --- settings from a paired phone ---------------------------------------------------------------

SETTING = {"key": "sound", "value": "off"}


@pytest.mark.parametrize("csrf", [None, "forged"])
def test_a_setting_without_pairing_or_csrf_token_is_refused(csrf):
    async def check(client, put, pairing):
        if csrf == "forged":
            await pair(client, put)
        headers = {"X-CSRF-Token": csrf} if csrf else {}
        response = await client.post("/settings", json=SETTING, headers=headers)
        assert response.status == 403 and put == []
    paired_app(check)


@pytest.mark.parametrize("doc", [
    {"key": "sound", "value": "loud"}, {"key": "sound", "value": True}, {"key": "volume", "value": "on"},
    {"key": "language", "value": "xx"}, {"key": "language", "value": ["fr"]}, {"key": "names", "value": "Ana"},
    {"key": "web", "value": "on"}, {"key": "variant", "value": "hidden"},            # a game's, without its game
    {"key": "variant", "value": "open", "game": "totem_wars"}, {"key": "variant", "value": "shown", "game": "wakanda"},
    {"key": "sound", "value": "off", "game": "wakanda"}, {}, {"value": "off"},
])
def test_a_setting_the_box_does_not_offer_is_refused_and_nothing_changes(doc):
    async def check(client, put, pairing):
        csrf = await pair(client, put)
        response = await client.post("/settings", json=doc, headers={"X-CSRF-Token": csrf})
        assert response.status == 400 and "error" in await response.json() and put == []
    paired_app(check)


def test_a_setting_too_big_or_from_elsewhere_is_refused():
    async def check(client, put, pairing):
        csrf = await pair(client, put)
        big = await client.post("/settings", data=b"{" + b" " * (server.MAX_BODY * 2) + b"}",
                                headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"})
        foreign = await client.post("/settings", json=SETTING,
                                    headers={"X-CSRF-Token": csrf, "Origin": "http://evil.example"})
        assert (big.status, foreign.status) == (413, 403) and put == []
    paired_app(check)


@pytest.mark.parametrize("doc", [
    {"key": "language", "value": "fr"}, {"key": "hints", "value": "off"},
    {"key": "variant", "value": "hidden", "game": "wakanda"}, {"key": "voice_speed", "value": "210"},
])
def test_a_setting_from_a_paired_phone_is_an_input_event(doc):
    from companion.events import PhoneSetting

    async def check(client, put, pairing):
        csrf = await pair(client, put)
        response = await client.post("/settings", json=doc, headers={"X-CSRF-Token": csrf})
        assert response.status == 202
        assert put == [PhoneSetting(doc["key"], doc["value"], doc.get("game"))]
    paired_app(check)


def test_the_box_applies_saves_and_says_a_phones_settings(tmp_path):
    from companion.events import PhoneSetting
    path = tmp_path / "settings.json"
    store = SettingsStore(path)
    s = box(tmp_path, store)
    s.handle(PhoneSetting("sound", "off"))
    assert not store.sound and "Tel: Sound: off" in oled(s)
    s.handle(PhoneSetting("variant", "hidden", "wakanda"))
    assert store.options("wakanda", GAMES["wakanda"].table.settings)["variant"] == "hidden"
    assert "Tel: Variant: hidden" in oled(s)
    saved = json.loads(path.read_text())
    assert saved["sound"] is False and saved["games"] == {"wakanda": {"variant": "hidden"}}
    assert snapshot(s)["settings"][1] == {"game": None, "key": "sound", "value": "off", "label": "Sound",
                                          "choices": [["on", "Sound: on"], ["off", "Sound: off"]]}


def test_a_language_from_a_phone_redraws_the_box_in_it(tmp_path):
    from companion.events import PhoneSetting
    store = SettingsStore(tmp_path / "settings.json")
    s = box(tmp_path, store)
    from companion.ui.text import t
    assert "New: Wakanda" in oled(s)
    s.handle(PhoneSetting("language", "fr"))
    assert store.language == "fr" and json.loads(store.path.read_text())["language"] == "fr"
    words = oled(s)
    assert "Tél: Langue: Français" in words and "New: Wakanda" not in words
    assert t("menu.new", "fr", title="Wakanda") in words            # the menu, made again in French
    assert snapshot(s)["lang"] == "fr" and snapshot(s)["words"]["settings"] == "Réglages"


def test_the_settings_page_shows_what_a_phone_changed(tmp_path):
    from companion.events import PhoneSetting
    s = box(tmp_path, SettingsStore(None))
    choose(s, "settings")
    assert "Hints: on" in s.view.choice.labels
    s.handle(PhoneSetting("hints", "off"))
    assert "Hints: off" in s.view.choice.labels and "Tel: Hints: off" in oled(s)


def test_a_phones_setting_that_cannot_be_saved_holds_and_says_so(tmp_path):
    from companion.events import PhoneSetting
    (tmp_path / "not-a-folder").write_text("")
    store = SettingsStore(tmp_path / "not-a-folder" / "settings.json")
    s = box(tmp_path, store)
    out = s.handle(PhoneSetting("sound", "off"))
    assert not store.sound and "Not kept after a restart" in oled(s) and out.signal is not None

# --- past games and statistics -----------------------------------------------------------------

def kept_games(tmp_path):
    """A data folder with two finished games, and things that are not games."""
    from pathlib import Path
    data = Path(__file__).parent / "data"
    games = tmp_path / "data" / "games"
    games.mkdir(parents=True)
    (games / "20260101-100000-wakanda.jsonl").write_text((data / "wakanda_worked_example.jsonl").read_text())
    (games / "20260102-090000-totem-wars.jsonl").write_text((data / "totem_wars_finished.jsonl").read_text())
    (games / "20260103-090000-wakanda.jsonl").write_text('{"game": "wakanda"\n')          # damaged
    (games / "notes.txt").write_text("not a game")
    (games / "20260104-090000-wakanda.jsonl").symlink_to(tmp_path / "data" / "settings.json")
    (tmp_path / "data" / "settings.json").write_text('{"version": 1}')
    return tmp_path / "data"


def test_past_games_are_the_finished_ones_newest_first_with_their_scores(tmp_path):
    from companion.web import history
    found = history.past_games(kept_games(tmp_path))
    assert [g["file"] for g in found] == ["20260102-090000-totem-wars.jsonl", "20260101-100000-wakanda.jsonl"]
    tw_game, wakanda_game = found
    assert wakanda_game["when"] == "2026-01-01 10:00" and wakanda_game["winners"] == [0]
    assert [(p["name"], p["total"]) for p in wakanda_game["players"]] == [("Ana", 20), ("Ben", 16)]
    assert tw_game["winners"] == [0, 2] and all("rounds_won" in p for p in tw_game["players"])


def test_statistics_per_game_and_player_name_with_only_that_games_columns(tmp_path):
    from companion.web import history
    found = history.statistics(history.past_games(kept_games(tmp_path)))
    assert set(found) == {"wakanda", "totem-wars"}
    wakanda = {row["name"]: row for row in found["wakanda"]}
    wars = {row["name"]: row for row in found["totem-wars"]}
    assert (wakanda["Ana"]["games"], wakanda["Ana"]["wins"], wakanda["Ana"]["best"]) == (1, 1, 20)
    assert wakanda["Ana"]["favourites"] in ("Teepee", "Eagle", "Chief") and "rounds_won" not in wakanda["Ana"]
    assert "favourites" not in wars["Ana"] and sum(row["rounds_won"] for row in wars.values()) >= 1
    assert wars["Cleo"]["games"] == 1 and "Cleo" not in wakanda


def test_past_games_speak_the_boxs_language(tmp_path):
    from companion.web import history
    data = kept_games(tmp_path)
    english, french = (history.statistics(history.past_games(data, lang)) for lang in ("en", "fr"))
    favourites = {row["name"]: row["favourites"] for row in french["wakanda"]}
    assert favourites["Ana"] in ("Tipi", "Aigle", "Chef")        # the French rulebook's words
    assert favourites != {row["name"]: row["favourites"] for row in english["wakanda"]}
    frames = history.game_frames(data, "20260101-100000-wakanda.jsonl", "fr")
    assert frames is not None and frames[1] == ["Ana joue 1 Ben 0", "Ana pioche Chef"]


def test_the_page_lists_past_games_and_gives_their_records(tmp_path):
    data = kept_games(tmp_path)

    async def check(client, hub):
        listing = await (await client.get("/games")).json()
        assert [g["file"] for g in listing["games"]][-1] == "20260101-100000-wakanda.jsonl"
        assert all(f'<th scope="row">{name}</th>' in listing["statistics"] for name in ("Ana", "Ben", "Cleo"))
        response = await client.get("/games/20260101-100000-wakanda.jsonl")
        assert response.status == 200 and "attachment" in response.headers["Content-Disposition"]
        assert await response.text() == (data / "games" / "20260101-100000-wakanda.jsonl").read_text()
        for trick in ("/games/20260104-090000-wakanda.jsonl",        # a link out of the folder
                      "/games/..%2fsettings.json", "/games/../settings.json", "/games/notes.txt",
                      "/games/%2e%2e%2f%2e%2e%2fetc%2fpasswd.jsonl", "/games/x.jsonl",
                      "/games/20260105-090000-wakanda.jsonl"):        # no such game
            answer = await client.get(trick)
            assert answer.status == 404 and "version" not in await answer.text()
    served(check, data_dir=data)


def test_turned_on_the_settings_page_shows_the_address_as_a_qr_code(tmp_path):
    from companion.ui.canvas import HEIGHT, WIDTH
    store = SettingsStore(None, web_bind="127.0.0.1")
    s = box(tmp_path, store)
    choose(s, "settings")
    frame = choose(s, "web").frame
    assert s.view.kind == "qr" and s.view.address == "127.0.0.1:8080"
    words = frame_words(frame)
    assert "127.0.0.1" in words[0] and ":8080" in words and "Scan it with a phone" in " ".join(words)
    assert frame.size == (WIDTH, HEIGHT) and frame.getpixel((0, 3)) == 1 and frame.getpixel((4, 7)) == 0
    shot = snapshot(s, frame)
    assert shot["kind"] == "qr" and ":8080" in shot["lines"]   # the page gives the words
    s.handle(Press("down"))                                     # any button goes back
    assert s.view.kind == "menu" and s.view.choice.value == "web"
    choose(s, "web")                                            # turned off: no code
    assert s.view.kind == "menu" and not store.web


def test_a_past_games_frames_are_the_oleds_words_after_each_line(tmp_path):
    from companion.games import GAMES
    data = kept_games(tmp_path)
    text = (data / "games" / "20260101-100000-wakanda.jsonl").read_text()
    want = [frame_words(image) for image, _ in GAMES["wakanda"].table.frames(text, data)]

    async def check(client, hub):
        response = await client.get("/games/20260101-100000-wakanda.jsonl/frames")
        assert response.status == 200 and (await response.json())["frames"] == want
        assert len(want) == len(text.splitlines())
        for trick in ("/games/20260104-090000-wakanda.jsonl/frames", "/games/x.jsonl/frames",
                      "/games/20260103-090000-wakanda.jsonl/frames"):        # a link, none, damaged
            assert (await client.get(trick)).status == 404
    served(check, data_dir=data)
