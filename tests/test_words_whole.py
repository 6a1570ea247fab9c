"""No word cut on the box's screen (issue: every word whole): the demos of both games (seeds
3, 5, 7), both lessons and the input scripts of the tests, read frame by frame as the
players read them (``--display text``) in all eight languages. A name may give way to a
short form told apart from the others ("S2"), a word never to an ellipsis; a lone "…" (a
player still to lay a totem) is no cut word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.words import LANGUAGES

DATA = Path(__file__).parent / "data"
SCRIPTS = sorted(path.name for path in DATA.glob("*.txt") if path.name != "hub_vectors.txt")
COMMANDS = [
    *(("demo", "--game", game, "--seed", str(seed)) for game in ("wakanda", "totem-wars") for seed in (3, 5, 7)),
    *(("tutorial", "--game", game, "--demo") for game in ("wakanda", "totem-wars")),
    *(("run", "--input", name) for name in SCRIPTS),
]
CUT = re.compile(r"\w…")


@pytest.fixture
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    return tmp_path


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: "-".join(command[1:]).replace(".txt", ""))
def test_no_word_is_cut_on_any_frame(folders, capsys, command, lang):
    args = [*command]
    if command[0] == "run":
        args[2] = str(DATA / command[2])
    assert main(["--language", lang, *args, "--display", "text", "--data", str(folders / "data")]) == 0
    frames = [line for line in capsys.readouterr().out.splitlines() if line.startswith("frame ")]
    assert len(frames) > 5
    assert [frame for frame in frames if CUT.search(frame)] == []


#: 15-letter names, the speller's longest, for every seat of the demos.
LONG_NAMES = ("Konstantinovich", "Bartholomewsson", "Alexandrovnaaaa", "Wilhelminaaaaaa")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["wakanda", "totem-wars"])
@pytest.mark.parametrize("seed", [3, 5, 7])
def test_with_15_letter_names_a_name_gives_way_never_a_word(folders, capsys, lang, game, seed):
    config = folders / "long.toml"
    config.write_text("players = [" + ", ".join(f'"{name}"' for name in LONG_NAMES) + "]\n")
    assert main(["--config", str(config), "--language", lang, "demo", "--game", game, "--seed", str(seed),
                 "--display", "text", "--data", str(folders / "data")]) == 0
    frames = [line for line in capsys.readouterr().out.splitlines() if line.startswith("frame ")]
    cut = {match.group(1) for frame in frames for match in re.finditer(r"(\w+)…", frame)}
    assert {word for word in cut if not any(name.startswith(word) for name in LONG_NAMES)} == set()
