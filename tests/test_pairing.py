"""Pairing that holds (issue 29): a code shown on the OLED alone, a bound on guesses that is
the box's and not an address's, phones kept paired across reloads and restarts until
Settings → Forget phones, phones' names that never push out the box's, and kept unfinished
games for paired phones only. The server through real sockets from many 127.x addresses."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer
from box_helpers import choose

from companion.events import PhoneCode, PhoneName, Press, Tag
from companion.pairing import (
    ASK_BURST,
    ASK_EVERY,
    CODE_DIGITS,
    LIFE,
    PAIRED,
    PHONES,
    PHONES_FILE,
    SHOWN,
    TRIES,
    UNASKED,
    WRONG,
    Pairing,
    attack_odds,
    csrf_of,
    forget_phones,
)
from companion.table.app_loop import AppLoop
from companion.table.registry import TagRegistry
from companion.table.session import PHONE_NAMES, Session
from companion.table.settings import MAX_NAMES, SettingsStore
from companion.ui.canvas import frame_words
from companion.voice.narrator import Narrator
from companion.web import history, server
from companion.web.snapshot import snapshot
from companion.words import LANGUAGES

DATA = Path(__file__).parent / "data"


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def other(code: str) -> str:
    """A code that is not ``code``."""
    return f"{(int(code) + 1) % 10 ** CODE_DIGITS:0{CODE_DIGITS}d}"


# --- the codes -----------------------------------------------------------------------------------

def test_a_code_is_six_digits_bound_to_the_phone_that_asked_and_serves_once():
    pairing = Pairing()
    ticket, code = pairing.ask()
    assert len(code) == CODE_DIGITS and code.isdigit() and pairing.showing
    for stranger in (None, "", "forged", 42, "\udcff", ticket + "x"):
        assert pairing.pair(stranger, code) == (UNASKED, None)   # not judged: no try used
    verdict, token = pairing.pair(ticket, code)
    assert verdict == PAIRED and pairing.paired(token) and not pairing.showing
    assert pairing.pair(ticket, code) == (UNASKED, None)        # a code serves once
    assert pairing.allowed(token, csrf_of(token))
    for token_, csrf in ((token, "x"), ("x", csrf_of(token)), (None, None), (token, None), (token, "é\udcff")):
        assert not pairing.allowed(token_, csrf)


def test_three_wrong_tries_kill_the_code_and_a_new_ask_replaces_it():
    pairing = Pairing()
    ticket, code = pairing.ask()
    for _ in range(TRIES - 1):
        assert pairing.pair(ticket, other(code)) == (WRONG, None) and pairing.showing
    assert pairing.pair(ticket, None) == (WRONG, None) and not pairing.showing   # the third
    assert pairing.pair(ticket, code) == (UNASKED, None)        # too late, even the right one
    first, code = pairing.ask()
    second, _ = pairing.ask()
    assert pairing.pair(first, code) == (UNASKED, None)         # replaced by the next ask


def test_a_code_dies_after_its_life_and_is_shown_less_long():
    clock = Clock()
    pairing = Pairing(clock=clock)
    ticket, code = pairing.ask()
    assert SHOWN < LIFE
    clock.now += LIFE
    assert not pairing.showing and pairing.pair(ticket, code) == (UNASKED, None)


def test_asking_is_bounded_for_the_whole_box():
    clock = Clock()
    pairing = Pairing(clock=clock)
    assert all(pairing.ask() for _ in range(ASK_BURST))
    assert pairing.ask() is None and pairing.wait() == pytest.approx(ASK_EVERY)
    clock.now += ASK_EVERY / 2
    assert pairing.ask() is None and pairing.wait() == pytest.approx(ASK_EVERY / 2)
    clock.now += ASK_EVERY / 2
    assert pairing.ask() is not None and pairing.ask() is None


def test_an_attacker_pairs_within_an_hour_less_than_once_in_a_thousand():
    # Every code the box can show in an hour, each judged TRIES times (union bound).
    assert attack_odds() == (ASK_BURST + 3600 / ASK_EVERY) * TRIES / 10 ** CODE_DIGITS
    assert attack_odds() < 1 / 1000


# --- the paired phones, kept -------------------------------------------------------------------------

def paired_phone(pairing: Pairing) -> str:
    ticket, code = pairing.ask()
    verdict, token = pairing.pair(ticket, code)
    assert verdict == PAIRED and token is not None
    return token


def test_a_pairing_survives_a_restart_and_only_its_hash_is_kept(tmp_path):
    token = paired_phone(Pairing(tmp_path))
    text = (tmp_path / PHONES_FILE).read_text()
    assert token not in text and hashlib.sha256(token.encode()).hexdigest() in text
    again = Pairing(tmp_path)                       # the box started again
    assert again.paired(token) and again.allowed(token, csrf_of(token))
    assert not again.paired("someone else") and not again.paired(None) and not again.paired(7)


def test_the_oldest_phone_is_forgotten_past_the_bound(tmp_path):
    clock = Clock()
    pairing = Pairing(tmp_path, clock=clock)
    tokens = []
    for _ in range(PHONES + 2):
        tokens.append(paired_phone(pairing))
        clock.now += ASK_EVERY                      # the box lets the next phone ask
    assert [pairing.paired(t) for t in tokens] == [False, False] + [True] * PHONES
    assert [Pairing(tmp_path).paired(t) for t in tokens] == [False, False] + [True] * PHONES


def test_forget_phones_ends_every_pairing_even_in_a_running_server(tmp_path):
    pairing = Pairing(tmp_path)
    token = paired_phone(pairing)
    forget_phones(tmp_path)                          # the settings page, on the session's thread
    assert not pairing.paired(token) and not Pairing(tmp_path).paired(token)


@pytest.mark.parametrize("content", [b"{", b"[]", b'{"phones": 3}', b'{"phones": ["x"]}',
                                     b"\xff\xfe", b" " * 100_000, b"[" * 2000 + b"]" * 2000, None])
def test_a_damaged_phones_file_pairs_nobody_and_pairing_still_works(tmp_path, content):
    path = tmp_path / PHONES_FILE
    if content is None:
        path.mkdir()                                # not even a file
    else:
        path.write_bytes(content)
    pairing = Pairing(tmp_path)
    assert not pairing.paired("anything")
    token = paired_phone(pairing)                   # held in memory when it cannot be written
    assert pairing.paired(token)


# --- the code on the OLED only -------------------------------------------------------------------

class Screen:
    def __init__(self) -> None:
        self.frames: list = []

    def show(self, frame) -> int:
        self.frames.append(frame)
        return 1

    def close(self) -> None:
        pass


class Watching:
    """A watcher that keeps everything it is told or offered."""

    def __init__(self) -> None:
        self.told: list = []

    def seen(self, session, out=None) -> None:
        self.told.append(json.dumps(snapshot(session, out.frame if out else None), ensure_ascii=False))

    def heard(self, session, event) -> bool:
        self.told.append(repr(event))
        return False

    def close(self) -> None:
        pass


def test_the_code_is_on_the_oled_alone_over_the_game_and_its_note_is_kept(tmp_path, mocker):
    store = SettingsStore(None, names=("Ana", "Ben"), voice="everything")
    session = Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json"), settings=store,
                      rng=random.Random(1))
    speaker, watching, screen, clock = mocker.Mock(), Watching(), Screen(), Clock()
    loop = AppLoop(session, screen, watchers=(Narrator(speaker), watching), clock=clock)
    loop.show(session.frame())
    loop.tell_watchers()
    choose(session, "wakanda")
    loop.deliver(Press("up"))
    note, view = session.message, repr(session.view)
    code = "493817"
    assert loop.deliver(PhoneCode(code)) is None
    assert f"Phone code: {code}" in frame_words(screen.frames[-1])    # over the frame
    assert session.message == note and repr(session.view) == view      # the game's note untouched
    loop.deliver(Press("down"))                                        # the game goes on under it
    assert f"Phone code: {code}" in frame_words(screen.frames[-1])
    shown = frame_words(screen.frames[-1])
    assert shown[1:] == frame_words(session.frame())[-len(shown) + 1:]  # the rest is the game's
    said = " ".join(call.args[0] for call in speaker.say.call_args_list)
    for place in (said, *watching.told, json.dumps(snapshot(session)), session.message or "", repr(session.view)):
        assert code not in place
    clock.now += SHOWN
    loop.deliver(Press("up"))
    assert "Phone code" not in " ".join(frame_words(screen.frames[-1]))    # gone in time
    loop.deliver(PhoneCode("111222"))
    loop.deliver(PhoneCode(None))                                      # used: gone at once
    assert frame_words(screen.frames[-1]) == frame_words(session.frame())


def test_the_code_speaks_the_boxs_language(tmp_path):
    store = SettingsStore(None, language="fr")
    session = Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json"), settings=store)
    screen = Screen()
    loop = AppLoop(session, screen)
    loop.show(session.frame())
    loop.deliver(PhoneCode("000123"))
    assert "Code mobile: 000123" in frame_words(screen.frames[-1])


# --- phones' names -------------------------------------------------------------------------------------

def test_phones_names_never_push_out_the_boxs(tmp_path):
    box_names = tuple(f"Box{i}" for i in range(MAX_NAMES - 2))
    store = SettingsStore(None, names=box_names)
    session = Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json"), settings=store)
    for i in range(30):                            # a paired phone floods names
        session.handle(PhoneName(f"Phone{i}"))
    assert set(box_names) <= set(store.names) and len(store.names) <= MAX_NAMES
    phones = [n for n in store.names if n.startswith("Phone")]
    assert phones == ["Phone29", "Phone28"]         # the room left, the newest kept
    session.handle(PhoneName("Box3"))               # a box's name sent again stays the box's
    for i in range(5):
        session.handle(PhoneName(f"Late{i}"))
    assert set(box_names) <= set(store.names)


def test_phones_names_take_a_few_places_and_a_full_list_says_so(tmp_path):
    store = SettingsStore(None, names=("Ana",))
    session = Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json"), settings=store)
    for i in range(PHONE_NAMES + 3):
        session.handle(PhoneName(f"P{i}"))
    assert len([n for n in store.names if n.startswith("P")]) == PHONE_NAMES and "Ana" in store.names
    full = SettingsStore(None, names=tuple(f"N{i}" for i in range(MAX_NAMES)))
    session = Session(tmp_path / "data2", TagRegistry(tmp_path / "tags.json"), settings=full)
    out = session.handle(PhoneName("Mallory"))
    assert "Mallory" not in full.names and out.signal is not None
    assert "Names full: forget one" in " ".join(frame_words(out.frame))


# --- Settings → Forget phones --------------------------------------------------------------------

def test_forget_phones_on_the_box_asks_then_forgets_and_says_so(tmp_path):
    data = tmp_path / "data"
    pairing = Pairing(data)
    token = paired_phone(pairing)
    store = SettingsStore(None)
    session = Session(data, TagRegistry(tmp_path / "tags.json"), settings=store)
    choose(session, "settings")
    choose(session, "phones")
    assert session.view.kind == "confirm" and pairing.paired(token)
    session.handle(Press("back"))                   # no: nothing forgotten
    assert pairing.paired(token)
    choose(session, "phones")
    out = session.handle(Press("ok"))
    assert "Phones forgotten" in " ".join(frame_words(out.frame)) and not pairing.paired(token)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_forget_phones_speaks_every_language(tmp_path, lang):
    from companion.ui.text import t
    words = [t(key, lang) for key in ("settings.forget_phones", "settings.forget_phones_ask",
                                       "settings.forget_phones_about", "settings.phones_forgotten",
                                       "settings.phones_not_forgotten", "web.names_full", "web.busy")]
    assert all(words) and (lang == "en" or words[0] != "Forget phones")


# --- through real sockets from many addresses --------------------------------------------------

async def request(port: int, method: str, path: str, *, source: str = "127.0.0.1",
                  doc: dict | None = None, cookies: dict | None = None, csrf: str | None = None):
    """One HTTP/1.1 request from ``source`` on a socket of its own: status, cookies set, body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    body = json.dumps(doc).encode() if doc is not None else b""
    head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close",
            f"Content-Length: {len(body)}"]
    if doc is not None:
        head.append("Content-Type: application/json")
    if cookies:
        head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in cookies.items()))
    if csrf:
        head.append(f"X-CSRF-Token: {csrf}")
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
    raw = await reader.read()
    writer.close()
    header, _, content = raw.partition(b"\r\n\r\n")
    lines = header.decode().split("\r\n")
    set_cookies = {}
    for line in lines[1:]:
        name, _, value = line.partition(": ")
        if name.lower() == "set-cookie":
            key, _, rest = value.partition("=")
            set_cookies[key] = rest.split(";")[0]
    kind = next((line for line in lines if line.lower().startswith("content-type:")), "")
    return int(lines[0].split()[1]), set_cookies, json.loads(content) if "application/json" in kind else {}


