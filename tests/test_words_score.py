"""Totem Wars' score and the replay speak the language asked (issue: a family's evening
without friction, item 6): ``score RECORD --language L`` says every round, war, take, refill
and total in L's words (the record and ``--json`` keep machine English), ``replay`` draws
its frames and counts them in L, and ``score --review`` of a game without a review says so
in L; the lines around a demo name the totems and the game in L too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.words import LANGUAGES

DATA = Path(__file__).parent / "data"
RECORDS = ("totem_wars_finished.jsonl", "totem_wars_four_no_winner.jsonl", "totem_wars_bots_declare.jsonl",
           "totem_wars_before_declarations.jsonl", "totem_wars_round.jsonl")
#: English words of the score's text that no translation shares ("Round" is Italian too),
#: and the record's machine names of the cards ("indians/snake").
ENGLISH = ("starts)", "cards placed", " takes ", "Refill", "Final score", "Provisional", " taken)", "dealer",
           " between ", "Declared", "Totem habitats", "Nobody", "read as", "/", "frames written", "No review")


@pytest.fixture(autouse=True)
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    return tmp_path


def said(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert main(list(args)) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("record", RECORDS)
def test_a_totem_wars_score_speaks_the_language_asked(capsys, lang, record):
    lines = said(capsys, "--language", lang, "score", str(DATA / record))
    assert len(lines) > 5 and [line for line in lines if any(word in line for word in ENGLISH)] == []
    english = said(capsys, "score", str(DATA / record))
    assert len(lines) == len(english)                             # the same lines, in other words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_score_s_json_stays_machine_english(capsys, lang):
    record = str(DATA / "totem_wars_finished.jsonl")
    assert json.loads(said(capsys, "--language", lang, "score", "--json", record)[0]) == \
        json.loads(said(capsys, "score", "--json", record)[0])


def test_the_french_score_of_a_war_and_a_round_nobody_wins(capsys):
    lines = said(capsys, "--language", "fr", "score", str(DATA / "totem_wars_four_no_winner.jsonl"))
    assert lines[:9] == [
        "Guerre Totem: Ana, Ben (Ben donne)",
        "Totems: Ana Ours (Indiens), Ben Lion (Africains)",
        "Manche 1 (Ana commence), cartes posées: Ana 1, Ben 1",
        "  Ana 0 pt: Indiens: ours* | Esquimaux: phoque",
        "  Ben 0 pt: Africains: lion* | Esquimaux: baleine",
        "  Guerre (T10) entre Ana, Ben:",
        "    Ana 0 pt: terre: ours* | eau: phoque",
        "    Ben 0 pt: terre: lion* | eau: baleine",
        "  Habitats des totems (T11): Ana terre, Ben terre",
    ]
    assert "  Personne ne gagne: 2 cartes vont sous le paquet (T12)." in lines


def test_the_french_totals_and_the_winner(capsys):
    lines = said(capsys, "--language", "fr", "score", str(DATA / "totem_wars_round.jsonl"))
    assert lines[-4:] == ["Score provisoire (T15):", "  Ana: 3 (totem serpent + 2 Indiens sur 9 pris)",
                          "  Ben: 1 (totem lion + 0 Africains sur 0 pris)",
                          "  Cleo: 1 (totem phoque + 0 Esquimaux sur 0 pris)"]
    assert "  Ana prend 9 cartes (T9)." in lines and "  Compléter (T13): Ana 3, Ben 3, Cleo 3" in lines


@pytest.mark.parametrize("game_record", ["totem_wars_finished.jsonl", "wakanda_worked_example.jsonl"])
def test_replay_draws_and_counts_its_frames_in_the_language_asked(folders, capsys, game_record):
    record = str(DATA / game_record)
    frames = {}
    for lang in ("en", "fr"):
        out = folders / lang
        lines = said(capsys, "--language", lang, "replay", record, "--out", str(out), "--data", str(folders / "d"))
        frames[lang] = [path.read_bytes() for path in sorted(out.glob("*.png"))]
        assert lines == [("{n} frames written to {out}" if lang == "en" else "{n} images écrites dans {out}")
                         .format(n=len(frames[lang]), out=out)]
    assert len(frames["fr"]) == len(frames["en"]) > 5
    # Each frame says something in words: none is the English one.
    assert [i for i, (fr, en) in enumerate(zip(frames["fr"], frames["en"])) if fr == en] == []


def test_score_review_of_a_game_without_one_says_so_in_the_language_asked(capsys):
    lines = said(capsys, "--language", "de", "score", "--review", str(DATA / "totem_wars_round.jsonl"))
    assert lines[-1] == "Keine Analyse: Totemkriege hat keine."


def test_a_demo_with_the_box_in_a_seat_names_the_totems_in_the_language_asked(folders, capsys):
    lines = said(capsys, "--language", "fr", "demo", "--game", "totem-wars", "--box", "2", "--seed", "3",
                 "--display", "none", "--data", str(folders / "d"))
    assert lines[1] == "Totems: Ana Faucon (Indiens), Boîte Crocodile (Africains)"


def test_demo_input_names_the_game_by_its_title_in_the_language_asked(folders, capsys):
    lines = said(capsys, "--language", "fr", "demo", "--input", str(DATA / "first_game_totem_wars.txt"),
                 "--data", str(folders / "d"))
    assert lines[0] == "partie   Joueur 1 v Joueur 2 (Guerre Totem)"


def test_a_wakanda_review_speaks_the_language_asked(capsys):
    lines = said(capsys, "--language", "fr", "score", "--review", str(DATA / "wakanda_worked_example.jsonl"))
    review = lines[lines.index("") + 1:]
    assert review[:3] == ["Bilan: où chaque joueur a perdu le plus de points (l'écart final attendu sur",
                          "l'autre joueur, d'après ce qu'il savait alors, estimé par des parties simulées).",
                          "Ana, 13 coups examinés:"]
    assert "  tour 24: coiffer le village 3 aurait rapporté 6 de plus que coiffer le village 6 (±0.2)" in review
    english = ("Review", "looked at", "would have", "building", "claiming", "turn ")
    assert [line for line in review if any(word in line for word in english)] == []
