"""The past games of the phone page: the finished games kept in ``DATA/games/``, newest
first, each with its final score, and statistics per player name.

Only files the box itself names there are read (``YYYYMMDD-HHMMSS-<game>[-N].jsonl``,
regular files, bounded like any record: ``companion.files``); a request names a game by that
file name alone, checked against the folder's own list, so no request reaches a file
elsewhere. A record that cannot be read is left out. A kept unfinished game
(``…-<game>-unfinished[-N].jsonl``, set aside by a new game: its hands are still in play)
is listed and served to a paired phone only (``paired``); anyone on the network sees the
finished games. Pure: no server here; the server calls
it on a worker thread, never the session's.
"""

from __future__ import annotations

import itertools
import re
import stat
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.phone_table import Cell, Grid, Row, Sheet, number
from companion.record_files import read_record_file
from companion.ui.text import speaking, t
from companion.web import bgstats, render

#: The names the box gives finished games (journal.py), and nothing else.
NAME = re.compile(r"^(\d{8})-(\d{6})-([a-z][a-z-]{0,30})(-\d{1,4})?\.jsonl$")
#: The most games listed (the newest).
LIMIT = 200
GAMES_DIR = "games"

_cache: dict[tuple[str, int, int, str], dict[str, Any] | None] = {}


def kept_unfinished(name: str) -> bool:
    """Whether ``name`` is a kept unfinished game's file (a paired phone's only)."""
    match = NAME.match(name)
    return match is not None and match.group(3).endswith("-unfinished")


def game_file(data_dir: Path, name: str, paired: bool = False) -> Path | None:
    """The game ``name`` of the data folder: a regular file the box named, and for a kept
    unfinished game a ``paired`` phone asking; else None."""
    if not NAME.match(name) or (kept_unfinished(name) and not paired):
        return None
    path = Path(data_dir) / GAMES_DIR / name
    try:
        info = path.lstat()  # a link is not one of the box's games
    except OSError:
        return None
    return path if stat.S_ISREG(info.st_mode) else None


def past_games(data_dir: Path, lang: str = "en", paired: bool = False) -> list[dict[str, Any]]:
    """The finished games, newest first: file name, date, game, players with their scores,
    the winners' seats (as ``score --json``), ``finished``; their words (a favourite
    village) in ``lang``. For a ``paired`` phone, the kept unfinished games too."""
    folder = Path(data_dir) / GAMES_DIR
    try:
        names = sorted((n for n in (e.name for e in folder.iterdir())
                        if NAME.match(n) and (paired or not kept_unfinished(n))), reverse=True)
    except OSError:
        return []
    games = []
    for name in names[:LIMIT]:
        summary = _summary(data_dir, name, lang)
        if summary is not None and (summary["finished"] or kept_unfinished(name)):
            games.append(summary)
    return games


def _summary(data_dir: Path, name: str, lang: str) -> dict[str, Any] | None:
    """One game's summary, read once per version of its file (size and time)."""
    path = game_file(data_dir, name, paired=True)  # past_games chose who sees it
    if path is None:
        return None
    info = path.stat()
    key = (str(path), info.st_size, info.st_mtime_ns, lang)
    if key not in _cache:
        if len(_cache) > 2 * LIMIT:
            _cache.clear()
        with speaking(lang):
            _cache[key] = _read(path, name, data_dir)
    return _cache[key]


def _read(path: Path, name: str, data_dir: Path) -> dict[str, Any] | None:
    from companion.games import GAMES, game_of_record

    try:
        text = read_record_file(path)
        entry = GAMES[game_of_record(text)]
        state, _ = entry.record.read_record(text, data_dir)
    except UserError:
        return None  # not a record the box can read: left out
    score = entry.report.score_json(state)
    match = NAME.match(name)
    assert match is not None  # game_file checked it
    day, clock = match.group(1), match.group(2)
    summary = {"file": name, "when": f"{day[:4]}-{day[4:6]}-{day[6:]} {clock[:2]}:{clock[2:4]}",
               "game": score["game"], "winners": score["winners"], "players": score["players"],
               "finished": bool(score.get("finished"))}
    if summary["finished"]:
        summary["bgstats"] = bgstats.link(bgstats.play(
            entry.name, entry.title, [p["name"] for p in score["players"]],
            [float(p.get(entry.report.points, 0)) for p in score["players"]], score["winners"],
            f"{summary['when']}:{clock[4:6]}", start=bgstats.start_seat(text)))
    phone = entry.table.phone
    if phone is not None:
        phone.summary(state, summary["players"])
    return summary


