"""Words that cannot stop the box (companion/words.py): a compiled catalogue that cannot be
read or is missing gives English for its domain, said once in the log and once on the screen;
a translation whose fields do not fit gives its English. The catalogues broken here are a
copy of the shared domain's (the box's own are never touched)."""

from __future__ import annotations

import io
import os
import random
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from box_helpers import choose

from companion import words
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.setting_offers import form
from companion.table.settings import SettingsStore
from companion.ui.text import speaking
from companion.words import LANGUAGES, SHARED, MissingCatalogue

NOTE = "Damaged words: English shown"


def mo_of(folder: Path, lang: str) -> Path:
    return folder / lang / "LC_MESSAGES" / "companion.mo"


@pytest.fixture
def folder(tmp_path: Path, mocker) -> Path:
    """The shared words read from a copy of their folder, as if the box had just started:
    nothing read yet, nothing said yet."""
    copy = tmp_path / "locale"
    shutil.copytree(SHARED.folder, copy)
    mocker.patch.object(SHARED, "folder", copy)
    mocker.patch.object(SHARED, "_translations", {})
    mocker.patch.object(SHARED, "_templates", {})
    mocker.patch.object(words, "_said", set())
    mocker.patch.object(words, "_shown", set())
    return copy


def restart(mocker) -> None:
    """What a new start of the box forgets: the words read, what was said."""
    mocker.patch.object(SHARED, "_translations", {})
    mocker.patch.object(SHARED, "_templates", {})
    mocker.patch.object(words, "_said", set())
    mocker.patch.object(words, "_shown", set())


