"""A third game and a ninth language join the box at run time (``tests/additions.py``), and
the suite's game- and language-parametrised tests pass for them with no test edited: the
suite run again in a child process with ``TOTEM_EXTRA_GAME=1 TOTEM_EXTRA_LANGUAGE=1``, which
keeps only the tests parametrised with the new game or language.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from additions import EXTRA_GAME, EXTRA_LANGUAGE, GAME_ENV, LANGUAGE_ENV
from pytest_mock import MockerFixture

from companion.games import GAMES, Registry
from companion.languages import LANGUAGES, Language, Languages
from companion.table.items import parse_item

TESTS = Path(__file__).parent


def parametrised_files() -> list[str]:
    """The test files that read the registry or the language table (the others cannot be
    parametrised with a game or a language added at run time)."""
    return [str(path) for path in sorted(TESTS.glob("test_*.py")) if path.name != Path(__file__).name
            and re.search(r"\b(GAMES|LANGUAGES)\b", path.read_text(encoding="utf-8"))]


def test_the_parametrised_tests_pass_for_a_third_game_and_a_ninth_language(tmp_path: Path) -> None:
    env = {**os.environ, GAME_ENV: "1", LANGUAGE_ENV: "1", "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v", "-o",
                          "addopts=--benchmark-disable", *parametrised_files()],
                         cwd=TESTS.parent, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    passed = [line for line in run.stdout.splitlines() if " PASSED" in line]
    assert len(passed) > 50, run.stdout[-2000:]
    assert any(f"[{EXTRA_GAME}" in line or f"-{EXTRA_GAME}" in line for line in passed)
    assert any(re.search(rf"[\[-]{EXTRA_LANGUAGE}[\]-]", line) for line in passed)
    assert not re.search(r"\bFAILED\b|\bERROR\b", run.stdout)


def test_a_game_is_registered_once() -> None:
    games = Registry({"wakanda": "companion.games.wakanda.definition"})
    games.add("totem-wars", "companion.games.totem_wars.definition")
    assert list(games) == ["wakanda", "totem-wars"] and games["totem-wars"].title == "Totem Wars"
    with pytest.raises(ValueError, match="'wakanda' is known already"):
        games.add("wakanda", "companion.games.totem_wars.definition")
    assert list(GAMES)[:2] == ["wakanda", "totem-wars"]


def test_a_module_that_does_not_define_the_game_it_is_registered_for_is_refused() -> None:
    games = Registry({})
    games.add("chess", "companion.games.wakanda.definition")
    with pytest.raises(TypeError, match="is not the definition of chess"):
        games["chess"]


def test_a_language_is_registered_once_and_every_view_sees_it() -> None:
    languages = Languages([Language("en", "English", "en-gb")])
    languages.add(Language("pl", "Polish", "pl"))
    assert list(languages) == ["en", "pl"] and languages[1:] == ("pl",) and "pl" in languages
    assert languages.of("pl").voice == "pl" and len(languages) == 2
    with pytest.raises(ValueError, match="'en' is known already"):
        languages.add(Language("en", "English", "en-us"))
    with pytest.raises(KeyError):
        languages.of("xx")
    assert LANGUAGES[:8] == ("en", "fr", "de", "es", "it", "nl", "pt", "bg")


def test_an_item_name_two_games_share_is_the_game_in_play_s(mocker: MockerFixture) -> None:
    def items_of(game: str) -> SimpleNamespace:
        return SimpleNamespace(name=game, items=SimpleNamespace(
            parse=lambda name: SimpleNamespace(game=game, name=name) if name == "eagle" else None))

    mocker.patch("companion.table.items.GAMES", {"first": items_of("first"), "second": items_of("second")})
    assert [getattr(parse_item("eagle", game), "game", None) for game in (None, "first", "second")] == \
        ["first", "first", "second"]
    assert parse_item("owl", "second") is None


def test_an_item_is_parsed_whichever_game_is_named_first() -> None:
    either, first = parse_item("eagle"), parse_item("eagle", "totem-wars")
    assert either is not None and first is not None and either.game == first.game == "wakanda"
    assert parse_item("no-such-thing", "wakanda") is None
