"""The Totem Wars lesson (issue 11): ``tutorial --demo`` plays it to the end for many seeds,
2 to 4 players, and teaches every rule T2–T16; an input script plays it as newcomers do —
wrong actions, a step back, a skip — through a power cut, read from the frames' words."""

from __future__ import annotations

import pytest
from tutorial_helpers import DATA, check_transcript, demo_lines, frames_of, kill_when_shown

from companion.games import read_any_record
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.tutorial_store import lesson_folder

GAME = "totem-wars"


@pytest.fixture(autouse=True)
def own_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))


@pytest.mark.parametrize("seed", range(1, 21))
def test_the_demo_learners_finish_the_lesson_and_every_rule_is_taught(capsys, seed):
    steps = demo_lines(capsys, GAME, "--seed", str(seed))
    parsed = check_transcript(steps, {f"T{n}" for n in range(2, 17)})
    # The first round follows the lesson's plan: 2 cards, a raise to 3, an answer.
    did = {m.group(2): m.group(4) for m in parsed}
    assert did["T4"].endswith("placed 2 cards") and did["T5"].endswith("placed 3 cards")
    assert " placed " in did["T6"]
    # A newcomer's mistakes are lessons: the first one is a totem scanned twice (T2).
    assert any(m.group(4).startswith("refused: That card is down as a totem already — T2; ")
               for m in parsed)
    # The game is played to its end, then the big game.
    assert [m.group(2) for m in parsed][-2:] == ["T15", "T16"]


@pytest.mark.parametrize("seed", range(1, 21))
def test_a_war_is_explained_before_its_result(capsys, seed):
    """A war in the first round (T10) is taught before who takes the table because of it
    (T9); a war that comes later, when it comes."""
    parsed = check_transcript(demo_lines(capsys, GAME, "--seed", str(seed)), set())
    rules = [m.group(2) for m in parsed]
    assert rules.count("T10") <= 1
    if "T10" in rules and rules.index("T10") < rules.index("T7"):   # a war in the first round
        assert rules.index("T10") < rules.index("T9")


def test_the_lesson_demo_s_first_round_war_comes_before_its_taking(capsys):
    rules = [m.group(2) for m in check_transcript(demo_lines(capsys, GAME, "--seed", "1"), set())]
    assert rules.index("T8") < rules.index("T10") < rules.index("T9") < rules.index("T7")


def test_the_demo_plays_two_to_four_players(capsys):
    counts = {demo_lines(capsys, GAME, "--seed", str(seed))[0].rsplit("-> ", 1)[1]
              for seed in (1, 5, 7)}
    assert counts == {"2 players", "3 players", "4 players"}


def test_newcomers_learn_by_doing_through_a_power_cut(tmp_path, capsys):
    data = tmp_path / "data"
    frames = frames_of(GAME, DATA / "lesson_totem_wars_1.txt", data, capsys)
    assert frames[0].startswith("T1 The cards 1/2 | 2 to 4 players. 52")
    # The totems, by name, and a totem scanned twice is the rule in words.
    assert ("Deal 5 each (T2) | Player 2 scan now | Player 1 … | Player 2: lay your | "
            "totem, scan it") in frames
    # The rule once, then the lesson's word on it (never the same sentence twice).
    assert ("T2 Not quite 1/2 | That card is down as | a totem already — T2 | Each player lays a | "
            "card of their own | OK more · ▲▼ pages") in frames
    assert any(f.startswith("T3 One more 1/2 | Player 1 deals 1 more") for f in frames)
    # The first round by the lesson's plan: three cards where two are asked are taken back.
    assert ("Player 2 Round 1 | Start: 1 to 5 cards | P1 AFR 5 | ▶ P2 IND 5 | Player 2: place 2 cards, | "
            "then OK") in frames
    assert ("T4 Not now 1/2 | This step asks: | Player 2: place 2 | cards, then OK | Taken back: Player 2 | "
            "OK more · ▲▼ pages") in frames
    # Back from the raise's page: the game's own question, then the start again.
    raising = next(i for i, f in enumerate(frames) if f.startswith("T5 Raising 1/2"))
    assert frames[raising + 1] == "Take back? | Player 2 placed 2 | cards | OK yes · BACK no"
    assert any(f.startswith("T5 Not quite 1/2 | Place at least 2 | cards, the level of | this round — T5")
               for f in frames)
    assert any(f.startswith("T6 Answering 1/2 | All have placed once. | Player 2 is below the") for f in frames)
    # Where the skip led, and what to do now (the game's own prompt).
    assert frames[-1].endswith("| Now: The round's result | Player 2: answer 1 card")

    # The power comes back: the answer is still Player 2's, and the real round is explained.
    frames = frames_of(GAME, DATA / "lesson_totem_wars_2.txt", data, capsys)
    assert frames[0].endswith("Lesson resumed at step 8")
    assert "T8 Points 2/2 | Player 1 7, Player 2 | 7. | OK go on · hold OK skip" in frames
    assert ("Round 1 · war! 1/6▼ | P1 7 war 7 land | P2 7 war 7 land | No winner: 6 cards under | "
            "the deck (T12)") in frames
    assert any(f.startswith("T7 Columns 1/2 | Player 1's columns:") for f in frames)
    assert any(f.startswith("T13 Refill 1/2 | Refill to 5, a card") for f in frames)
    assert "T10 War 2/2 | totem first (T10). It | stayed tied. | OK go on · hold OK skip" in frames
    assert ("T11 Habitats 2/2 | land, land beats air, | air beats water | (T11). Nobody won. | "
            "OK go on · hold OK skip") in frames
    assert any(f.startswith("T12 No winner 1/2 | Round 1: nobody won, | so its 6 cards went") for f in frames)
    assert frames[-1] == ("Player 2 Round 2 | Start: 1 to 5 cards | P1 AFR 5 | ▶ P2 IND 5 | "
                          "Player 2: place 1 to 5 | cards, then OK")
    record = (lesson_folder(data, GAME) / "current.jsonl").read_text()
    game = read_any_record(record)[1]
    assert len(game.rounds) == 1 and game.rounds[0].taker is None
    assert not (data / "current.jsonl").exists()  # a lesson's game is not a player's game


def test_a_lesson_killed_mid_step_resumes_at_its_step(tmp_path):
    data = tmp_path / "data"
    kill_when_shown(GAME, DATA / "lesson_totem_wars_1.txt", data, "Now: The round's result", tmp_path)
    again = Session(data, TagRegistry(data / "tags.json"), tutorial=GAME)
    assert again.flow.step.key == "points" and again.flow.start is None  # waits for the round
    assert again.message == "Lesson resumed at step 8"
    assert again.game.to_move == 1 and len(again.game.table[1]) == 2  # Player 2 still answers