def addresses(count: int) -> list[str]:
    """``count`` source addresses on 127.0.0.0/8, standing for as many hosts."""
    return [f"127.0.{1 + i // 250}.{1 + i % 250}" for i in range(count)]


def with_server(check, pairing: Pairing, data_dir: Path | None = None) -> None:
    """``check(port, events)`` against the page's app on 127.0.0.1; ``events``: what reached the box."""
    events: list = []

    async def main():
        site = TestServer(server.make_app(server.Hub(), pairing=pairing, put=events.append,
                                          data_dir=data_dir), host="127.0.0.1")
        await site.start_server()
        try:
            await check(site.port, events)
        finally:
            await site.close()
    asyncio.run(main())


def test_brute_force_from_500_addresses_gets_nowhere_and_a_real_phone_still_pairs(tmp_path):
    clock = Clock()
    pairing = Pairing(tmp_path, clock=clock)
    crowd = addresses(500)
    screen = Screen()
    session = Session(tmp_path, TagRegistry(tmp_path / "tags.json"), settings=SettingsStore(None))
    loop = AppLoop(session, screen)
    loop.show(session.frame())

    async def guesses(port, doc_of, cookies=None):
        answers = await asyncio.gather(*(request(port, "POST", "/pair", source=a, doc=doc_of(i),
                                                 cookies=cookies) for i, a in enumerate(crowd)))
        return [(status, body.get("error")) for status, _, body in answers]

    async def check(port, events):
        # Guessing without a code shown: nothing is judged, whatever the address.
        answers = await guesses(port, lambda i: {"code": f"{i:06d}"})
        assert set(answers) == {(403, "ask for a code first")}
        # Asking from every address: the box shows ASK_BURST codes, then no more, box-wide.
        asks = await asyncio.gather(*(request(port, "POST", "/pair/ask", source=a, doc={}) for a in crowd))
        assert sum(status == 202 for status, _, _ in asks) == ASK_BURST
        assert {status for status, _, _ in asks} == {202, 429}
        ticket = next(c["totem-ticket"] for s, c, _ in reversed(asks) if s == 202)  # the live code's
        code = events[-1].code
        # With the live code's ticket, from every address: TRIES judged, then the code is dead.
        answers = await guesses(port, lambda i: {"code": other(code) if i % 2 else f"{i:06d}x"},
                                {"totem-ticket": ticket})
        assert answers.count((403, "wrong code")) == TRIES
        assert answers.count((403, "ask for a code first")) == len(crowd) - TRIES
        assert not pairing.showing and events[-1] == PhoneCode(None)
        # The real phone: once the box can show a code again, it asks, reads it on the OLED...
        clock.now += ASK_EVERY
        status, cookies, body = await request(port, "POST", "/pair/ask", source="127.9.9.9", doc={})
        assert status == 202 and body == {}
        for event in events:
            loop.deliver(event)
        seen = " ".join(frame_words(screen.frames[-1]))
        typed = seen.split("Phone code: ")[1][:CODE_DIGITS]
        # ...while the crowd guesses on: nothing judged, the phone's code unharmed...
        answers = await guesses(port, lambda i: {"code": other(typed)}, {"totem-ticket": ticket})
        assert set(answers) == {(403, "ask for a code first")}
        # ...and pairs.
        status, paired, body = await request(port, "POST", "/pair", source="127.9.9.9",
                                             doc={"code": typed}, cookies=cookies)
        assert status == 200 and body["csrf"] == csrf_of(paired["totem-phone"])
        for event in events:
            loop.deliver(event)
        assert "Phone code" not in " ".join(frame_words(screen.frames[-1]))
    with_server(check, pairing, tmp_path)


