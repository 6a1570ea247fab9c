"""The phone page's web server (aiohttp), on its own thread and event loop, beside the session.

Why aiohttp: one library is the server, the server-sent events (with aiohttp-sse) and the
test client over a real loopback socket; no ASGI server layer beside it, so it adds less
memory and start-up to the Pi Zero than Starlette with uvicorn, and it is imported only
when the page is on.

What it serves is fixed: the page, its script, its style (read once from the package: no
request path ever names a file; the page with the table now written in, so that it shows
without its script), ``/state`` (the table now, JSON) and ``/events`` (the table each time
the OLED changes, as the HTML ``render.py`` makes of it). A phone changes things only once paired
(``pairing.py``): ``POST /pair/ask`` has the OLED alone show a code (never an answer: the
phone gets only a ticket cookie the code is bound to; asks are bounded for the whole box),
``POST /pair`` with that code and ticket gives the phone its cookie and CSRF token,
``GET /pair`` tells a reloaded page whether it is still paired and gives its CSRF token
again, and ``POST /name`` with both puts the name
on the session's queue as an input event (``PhoneName``), as a button would: the session
stays on its one thread and the OLED confirms. ``POST /settings`` does the same for one of
the box's settings, checked against the values it offers (``table/setting_offers.py``). Kept
unfinished games, their records and frames are a paired phone's only (``history.py``), and so
is ``GET /backup``: the whole data folder as one archive (``companion/backup.py``). Every
answer carries a strict Content-Security-Policy (everything from the box, no inline script
or style); requests are small, few per second
and per address, and the open event streams are bounded: past the limits the answer is a
plain status (413, 429, 503), and nothing the box holds changes.

The doors (``doors.py``): only requests naming the box (``Host``) are answered (421), and
one sent by a page from elsewhere (``Origin``) is refused (403); connections are bounded in
all and per address (past them closed at once), as are the open pages; a connection has
``IDLE`` seconds to send a request's header (a change its body: 408), a page ``SEND``
seconds to take a table. A client that leaves is no error, and what a client sends never
makes a traceback: each kind of problem is one line in the log, at most once a minute.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from aiohttp import web
from aiohttp.typedefs import Handler
from aiohttp_sse import EventSourceResponse

from companion.backup import archive_name, write_backup
from companion.errors import UserError
from companion.events import PhoneCode, PhoneName
from companion.files import RECORD_BYTES, read_text
from companion.pairing import LIFE, WRONG, Pairing, csrf_of
from companion.records import JsonError, parse_json
from companion.table.setting_offers import setting_of
from companion.table.settings import is_name
from companion.web import doors, history, render

#: Every answer's headers: nothing from elsewhere, nothing inline, never framed.
SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; "
                                "img-src 'self'; connect-src 'self'; base-uri 'none'; "
                                "form-action 'none'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}
#: The largest request body read (the page sends none yet): past it, 413.
MAX_BODY = 4096
#: Pages open at once (event streams), and from one address: past them, 503. A table has a
#: handful of phones.
MAX_PAGES, PAGES_PER_ADDRESS = doors.PAGES, doors.PAGES_PER_ADDRESS
#: Seconds between two pings of an open page, and between two looks at whether it is still there.
PING = 5.0
#: Tables an open page may be behind (a phone's slow network) before it skips the oldest.
BACKLOG = 32
#: Requests per second per address, and the burst allowed: past it, 429.
RATE, BURST = 10.0, 30
#: The files of the page, by the path that serves them, with their type.
FILES = {"/": ("index.html", "text/html"), "/page.js": ("page.js", "text/javascript"),
         "/page.css": ("page.css", "text/css"), "/favicon.svg": ("favicon.svg", "image/svg+xml")}


def _static() -> dict[str, tuple[bytes, str]]:
    """The page's files, read once from the package."""
    folder = resources.files("companion.web") / "static"
    return {path: ((folder / name).read_bytes(), kind) for path, (name, kind) in FILES.items()}


#: What of a table the open pages are not sent: the values its HTML was made from.
DRAWN = frozenset({"table", "sheet"})


