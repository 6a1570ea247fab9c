"""Why? The hint button shows the rule behind the screen: every rule either game can cite has
its pages in every language, every page fits the screen, and through the session HINT on a
refusal, a prompt, a set-up step or a score page shows its rule and gives the screen back
exactly as it was; a scan while the pages are open is handled as usual."""

from __future__ import annotations

import importlib
import random
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from additions import rules_doc
from box_helpers import choose, scan
from tw_table_helpers import place, play_war_round, set_up

from companion.engine import Cited, Refusal
from companion.events import Hold, Press, Tag
from companion.games import GAMES
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.views import WhyView, render
from companion.table.why_flow import cited_rule
from companion.ui import text
from companion.ui.canvas import MEDIUM, SMALL, WIDTH, text_width
from companion.ui.screens import PAGE_ROWS, PAGE_WIDTH, paginate
from companion.words import LANGUAGES, SHARED

DATA = Path(__file__).parent / "data"
RULE = re.compile(r"\b[TWR]\d+[a-z]?\b")
ROW = ("teepee", "eagle", "chief", "variety", "sun", "tomahawk")


def book(game: str):
    """The rule module of ``game`` (its record name): ``rule_of``, as the why-pages find it."""
    return importlib.import_module(f"{GAMES[game].package}.rule_pages")


def package_dir(game: str) -> Path:
    """The folder of ``game``'s package, wherever it was found."""
    return Path(str(importlib.import_module(GAMES[game].package).__file__)).parent


def pages(game: str, lang: str) -> dict[str, tuple[str, str]]:
    """Rule → (title, text) of ``game``'s why-pages in ``lang``: the messages
    ``rule.<ID>.title`` and ``rule.<ID>.text`` of the game's catalogue."""
    entry = GAMES[game]
    rules = [key.split(".")[1] for key in entry.words.keys()
             if key.startswith("rule.") and key.endswith(".title")]
    return {rule: (entry.text(f"rule.{rule}.title", lang), entry.text(f"rule.{rule}.text", lang))
            for rule in rules}


def templates(words, key: str, lang: str) -> list[str]:
    """Every form of a message in ``lang`` (both forms of a plural)."""
    return [words.template(key, lang, count) for count in (1, 2, 5)]


def rules_cited() -> dict[str, set[str]]:
    """Game → the rule numbers its package's code cites (``rule="W4"``, ``"(W9)"``, in
    docstrings too), plus those in its catalogue's texts in every language (the pages'
    own texts left out); a rule in the shared words by its letter (an R: both games')."""
    cited: dict[str, set[str]] = {game: set() for game in GAMES}
    for game, entry in GAMES.items():
        for path in package_dir(game).rglob("*.py"):
            if path.name != "rule_pages.py":  # the pages themselves prove nothing
                cited[game] |= set(RULE.findall(path.read_text(encoding="utf-8")))
        for key in entry.words.keys():
            if key.startswith("rule."):      # nor do their words
                continue
            for lang in LANGUAGES:
                for words in templates(entry.words, key, lang):
                    cited[game] |= set(RULE.findall(words))
    for key in SHARED.keys():
        for lang in LANGUAGES:
            for words in templates(SHARED, key, lang):
                for rule in RULE.findall(words):
                    for game in GAMES:
                        if rule[0] == "R" or rule[0] == ("T" if game == "totem-wars" else "W"):
                            cited[game].add(rule)
    return cited


def rules_of_the_rulebook(game: str) -> set[str]:
    """The rules ``docs/rules/<game>.md`` numbers (``- W4.``, ``- R1.``)."""
    words = rules_doc(game).read_text(encoding="utf-8")
    return set(re.findall(r"^- ([TWR]\d+[a-z]?)\.", words, re.M))


# --- the texts --------------------------------------------------------------------------------

@pytest.mark.parametrize("game", list(GAMES))
def test_every_rule_the_code_cites_has_pages_in_every_language(game):
    cited = rules_cited()[game]
    assert len(cited) > 10  # the package's rules are found, not skipped
    for lang in LANGUAGES:
        assert sorted(cited - set(pages(game, lang)), key=str) == [], lang


