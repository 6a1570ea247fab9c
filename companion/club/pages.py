"""The club's web pages and JSON (aiohttp, with the box's page's doors: only the club's own
names are answered, connections are bounded a client and in all, problems are one line).

* ``/``                        every game's leaderboard and the latest games
* ``/games/GAME``              a game's whole leaderboard
* ``/players/GAME/NAME``       a player's games, wins and rating after each game
* ``/tables``                  every box's live table (the public view), for a café's screen,
                               each game drawn by its own ``rows`` (its phone page's part)
* ``/bgstats/ID``              a game as a BG Stats link and its QR code
* ``/api/games``, ``/api/players``   the same as JSON; ``/plays.csv`` every play as CSV

Pages are in the club's language (the shared catalogue's ``club.*`` words). A player's page
shows finished games only: an unfinished game never reaches the club's database.
"""

from __future__ import annotations

import asyncio
import csv
import html
import io
from collections.abc import Callable
from typing import Any, TextIO
from urllib.parse import quote

from aiohttp import web

from companion.club.server import ClubServer
from companion.club.store import KeptGame, Store
from companion.ui.text import t
from companion.web import bgstats, doors

#: The leaderboard's length on the front page.
TOP = 20
#: The latest games on the front page.
LATEST = 20
#: The most games ``/api/games`` lists at once (``?after=SEQ`` pages on).
API_GAMES = 1000

_STYLE = """body{font-family:system-ui,sans-serif;margin:1em auto;max-width:60em;padding:0 1em}
table{border-collapse:collapse;margin-bottom:1.5em}td,th{padding:.25em .8em;text-align:left;
border-bottom:1px solid #ccc}th{background:#eee}.n{text-align:right}.live{display:inline-block;
vertical-align:top;border:1px solid #999;border-radius:.5em;padding:.5em 1em;margin:.5em}"""


def _title(game: str, lang: str | None = None) -> str:
    """A game's name as the club's language writes it."""
    from companion.games import GAMES
    return GAMES[game].shown_title(lang) if game in GAMES else game


def game_json(kept: KeptGame) -> dict[str, Any]:
    """One game as ``/api/games`` lists it."""
    r = kept.result
    return {"id": kept.id, "game": r.game, "box": kept.box, "players": list(r.players),
            "scores": [int(p) if float(p).is_integer() else p for p in r.points],
            "winners": [r.players[w] for w in r.winners], "finished": kept.finished}


def players_json(store: Store) -> list[dict[str, Any]]:
    """Every player's rating in each game, best first: as ``/api/players`` lists them."""
    rows = [{"name": name, "game": game, "rating": round(rating.shown, 3), "games": rating.games,
             "wins": rating.wins} for (game, name), rating in store.ratings().items()]
    return sorted(rows, key=lambda row: (row["game"], -row["rating"], row["name"]))


def _page(lang: str, heading: str, body: str, refresh: int | None = None) -> web.Response:
    meta = f'<meta http-equiv="refresh" content="{refresh}">' if refresh else ""
    text = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">{meta}'
            f"<title>{html.escape(heading)}</title><style>{_STYLE}</style></head><body>"
            f'<p><a href="/">{html.escape(t("club.title", lang))}</a> · '
            f'<a href="/tables">{html.escape(t("club.tables", lang))}</a> · '
            f'<a href="/plays.csv">{html.escape(t("club.csv", lang))}</a></p>'
            f"<h1>{html.escape(heading)}</h1>{body}</body></html>")
    return web.Response(text=text, content_type="text/html", charset="utf-8")


def _player_link(game: str, name: str) -> str:
    return f'<a href="/players/{quote(game, safe="")}/{quote(name, safe="")}">{html.escape(name)}</a>'