class Hub:
    """The latest table and the open pages' queues, on the server's event loop only."""

    def __init__(self) -> None:
        self.shot: dict[str, Any] | None = None  # the table now
        self.sent: str | None = None  # what the open pages are sent of it (``/events``)
        self.html = ""  # the latest table as the page's HTML: in the page as served
        self.language = "en"  # the box's, as the latest table says: past games' words too
        self.pages: set[asyncio.Queue[str]] = set()

    @property
    def latest(self) -> str | None:
        """The table now as JSON (``/state``), made when asked: most tables are never asked for."""
        return None if self.shot is None else json.dumps(self.shot, ensure_ascii=False, separators=(",", ":"))

    def publish(self, shot: dict[str, Any]) -> None:
        """Keep ``shot`` as the table now, and give every open page its HTML (``render.py``)
        with the page's words and settings (not the values the HTML was made from): a page
        that is ``BACKLOG`` tables behind loses the oldest, never the box's time or memory."""
        self.shot = shot
        self.html = render.live(shot)
        sent = {key: value for key, value in shot.items() if key not in DRAWN} | {"html": self.html}
        self.sent = json.dumps(sent, ensure_ascii=False, separators=(",", ":"))
        language = shot.get("lang")
        self.language = language if isinstance(language, str) else self.language
        for queue in self.pages:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(self.sent)


