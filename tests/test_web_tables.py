"""The phone page's tables (issue 32 item 8, issue 33): laid out from the game's values by a
generic description each game's ``phone.py`` gives (``companion/phone_table.py``), drawn
into HTML on the box (``companion/web/render.py``) for every game alike; the same table on
every page of a result; only what the public view shows; every word in the box's language."""

from __future__ import annotations

import asyncio
import random
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import tw_table_helpers as tw
from aiohttp.test_utils import TestClient, TestServer
from box_helpers import scan

from companion import phone_table
from companion.events import Press
from companion.games import GAMES
from companion.phone_table import Cell, Grid, Row, Sheet, Stack, Stacks, Text, number
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.settings import SettingsStore
from companion.web import history, render, server
from companion.web.snapshot import snapshot

DATA = Path(__file__).parent / "data"


def resumed(tmp_path: Path, record: str, lang: str = "en") -> Session:
    """A box whose journal holds the finished game ``record``: OK resumes it on its score."""
    data = tmp_path / "data"
    data.mkdir(parents=True)
    (data / "current.jsonl").write_text((DATA / record).read_text())
    s = Session(data, TagRegistry(tmp_path / "tags.json"), rng=random.Random(1),
                settings=SettingsStore(None, language=lang))
    s.handle(Press("ok"))                                   # Resume: the score's first page
    assert s.screen == "score"
    return s


def grids(shot: dict) -> list[dict]:
    return [b for b in shot["sheet"]["blocks"] if b["type"] == "grid"]


def texts(shot: dict) -> list[str]:
    return [b["text"] for b in shot["sheet"]["blocks"] if b["type"] == "text"]


def cells(row: dict) -> list[str]:
    return [c["text"] for c in row["cells"]]


def figure(text: str) -> int:
    return int(text.replace("−", "-"))


def every_page(s: Session) -> list[dict]:
    """The snapshot of each page of the score, turned with down as the mover would."""
    shots = [snapshot(s)]
    for _ in range(8):
        s.handle(Press("down"))
        shots.append(snapshot(s))
    return shots


# --- Wakanda: each player's villages, the sun penalty and the total ----------------------------

def test_the_wakanda_score_is_each_players_villages_sun_penalty_and_total(tmp_path):
    s = resumed(tmp_path, "wakanda_worked_example.jsonl")
    shot = snapshot(s)
    assert shot["lines"] == []                              # not the OLED's wrapped lines
    assert texts(shot)[:2] == ["Ana wins", "Higher total (W9)"]
    score = next(g for g in grids(shot) if any(cells(r)[0] == "Sun penalty (W8)" for r in g["rows"]))
    assert [h["text"] for h in score["heads"]] == ["", "Ana", "Ben"]
    rows = {cells(r)[0]: [figure(x) for x in cells(r)[1:]] for r in score["rows"]}
    assert list(rows) == ["Teepee", "Eagle", "Chief", "Variety", "Sun", "Tomahawk", "Sun penalty (W8)", "Total"]
    for seat in (0, 1):
        breakdown = s.game.score(seat)
        villages = sum(points[seat] for name, points in list(rows.items())[:-2])
        assert rows["Sun penalty (W8)"][seat] == breakdown.sun_penalty
        assert rows["Total"][seat] == breakdown.total == villages + breakdown.sun_penalty
    assert score["rows"][-1]["marks"] == ["total"]
    assert [c["marks"] for c in score["rows"][-1]["cells"][1:]] == [["best"], []]   # Ana won


def test_spectators_see_the_whole_score_whatever_page_the_mover_turned_to(tmp_path):
    s = resumed(tmp_path, "wakanda_worked_example.jsonl")
    shots = every_page(s)
    pages = {str(snap["kind"]) + str(snap["sheet"]) for snap in shots if snap["kind"] == "score"}
    assert len(shots) > 3 and len(pages) == 1


def test_the_board_names_each_tile_whole_with_its_code_for_a_narrow_screen(tmp_path):
    s = resumed(tmp_path, "wakanda_worked_example.jsonl")
    board = next(b for b in snapshot(s)["sheet"]["blocks"] if b["type"] == "stacks")
    feet = [stack["foot"] for stack in board["stacks"]]
    assert [f["text"] for f in feet] == ["1 Teepee", "2 Eagle", "3 Chief", "4 Variety", "5 Sun", "6 Tomahawk"]
    assert [f["short"] for f in feet] == ["1 TEE", "2 EAG", "3 CHF", "4 VAR", "5 SUN", "6 TOM"]
    html = render.sheet(snapshot(s)["sheet"], "Board")
    assert 'role="list" aria-label="Board"' in html
    assert '<abbr class="short" title="6 Tomahawk">6 TOM</abbr>' in html


