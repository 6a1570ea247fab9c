"""The phone page's doors (issue 29): only the box's own names, bounded connections and
pages, header and body time-outs, a client that leaves or sends nonsense is no error.

Through real sockets from many source addresses of 127.0.0.0/8 (each a phone or a host on
the Wi-Fi): against the server on a thread of this process, and against a box playing a
whole game (``run --input``) in a process of its own, attacked while it plays.
"""

from __future__ import annotations

import asyncio
import http.client
import io
import json
import os
import selectors
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from reliability import demo_script

from companion.web import doors, server

ROOT = Path(__file__).parent.parent
JOIN = 30  # seconds: no test may hang
#: The most the attacked box's resident memory may grow (kB): 300 connections are a few MB.
MEMORY_BUDGET = 40 * 1024


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def connect(port: int, source: str, *, rcvbuf: int | None = None) -> socket.socket:
    """A TCP connection to the page from ``source`` (an address of 127.0.0.0/8)."""
    sock = socket.socket()
    if rcvbuf is not None:  # a client that reads nothing lets the box's sends pile up sooner
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def ask(port: int, method: str, path: str, *, source: str = "127.0.0.1", body: bytes | None = None,
        headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """One request from ``source`` (``Host`` as a browser sends it unless given); status, body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=JOIN, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers={"Host": f"127.0.0.1:{port}", **(headers or {})})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def closed(sock: socket.socket, timeout: float) -> bytes | None:
    """What the box answered on ``sock`` if it closes it within ``timeout`` s, else None."""
    sock.settimeout(timeout)
    end, got = time.monotonic() + timeout, b""
    try:
        while time.monotonic() < end:
            chunk = sock.recv(65536)
            if not chunk:
                return got
            got += chunk
    except ConnectionError:
        return got
    except TimeoutError:
        return None
    return None


# --- the server on a thread of this process ------------------------------------------------------

@dataclass
class Served:
    """The page's server on ``port``: its hub, what it logged, what paired phones sent."""

    port: int
    hub: server.Hub
    err: io.StringIO
    loop: asyncio.AbstractEventLoop

    def publish(self, shot: dict) -> None:
        """Show ``shot`` as the box would (from another thread)."""
        self.loop.call_soon_threadsafe(self.hub.publish, shot)

    def open_pages(self) -> int:
        """The event streams open now (read on the server's loop)."""
        return asyncio.run_coroutine_threadsafe(_count(self.hub), self.loop).result(JOIN)


async def _count(hub: server.Hub) -> int:
    return len(hub.pages)


@pytest.fixture
def served():
    """``serve()`` on its own thread, as the box runs it, on a free port of 127.0.0.1."""
    hub, err, port = server.Hub(), io.StringIO(), free_port()
    ready, held = threading.Event(), {}

    def started(loop):
        held["loop"] = loop
        ready.set()

    async def main():
        held["stop"] = asyncio.Event()
        await server.serve(hub, "127.0.0.1", port, started, held["stop"], put=lambda event: None, err=err)

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    assert ready.wait(JOIN)
    page = Served(port, hub, err, held["loop"])
    page.publish({"title": "Totem Companion", "lines": []})
    yield page
    held["loop"].call_soon_threadsafe(held["stop"].set)
    thread.join(JOIN)
    assert "Traceback" not in err.getvalue()


@pytest.mark.parametrize("path, method", [("/state", "GET"), ("/games", "GET"), ("/pair", "POST"),
                                          ("/", "GET")])
def test_a_foreign_name_is_refused_even_with_a_matching_origin(served, path, method):
    """DNS rebinding: a page of evil.example whose name now points at the box."""
    evil = f"evil.example:{served.port}"
    status, body = ask(served.port, method, path, body=b'{"code": "1234"}' if method == "POST" else None,
                       headers={"Host": evil, "Origin": f"http://{evil}", "Content-Type": "application/json"})
    assert status == 421 and body.count(b"\n") == 1


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST", "10.1.2.3:{port}",
                                  "[::1]:{port}", "[fe80::1]", "{name}:{port}", "{name}.local:{port}"])
def test_the_box_answers_to_its_own_names_and_any_address(served, host):
    name = socket.gethostname().split(".")[0]
    host = host.format(port=served.port, name=name)
    assert ask(served.port, "GET", "/state", headers={"Host": host})[0] == 200
    assert ask(served.port, "GET", "/state", headers={"Host": host, "Origin": f"http://{host}"})[0] == 200


@pytest.mark.parametrize("host", ["", "evil.example", "127.0.0.1.evil.example", "127.1", "[::1",
                                  "[::1]x", "localhost:http", "localhost:1:2", "[evil]:80"])
def test_what_is_no_name_of_the_box_is_refused(host):
    assert not doors.is_own_host(host, frozenset({"localhost", "box", "box.local"}))