@pytest.mark.parametrize("game", list(GAMES))
def test_every_rule_of_the_rulebook_and_no_other_has_pages(game):
    for lang in LANGUAGES:
        assert set(pages(game, lang)) == rules_of_the_rulebook(game), lang
    # A page is its title and its text: neither lacks the other.
    keys = {key for key in GAMES[game].words.keys() if key.startswith("rule.")}
    assert keys == {f"rule.{rule}.{part}" for rule in rules_of_the_rulebook(game) for part in ("title", "text")}


def test_the_same_number_is_a_different_rule_in_each_game():
    wakanda, totem_wars = pages("wakanda", "en"), pages("totem-wars", "en")
    assert wakanda["R1"] != totem_wars["R1"]
    assert wakanda["R1"][0] == "Empty village" and totem_wars["R1"][0] == "Arrangement"


def all_pages():
    for game in GAMES:
        for lang in LANGUAGES:
            for rule, (title, words) in pages(game, lang).items():
                yield pytest.param(rule, title, words, id=f"{game}-{lang}-{rule}")


@pytest.mark.parametrize(("rule", "title", "words"), list(all_pages()))
def test_every_page_fits_the_screen(rule, title, words):
    pages = paginate(words)
    assert 1 <= len(pages) <= 3
    # The title band holds the rule and its title beside the page number, uncut (in the small
    # font where the medium one is too wide).
    room = WIDTH - 4 - (text_width("3/3", SMALL) + 4)
    assert text_width(f"{rule} {title}", SMALL) <= room
    lines = [line for page in pages for line in page]
    assert all(len(page) <= PAGE_ROWS for page in pages)
    assert all(text_width(line, MEDIUM) <= PAGE_WIDTH for line in lines)
    assert " ".join(lines).split() == words.split()  # no word cut, none lost
    assert set("".join(lines)) <= set(MEDIUM.glyphs)


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_translated_pages_cite_the_rules_the_english_ones_cite(game, lang):
    english, translated = pages(game, "en"), pages(game, lang)
    for rule, (title, words) in english.items():
        assert RULE.findall(translated[rule][1]) == RULE.findall(words), rule
        assert translated[rule] != (title, words), rule  # translated, not copied
    if lang == "bg":
        assert all(re.search("[а-я]", words) for _, words in translated.values())


def test_a_note_cites_its_rule_as_data_never_read_back_out_of_its_words():
    assert cited_rule(Cited("Ana passed: no move possible (R3)", "R3")) == "R3"
    assert cited_rule(Cited("Deck empty (T1a)", "T1a")) == "T1a"
    assert cited_rule(Refusal("not_open", {"village": 5}, "W4", "wakanda")) == "W4"
    assert cited_rule("Ana passed: no move possible (R3)") is None   # words alone
    assert cited_rule("Ana drew sun") is None and cited_rule(None) is None


def test_a_single_page_has_no_page_number_and_says_how_to_go_back():
    from companion.ui.canvas import frame_words

    title, words = pages("wakanda", "en")["R7"]
    image = render(WhyView("R7", title, tuple(paginate(words))))
    assert frame_words(image) == ["R7 Suns in hand", "Suns left in a hand", "at the end cost",
                                  "nothing.", "OK back"]


# --- through the session: Wakanda ------------------------------------------------------------

def wakanda_box(tmp_path) -> Session:
    return Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json", {}), rng=random.Random(1))


def wakanda_set_up(box: Session):
    choose(box, "wakanda")
    choose(box, "open")
    for village in ROW:
        scan(box, f"village:{village}")
    choose(box, 0)
    assert box.screen == "board"
    return box.game


def journal(box: Session) -> str:
    return (box.data_dir / "current.jsonl").read_text()


def screen_of(box: Session):
    """What a player sees: the view, the note and the picture."""
    return box.view, box.message, box.frame().tobytes()


