"""The rules at hand (issue 20, item 14): the menu's Rules entry browses every rule of each
game by topic, in the box's words with its number; a ruling that goes beyond the rulebook
says what the rulebook says, what the box does, why, and the setting that changes it; the
why-pages of the hint button turn on through the same book. Read from the frames' words
(``--display text``) and three golden images."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from additions import rules_doc
from box_helpers import choose

from companion.cli import main
from companion.events import Press, Tag
from companion.games import GAMES
from companion.table.flow import ToRules
from companion.table.registry import TagRegistry
from companion.table.rule_pages import rule_pages, turned
from companion.table.rules_flow import RulesFlow
from companion.table.session import Session
from companion.table.views import WhyView
from companion.ui.canvas import MEDIUM, text_width
from companion.ui.screens import MENU_LINE_CHARS, PAGE_WIDTH
from companion.ui.text import speaking
from companion.words import LANGUAGES

DATA = Path(__file__).parent / "data"
#: Every rule each game's specification numbers (rules/*.md), as the book must hold them.
SPEC = {"wakanda": {*(f"W{n}" for n in range(1, 11)), *(f"R{n}" for n in range(1, 9))},
        "totem-wars": {*(f"T{n}" for n in range(1, 17)), "T1a", *(f"R{n}" for n in range(1, 5))}}


@pytest.fixture(autouse=True)
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))


def test_the_rules_are_read_from_the_menu(tmp_path, capsys):
    assert main(["run", "--input", str(DATA / "rules_pages.txt"), "--display", "text",
                 "--data", str(tmp_path / "data")]) == 0
    frames = [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines()
              if line.startswith("frame ")]
    assert " | ".join(["Rules", *(entry.shown_title("en") for entry in GAMES.values())][:5]) in frames
    assert "Wakanda | The pieces | Set-up | A turn | Claiming | ▼" in frames
    assert "Claiming | R1 Empty village | W6 The end" in frames
    # The ruling says what the rulebook says (its words), what the box does, why, and the
    # setting that changes it.
    r1 = [f for f in frames if f.startswith("R1 Empty village ")]
    assert r1[0].startswith("R1 Empty village 1/7 | A claim needs a piece")
    assert r1[2] == ("R1 Empty village 3/7 | Rulebook: “You can | decide to claim one | of the totem poles | "
                     "under construction.” | ▲▼ more · OK back")
    assert any(f.startswith("R1 Empty village 4/7 | The box: a claim") for f in r1)
    assert any(f.startswith("R1 Empty village 6/7 | Why: without it the") for f in r1)
    assert r1[-1] == "R1 Empty village 7/7 | Change it: Settings, | Empty claim: at end | ▲▼ more · OK back"
    # ▼ past the last page: the next rule; OK: back to its topic's list, Back climbs.
    after = frames.index(r1[-1]) + 1
    assert frames[after].startswith("W6 The end")
    assert frames[after + 1] == "Claiming | R1 Empty village | W6 The end"
    assert "Totem Wars | Deal and totems | A round | The round's result | The end" in frames
    assert "The end | T15 End | T16 Big game" in frames
    assert any(f.startswith("T16 Big game 1/10 | Small games add up") for f in frames)
    assert frames[-1].startswith("Totem Companion | New: Wakanda")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_book_holds_every_rule_of_the_game_once(game):
    book = GAMES[game].rule_book
    spec = rules_doc(game).read_text()
    assert sorted(book.rules) == sorted(set(re.findall(r"^- \*?\*?([WTR]\d+a?)\.", spec, re.M)))
    assert all(book.ruling(ruling.rule) is ruling and ruling.rule in book.rules for ruling in book.rulings)


@pytest.mark.parametrize(("game", "rules"), SPEC.items())
def test_the_specification_numbers_every_rule(game, rules):
    assert set(GAMES[game].rule_book.rules) == rules


def test_the_rulings_beyond_the_rulebook_are_the_issues():
    assert [r.rule for r in GAMES["wakanda"].rule_book.rulings] == ["R1"]
    assert GAMES["wakanda"].rule_book.ruling("R1").setting[0] == "settings.wakanda.empty_claim"
    assert [r.rule for r in GAMES["totem-wars"].rule_book.rulings] == ["R2", "R4", "T16"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_and_line_of_the_books_fits_in_every_language(lang):
    with speaking(lang):
        cut = []
        for entry in GAMES.values():
            book = entry.rule_book
            for topic in book.topics:
                if len(entry.text(topic.title)) > MENU_LINE_CHARS:
                    cut.append(topic.title)
                for rule in topic.rules:
                    if len(f"{rule} {entry.text(f'rule.{rule}.title')}") > MENU_LINE_CHARS:
                        cut.append(f"{rule} title")
                    pages = rule_pages(entry, rule)
                    cut += [f"{rule}: {line!r}" for page in pages for line in page
                            if text_width(line, MEDIUM) > PAGE_WIDTH or "…" in line]
            for ruling in book.rulings:
                parts = "".join(line for page in rule_pages(entry, ruling.rule) for line in page)
                if entry.text(ruling.rulebook).strip("“”«»„\" .…")[:8].replace(" ", "") not in parts.replace(" ", ""):
                    cut.append(f"{ruling.rule}: no rulebook words")
        assert cut == []


def test_the_why_pages_turn_on_through_the_book(tmp_path):
    box = Session(tmp_path, TagRegistry(tmp_path / "tags.json"))
    box.handle(Press("ok"))                                   # New: Wakanda: the variant (W10)
    box.handle(Press("hint"))
    assert box.view.rule == "W10"
    for _ in range(len(box.view.pages)):
        box.handle(Press("down"))
    assert box.view.rule == "W4" and box.view.page == 0       # the next rule of the book
    box.handle(Press("up"))
    assert box.view.rule == "W10" and box.view.page == len(box.view.pages) - 1
    box.handle(Press("ok"))
    assert box.screen == "setup" and box.view.choice.title == "Variant"  # the screen as it was


def test_the_ends_of_a_book_and_pages_of_no_book_stay():
    first = WhyView("W1", "The pieces", (("a",),), game="wakanda")
    assert turned(first, -1) == first
    last = WhyView("W6", "?", (("a",),), game="totem-wars")
    assert turned(last, 1) == last                            # not a rule of that book
    loose = WhyView("X", "?", (("a",),))
    assert turned(loose, 1) == loose


def test_buttons_that_mean_nothing_and_scans_change_nothing(tmp_path):
    box = Session(tmp_path, TagRegistry(tmp_path / "tags.json"))
    choose(box, ToRules())
    before = box.view
    for event in (Press("v3"), Press("hint")):
        box.handle(event)
    box.handle(Tag("eagle"))
    assert box.view == before and box.message is None


# --- golden images of three pages -------------------------------------------------------

def _topics():
    return RulesFlow("totem-wars").frame()


def _page(game: str, rule: str, page: int, lang: str = "en"):
    with speaking(lang):
        flow = RulesFlow(game)
        book = GAMES[game].rule_book
        for _ in range(book.topic_of(rule)):
            flow.handle(Press("down"))
        flow.handle(Press("ok"))
        for _ in range(book.topics[book.topic_of(rule)].rules.index(rule)):
            flow.handle(Press("down"))
        flow.handle(Press("ok"))
        for _ in range(page):
            flow.handle(Press("down"))
        assert flow.view().rule == rule
        return flow.frame()


PAGES = {
    "rules_topics_totem_wars": _topics,
    "rules_wakanda_r1_rulebook": lambda: _page("wakanda", "R1", 2),
    "rules_totem_wars_r4_why_fr": lambda: _page("totem-wars", "R4", 3, "fr"),
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_rules_page_matches_its_golden_image(name, golden):
    golden(name, PAGES[name]())