def _leaderboard(store: Store, game: str, lang: str, top: int | None) -> str:
    rows = [row for row in players_json(store) if row["game"] == game][:top]
    if not rows:
        return f"<p>{html.escape(t('club.no_games', lang))}</p>"
    head = "".join(f"<th>{html.escape(t(k, lang))}</th>" for k in ("club.player", "club.rating",
                                                                   "club.games", "club.wins"))
    body = "".join(f'<tr><td>{_player_link(game, r["name"])}</td><td class="n">{r["rating"]:.1f}</td>'
                   f'<td class="n">{r["games"]}</td><td class="n">{r["wins"]}</td></tr>' for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _games_table(games: list[KeptGame], lang: str) -> str:
    if not games:
        return f"<p>{html.escape(t('club.no_games', lang))}</p>"
    head = "".join(f"<th>{html.escape(t(k, lang))}</th>" for k in ("club.finished", "club.box",
                                                                   "club.players", "club.winners",
                                                                   "club.bgstats"))
    rows = []
    for kept in games:
        r = kept.result
        players = ", ".join(f"{_player_link(r.game, name)} {points:g}" for name, points in zip(r.players, r.points))
        winners = ", ".join(html.escape(r.players[w]) for w in r.winners)
        rows.append(f"<tr><td>{html.escape(kept.finished)}</td><td>{html.escape(kept.box)}</td>"
                    f"<td>{html.escape(_title(r.game, lang))}: {players}</td><td>{winners}</td>"
                    f'<td><a href="/bgstats/{kept.id}">BG Stats</a></td></tr>')
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def _chart(points: list[float]) -> str:
    """The rating after each game as a small line (SVG, no script)."""
    if len(points) < 2:
        return ""
    low, high = min(points), max(points)
    span = (high - low) or 1.0
    xy = " ".join(f"{i * 400 / (len(points) - 1):.1f},{110 - (p - low) * 100 / span:.1f}"
                  for i, p in enumerate(points))
    return (f'<svg width="400" height="120" viewBox="-5 0 410 120" role="img">'
            f'<polyline fill="none" stroke="#036" stroke-width="2" points="{xy}"/></svg>')


def _english_title(game: str) -> str:
    """A game's English title, as BG Stats and BoardGameGeek name it."""
    from companion.games import GAMES
    return GAMES[game].title if game in GAMES else game


def bgstats_link(kept: KeptGame, record: str) -> str:
    """The BG Stats link of a kept game: played at its box, its first mover the start player."""
    r = kept.result
    return bgstats.link(bgstats.play(r.game, _english_title(r.game), r.players, r.points, r.winners,
                                     _play_date(kept.finished), start=bgstats.start_seat(record),
                                     location=kept.box))


def _play_date(finished: str) -> str:
    """``YYYY-MM-DD HH:MM:SS`` in the club's time of an ISO 8601 time (UTC, as a box's
    outbox writes it; BG Stats takes the local time)."""
    from datetime import datetime
    try:
        return datetime.fromisoformat(finished.replace("Z", "+00:00")).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return finished.replace("T", " ")[:19]


def make_app(store: Store, server: ClubServer | None, lang: str) -> web.Application:
    """The club's web application over ``store`` (``server``: the live tables)."""
    names = doors.own_names()

    @web.middleware
    async def guard(request: web.Request, handler: Callable[..., Any]) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            return web.Response(status=405, text="read only\n")
        if not doors.is_own_host(request.headers.get("Host"), names):
            return web.Response(status=421, text="not a name of this club\n")
        try:
            response: web.StreamResponse = await handler(request)
        except web.HTTPException as exc:
            response = web.Response(status=exc.status, text=f"{exc.reason.lower()}\n")
        response.headers.update({"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
                                 "Content-Security-Policy": "default-src 'self'; style-src 'unsafe-inline'"})
        return response

    async def front(request: web.Request) -> web.Response:
        from companion.games import GAMES
        parts = [f'<h2><a href="/games/{quote(g)}">{html.escape(t("club.leaderboard", lang, game=_title(g, lang)))}'
                 f"</a></h2>{_leaderboard(store, g, lang, TOP)}" for g in GAMES]
        latest = store.games()[-LATEST:][::-1]
        parts.append(f"<h2>{html.escape(t('club.recent', lang))}</h2>{_games_table(latest, lang)}")
        return _page(lang, t("club.title", lang), "".join(parts))

    async def leaderboard(request: web.Request) -> web.Response:
        game = request.match_info["game"]
        from companion.games import GAMES
        if game not in GAMES:
            raise web.HTTPNotFound()
        return _page(lang, t("club.leaderboard", lang, game=_title(game, lang)), _leaderboard(store, game, lang, None))

    async def player(request: web.Request) -> web.Response:
        game, name = request.match_info["game"], request.match_info["name"]
        rating = store.ratings(game).get((game, name))
        if rating is None:
            raise web.HTTPNotFound()
        history = store.history(game, name)
        body = (f"<p>{html.escape(t('club.rating', lang))}: {rating.shown:.1f} · "
                f"{html.escape(t('club.games', lang))}: {rating.games} · "
                f"{html.escape(t('club.wins', lang))}: {rating.wins}</p>"
                f"<h2>{html.escape(t('club.rating_over_time', lang))}</h2>{_chart([r for _, r in history])}"
                f"<h2>{html.escape(t('club.games', lang))}</h2>"
                f"{_games_table(store.games(game=game, player=name)[::-1], lang)}")
        return _page(lang, f"{name} · {_title(game, lang)}", body)

    async def tables(request: web.Request) -> web.Response:
        live = dict(server.live) if server is not None else {}
        if not live:
            body = f"<p>{html.escape(t('club.no_tables', lang))}</p>"
        else:
            body = "".join(_live_html(box, view, lang) for box, view in sorted(live.items()))
        return _page(lang, t("club.tables", lang), body, refresh=5)

    async def to_bgstats(request: web.Request) -> web.Response:
        found = store.game(request.match_info["id"])
        if found is None:
            raise web.HTTPNotFound()
        kept, record = found
        link = bgstats_link(kept, record)
        r = kept.result
        body = (f'<p><a href="{html.escape(link)}">{html.escape(t("club.bgstats", lang))}</a></p>'
                f"{bgstats.qr_svg(link)}<p>{html.escape(t('club.bgstats_scan', lang))}</p>")
        return _page(lang, f"{_title(r.game, lang)} · {kept.finished} · {kept.box}", body)

    async def api_games(request: web.Request) -> web.Response:
        after = request.query.get("after", "0")
        if not after.isdigit() or len(after) > 18:
            raise web.HTTPBadRequest()
        return web.json_response([game_json(k) for k in store.games(after=int(after), limit=API_GAMES)])

    async def api_players(request: web.Request) -> web.Response:
        return web.json_response(players_json(store))

    async def plays(request: web.Request) -> web.Response:
        out = io.StringIO()
        writer = csv.writer(out)
        # One row a player of a game; what a play log (BG Stats, BoardGameGeek) asks for: the
        # game's title, the date, where, each player's score, place and win.
        writer.writerow(["id", "game", "title", "box", "finished", "player", "score", "winner", "rank"])
        for kept in store.games():
            r = kept.result
            places = bgstats.ranks(r.points, r.winners)
            for seat, (name, points) in enumerate(zip(r.players, r.points)):
                writer.writerow([kept.id, r.game, _english_title(r.game), kept.box, kept.finished, name,
                                 f"{points:g}", int(seat in r.winners), places[seat]])
        return web.Response(text=out.getvalue(), content_type="text/csv", charset="utf-8",
                            headers={"Content-Disposition": 'attachment; filename="plays.csv"'})

    app = web.Application(middlewares=[guard], client_max_size=1024)
    app.router.add_get("/", front)
    app.router.add_get("/games/{game}", leaderboard)
    app.router.add_get("/players/{game}/{name}", player)
    app.router.add_get("/tables", tables)
    app.router.add_get("/bgstats/{id:[0-9a-f]{64}}", to_bgstats)
    app.router.add_get("/api/games", api_games)
    app.router.add_get("/api/players", api_players)
    app.router.add_get("/plays.csv", plays)
    return app


def _cell(value: Any) -> str:
    if value is True:
        return "▶"  # the player to move
    if isinstance(value, list):
        return ", ".join(_cell(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {_cell(v)}" for k, v in value.items())
    return "" if value is None or value is False else str(value)


def _live_html(box: str, view: Any, lang: str) -> str:
    """A box's live table (its public view, as the phone page has it): its game, what the
    box says now, and the table as the game's own ``rows`` draws it (the phone page's part
    of the game), headings in the club's language; a table the game cannot read (a box's
    message is not trusted) is shown plainly, each list of rows as a table."""
    if not isinstance(view, dict):
        return ""
    parts = [f"<h2>{html.escape(box)} · {html.escape(_title(str(view.get('game')), lang))}</h2>"]
    for key in ("note", "done"):
        if view.get(key):
            parts.append(f"<p>{html.escape(_cell(view[key]))}</p>")
    table = view.get("table")
    table = table if isinstance(table, dict) else {}
    drawn = _game_rows(str(view.get("game")), table, lang)
    for item in drawn if drawn is not None else _plain_rows(table):
        if isinstance(item, str):
            parts.append(f"<p>{html.escape(item)}</p>")
        else:
            heads, rows = item
            head = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
            body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
            parts.append(f"<table><tr>{head}</tr>{body}</table>")
    return f'<div class="live">{"".join(parts)}</div>'


def _game_rows(game: str, table: dict[str, Any], lang: str) -> list[Any] | None:
    """The game's own drawing of ``table``; None when it has none or cannot read this one."""
    from companion.games import GAMES

    if game not in GAMES or not table:
        return None
    phone = GAMES[game].table.phone
    if phone is None or phone.rows is None:
        return None
    try:
        return phone.rows(table, lang)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None


def _plain_rows(table: dict[str, Any]) -> list[Any]:
    """Each list of rows of ``table`` as a table, headed by the table's own words where it
    gives them."""
    words: dict[str, Any] = table["words"] if isinstance(table.get("words"), dict) else {}
    out: list[Any] = []
    for value in table.values():
        if isinstance(value, list) and value and all(isinstance(row, dict) for row in value):
            columns = list(value[0])
            out.append(([str(words.get(c, "")) for c in columns],
                        [[_cell(row.get(c)) for c in columns] for row in value]))
    return out


async def serve(app: web.Application, bind: str, port: int, started: Callable[[], None],
                stop: asyncio.Event, err: TextIO | None = None) -> None:
    """Serve ``app`` on ``bind:port`` until ``stop`` is set, behind the box's page's doors
    (``companion.web.server.serve_behind_doors``)."""
    from companion.web.server import serve_behind_doors

    await serve_behind_doors(app, bind, port, lambda loop: started(), stop, err)