def test_hint_on_a_refusal_shows_its_rule_and_gives_the_board_back_unchanged(tmp_path):
    box = wakanda_box(tmp_path)
    game = wakanda_set_up(box)
    assert scan(box, "crests").signal == "refused"           # Ben's headdress on Ana's turn
    assert box.message.endswith("— W4")
    before, kept, moves = screen_of(box), journal(box), game.history
    box.handle(Press("hint"))
    assert box.view.kind == "why" and box.view.rule == "W4" and box.view.page == 0
    box.handle(Press("down"))
    assert box.view.page == 1
    box.handle(Press("ok"))
    assert screen_of(box) == before and journal(box) == kept and game.history == moves


def test_wakandas_r1_is_explained_by_wakandas_ruling(tmp_path):
    box = wakanda_box(tmp_path)
    wakanda_set_up(box)
    scan(box, "sun")                                         # Ana draws
    assert box.handle(Hold("v2")).signal == "refused"        # a claim on an empty pole (R1)
    box.handle(Press("hint"))
    assert (box.view.rule, box.view.title) == ("R1", "Empty village")


def test_hint_at_a_prompt_shows_the_turn_and_a_scan_closes_it_and_counts(tmp_path):
    box = wakanda_box(tmp_path)
    game = wakanda_set_up(box)
    box.handle(Press("hint"))
    assert box.screen == "hint"                              # no refusal: the tip comes first
    box.handle(Press("hint"))
    assert box.view.rule == "W4"                             # then the turn's rule
    assert scan(box, "sun").signal == "accepted"             # not lost: the draw is made
    assert box.screen == "board" and game.hands[0]["sun"] == 1
    assert journal(box).splitlines()[-1] == '{"p": 0, "draw": "sun"}'


def test_a_new_note_closes_the_pages(tmp_path):
    box = wakanda_box(tmp_path)
    wakanda_set_up(box)
    box.handle(Press("hint"))
    assert box.handle(Tag("0A1B2C3D4E", "pad")).signal == "refused"   # an unknown tag
    assert box.screen == "board" and box.message == text.t("session.unknown_tag")


def test_hint_over_the_undo_question_comes_back_to_the_question(tmp_path):
    box = wakanda_box(tmp_path)
    game = wakanda_set_up(box)
    scan(box, "sun")
    box.handle(Press("back"))
    question = box.view
    assert question.kind == "confirm"
    box.handle(Press("hint"))
    assert box.view.kind == "hint"                           # the moves first, then the rule
    while box.view.kind == "hint":
        box.handle(Press("hint"))
    assert box.view.kind == "why"
    box.handle(Press("ok"))                                  # closes the pages, answers nothing
    assert box.view == question and len(game.history) == 1


def test_hint_in_the_set_up_explains_the_step_and_ok_only_closes(tmp_path):
    box = wakanda_box(tmp_path)
    choose(box, "wakanda")
    step = box.view
    box.handle(Press("hint"))
    assert box.view.rule == "W10"                            # the variant
    box.handle(Press("hint"))
    assert box.view == step
    choose(box, "open")
    scan(box, "village:teepee")
    box.handle(Press("hint"))
    assert box.view.rule == "W2"                             # the row of tiles
    box.handle(Press("ok"))
    assert box.flow.tiles == ["teepee"] and box.view.kind == "picker"


def finished(tmp_path, record: str) -> Session:
    (tmp_path / "data").mkdir()
    shutil.copy(DATA / record, tmp_path / "data" / "current.jsonl")
    box = Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json", {}))
    choose(box, "resume")
    assert box.screen == "score"
    return box


def test_hint_on_the_score_pages_explains_each_page(tmp_path):
    box = finished(tmp_path, "wakanda_worked_example.jsonl")
    box.handle(Press("hint"))
    assert box.view.rule == "W9"                             # the result: the higher total
    box.handle(Press("back"))
    box.handle(Press("down"))
    page = box.view
    box.handle(Press("hint"))
    assert box.view.rule == "W7"                             # a player's points
    box.handle(Press("ok"))                                  # closes: the game is not finished
    assert box.view == page and box.screen == "score"


# --- through the session: Totem Wars ---------------------------------------------------------