def test_a_paired_phone_stays_paired_across_reloads_and_restarts_until_forgotten(tmp_path):
    def phone(pairing):
        async def check(port, events):
            status, ticket, _ = await request(port, "POST", "/pair/ask", doc={})
            status, cookies, body = await request(port, "POST", "/pair", doc={"code": events[0].code},
                                                  cookies=ticket)
            assert status == 200
            found.update(cookies, csrf=body["csrf"])
        with_server(check, pairing)

    def reload(pairing, want):
        async def check(port, events):
            cookie = {"totem-phone": found["totem-phone"]}
            status, _, body = await request(port, "GET", "/pair", cookies=cookie)
            assert status == 200 and body.get("paired") is want
            assert body.get("csrf") == (found["csrf"] if want else None)   # the page's token again
            status, _, _ = await request(port, "POST", "/name", doc={"name": "Zoé"}, cookies=cookie,
                                         csrf=found["csrf"])
            assert status == (202 if want else 403) and len(events) == (1 if want else 0)
        with_server(check, pairing)

    found: dict = {}
    pairing = Pairing(tmp_path)
    phone(pairing)
    reload(pairing, True)                           # the page reloaded
    reload(Pairing(tmp_path), True)                 # the box restarted
    forget_phones(tmp_path)                         # Settings → Forget phones
    reload(pairing, False)
    reload(Pairing(tmp_path), False)