def test_a_change_from_another_origin_is_refused(served):
    for origin in ("http://evil.example", "null", f"https://127.0.0.1:{served.port}"):
        status, _ = ask(served.port, "POST", "/pair", body=b'{"code": "1"}',
                        headers={"Origin": origin, "Content-Type": "application/json"})
        assert status == 403


@pytest.mark.parametrize("body, kind, statuses", [
    (b"[" * 1500 + b"]" * 1500, "application/json", {400}),
    (b'{"a":' * 1500 + b"1" + b"}" * 1500, "application/json", {400, 413}),
    (b'{"code": "1234"}', "application/json; charset=bogus", {400, 415}),
    (b'{"code": "1234"}', "application/json; charset=latin-1", {400, 415}),
    (b'{"code": "\xff"}', "application/json", {400}),
])
def test_nonsense_in_a_body_is_a_plain_status_and_no_traceback(served, body, kind, statuses):
    status, answer = ask(served.port, "POST", "/pair", body=body, headers={"Content-Type": kind})
    assert status in statuses and answer.count(b"\n") == 1
    assert ask(served.port, "GET", "/state")[0] == 200
    assert served.err.getvalue() == ""


def test_a_phone_closing_its_page_is_no_error(served):
    for n in range(3):
        sock = connect(served.port, f"127.0.8.{n + 1}")
        sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode())
        assert b"data: " in sock.recv(65536) or b"data: " in sock.recv(65536)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        sock.close()  # a reset, as a phone dropping off the Wi-Fi
    for n in range(5):
        served.publish({"n": n})  # the box goes on showing tables to pages gone
    wait_for(lambda: served.open_pages() == 0)
    assert served.err.getvalue() == ""


def wait_for(condition, timeout: float = JOIN, step: float = 0.05) -> None:
    """Wait until ``condition()`` holds (the server's state, seen from outside)."""
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "waited too long"
        time.sleep(step)


def test_connections_past_the_caps_are_closed_at_once_and_said_once(served):
    mine = [connect(served.port, "127.0.9.1") for _ in range(doors.PER_ADDRESS)]
    refused = [connect(served.port, "127.0.9.1") for _ in range(5)]
    for sock in refused:
        assert closed(sock, JOIN) == b""
    # Another address is a phone of its own.
    assert ask(served.port, "GET", "/state", source="127.0.9.2")[0] == 200
    assert served.err.getvalue().count("too many connections") == 1
    for sock in mine + refused:
        sock.close()


def test_the_total_stays_under_half_the_descriptors(mocker):
    mocker.patch.object(doors.resource, "getrlimit", return_value=(100, 4096))
    assert doors.connection_cap() == 50
    mocker.patch.object(doors.resource, "getrlimit", return_value=(65536, 65536))
    assert doors.connection_cap() == doors.TOTAL


def test_pages_are_bounded_per_address(served):
    streams = []
    for _ in range(doors.PAGES_PER_ADDRESS):
        sock = connect(served.port, "127.0.10.1")
        sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode())
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        streams.append(sock)
    assert ask(served.port, "GET", "/events", source="127.0.10.1")[0] == 503
    status, _ = ask(served.port, "GET", "/state", source="127.0.10.2")
    assert status == 200
    for sock in streams:
        sock.close()
    wait_for(lambda: served.open_pages() == 0)


def test_a_page_that_reads_nothing_is_let_go(served):
    sock = connect(served.port, "127.0.11.1", rcvbuf=4096)
    sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n\r\n".encode())
    wait_for(lambda: served.open_pages() == 1)
    big = {"lines": ["x" * 100] * 200}     # 20 kB a table: the buffers fill in a few
    began = time.monotonic()

    def gone() -> bool:
        served.publish(big)
        return served.open_pages() == 0
    wait_for(gone, step=0.1)
    assert time.monotonic() - began < doors.SEND + 5
    sock.close()
    assert served.err.getvalue() == ""