# --- Totem Wars: each round's columns, war and taken cards ------------------------------------

def test_a_rounds_result_is_its_columns_war_and_taken_cards_on_every_page(tmp_path):
    t = tw.make(tmp_path)
    tw.play_war_round(t)
    shots = []
    while t.screen == "round":
        shots.append(snapshot(t))
        t.handle(Press("down"))
        if len(shots) > 12:
            break
    assert len(shots) > 2 and all(shot["sheet"] == shots[0]["sheet"] for shot in shots)
    shot = shots[0]
    assert "Ben takes 12 cards (T11)" in texts(shot) and texts(shot)[-1] == "Ben starts round 2 (T13)"
    result = next(g for g in grids(shot) if g["title"] == "Round 1 · war!")
    assert [h["text"] for h in result["heads"]][1:] == ["Points", "war"]
    taker = [r for r in result["rows"] if r["marks"] == ["best"]]
    assert [cells(r)[0] for r in taker] == ["Ben"]
    columns = [g for g in grids(shot) if g["title"].startswith(("Ana:", "Ben:", "Cleo:", "War:"))]
    assert len(columns) >= 3
    for grid in columns:                                    # the points are the columns' (T8)
        assert all(cells(r)[1] and figure(cells(r)[2]) >= 0 for r in grid["rows"])
    assert any("●" in cells(r)[1] for g in columns for r in g["rows"])   # the totem's column


def test_the_end_of_a_totem_wars_game_lists_every_round(tmp_path):
    s = resumed(tmp_path, "totem_wars_finished.jsonl")
    shot = snapshot(s)
    rounds = next(g for g in grids(shot) if g["title"] == "Rounds")
    assert len(rounds["rows"]) == len(s.game.rounds)
    for row, result in zip(rounds["rows"], s.game.rounds):
        taken = cells(row)[-1]
        assert taken.endswith(f" {len(result.cards)}")
        assert (cells(row)[-2] == "✓") == result.war
    assert texts(shot)[0] in ("Shared win",) or texts(shot)[0].endswith("wins")


def test_a_totem_wars_sheet_never_names_a_card_down_or_in_a_hand(tmp_path):
    t = tw.make(tmp_path)
    tw.set_up(t, ("Ana", "Ben", "Cleo"), 0)
    for card in ("indians/eagle", "eskimos/narwhal", "indians/buffalo"):   # the totems
        scan(t, card)
    t.handle(Press("ok"))
    for card in ("aborigines/eagle", "indians/bear"):       # placed face down (T4)
        scan(t, card)
    sheet = str(snapshot(t)["sheet"])
    assert "bear" not in sheet.lower() and "▯▯" in sheet


# --- any game, drawn the same way --------------------------------------------------------------

def test_any_description_is_drawn_and_every_word_escaped():
    sheet = Sheet((Text("<script>", ("result",)),
                   Grid((Cell(""), Cell("A&B")), (Row((Cell('"x"'), number(-2)), ("mover",)),), title="T<"),
                   Stacks((Stack(Cell("1 <i>", short="1 I", marks=("lit",)), (Cell("o", marks=("seat1",)),)),))))
    html = render.sheet(sheet.to_json(), "Board")
    assert "<script>" not in html and "&lt;script&gt;" in html and "A&amp;B" in html and "&quot;x&quot;" in html
    assert "−2" in html and '<tr class="mover">' in html and 'class="foot lit"' in html


def test_a_mark_the_page_does_not_draw_is_refused():
    with pytest.raises(ValueError, match="not a mark"):
        Cell("x", marks=("blink",))


def test_no_page_code_names_a_game():
    static = Path(render.__file__).parent / "static"
    shared = [*Path(render.__file__).parent.glob("*.py"), Path(phone_table.__file__)]
    code = " ".join(p.read_text() for p in (*static.iterdir(), *shared) if p.suffix in (".py", ".js", ".css", ".html"))
    for name in GAMES:
        for spelling in (name, name.replace("-", "_"), GAMES[name].title):
            assert spelling.lower() not in code.lower(), spelling


