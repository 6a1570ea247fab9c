"""The language reaches every line a person reads around the frames (issue: no English
frame anywhere, nor around them): ``demo``'s narration and result, ``tutorial --demo``'s
transcript, ``demo --input``'s narration and ``score RECORD`` speak ``--language``; the
JSON and the record files keep the records' machine English."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_demo import SCRIPT

from companion.cli import main
from companion.words import LANGUAGES

DATA = Path(__file__).parent / "data"
#: English words of those lines that no translation shares ("Villages:" is French too).
ENGLISH = ("Turn ", " draws ", "builds ", "claims village", " wins ", "variant)", "greedy", "step ",
           "lesson complete", "refused ", "taken back", "Winner:", "sun penalty", "finished",
           "placed:", " takes ", "Deal ", "Big game", "war (T10)", " deals")


@pytest.fixture(autouse=True)
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    return tmp_path


def said(capsys, *args: str) -> list[str]:
    assert main(list(args)) == 0
    return capsys.readouterr().out.splitlines()


def english_in(lines: list[str]) -> list[str]:
    return [line for line in lines if any(word in line for word in ENGLISH)]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_a_wakanda_demo_is_narrated_in_the_language_asked(capsys, lang):
    lines = said(capsys, "--language", lang, "demo", "--seed", "3", "--display", "none")
    assert len(lines) > 20 and english_in(lines) == []


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_a_totem_wars_demo_is_narrated_in_the_language_asked(capsys, lang):
    lines = said(capsys, "--language", lang, "demo", "--game", "totem-wars", "--seed", "5", "--display", "none")
    assert len(lines) > 5 and english_in(lines) == []


def test_the_french_totem_wars_demo(capsys):
    lines = said(capsys, "--language", "fr", "demo", "--game", "totem-wars", "--seed", "5", "--display", "none")
    assert lines[2] == "Manche 1 · posées: Dan 4, Ana 4, Ben 4, Cleo 4 · points: Dan 5, Ana 3, Ben 5, Cleo 7"
    assert lines[-1] == "Cleo gagne avec 6 points (T15)"


def test_the_french_demo_in_the_rulebook_s_words(capsys):
    lines = said(capsys, "--language", "fr", "demo", "--seed", "3", "--display", "none")
    assert lines[0] == "Graine 3 · Ana (glouton) contre Ben (au hasard) · variante visible"
    assert lines[2] == "Tour 1 · Ana pioche Soleil, pose Soleil au village 1"
    assert lines[-1] == "Ana gagne 18 à 10"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_a_lesson_s_transcript_is_in_the_language_asked(capsys, lang):
    lines = said(capsys, "--language", lang, "tutorial", "--demo", "--display", "none")
    assert english_in(lines) == [] and len(lines) > 10


def test_an_input_script_is_narrated_in_the_language_asked(tmp_path, capsys):
    script = tmp_path / "bug.txt"
    script.write_text(SCRIPT)
    assert said(capsys, "--language", "fr", "demo", "--input", str(script)) == [
        "partie   Joueur 1 v Joueur 2 (Wakanda)",
        "         Joueur 1 pioche Soleil",
        "refusé   press v5: Village 5 pas encore ouvert — W4",
        "         Joueur 1 pose Soleil au village 1",
        "         annulé (1)",
    ]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_score_speaks_the_language_asked_and_its_json_stays_machine_english(capsys, lang):
    record = str(DATA / "wakanda_worked_example.jsonl")
    lines = said(capsys, "--language", lang, "score", record)
    assert english_in(lines) == [] and len(lines) == 11
    assert json.loads(said(capsys, "--language", lang, "score", "--json", record)[0]) == \
        json.loads(said(capsys, "score", "--json", record)[0])


def test_the_french_score_of_the_worked_example(capsys):
    lines = said(capsys, "--language", "fr", "score", str(DATA / "wakanda_worked_example.jsonl"))
    assert lines[0] == "Wakanda, Ana contre Ben (finie)"
    assert lines[-3:] == ["pénalité soleil       -2       0", "total                 20      16",
                          "Vainqueur: Ana, meilleur total (W9)."]