@pytest.mark.parametrize("what", ["nothing", "half a header", "a body that never comes"])
def test_a_connection_that_stalls_is_closed_within_seconds(served, what):
    sock = connect(served.port, "127.0.12.1")
    began = time.monotonic()
    if what == "half a header":
        sock.sendall(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    elif what == "a body that never comes":
        sock.sendall(f"POST /pair HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\nContent-Type: application/json\r\n"
                     "Content-Length: 100\r\n\r\n{".encode())
    answer = closed(sock, doors.IDLE + 5)
    assert answer is not None and time.monotonic() - began >= doors.IDLE - 0.5
    # A change whose body never comes is told so; the others were sent nothing to answer.
    assert answer.startswith(b"HTTP/1.1 408 ") if what.startswith("a body") else answer == b""
    sock.close()


def test_malformed_requests_are_one_line_in_all_and_no_traceback(served):
    for n in range(20):
        sock = connect(served.port, f"127.0.13.{n + 1}")
        sock.sendall(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: banana\r\n\r\n")
        assert b" 400 " in sock.recv(65536).split(b"\r\n")[0]
        sock.close()
    lines = served.err.getvalue().splitlines()
    assert len(lines) == 1 and "a request not answered" in lines[0]


def test_connections_the_box_cannot_accept_are_one_line_in_all(served):
    """No descriptor left (EMFILE): asyncio's accept loop reports it on every try."""
    def report():
        for _ in range(1000):
            served.loop.call_exception_handler({"message": "socket.accept() out of system resource",
                                                "exception": OSError(24, "Too many open files")})
    served.loop.call_soon_threadsafe(report)
    wait_for(lambda: "Too many open files" in served.err.getvalue())
    assert ask(served.port, "GET", "/state")[0] == 200   # after the reports: all were said or counted
    lines = served.err.getvalue().splitlines()
    assert lines == ["totem-companion: the phone page: socket.accept() out of system resource: "
                     "[Errno 24] Too many open files"]


def test_each_kind_of_problem_is_one_line_a_minute_with_the_count():
    now, err = [0.0], io.StringIO()
    problems = doors.Problems(err, clock=lambda: now[0])
    for _ in range(1000):
        problems.say("accept", "cannot accept a connection (Too many open files)")
    problems.say("other", "another kind")
    now[0] += doors.QUIET
    problems.say("accept", "cannot accept a connection (Too many open files)")
    lines = err.getvalue().splitlines()
    assert len(lines) == 3 and lines[2].endswith("(999 more like it since)")


# --- a box playing a whole game, attacked while it plays ---------------------------------------

@dataclass
class Box:
    """``run --input SCRIPT --display text --web PORT`` in a process of its own: its frames
    and what it said on standard error, read as they come."""

    folder: Path
    script: str
    tags: dict[str, str]
    port: int
    frames: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)  # when each frame came (time.monotonic)
    err: list[str] = field(default_factory=list)

    def __post_init__(self):
        data = self.folder / "data"
        data.mkdir(parents=True)
        if self.tags:
            (data / "tags.json").write_text(json.dumps({"version": 1, "tags": self.tags}))
        (self.folder / "script.txt").write_text(self.script)
        (self.folder / "config.toml").write_text('[web]\nbind = "127.0.0.1"\n')
        env = {**os.environ, "XDG_CONFIG_HOME": str(self.folder / "user-config"),
               "XDG_DATA_HOME": str(self.folder / "user-data"), "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "run", "--input", "script.txt", "--data", "data", "--display",
             "text", "--config", "config.toml", "--web", str(self.port)],
            cwd=self.folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.changed = threading.Condition()
        self.readers = [threading.Thread(target=self._read, args=(stream, lines), daemon=True)
                        for stream, lines in ((self.process.stdout, self.frames), (self.process.stderr, self.err))]
        for reader in self.readers:
            reader.start()

    def _read(self, stream, lines: list[str]) -> None:
        for line in stream:
            if lines is self.err or line.startswith("frame "):
                with self.changed:
                    lines.append(line)
                    if lines is self.frames:
                        self.times.append(time.monotonic())
                    self.changed.notify_all()

    def listening(self) -> None:
        """Wait until the page accepts connections."""
        def accepts() -> bool:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=JOIN).close()
                return True
            except ConnectionRefusedError:
                assert self.process.poll() is None, "".join(self.err)
                return False
        wait_for(accepts, step=0.01)

    def rss(self) -> int:
        """Its resident memory now, kB."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def end(self) -> tuple[list[str], list[str]]:
        """Wait for the game to end: its frames and the records of its data folder."""
        assert self.process.wait(JOIN) == 0, "".join(self.err)
        for reader in self.readers:
            reader.join(JOIN)
        data = self.folder / "data"
        records = [path.read_text() for path in [data / "current.jsonl", *sorted((data / "games").glob("*.jsonl"))]
                   if path.is_file()]
        return self.frames, records


class Attack:
    """Connections from many addresses that stall in every way, opened in turns so that each
    kind is among those the box keeps."""

    KINDS = ("idle", "half a header", "dripped header", "body that never comes", "unread page")

    def __init__(self, port: int, count: int):
        self.port = port
        self.socks: list[tuple[str, socket.socket, float]] = []
        self.dripping: list[socket.socket] = []
        for n in range(count):
            kind = self.KINDS[n % len(self.KINDS)]
            source = f"127.0.{20 + n % len(self.KINDS)}.{1 + n // (len(self.KINDS) * 4)}"  # four an address
            sock = connect(port, source, rcvbuf=4096 if kind == "unread page" else None)
            self._start(kind, sock)
            self.socks.append((kind, sock, time.monotonic()))
        self.stop = threading.Event()
        self.dripper = threading.Thread(target=self._drip, daemon=True)
        self.dripper.start()

    def _start(self, kind: str, sock: socket.socket) -> None:
        host = f"Host: 127.0.0.1:{self.port}\r\n"
        try:
            if kind == "half a header":
                sock.sendall(f"GET /state HTTP/1.1\r\n{host}".encode())
            elif kind == "dripped header":
                sock.sendall(f"GET /state HTTP/1.1\r\n{host}".encode())
                self.dripping.append(sock)
            elif kind == "body that never comes":
                sock.sendall(f"POST /pair HTTP/1.1\r\n{host}Content-Type: application/json\r\n"
                             "Content-Length: 1000\r\n\r\n{".encode())
            elif kind == "unread page":
                sock.sendall(f"GET /events HTTP/1.1\r\n{host}\r\n".encode())
        except ConnectionError:  # closed at once: past the caps
            pass

    def _drip(self) -> None:
        """One byte of an endless header every 0.2 s on each dripping connection."""
        while not self.stop.wait(0.2) and self.dripping:
            for sock in list(self.dripping):
                try:
                    sock.send(b"X")
                except OSError:
                    self.dripping.remove(sock)

    def all_closed(self, timeout: float) -> dict[str, float]:
        """Wait until the box has closed every connection but the unread pages (let go once
        their tables fill the buffers: ``test_a_page_that_reads_nothing_is_let_go``),
        ``timeout`` s at most; the longest each kind was kept, s."""
        longest = dict.fromkeys(self.KINDS[:-1], 0.0)
        waiting = {sock: (kind, began) for kind, sock, began in self.socks if kind in longest}
        with selectors.DefaultSelector() as selector:
            for sock in waiting:
                sock.setblocking(False)
                selector.register(sock, selectors.EVENT_READ)
            end = time.monotonic() + timeout
            while waiting and time.monotonic() < end:
                for key, _ in selector.select(0.2):
                    sock = key.fileobj
                    assert isinstance(sock, socket.socket)
                    try:
                        if sock.recv(65536):   # an answer (408): the close comes next
                            continue
                    except BlockingIOError:
                        continue
                    except ConnectionError:
                        pass
                    kind, began = waiting.pop(sock)
                    selector.unregister(sock)
                    longest[kind] = max(longest[kind], time.monotonic() - began)
        assert not waiting, f"{len(waiting)} connections still open: {sorted({k for k, _ in waiting.values()})}"
        return longest

    def close(self) -> None:
        """End the attack."""
        self.stop.set()
        self.dripper.join(JOIN)
        for _, sock, _ in self.socks:
            sock.close()


def paced(script: str, seconds: float) -> str:
    """``script`` with ``seconds`` between its events (the box's own pace: a game of seconds)."""
    return "".join(f"{line}\nwait {seconds}\n" for line in script.splitlines() if line.strip())


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="no /proc: Linux only")
def test_a_game_attacked_by_stalling_connections_plays_and_keeps_every_action(tmp_path):
    """300 stalling connections from 75 addresses while a whole game of Wakanda plays: every
    action confirmed and kept as without them, each closed within seconds, a phone still
    answered, the memory bounded."""
    script, tags = demo_script("wakanda", 5)
    reference = Box(tmp_path / "calm", script, tags, free_port()).end()
    # The game lasts longer than the time-outs: closing them is seen while it plays.
    # The page starts on the first frame: the players look at the menu a moment first.
    box = Box(tmp_path / "attacked", "wait 2.5\n" + paced(script, 0.04) + f"wait {doors.IDLE + 4}\n", tags,
              free_port())
    box.listening()
    before = box.rss()
    attack = Attack(box.port, 300)
    try:
        with box.changed:
            shown_when_attacked = len(box.frames)
        longest = attack.all_closed(JOIN)
        assert box.process.poll() is None, "the game ended before the attack was over"
        # A phone is answered again (the stalled ones are gone).
        status, body = ask(box.port, "GET", "/state", source="127.0.99.1")
        assert status == 200 and json.loads(body)
        grown = box.rss() - before
    finally:
        attack.close()
    frames, records = box.end()
    assert shown_when_attacked < len(reference[0]) // 2, "the attack came after the game"
    assert frames == reference[0]
    assert records == reference[1] and records
    assert "Traceback" not in "".join(box.err)
    assert len(box.err) <= 5, box.err      # a line per kind of problem at most
    for kind in ("idle", "half a header", "dripped header", "body that never comes"):
        assert longest[kind] < doors.IDLE + 3, (kind, longest, box.err)
    assert grown < MEMORY_BUDGET
    print(f"\nkept at most (s): {', '.join(f'{k} {v:.1f}' for k, v in longest.items())}; "
          f"memory +{grown / 1024:.1f} MB; the box said: {''.join(box.err).strip()}", end="")