# --- no script: the table is in the page as served --------------------------------------------

def test_the_page_as_served_holds_the_table_now(tmp_path):
    s = resumed(tmp_path, "wakanda_worked_example.jsonl", "fr")
    hub = server.Hub()
    hub.publish(snapshot(s))

    async def main() -> str:
        client = TestClient(TestServer(server.make_app(hub), host="127.0.0.1"))
        await client.start_server()
        try:
            return await (await client.get("/")).text()
        finally:
            await client.close()
    page = asyncio.run(main())
    assert '<html lang="fr">' in page and "Ana gagne" in page and "Malus Soleil (W8)" in page
    assert 'aria-label="Plateau"' in page and "<!--live-->" not in page


# --- the box's language: no English word in French or German -----------------------------------

class _Words(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.words: list[str] = []

    def handle_data(self, data: str) -> None:
        self.words += re.findall(r"[^\W\d_]{3,}", data)


def words_of(html: str) -> set[str]:
    parser = _Words()
    parser.feed(html)
    return set(parser.words)


def tables_in(tmp_path: Path, lang: str) -> str:
    """Every table laid out, in ``lang``: a Wakanda score, a Totem Wars end and a round's
    result, and the statistics of both games."""
    html = []
    for record in ("wakanda_worked_example.jsonl", "totem_wars_finished.jsonl"):
        s = resumed(tmp_path / f"{lang}-{record}", record, lang)
        html.append(render.live(snapshot(s)))
    t = tw.make(tmp_path / f"{lang}-round")
    t.settings.change(language=lang)
    tw.play_war_round(t)
    html.append(render.live(snapshot(t)))
    games = tmp_path / f"{lang}-games"
    (games / "games").mkdir(parents=True)
    for name, record in (("20260301-201500-wakanda.jsonl", "wakanda_worked_example.jsonl"),
                         ("20260302-193000-totem-wars.jsonl", "totem_wars_finished.jsonl")):
        (games / "games" / name).write_text((DATA / record).read_text())
    html.append(history.statistics_html(history.statistics(history.past_games(games, lang)), lang))
    return "".join(html)


def vocabulary(lang: str) -> set[str]:
    """Every word the catalogues of ``lang`` write (its rulebook's words: "Hand" is German
    too, "Kookaburra" French)."""
    root = Path(render.__file__).parent.parent
    found: set[str] = set()
    for po in [*root.glob(f"locale/{lang}/LC_MESSAGES/*.po"), *root.glob(f"games/*/locale/{lang}/LC_MESSAGES/*.po")]:
        for line in po.read_text(encoding="utf-8").splitlines():
            if line.startswith("msgstr"):
                found |= set(re.findall(r"[^\W\d_]{3,}", line[6:]))
    return found


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_tables_speak_the_boxs_language_not_english(tmp_path, lang):
    english = words_of(tables_in(tmp_path, "en"))
    other = words_of(tables_in(tmp_path, lang))
    names = {"Ana", "Ben", "Cleo"}
    # A word of the English tables still there is English left, unless the language's own
    # catalogues write it too, or it is a player's name.
    left = sorted((english & other) - names - vocabulary(lang))
    assert left == [], left
    assert len(other - english) > 30


# --- only what the public view shows --------------------------------------------------------

@pytest.mark.parametrize("open_hands", [False, True])
def test_a_wakanda_hand_is_a_count_unless_the_hands_are_open(open_hands):
    from companion.games.wakanda.game import Wakanda
    from companion.games.wakanda.moves import Draw
    from companion.ui.text import speaking

    game = Wakanda(["teepee", "eagle", "chief", "variety", "sun", "tomahawk"], players=("Ana", "Ben"),
                   open_hands=open_hands)
    game.push(Draw("skin"))                                 # no village is a skin: only the hand may name it
    with speaking("en"):
        sheet = GAMES["wakanda"].table.phone.sheet(game, None).to_json()
    hand = next(g for g in sheet["blocks"] if g["type"] == "grid")["rows"][0]["cells"][1]["text"]
    assert hand == ("Skin ×1" if open_hands else "1")
    assert ("Skin" in str(sheet)) == open_hands             # R2: named nowhere else


def test_the_page_imports_nothing_of_the_command_line():
    import ast

    folder = Path(render.__file__).parent
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            assert not any(n.startswith("companion.commands") for n in names), path.name
