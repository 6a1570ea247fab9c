"""After a refusal the bottom line still says what to do now, on Totem Wars' totems and
war-declaration screens as on the board (issue: a family's evening without friction, item 4):
read as the players read it (``run --input SCRIPT --display text``) in all eight languages,
the words whole and the language's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.games.totem_wars.words import t as tw_t
from companion.ui.canvas import SMALL, text_width
from companion.ui.screens import prompt_line
from companion.ui.text import t as shared_t
from companion.words import LANGUAGES

DATA = Path(__file__).parent / "data"


@pytest.fixture
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    return tmp_path


def frames_of(script: str, lang: str, folders: Path, capsys: pytest.CaptureFixture[str]) -> list[list[str]]:
    """The lines of each frame the box showed for the input ``script`` in ``lang`` (a new
    data folder each time: no game to resume)."""
    data = folders / f"data-{script}-{lang}"
    assert main(["--language", lang, "run", "--input", str(DATA / script), "--display", "text",
                 "--data", str(data)]) == 0
    out = capsys.readouterr().out
    return [line.split(": ", 1)[1].split(" | ") for line in out.splitlines() if line.startswith("frame ")]


def names(lang: str) -> list[str]:
    """The default names of a two-player game in ``lang``."""
    return [shared_t("setup.player", lang, n=n) for n in (1, 2)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_totem_keeps_whose_totem_it_is_on_the_bottom_line(folders, capsys, lang):
    frames = frames_of("totem_wars_refused_totem.txt", lang, folders, capsys)
    refused = frames[-1]
    prompt = prompt_line(tw_t("tw.prompt.totem.short", lang), names(lang)[0], names(lang), short=True)
    assert refused[-1] == prompt and text_width(prompt, SMALL) <= 124
    # The refusal's words stand above it, the rule (T2) last.
    assert refused[-2].endswith("— T2")
    assert frames[-2][-1] != prompt                               # before it, the two-line prompt


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_card_refused_during_a_war_keeps_the_habitats_and_what_to_do(folders, capsys, lang):
    frames = frames_of("totem_wars_refused_declaration.txt", lang, folders, capsys)
    asked, refused = frames[-2], frames[-1]
    footer = tw_t("tw.declare.footer", lang)
    assert asked[-1] == footer and refused[-1] == footer
    habitats = [tw_t(f"habitat.{h}", lang) for h in ("land", "water")]
    for habitat in habitats:                                      # both choices still shown
        assert any(line.lower().startswith(habitat.lower()) for line in refused)
    assert refused[-2].endswith("— R2")


def test_on_a_french_screen_no_english_is_left(folders, capsys):
    english = {line for frame in frames_of("totem_wars_refused_totem.txt", "en", folders, capsys)[-1:]
               for line in frame}
    english |= {line for frame in frames_of("totem_wars_refused_declaration.txt", "en", folders, capsys)[-1:]
                for line in frame}
    french = frames_of("totem_wars_refused_totem.txt", "fr", folders, capsys)[-1]
    french += frames_of("totem_wars_refused_declaration.txt", "fr", folders, capsys)[-1]
    shared = {line for line in set(french) & english if any(ch.isalpha() for ch in line)}
    assert shared <= {"R2"}                                       # a rule number is the same everywhere
    assert "Joueur 1: pose ton totem" in french and "▲▼ choix · OK annonce" in french