def test_an_unpaired_page_is_told_so_and_gets_no_token(tmp_path):
    async def check(port, events):
        for cookies in (None, {"totem-phone": "guess"}, {"totem-phone": ""}):
            status, _, body = await request(port, "GET", "/pair", cookies=cookies)
            assert status == 200 and body == {"paired": False}
    with_server(check, Pairing(tmp_path))


def kept_unfinished(tmp_path) -> Path:
    data = tmp_path / "data"
    games = data / "games"
    games.mkdir(parents=True)
    (games / "20260101-100000-wakanda.jsonl").write_text((DATA / "wakanda_worked_example.jsonl").read_text())
    lines = (DATA / "wakanda_worked_example.jsonl").read_text().splitlines(keepends=True)
    for name in ("20260102-100000-wakanda-unfinished.jsonl", "20260103-100000-wakanda-unfinished-2.jsonl"):
        (games / name).write_text("".join(lines[:4]))
    return data


def test_kept_unfinished_games_are_a_paired_phones_only(tmp_path):
    data = kept_unfinished(tmp_path)
    pairing = Pairing(data)
    token = paired_phone(pairing)
    unfinished = "20260102-100000-wakanda-unfinished.jsonl"

    async def check(port, events):
        for cookies, want in ((None, 404), ({"totem-phone": "guess"}, 404), ({"totem-phone": token}, 200)):
            status, _, listing = await request(port, "GET", "/games", cookies=cookies)
            files = [g["file"] for g in listing["games"]]
            assert status == 200 and "20260101-100000-wakanda.jsonl" in files
            assert (unfinished in files) is (want == 200)
            for path in (f"/games/{unfinished}", f"/games/{unfinished}/frames",
                         "/games/20260103-100000-wakanda-unfinished-2.jsonl"):
                assert (await request(port, "GET", path, cookies=cookies))[0] == want
            # The statistics count the finished game alone, whoever asks.
            counted = history.statistics(listing["games"])
            assert {row["games"] for rows in counted.values() for row in rows} == {1}
    with_server(check, pairing, data)


