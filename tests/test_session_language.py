"""The box's language is each session's own value: two boxes in one program speak their own
languages, a change in one's Settings leaves the other (and the program) as it was, and a
phone page or a voice on another thread puts a view's words into the box's language."""

from __future__ import annotations

import doctest
import json
import random
import re
import threading
from pathlib import Path

import pytest
from box_helpers import choose

from companion.engine import Refusal
from companion.events import Press, Tag
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.settings import SettingsStore
from companion.ui import text
from companion.ui.canvas import frame_words
from companion.words import LANGUAGES

ROW = ("teepee", "eagle", "chief", "variety", "sun", "tomahawk")
HEADER = {"game": "wakanda", "players": ["Ana", "Ben"], "villages": list(ROW), "first": 0}


def box(tmp_path, lang: str) -> Session:
    """A box speaking ``lang`` (its settings' language) with a Wakanda game waiting."""
    data = tmp_path / lang
    data.mkdir(parents=True)
    (data / "current.jsonl").write_text(json.dumps(HEADER) + "\n")
    store = SettingsStore(None, names=("Ana", "Ben"), language=lang)
    return Session(data, TagRegistry(tmp_path / "tags.json"), rng=random.Random(1), settings=store)


def refused(session: Session) -> Session:
    """``session`` after resuming its game and building an eagle on village 5 (W4)."""
    session.handle(Press("ok"))
    session.handle(Tag("eagle", "pad"))
    session.handle(Press("v5"))
    return session


def words(session: Session) -> list[str]:
    return frame_words(session.frame())


def test_two_boxes_in_one_program_draw_their_own_languages(tmp_path):
    french, german = box(tmp_path, "fr"), box(tmp_path, "de")
    assert (words(french)[1], words(german)[1]) == ("Reprendre Wakanda", "Weiter: Wakanda")
    for event in (Press("ok"), Tag("eagle", "pad"), Press("v5")):   # one event each, in turn
        french.handle(event)
        german.handle(event)
    assert french.message == "Village 5 pas encore ouvert — W4"
    assert german.message == text.refusal_text(Refusal("not_open", {"village": 5}, "W4", "wakanda"), "de")
    assert german.message != french.message
    assert " ".join(words(french)[1:-1]) == french.message          # the frames too,
    assert " ".join(words(german)[1:-1]) == german.message
    assert words(french)[-1] == "Ana: pose une pièce" != words(german)[-1]   # what to do now under it
    assert text.language() == "en" and text.t("undo.question") == "Take back?"   # the program's


def test_a_box_made_in_a_language_stays_in_it_wherever_it_is_drawn(tmp_path):
    with text.speaking("bg"):                 # a command speaking Bulgarian makes a French box
        french = box(tmp_path, "fr")
    with text.speaking("de"):                 # and draws it where German is spoken
        refused(french)
        assert french.view.message.rule == "W4" and french.message == "Village 5 pas encore ouvert — W4"
    assert french.redraw().tobytes() == french.frame().tobytes()


def test_settings_change_one_box_and_no_other(tmp_path):
    first, second = box(tmp_path / "1", "en"), box(tmp_path / "2", "en")
    choose(first, "settings")
    choose(first, "language")                                  # the list of languages
    out = choose(first, "fr")
    assert first.language == "fr" and words(first)[0] == text.t("settings.title", "fr")
    assert frame_words(out.frame)[0] == text.t("settings.title", "fr")   # redrawn at once
    assert second.language == "en" and text.language() == "en"
    assert frame_words(second.redraw()) == words(second) == words(box(tmp_path / "3", "en"))
    assert words(second)[:3] == ["Totem Companion", "Resume Wakanda", "New: Wakanda"]


def test_a_view_s_words_in_the_box_s_language_from_another_thread(tmp_path):
    french = refused(box(tmp_path, "fr"))
    seen: dict[str, object] = {}
    done = threading.Event()

    def page() -> None:                       # a phone page's thread: nothing spoken there
        view = french.view
        seen["view"] = view
        seen["note"] = text.note_text(view.message, french.language)
        seen["here"] = text.note_text(view.message)
        with text.speaking(french.language):  # the box's own drawing, in the box's language
            seen["frame"] = french.flow.frame().tobytes()
        done.set()

    with text.speaking("bg"):                 # what this thread speaks does not reach there
        thread = threading.Thread(target=page)
        thread.start()
        assert done.wait(30)
        thread.join()
    assert isinstance(seen["view"].message, Refusal)           # the note is a value until drawn
    assert seen["note"] == "Village 5 pas encore ouvert — W4"
    assert seen["here"] == "Village 5 is not open yet — W4"    # no language given: English
    assert seen["frame"] == french.frame().tobytes()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_note_value_is_put_into_words_in_any_language(lang):
    refusal = Refusal("not_open", {"village": 5}, "W4", "wakanda")
    assert text.note_text(refusal, lang) == text.refusal_text(refusal, lang)
    assert text.note_text(refusal, lang).endswith(" — W4") and "5" in text.note_text(refusal, lang)
    assert text.note_text("Ana: 12", lang) == "Ana: 12" and text.note_text(None, lang) is None


def test_an_unknown_language_is_refused_in_one_line():
    with pytest.raises(ValueError, match="unknown language 'xx'"), text.speaking("xx"):
        pass
    assert text.language() == "en"


def test_the_examples_of_docs_internals_words_run():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "internals.md").read_text(encoding="utf-8")
    start = doc.index("### Words: the catalogues")
    section = doc[start:doc.index("\n### ", start + 1)]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) >= 2
    for block in blocks:
        test = doctest.DocTestParser().get_doctest(block, {}, "internals", "docs/internals.md", 0)
        runner = doctest.DocTestRunner()
        runner.run(test)
        assert test.examples and runner.failures == 0, block
