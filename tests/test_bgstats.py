"""A finished game as BG Stats' documented link (companion/web/bgstats.py), its QR code, the
phone page's past games carrying it, and each game's drawing of its live table for the
club's tables page (``GamePhone.rows``)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

import pytest

from companion.games import GAMES, read_any_record
from companion.web import bgstats, history

DATA = Path(__file__).parent / "data"


def decoded(link: str) -> dict:
    """The JSON of a BG Stats link."""
    assert link.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    return json.loads(unquote(link.split("?data=", 1)[1]))


def test_a_play_is_the_documented_json_with_scores_winner_ranks_and_start_player():
    data = decoded(bgstats.link(bgstats.play("wakanda", "Wakanda", ["Ana", "Chloé", "Ben"], [12, 17, 9.5], [1],
                                             "2026-03-01 20:15", start=2, location="box1", duration_min=25)))
    assert data["game"] == {"name": "Wakanda", "highestWins": True, "noPoints": False, "sourceGameId": "wakanda"}
    assert data["playDate"] == "2026-03-01 20:15:00" and data["location"] == "box1" and data["durationMin"] == 25
    assert [(p["name"], p["score"], p["winner"], p["rank"], p["startPlayer"]) for p in data["players"]] == [
        ("Ana", 12, False, 2, False), ("Chloé", 17, True, 1, False), ("Ben", 9.5, False, 3, True)]
    assert [p["sourcePlayerId"] for p in data["players"]] == ["Ana", "Chloé", "Ben"]


def test_no_duration_nor_location_is_given_where_none_is_known():
    data = decoded(bgstats.link(bgstats.play("totem-wars", "Totem Wars", ["A", "B"], [3, 3], [0, 1],
                                             "2026-03-01 20:15:07")))
    assert "durationMin" not in data and "location" not in data and data["playDate"] == "2026-03-01 20:15:07"
    assert [p["rank"] for p in data["players"]] == [1, 1] and not any(p["startPlayer"] for p in data["players"])


@pytest.mark.parametrize("points, winners, places", [
    ([3, 5, 5, 1], [1, 2], [3, 1, 1, 4]),   # winners tied first, then by points
    ([9, 5, 7], [1], [2, 1, 3]),            # the winner first even with fewer points (a rule decided)
    ([4, 4, 1], [], [1, 1, 3]),             # equal points, equal place
])
def test_ranks_put_the_winners_first_then_the_others_by_points(points, winners, places):
    assert bgstats.ranks(points, winners) == places


@pytest.mark.parametrize("record, seat", [
    ('{"game": "wakanda", "players": ["A", "B"], "first": 1}\n{"p": 1, "draw": "sun"}\n', 1),
    ('{"game": "x"}\nnot json\n[1]\n{"totems": []}\n{"p": 0}\n', 0),   # lines that say nothing are passed
    ('{"game": "x"}\n{"p": "1"}\n', None),
    ("", None),
])
def test_the_start_player_is_the_seat_of_the_first_move(record, seat):
    assert bgstats.start_seat(record) == seat


def test_the_qr_code_is_an_svg_document_of_the_link():
    link = bgstats.link(bgstats.play("wakanda", "Wakanda", ["Ana", "Ben"], [1, 2], [1], "2026-03-01 20:15"))
    svg = bgstats.qr_svg(link)
    assert svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg
    assert "BG Stats" in svg and svg != bgstats.qr_svg(link.replace("Ana", "Eve"))


def test_the_past_games_carry_their_bgstats_link_and_qr(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    (games / "20260301-201500-wakanda.jsonl").write_text((DATA / "wakanda_worked_example.jsonl").read_text())
    (games / "20260302-193007-totem-wars.jsonl").write_text((DATA / "totem_wars_finished.jsonl").read_text())
    (games / "20260303-100000-wakanda-unfinished.jsonl").write_text(
        (DATA / "wakanda_worked_example.jsonl").read_text().splitlines()[0] + "\n")
    found = {g["file"]: g for g in history.past_games(tmp_path, "fr", paired=True)}
    totem = decoded(found["20260302-193007-totem-wars.jsonl"]["bgstats"])
    summary = found["20260302-193007-totem-wars.jsonl"]
    assert totem["game"]["name"] == "Totem Wars" and totem["playDate"] == "2026-03-02 19:30:07"
    assert [p["name"] for p in totem["players"]] == [p["name"] for p in summary["players"]]
    assert [p["score"] for p in totem["players"]] == [p["points"] for p in summary["players"]]
    assert [s for s, p in enumerate(totem["players"]) if p["winner"]] == summary["winners"]
    first_mover = next(json.loads(line)["p"] for line in (DATA / "totem_wars_finished.jsonl").read_text().splitlines()
                       if '"p"' in line)
    assert [p["startPlayer"] for p in totem["players"]].index(True) == first_mover
    wakanda = decoded(found["20260301-201500-wakanda.jsonl"]["bgstats"])
    assert wakanda["players"][0]["startPlayer"] and wakanda["game"]["sourceGameId"] == "wakanda"
    assert "bgstats" not in found["20260303-100000-wakanda-unfinished.jsonl"]   # not finished: no play to log
    qr = history.bgstats_qr(tmp_path, "20260301-201500-wakanda.jsonl")
    assert qr == bgstats.qr_svg(found["20260301-201500-wakanda.jsonl"]["bgstats"])
    assert history.bgstats_qr(tmp_path, "20260303-100000-wakanda-unfinished.jsonl") is None
    assert history.bgstats_qr(tmp_path, "../20260301-201500-wakanda.jsonl") is None
    assert history.bgstats_qr(tmp_path, "20990101-000000-wakanda.jsonl") is None


def _table(record: Path):
    """A finished game's table, as the phone page's snapshot gives it (through JSON)."""
    game, state, _ = read_any_record(record.read_text(), None)
    return game, json.loads(json.dumps(game.table.phone.table(state, None)))


def test_the_tables_page_draws_wakanda_with_labelled_columns_in_the_clubs_language():
    game, table = _table(DATA / "wakanda_worked_example.jsonl")
    drawn = game.table.phone.rows(table, "fr")
    tables = [item for item in drawn if not isinstance(item, str)]
    villages, people = tables
    assert villages[0][0] == game.text("done.turned_up", "fr", n=1, village=table["villages"][0]["tile"])
    assert villages[0][0] != game.text("done.turned_up", "de", n=1, village=table["villages"][0]["tile"])
    assert len(villages[1]) == 2 and len(villages[1][0]) == 6       # the poles, then the owners
    assert people[0] == ["Joueur", "Main", "Points"]
    assert [row[0].lstrip("▶ ") for row in people[1]] == [p["name"] for p in table["players"]]
    assert all(row[2].split()[0] == str(p["points"]) for row, p in zip(people[1], table["players"]))
    german = [item for item in game.table.phone.rows(table, "de") if not isinstance(item, str)][1]
    assert german[0] == ["Spieler", "Hand", "Punkte"]


def test_the_tables_page_draws_totem_wars_with_labelled_columns_and_no_card_face():
    game, table = _table(DATA / "totem_wars_finished.jsonl")
    heads, people = [item for item in game.table.phone.rows(table, "fr") if not isinstance(item, str)][0]
    words = [GAMES["totem-wars"].text(f"tw.status.{key}", "fr") for key in ("hand", "points", "taken")]
    assert heads == ["Joueur", "Totem", "Sur la table", *words]
    assert [row[4] for row in people] == [str(r["points"]) for r in table["rows"]]
    assert all(set(row[2]) <= set("▮▯ +0123456789") for row in people)


@pytest.mark.parametrize("game", ["wakanda", "totem-wars"])
@pytest.mark.parametrize("table", [{}, {"players": "x", "rows": 5, "villages": [{}]},
                                   {"players": [{"name": "A"}], "villages": [], "rows": [{"name": 1}]}])
def test_a_table_the_game_cannot_read_is_an_error_it_names(game, table):
    with pytest.raises((KeyError, TypeError, ValueError, AttributeError, IndexError)):
        GAMES[game].table.phone.rows(table, "en")