def _truncated(mo: Path) -> None:
    mo.write_bytes(mo.read_bytes()[: mo.stat().st_size // 2])


def _bad_magic(mo: Path) -> None:
    mo.write_bytes(b"\x00\x00\x00\x00" + mo.read_bytes()[4:])


def _garbage(mo: Path) -> None:
    mo.write_bytes(bytes(range(256)) * 40)


def _empty(mo: Path) -> None:
    mo.write_bytes(b"")


def _fifo(mo: Path) -> None:
    mo.unlink()
    os.mkfifo(mo)


def _huge(mo: Path) -> None:
    with mo.open("r+b") as fp:  # sparse: a big file, no big disk
        fp.truncate(words.MAX_MO_BYTES + 1)


def _folder(mo: Path) -> None:
    mo.unlink()
    mo.mkdir()


def _missing(mo: Path) -> None:
    mo.unlink()


DAMAGES: dict[str, Callable[[Path], None]] = {
    "truncated": _truncated, "bad magic": _bad_magic, "garbage": _garbage, "empty": _empty,
    "fifo": _fifo, "huge": _huge, "a folder": _folder, "missing": _missing}


def compiled(folder: Path, lang: str, edit: Callable[[str], str]) -> None:
    """Compile ``lang``'s .po, changed by ``edit``, as set-up would never let it through."""
    po = folder / lang / "LC_MESSAGES" / "companion.po"
    catalog = read_po(io.BytesIO(edit(po.read_text(encoding="utf-8")).encode("utf-8")))
    with mo_of(folder, lang).open("wb") as fp:
        write_mo(fp, catalog)


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_catalogue_that_cannot_be_read_gives_english_said_once_in_the_log(folder, capsys, damage):
    DAMAGES[damage](mo_of(folder, "bg"))
    assert SHARED.text("wins", "bg", name="Ана") == "Ана wins"
    assert SHARED.text("settings.language", "bg", name="x") == SHARED.text("settings.language", "en", name="x")
    assert SHARED.text("wins", "fr", name="Ana") == "Ana gagne"  # the others are untouched
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("totem-companion: the bg words of companion: ")
    assert err.endswith("; English shown instead\n")
    assert SHARED.text("undo.question", "bg") == "Take back?"
    assert capsys.readouterr().err == ""


def test_the_screen_says_it_once_per_language(folder, capsys):
    _missing(mo_of(folder, "fr"))        # the French shared words gone
    assert words.unreadable_note("fr") == NOTE
    assert words.unreadable_note("fr") is None
    assert words.unreadable_note("de") is None
    assert "the fr words of companion: missing; English shown instead" in capsys.readouterr().err


def test_a_translation_whose_fields_do_not_fit_gives_its_english(folder, capsys):
    compiled(folder, "fr", lambda po: po.replace('msgstr "{name} gagne"', 'msgstr "{nom} gagne"'))
    compiled(folder, "de", lambda po: po.replace('msgstr "{name} siegt"', 'msgstr "{name siegt"'))
    assert SHARED.text("wins", "fr", name="Ana") == "Ana wins"                # KeyError
    assert SHARED.text("wins", "de", name="Ana") == "Ana wins"                # ValueError
    assert SHARED.text("wins", "fr", name="Ben") == "Ben wins"                # said once
    assert SHARED.text("undo.done", "fr", what="x") == "Annulé: x"             # the other messages hold
    err = capsys.readouterr().err.splitlines()
    assert err == ["totem-companion: 'wins' of the fr words of companion: its fields are not its English's; "
                   "English shown instead",
                   "totem-companion: 'wins' of the de words of companion: its fields are not its English's; "
                   "English shown instead"]
    assert words.unreadable_note("fr") is None   # one message in English: no note for the screen


def test_a_positional_field_gives_its_english(folder):
    compiled(folder, "it", lambda po: po.replace('msgctxt "wins"\nmsgid "{name} wins"\nmsgstr "{name} vince"',
                                                 'msgctxt "wins"\nmsgid "{name} wins"\nmsgstr "{0} vince"'))
    assert SHARED.text("wins", "it", name="Ana") == "Ana wins"                # IndexError


@pytest.mark.parametrize(("rule", "why"), [("n/0", "plural divides by zero for n=0"),
                                           ("__import__('os').getpid()", "unexpected '__import__'")])
def test_a_plural_rule_that_is_not_safe_is_never_run_and_gives_english(folder, capsys, rule, why):
    compiled(folder, "nl", lambda po: po.replace("plural=(n != 1);", f"plural={rule};"))
    assert SHARED.text("speller.full", "nl", n=3) == "3 letters at most"
    assert SHARED.text("speller.full", "fr", n=3) == "3 lettres au plus"
    assert capsys.readouterr().err == \
        f"totem-companion: the nl words of companion: its Plural-Forms: {why}; English shown instead\n"


def test_damaged_english_is_one_line_asking_for_set_up(folder, mocker):
    _truncated(mo_of(folder, "en"))
    mocker.patch.object(SHARED, "_entries", None)
    mocker.patch.object(SHARED, "_owners", {})
    with pytest.raises(MissingCatalogue, match=r"^the companion words cannot be read \(damaged: \w+\): run "
                                               r"\./setup\.sh$"):
        SHARED.text("wins", "en", name="Ana")


def box(data: Path, tmp_path: Path) -> Session:
    """The box started on ``data``, as the ``run`` command starts it."""
    store, problem = SettingsStore.load(data, language="en", games=(), languages=LANGUAGES)
    return Session(data, TagRegistry(tmp_path / "tags.json"), rng=random.Random(1),
                   settings=store, settings_problem=problem)


def test_choosing_bulgarian_with_a_truncated_catalogue_keeps_the_box_and_it_starts_again(folder, tmp_path,
                                                                                       mocker, capsys):
    _truncated(mo_of(folder, "bg"))
    data = tmp_path / "data"
    s = box(data, tmp_path)
    assert s.message is None
    choose(s, "settings")
    for lang in [*(lang for lang in LANGUAGES[1:] if lang != "bg"), "bg"]:
        choose(s, "language")                     # OK: the list of languages
        choose(s, lang)                           # OK on one: spoken at once
        assert s.language == lang and s.frame().size == (128, 64)
    assert s.message == NOTE                       # on the page it turned to (Bulgarian)
    assert s.view.choice.labels[1] == "Language: English"
    choose(s, "language")
    choose(s, "en")                               # back to English: nothing more said
    assert s.language == "en" and s.message is None
    assert capsys.readouterr().err.count("bg words of companion") == 1

    restart(mocker)                                # bg is kept in the settings: the box starts in it
    s.settings.change(language="bg")
    again = box(data, tmp_path)
    assert again.language == "bg" and again.screen == "menu" and again.message == NOTE
    assert again.frame().size == (128, 64)


def test_the_phone_pages_settings_form_holds_with_a_damaged_catalogue(folder):
    _garbage(mo_of(folder, "bg"))
    _missing(mo_of(folder, "fr"))
    for lang in ("en", "bg", "fr"):
        with speaking(lang):
            settings = form(SettingsStore(None))
        languages = next(setting for setting in settings if setting["key"] == "language")
        assert [value for value, _ in languages["choices"]] == list(LANGUAGES)
