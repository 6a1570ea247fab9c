"""The lessons' words: all in the catalogues, in every language the box speaks, and fitting the
screen — a page or two for each explanation, titles in the band, asks in the board's two
lines — over many real lessons (the demo's learner plays them)."""

from __future__ import annotations

import random
import re

import pytest

from companion import catalogues
from companion.games import GAMES
from companion.table.app_loop import AppLoop
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.ui import text
from companion.ui.canvas import MEDIUM, SMALL, WIDTH, note_lines, text_width, wrap
from companion.ui.screens import MENU_LINE_CHARS, paginate
from companion.words import LANGUAGES, SHARED

LESSONS = [name for name, entry in GAMES.items() if entry.table.lessons is not None]
NAMES = {"en": ("Ana", "Ben", "Cleo", "Dan"), "bg": ("Ана", "Борис", "Цвета", "Дамян")}
#: Left as in English on purpose: a button's name, a line of names and numbers.
SAME = {"tutorial.did.ok", "tutorial.wakanda.villages.player", "tutorial.wakanda.pic.sun"}


class NoDisplay:
    def show(self, image):
        return 0

    def close(self):
        pass


def lesson_screens(tmp_path, game: str, seed: int):
    """Play ``game``'s lesson for ``seed``; yield the lesson after every action."""
    lesson = GAMES[game].table.lessons
    tags = lesson.demo_tags()
    box = Session(tmp_path / str(seed), TagRegistry(tmp_path / "tags.json", tags),
                  players=NAMES.get(text.language(), NAMES["en"]), rng=random.Random(seed), tutorial=game)
    tutorial = box.flow
    learner = lesson.learner(AppLoop(box, NoDisplay()), tags, random.Random(seed))
    while box.flow is tutorial:
        yield tutorial
        learner.advance()


def test_every_lesson_word_is_translated():
    from babel.messages.pofile import read_po

    domains = [SHARED, *(entry.words for entry in GAMES.values())]
    keys = {(words, key) for words in domains for key in words.keys() if key.startswith(("tutorial.", "menu.learn"))}
    assert len(keys) > 50
    # Every language's catalogues have words of their own for each (none falls back to English) …
    for po in catalogues.po_files():
        with po.open("rb") as fp:
            empty = [m.context for m in read_po(fp)
                     if m.id and (m.context or "").startswith(("tutorial.", "menu.learn"))
                     and not all(m.string if isinstance(m.string, tuple | list) else (m.string,))]
        assert empty == [], po
    # … and Bulgarian's differ from the English but where they are the same on purpose.
    same = {key for words, key in keys if all(words.template(key, "bg", n) == words.template(key, "en", n)
                                               for n in (1, 2))}
    assert sorted(same - SAME) == []


@pytest.mark.parametrize("language", ["en", "bg"])
@pytest.mark.parametrize("game", LESSONS)
def test_the_lesson_fits_the_screen(tmp_path, game, language, speak):
    speak(language)
    too_long: set[str] = set()
    asks: set[str] = set()
    for seed in range(1, 9):
        for lesson in lesson_screens(tmp_path, game, seed):
            page = lesson.page
            words = len(page.pages) - (page.picture is not None) if page is not None else 0
            if words > 2:
                too_long.add(f"{page.title}: {page.pages}")
            if page is not None:
                room = WIDTH - 4 - (text_width("9/9", SMALL) + 4)
                assert text_width(page.title, MEDIUM) <= room, page.title
            step = lesson.step
            if step is not None and lesson.start is not None:
                asks.add(step.ask(lesson.situation()))
    assert not too_long, too_long
    cut = [ask for ask in asks if note_lines(ask, 2) != wrap(ask, WIDTH - 4, SMALL)]
    assert not cut, cut


@pytest.mark.parametrize("game", LESSONS)
def test_every_step_s_page_is_two_pages_at_most_in_every_language(tmp_path, game):
    """The lessons played once, each step's page put into words in every language on the
    same real table as it opens: a page or two of text (a picture before it aside), never
    three — where a language needs more, its translator says it shorter."""
    entry = GAMES[game]
    too_long: dict[tuple[str, str], tuple[tuple[str, ...], ...]] = {}
    for seed in range(1, 9):
        for lesson in lesson_screens(tmp_path, game, seed):
            step, page = lesson.step, lesson.page
            if step is None or step.page is None or page is None \
                    or page.title != f"{step.rule} {entry.text(step.title, 'en')}":
                continue                      # no step's own page open
            situation = lesson.situation()
            for lang in LANGUAGES:
                with text.speaking(lang):
                    pages = tuple(paginate(step.page(situation)))
                if len(pages) > 2:
                    too_long[(lang, step.key)] = pages
    assert sorted(too_long) == [], too_long


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_runner_s_own_words_fit(language, speak):
    speak(language)
    for key in ("tutorial.footer.more", "tutorial.footer.go", "tutorial.footer.again",
                "tutorial.footer.menu"):
        assert text_width(text.t(key), SMALL) <= WIDTH, key
    for entry in GAMES.values():
        assert len(text.t("menu.learn", title=entry.title)) <= MENU_LINE_CHARS
        assert len(text.t("menu.learn", title=entry.text(entry.table.game_name))) <= MENU_LINE_CHARS
        assert len(text.t("menu.learn", title=entry.shown_title())) <= MENU_LINE_CHARS
    assert len(text.t("tutorial.resumed_at", n=99)) <= 21  # one line of a page


def test_every_step_names_its_rule_and_the_catalogue_holds_its_title():
    for game in LESSONS:
        for step in GAMES[game].table.lessons.steps:
            assert re.fullmatch(r"[WTR]\d+", step.rule), step.key
            words = GAMES[game].words
            assert words.has(step.title) and words.has(step.topic), step.key
            assert all(words.text(step.title, lang) and words.text(step.topic, lang) for lang in LANGUAGES)