class _Rate:
    """A token bucket per remote address (bounded: the oldest addresses are forgotten)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, size: int = 256):
        self.clock, self.size = clock, size
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, who: str) -> bool:
        now = self.clock()
        tokens, then = self.buckets.pop(who, (float(BURST), now))
        tokens = min(float(BURST), tokens + (now - then) * RATE)
        if len(self.buckets) >= self.size:
            self.buckets.pop(next(iter(self.buckets)))
        self.buckets[who] = (tokens - 1 if tokens >= 1 else tokens, now)
        return tokens >= 1


#: The paired phone's cookie (kept 400 days, browsers' longest), and the asking phone's ticket.
COOKIE, KEPT, TICKET = "totem-phone", 400 * 86400, "totem-ticket"


def make_app(hub: Hub, clock: Callable[[], float] = time.monotonic, pairing: Pairing | None = None,
             put: Callable[[object], None] | None = None, data_dir: Path | None = None) -> web.Application:
    """The page's web application, sending ``hub``'s tables (``clock`` paces the requests);
    ``put`` takes the input events of paired phones (``pairing``); without it, read-only.
    ``data_dir``: the data folder whose finished games ``/games`` lists."""
    files = _static()
    rate = _Rate(clock)
    pairing = pairing or Pairing()
    names = doors.own_names()
    open_pages = doors.Doors(PAGES_PER_ADDRESS, MAX_PAGES)

    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        host = request.headers.get("Host")
        origin = request.headers.get("Origin")
        if not doors.is_own_host(host, names):  # a name pointed at the box from elsewhere
            response: web.StreamResponse = web.Response(status=421, text="not a name of this box\n")
        elif origin is not None and origin != f"{request.scheme}://{host}":
            response = web.Response(status=403, text="not from this page\n")
        elif not rate.allow(request.remote or "?"):
            response = web.Response(status=429, text="too many requests\n")
        else:
            try:
                response = await handler(request)
            except web.HTTPException as exc:  # 403, 404, 405, 408, 413 …: a plain line, the same headers
                response = web.Response(status=exc.status, text=f"{exc.reason.lower()}\n")
                if exc.status == 408:  # what is left of the body may never come
                    response.force_close()
        if not response.prepared:
            response.headers.update(SECURITY_HEADERS)
        return response

    async def page(request: web.Request) -> web.Response:
        body, kind = files[request.path]
        if request.path == "/":  # the table now in the page: it shows without the script
            body = body.replace(b'<html lang="en">', f'<html lang="{render.escape_text(hub.language)}">'.encode())
            body = body.replace(b"<!--live-->", hub.html.encode())
        return web.Response(body=body, content_type=kind, charset="utf-8")

    async def state(request: web.Request) -> web.Response:
        latest = hub.latest
        if latest is None:
            return web.Response(status=503, text="the box has shown nothing yet\n")
        return web.Response(text=latest, content_type="application/json")

    async def events(request: web.Request) -> web.StreamResponse:
        who = request.remote or "?"
        if not open_pages.enter(who):
            return web.Response(status=503, text="too many pages open\n")
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=BACKLOG)
        if hub.sent is not None:
            queue.put_nowait(hub.sent)
        hub.pages.add(queue)
        # Pings and bounded sends: a phone gone to sleep, or a client that does not read, is
        # let go after SEND seconds.
        stream = EventSourceResponse(headers=SECURITY_HEADERS, ping_interval=PING, send_timeout=doors.SEND)
        try:
            await stream.prepare(request)
            _small_send_buffer(request)
            async with stream:
                while stream.is_connected():
                    try:
                        shot = await asyncio.wait_for(queue.get(), PING)
                    except TimeoutError:
                        continue
                    await stream.send(shot)
        except (ConnectionError, TimeoutError):  # the page was closed, or read nothing: no error
            pass
        finally:
            hub.pages.discard(queue)
            open_pages.leave(who)
        return stream

    async def body(request: web.Request) -> dict[str, Any]:
        """The JSON object a change sends (UTF-8); 4xx for anything else (the guard has
        refused any from elsewhere)."""
        if request.content_type != "application/json":
            raise web.HTTPUnsupportedMediaType(reason="Expected JSON")
        if (request.charset or "utf-8").lower() not in ("utf-8", "utf8"):
            raise web.HTTPUnsupportedMediaType(reason="Expected UTF-8")
        try:
            async with asyncio.timeout(doors.IDLE):
                raw = await request.read()
        except TimeoutError:
            raise web.HTTPRequestTimeout(reason="The body came too slowly") from None
        try:
            doc = parse_json(raw.decode("utf-8"))
        except (JsonError, UnicodeDecodeError):  # nesting too deep is a JsonError too
            raise web.HTTPBadRequest(reason="Not JSON") from None
        if not isinstance(doc, dict):
            raise web.HTTPBadRequest(reason="Expected a JSON object")
        return doc

    def phone(request: web.Request) -> bool:
        """Whether the request comes from a paired phone (its cookie)."""
        return pairing.paired(request.cookies.get(COOKIE))

    def answer(status: int, **fields: Any) -> web.Response:
        return web.json_response(fields, status=status)

    def hide_code(was_showing: bool) -> None:
        """The code just used or dead: the OLED's overlay goes."""
        if was_showing and not pairing.showing and put is not None:
            put(PhoneCode(None))

    async def ask(request: web.Request) -> web.Response:
        await body(request)
        if put is None:
            return answer(503, error="read-only")
        asked = pairing.ask()
        if asked is None:  # box-wide: however many addresses ask
            return answer(429, error="asked too often", wait=round(pairing.wait(), 1))
        ticket, code = asked
        put(PhoneCode(code))  # to the OLED's overlay only: never in an answer
        response = answer(202)
        response.set_cookie(TICKET, ticket, httponly=True, samesite="Strict", path="/pair",
                            max_age=int(LIFE))
        return response

    async def pair(request: web.Request) -> web.Response:
        doc = await body(request)
        was_showing = pairing.showing
        verdict, token = pairing.pair(request.cookies.get(TICKET), doc.get("code"))
        hide_code(was_showing)
        if token is None:
            return answer(403, error="wrong code" if verdict == WRONG else "ask for a code first")
        response = answer(200, csrf=csrf_of(token))
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/", max_age=KEPT)
        response.del_cookie(TICKET, path="/pair")
        return response

    async def paired(request: web.Request) -> web.Response:
        token = request.cookies.get(COOKIE)
        if not pairing.paired(token):
            return answer(200, paired=False)
        return answer(200, paired=True, csrf=csrf_of(token or ""))

    async def name(request: web.Request) -> web.Response:
        doc = await body(request)
        if not pairing.allowed(request.cookies.get(COOKIE), request.headers.get("X-CSRF-Token")):
            return answer(403, error="not paired")
        value = doc.get("name")
        if not isinstance(value, str) or not is_name(value):
            return answer(400, error="bad name")
        if put is None:
            return answer(503, error="read-only")
        put(PhoneName(value.strip()))
        return answer(202)

    async def setting(request: web.Request) -> web.Response:
        doc = await body(request)
        if not pairing.allowed(request.cookies.get(COOKIE), request.headers.get("X-CSRF-Token")):
            return answer(403, error="not paired")
        found = setting_of(doc)
        if found is None:
            return answer(400, error="not a setting the box offers")
        if put is None:
            return answer(503, error="read-only")
        put(found)
        return answer(202)

    async def games(request: web.Request) -> web.Response:
        if data_dir is None:
            return answer(200, games=[], statistics="")
        found = await asyncio.to_thread(history.past_games, data_dir, hub.language, paired=phone(request))
        stats = await asyncio.to_thread(history.statistics_html, history.statistics(found), hub.language)
        return answer(200, games=found, statistics=stats)

    async def record(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        path = history.game_file(data_dir, name, phone(request)) if data_dir is not None else None
        if path is None:
            raise web.HTTPNotFound()
        try:
            text = await asyncio.to_thread(read_text, path, "a record", RECORD_BYTES)
        except UserError:
            raise web.HTTPNotFound() from None
        return web.Response(text=text, content_type="application/x-ndjson",
                            headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def bgstats_qr(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        found = await asyncio.to_thread(history.bgstats_qr, data_dir, name) if data_dir is not None else None
        if found is None:
            raise web.HTTPNotFound()
        return web.Response(text=found, content_type="image/svg+xml")

    async def frames(request: web.Request) -> web.Response:
        name = request.match_info["name"]
        found = (await asyncio.to_thread(history.game_frames, data_dir, name, hub.language, phone(request))
                 if data_dir is not None else None)
        if found is None:
            raise web.HTTPNotFound()
        return answer(200, frames=found)

    async def backup(request: web.Request) -> web.StreamResponse:
        # A paired phone's only: a backup holds every kept game and the paired phones' file.
        if data_dir is None or not phone(request):
            return answer(403, error="not paired")
        with tempfile.TemporaryFile() as made:
            try:
                await asyncio.to_thread(write_backup, data_dir, made)
            except UserError:
                return answer(503, error="the backup could not be made")
            response = web.StreamResponse(headers={
                "Content-Type": "application/gzip",
                "Content-Disposition": f'attachment; filename="{archive_name()}"'})
            response.headers.update(SECURITY_HEADERS)  # prepared here: the guard cannot add them
            response.content_length = made.tell()
            made.seek(0)
            await response.prepare(request)
            while chunk := await asyncio.to_thread(made.read, 64 * 1024):
                await response.write(chunk)
            await response.write_eof()
        return response

    app = web.Application(middlewares=[guard], client_max_size=MAX_BODY)
    app.router.add_get("/backup", backup)
    app.router.add_get("/games", games)
    app.router.add_get(r"/games/{name:[0-9a-z-]{1,60}\.jsonl}", record)
    app.router.add_get(r"/games/{name:[0-9a-z-]{1,60}\.jsonl}/frames", frames)
    app.router.add_get(r"/games/{name:[0-9a-z-]{1,60}\.jsonl}/bgstats.svg", bgstats_qr)
    app.router.add_post("/pair/ask", ask)
    app.router.add_post("/pair", pair)
    app.router.add_get("/pair", paired)
    app.router.add_post("/name", name)
    app.router.add_post("/settings", setting)
    for path in FILES:
        app.router.add_get(path, page)
    app.router.add_get("/state", state)
    app.router.add_get("/events", events)
    return app


#: Bytes the system may hold for an open page that does not read: past them, its sends wait
#: (and after ``doors.SEND`` seconds it is let go). Tens of tables.
SEND_BUFFER = 32 * 1024
#: Seconds the rest of a refused body is read and dropped before the connection closes.
LINGER = 1.0
#: Connections the system holds that the server has not yet taken.
BACKLOG_CONNECTIONS = 64


def _small_send_buffer(request: web.Request) -> None:
    sock = request.transport.get_extra_info("socket") if request.transport is not None else None
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        except OSError:  # gone already: the first send says so
            pass


class _Counted(asyncio.Protocol):
    """One connection, counted in ``connections`` by remote address: past their caps closed
    at once (the others' descriptors stay the box's), else handed to aiohttp's ``handler``."""

    def __init__(self, handler: asyncio.Protocol, connections: doors.Doors, problems: doors.Problems):
        self.handler, self.connections, self.problems = handler, connections, problems
        self.who: str | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        who = str(peer[0]) if peer else "?"
        if not self.connections.enter(who):
            assert isinstance(transport, asyncio.Transport)  # a stream socket's
            transport.abort()  # at once: no lingering, no descriptor kept
            self.problems.say("connections", f"too many connections, from {who} or in all: closed at once")
            return
        self.who = who
        self.handler.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.who is not None:
            self.connections.leave(self.who)
            self.who = None
            self.handler.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.who is not None:
            self.handler.data_received(data)

    def eof_received(self) -> bool | None:
        return self.handler.eof_received() if self.who is not None else None

    def pause_writing(self) -> None:
        self.handler.pause_writing()

    def resume_writing(self) -> None:
        self.handler.resume_writing()


def _printable(text: str, room: int = 160) -> str:
    """``text`` (a client's words may be in it) on one short line without control characters."""
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= room else text[:room - 1] + "…"


class _ProblemLog(logging.Logger):
    """aiohttp's log of a request it could not answer (a malformed one, a client gone): one
    line per kind of problem, never a traceback."""

    def __init__(self, problems: doors.Problems):
        super().__init__("totem-companion.web", logging.WARNING)
        self.problems = problems

    def handle(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        kind = type(exc).__name__ if exc is not None else record.msg
        detail = f"{type(exc).__name__}: {exc}" if exc is not None else record.getMessage()
        self.problems.say(f"request {kind}", f"a request not answered ({_printable(detail)})")


def _loop_problem(problems: doors.Problems, context: dict[str, Any]) -> None:
    """The server's event loop's problems (a connection that cannot be accepted: no
    descriptor left, …) in one line per kind."""
    exc = context.get("exception")
    message = str(context.get("message", "a problem"))
    detail = f"{message}: {exc}" if exc is not None else message
    problems.say(f"loop {type(exc).__name__} {message}", _printable(detail))


async def serve(hub: Hub, bind: str, port: int, started: Callable[[asyncio.AbstractEventLoop], None],
                stop: asyncio.Event, *, pairing: Pairing | None = None,
                put: Callable[[object], None] | None = None, data_dir: Path | None = None,
                err: TextIO | None = None) -> None:
    """Serve the page on ``bind:port`` until ``stop`` is set; ``started(loop)`` once it listens.
    ``pairing``, ``put`` and ``data_dir``: as ``make_app``; problems are said on ``err``
    (standard error by default), one line per kind."""
    await serve_behind_doors(make_app(hub, pairing=pairing, put=put, data_dir=data_dir), bind, port,
                             started, stop, err)


async def serve_behind_doors(app: web.Application, bind: str, port: int,
                             started: Callable[[asyncio.AbstractEventLoop], None], stop: asyncio.Event,
                             err: TextIO | None = None) -> None:
    """Serve ``app`` on ``bind:port`` until ``stop`` is set, behind the doors (``doors.py``):
    connections bounded in all and per address, header and idle time-outs of seconds, each
    kind of problem one line on ``err`` (standard error by default) — the box's page and the
    club's pages alike. ``started(loop)`` once it listens."""
    problems = doors.Problems(err if err is not None else sys.stderr)
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _, context: _loop_problem(problems, context))
    # keepalive_timeout: aiohttp closes a connection that has not sent a whole header that
    # long after it opened or had its last answer (nothing sent, half a header, dripped);
    # lingering_time: how long the rest of a body refused (413, 408) is read and dropped.
    runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=0.5,
                           keepalive_timeout=doors.IDLE, lingering_time=LINGER,
                           logger=_ProblemLog(problems))
    await runner.setup()
    connections = doors.Doors(doors.PER_ADDRESS, doors.connection_cap())
    handlers = runner.server
    assert handlers is not None
    listening = await loop.create_server(lambda: _Counted(handlers(), connections, problems), bind, port,
                                         backlog=BACKLOG_CONNECTIONS)
    try:
        started(loop)
        await stop.wait()
    finally:
        listening.close()
        await runner.cleanup()