def bgstats_qr(data_dir: Path, name: str) -> str | None:
    """The QR code (SVG) of the finished game ``name``'s BG Stats link; None when there is
    no such finished game."""
    if game_file(data_dir, name) is None:
        return None
    summary = _summary(data_dir, name, "en")
    link = summary.get("bgstats") if summary is not None else None
    return bgstats.qr_svg(link) if link else None


def statistics(games: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Per game, per player name, of the finished games alone: games, wins, average and
    best score, and the game's own columns (its phone's ``tallies``: a favourite place, the
    rounds won) under their field names."""
    from companion.games import GAMES

    out: dict[str, list[dict[str, Any]]] = {}
    for name in dict.fromkeys(g["game"] for g in games if g["finished"]):
        if name not in GAMES:
            continue
        phone = GAMES[name].table.phone
        tallies = phone.tallies if phone is not None else ()
        rows: dict[str, dict[str, Any]] = {}
        for game in (g for g in games if g["finished"] and g["game"] == name):
            for seat, player in enumerate(game["players"]):
                row = rows.setdefault(player["name"], {"name": player["name"], "games": 0, "wins": 0,
                                                       "scores": [], "counts": defaultdict(Counter)})
                row["games"] += 1
                row["wins"] += seat in game["winners"]
                row["scores"].append(player.get("total", player.get("points", 0)))
                for tally in tallies:
                    found = player.get(tally.field, [] if tally.most else 0)
                    row["counts"][tally.field].update(found if tally.most else {"": found})
        table = []
        for row in rows.values():
            scores, counts = row.pop("scores"), row.pop("counts")
            row |= {"average": round(sum(scores) / len(scores), 1), "best": max(scores)}
            for tally in tallies:
                common = counts[tally.field].most_common(1)
                row[tally.field] = (common[0][0] if common else None) if tally.most else counts[tally.field][""]
            table.append(row)
        out[name] = sorted(table, key=lambda r: (-r["games"], r["name"]))
    return out


def statistics_html(stats: dict[str, list[dict[str, Any]]], lang: str) -> str:
    """The statistics as the page lays them out: a table a game, headed by its title, with
    the shared columns and only that game's own, in ``lang``."""
    from companion.games import GAMES

    grids = []
    with speaking(lang):
        for name, rows in stats.items():
            entry = GAMES[name]
            phone = entry.table.phone
            tallies = phone.tallies if phone is not None else ()
            heads = (Cell(""), *(Cell(t(f"web.{key}"), figure=True) for key in SHARED_COLUMNS),
                     *(Cell(entry.text(tally.head), short=entry.text(tally.short) if tally.short else "",
                            figure=not tally.most) for tally in tallies))
            body = tuple(Row((Cell(str(row["name"])), *(_figure(row[key]) for key in SHARED_COLUMNS),
                              *(Cell(str(row[tally.field] or "")) if tally.most else number(row[tally.field])
                                for tally in tallies)))
                         for row in rows)
            grids.append(Grid(heads, body, title=entry.shown_title()))
    return render.sheet(Sheet(tuple(grids)).to_json())


def _figure(value: float) -> Cell:
    """A figure as the language writes it (``12,5`` in French), a whole one without tenths."""
    return number(f"{value:g}".replace(".", t("web.decimal")))


#: The columns every game's statistics have, by their field (and their words, ``web.<field>``).
SHARED_COLUMNS = ("games", "wins", "average", "best")


#: The most frames a game's steps give (a game of either kind has a few hundred at most).
MAX_FRAMES = 2000


def game_frames(data_dir: Path, name: str, lang: str = "en", paired: bool = False) -> list[list[str]] | None:
    """The OLED's words after each line of the game ``name`` (``replay``'s frames, as
    words, in ``lang``): the steps a phone goes through; None when there is no such game
    (or it is a kept unfinished one and the phone is not ``paired``)."""
    from companion.games import game_entry, game_of_record
    from companion.ui.canvas import frame_words

    path = game_file(data_dir, name, paired)
    if path is None:
        return None
    try:
        text = read_record_file(path)
        with speaking(lang):
            frames = game_entry(game_of_record(text)).table.frames(text, data_dir)
            return [frame_words(image) for image, _ in itertools.islice(frames, MAX_FRAMES)]
    except UserError:
        return None