async def first_event(port: int) -> str:
    """The first table the event stream sends (what every open page gets)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    seen = b""
    while b"data:" not in seen or not seen.endswith(b"\r\n\r\n") and not seen.endswith(b"\n\n"):
        chunk = await asyncio.wait_for(reader.read(65536), 10)
        assert chunk, "the stream ended"
        seen += chunk
    writer.close()
    return seen.decode()


def test_the_whole_box_shows_the_code_on_its_screen_and_nowhere_else(tmp_path):
    from web_browser import Box

    box = Box(tmp_path / "data")
    try:
        _, before = box.play(Tag("nonsense"))       # a note on the screen, which stays
        assert before["note"]

        async def main():
            frames = len(box.display.frames)
            status, ticket, body = await request(box.port, "POST", "/pair/ask", doc={})
            assert status == 202 and body == {}
            shown = " ".join(frame_words(await asyncio.to_thread(box.display.wait, frames + 1)))
            code = shown.split("Phone code: ")[1][:CODE_DIGITS]
            _, _, state = await request(box.port, "GET", "/state")
            stream = await first_event(box.port)
            assert code.isdigit() and code not in json.dumps(state) and code not in stream
            assert code not in " ".join(ticket.values()) and state["note"] == before["note"]
            status, cookies, _ = await request(box.port, "POST", "/pair", doc={"code": code}, cookies=ticket)
            assert status == 200
            gone = " ".join(frame_words(await asyncio.to_thread(box.display.wait, frames + 2)))
            assert "Phone code" not in gone                                 # used: off the screen
            _, _, state = await request(box.port, "GET", "/pair", cookies=cookies)
            assert state["paired"] is True
        asyncio.run(main())
    finally:
        box.close()
