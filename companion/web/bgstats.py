"""A finished game as a BG Stats link: the app players log their plays in (and post them to
BoardGameGeek from) opens it and offers to save the play.

BG Stats documents the link ("Push plays to BG Stats from other apps or websites",
https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/):
``bgstats://app.bgstatsapp.com/createPlay.html?data=<data>`` (or the same under
``https://``), ``<data>`` a URL-encoded JSON object: ``game`` (``name``, ``highestWins``,
``noPoints``, ``sourceGameId``, optional ``bggId``), ``playDate`` (``YYYY-MM-DD HH:MM:SS``),
optional ``durationMin``, ``location``, ``comments``, and ``players`` (each ``name``,
``score``, ``winner``, ``rank``, ``startPlayer``, ``sourcePlayerId``, ``role``). A box's record
keeps no clock, so ``durationMin`` is given only where the duration is known.

The same link as a QR code (segno, as the OLED's code of the phone page's address): a phone's
camera opens it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

#: The documented link, before its URL-encoded JSON.
LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="


def start_seat(record: str) -> int | None:
    """The seat that made the record's first move (its first line with ``"p"``); None when
    no line says."""
    for line in record.splitlines()[1:]:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and isinstance(entry.get("p"), int):
            return int(entry["p"])
    return None


def ranks(points: Sequence[float], winners: Sequence[int]) -> list[int]:
    """Each seat's place: the winners first (tied at 1), then the others by their points
    (equal points, equal place) — as the club's ratings order them."""
    def better(a: int, b: int) -> bool:
        return (a in winners and b not in winners) or (
            a not in winners and b not in winners and points[a] > points[b])
    return [1 + sum(better(other, seat) for other in range(len(points))) for seat in range(len(points))]


def play(game_id: str, title: str, names: Sequence[str], points: Sequence[float], winners: Sequence[int],
         when: str, start: int | None = None, location: str | None = None,
         duration_min: int | None = None) -> dict[str, Any]:
    """The documented JSON of one finished play (``when``: ``YYYY-MM-DD HH:MM[:SS]``)."""
    places = ranks(points, winners)
    out: dict[str, Any] = {
        "game": {"name": title, "highestWins": True, "noPoints": False, "sourceGameId": game_id},
        "playDate": when if len(when) > 16 else f"{when}:00",
        "players": [{"name": name, "score": int(p) if float(p).is_integer() else p,
                     "winner": seat in winners, "rank": places[seat], "startPlayer": seat == start,
                     "sourcePlayerId": name}
                    for seat, (name, p) in enumerate(zip(names, points))],
    }
    if location:
        out["location"] = location
    if duration_min is not None:
        out["durationMin"] = duration_min
    return out


def link(data: dict[str, Any]) -> str:
    """The ``bgstats://`` link of a play's JSON (compact, URL-encoded)."""
    return LINK + quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")


def qr_svg(url: str) -> str:
    """``url`` as a QR code: an SVG document, also good inline in a page (dark on white,
    4 pixels a module)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(url, error="l", micro=False).save(out, kind="svg", scale=4, border=2, dark="#000",
                                                  light="#fff", xmldecl=False, title="BG Stats")
    return out.getvalue().decode()