def totem_wars_box(tmp_path) -> Session:
    box = Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json", {}),
                  players=("Ana", "Ben", "Cleo"))
    choose(box, "totem-wars")
    return box


def test_totem_wars_set_up_and_placements_explain_their_rules(tmp_path):
    box = totem_wars_box(tmp_path)
    box.handle(Press("hint"))
    assert box.view.rule == "T1"                             # how many players
    box.handle(Press("ok"))
    assert box.view.choice.value == 2                        # OK closed the pages, chose nothing
    set_up(box, ("Ana", "Ben", "Cleo"), 0)
    box.handle(Press("hint"))
    assert box.screen == "hand"                              # the coach asks for the hand first
    box.handle(Press("hint"))
    assert box.view.rule == "T2"                             # then the rule: the totems
    box.handle(Press("hint"))
    for card in ("indians/eagle", "eskimos/narwhal", "indians/buffalo"):
        scan(box, card)
    box.handle(Press("ok"))                                  # past the deal reminder
    box.handle(Press("hint"))
    box.handle(Press("hint"))
    assert box.view.rule == "T4"                             # Ben starts the round
    box.handle(Press("back"))
    place(box, "aborigines/eagle", "indians/bear", "indians/hawk")
    box.handle(Press("hint"))
    box.handle(Press("hint"))
    assert box.view.rule == "T5"                             # Cleo's first placement


def test_totem_wars_refusal_hint_and_back(tmp_path):
    box = totem_wars_box(tmp_path)
    set_up(box, ("Ana", "Ben", "Cleo"), 0)
    for card in ("indians/eagle", "eskimos/narwhal", "indians/buffalo"):
        scan(box, card)
    box.handle(Press("ok"))
    assert scan(box, "indians/eagle").signal == "refused"    # a totem is no card to place
    before = screen_of(box)
    box.handle(Press("hint"))
    assert box.view.rule == "T2" and box.view.title == "Deal, totems"
    box.handle(Press("back"))
    assert screen_of(box) == before


def test_totem_wars_round_pages_name_where_the_cards_went_and_its_r1(tmp_path):
    box = totem_wars_box(tmp_path)
    play_war_round(box)
    box.handle(Press("hint"))
    assert box.view.rule == "T11"                            # the war's tie went by habitats
    box.handle(Press("hint"))
    box.handle(Press("down"))                                # Ana's best arrangement
    box.handle(Press("hint"))
    assert (box.view.rule, box.view.title) == ("R1", "Arrangement")


def test_a_war_declaration_is_explained_by_totem_wars_r2():
    flow = SimpleNamespace(kind="play", game=SimpleNamespace(phase="declare"), view=lambda: None)
    assert book("totem-wars").rule_of(flow) == "R2"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_flow_of_another_kind_has_no_rule_and_hint_does_nothing_there(game):
    assert book(game).rule_of(SimpleNamespace(kind="settings")) is None


def test_totem_wars_end_pages_and_bulgarian_words(tmp_path):
    box = finished(tmp_path, "totem_wars_finished.jsonl")
    box.settings.change(language="bg")
    box.handle(Press("hint"))
    assert (box.view.rule, box.view.title) == ("T15", "Край")
    box.handle(Press("ok"))
    box.handle(Press("up"))                                  # the big game, the last page
    box.handle(Press("hint"))
    assert box.view.rule == "T16"
    assert box.frame().info["words"][-1][2] == "▲▼ още · OK назад"


# --- golden images ------------------------------------------------------------------------------

def _page(game: str, rule: str, lang: str, page: int = 0):
    title, words = pages(game, lang)[rule]
    return render(WhyView(rule, title, tuple(paginate(words)), page))


GOLDEN = {
    "why_wakanda_w4": lambda: _page("wakanda", "W4", "en"),
    "why_totem_wars_t11_bulgarian": lambda: _page("totem-wars", "T11", "bg"),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_why_page_matches_its_golden_image(name, golden, speak):
    speak("bg" if name.endswith("bulgarian") else "en")
    golden(name, GOLDEN[name]())
