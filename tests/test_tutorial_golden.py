"""The key pages of the lessons, pixel for pixel (docs/tutorial.md shows them): each drawn
by the box itself, playing the lessons' input scripts (``--regen-golden`` rewrites them)."""

from __future__ import annotations

import random

import pytest
from box_helpers import select
from conftest import only_the_shipped_games
from tutorial_helpers import DATA

from companion.events import Wait
from companion.games import GAMES
from companion.table.app_loop import AppLoop
from companion.table.flow import ToTutorial
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.ui import text
from companion.ui.canvas import frame_words
from hardware.script_input import ScriptInput


class NoDisplay:
    """A display that shows nothing."""

    def show(self, image):
        return 0

    def close(self):
        pass


def played(tmp_path, game: str, *scripts: str):
    """Every frame of ``game``'s lesson playing ``scripts`` one after the other, with its
    words."""
    box = Session(tmp_path, TagRegistry(tmp_path / "tags.json"), tutorial=game)
    frames = [box.frame()]
    for script in scripts:
        for event in ScriptInput(DATA / script).events():
            if not isinstance(event, Wait):
                frames.append(box.handle(event).frame)
    return [(frame, " | ".join(frame_words(frame))) for frame in frames]


def first(frames, start: str):
    """The first frame whose words begin with ``start``."""
    return next(frame for frame, words in frames if words.startswith(start))


WAKANDA = ("lesson_wakanda_1.txt", "lesson_wakanda_2.txt")
TOTEM_WARS = ("lesson_totem_wars_1.txt", "lesson_totem_wars_2.txt")
PAGES = {
    "lesson_wakanda_pieces": (WAKANDA, "W1 The pieces 1/2"),
    "lesson_wakanda_build": (WAKANDA, "W4 Build 1/2"),
    "lesson_wakanda_ask": (WAKANDA, "P1 play 1 P2 0 | Player 1: build it on"),
    "lesson_wakanda_wrong": (WAKANDA, "W4 Not quite 1/2 | Village 5"),
    "lesson_wakanda_back": (WAKANDA, "P2 draw P1 0 | Taken back:"),
    "lesson_wakanda_villages": (WAKANDA, "W7 Villages 1/2"),
    "lesson_totem_wars_totems": (TOTEM_WARS, "Deal 5 each (T2) |"),
    "lesson_totem_wars_raise": (TOTEM_WARS, "T5 Raising 1/2"),
    "lesson_totem_wars_not_now": (TOTEM_WARS, "T4 Not now 1/2"),
    "lesson_totem_wars_war": (TOTEM_WARS, "T10 War 1/2"),
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_lesson_page_matches_its_golden_image(tmp_path, golden, name):
    scripts, start = PAGES[name]
    game = "wakanda" if name.startswith("lesson_wakanda") else "totem-wars"
    golden(name, first(played(tmp_path, game, *scripts), start))


def test_a_lesson_page_in_bulgarian(tmp_path, golden):
    with text.speaking("bg"):
        golden("lesson_wakanda_build_bulgarian", first(played(tmp_path, "wakanda", *WAKANDA), "W4 Строеж 1/2"))


def test_the_menu_offers_the_lessons(tmp_path, golden):
    only_the_shipped_games()
    box = Session(tmp_path, TagRegistry(tmp_path / "tags.json"))
    select(box, ToTutorial("wakanda"))
    golden("menu_learn", box.frame())


def test_the_last_page_of_a_lesson(tmp_path, golden):
    lesson = GAMES["wakanda"].table.lessons
    tags = lesson.demo_tags()
    box = Session(tmp_path, TagRegistry(tmp_path / "tags.json", tags), players=("Ana", "Ben"),
                  tutorial="wakanda")
    tutorial = box.flow
    learner = lesson.learner(AppLoop(box, NoDisplay()), tags, random.Random(2))
    while not tutorial.finished:
        learner.advance()
    golden("lesson_complete", box.frame())
