"""The demos in every language: ``demo`` and ``tutorial --demo`` with ``--language`` and
``--display text`` show no English word on any frame (proper names aside), in every game.

A word is English when the English catalogues hold it and the language's do not; what may
stay as it is in every language: the players' names, the games' and product's names, OK.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from companion.cli import main
from companion.games import GAMES
from companion.words import LANGUAGES, SHARED

#: Words shown as they are in every language: names (the demo's players, Wakanda, the
#: product), the OK button.
PROPER = {"ana", "ben", "cleo", "dan", "wakanda", "totem", "companion", "ok"}
WORD = re.compile(r"[^\W\d_]+")


@cache
def vocabulary(lang: str) -> frozenset[str]:
    """Every word of the language's catalogues (fields left out), lower-cased."""
    from babel.messages.pofile import read_po

    words: set[str] = set()
    for catalogue in (SHARED, *(entry.words for entry in GAMES.values())):
        po = catalogue.folder / lang / "LC_MESSAGES" / f"{catalogue.domain}.po"
        with po.open("rb") as fp:
            for message in read_po(fp):
                strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
                for text in strings:
                    words |= {w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text or ""))}
    return frozenset(words)


def english_words(frames: str, lang: str) -> set[str]:
    """The words of the frames that are English and not the language's."""
    english, own = vocabulary("en"), vocabulary(lang)
    found = set()
    for line in frames.splitlines():
        if line.startswith("frame "):
            for word in WORD.findall(line.split(":", 1)[1]):
                lower = word.lower()
                if len(lower) > 1 and lower in english and lower not in own and lower not in PROPER:
                    found.add(word)
    return found


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("command", ["demo", "tutorial"])
def test_a_demo_in_another_language_shows_no_english_word(command, game, lang, capsys, tmp_path: Path):
    argv = [command, "--game", game, "--seed", "2", "--display", "text", "--language", lang]
    assert main(argv + (["--demo"] if command == "tutorial" else [])) == 0
    frames = capsys.readouterr().out
    assert frames.count("\nframe ") > 10
    assert english_words(frames, lang) == set()


def test_the_configured_language_is_the_demos(capsys, tmp_path: Path):
    config = tmp_path / "config.toml"
    config.write_text('language = "de"\n', encoding="utf-8")
    assert main(["demo", "--config", str(config), "--seed", "1", "--display", "text"]) == 0
    assert "Neu: Wakanda" in capsys.readouterr().out


def test_the_language_chosen_in_settings_is_the_demos(capsys, tmp_path: Path):
    (tmp_path / "settings.json").write_text('{"version": 1, "language": "es"}', encoding="utf-8")
    assert main(["demo", "--data", str(tmp_path), "--seed", "1", "--display", "text"]) == 0
    assert "Jugar Wakanda" in capsys.readouterr().out


def test_an_unknown_language_is_one_line(capsys):
    assert main(["demo", "--language", "tlh", "--display", "text"]) == 2
    err = capsys.readouterr().err
    assert "--language: expected one of en, fr, de, es, it, nl, pt, bg" in err and err.count("\n") == 1


def test_the_demos_narration_speaks_the_language_asked(capsys):
    """The lines a demo prints speak ``--language`` too (issue: the language reaches every
    line a person reads; only the record files keep machine English)."""
    assert main(["demo", "--game", "totem-wars", "--seed", "2", "--display", "none", "--language", "it"]) == 0
    out = capsys.readouterr().out
    assert {"Aborigeni", "Africani", "Eschimesi", "Indiani"} & set(WORD.findall(out))   # the totems' tribes
    assert " prende " in out or "sotto il mazzo" in out or "Nessuno" in out             # where the cards went
    assert not {"takes", "Deal", "cards", "Aborigines", "Africans", "Eskimos", "Indians"} & set(WORD.findall(out))
