"""The Wakanda lesson (issue 11): ``tutorial --demo`` plays it to the end for many seeds and
teaches every rule W1–W10; an input script plays it as newcomers do — wrong actions, a step
back, a skip — through a power cut, read from the frames' words (``--display text``)."""

from __future__ import annotations

import json
import random

import pytest
from tutorial_helpers import DATA, check_transcript, demo_lines, frames_of, kill_when_shown

from companion.cli import main
from companion.events import Hold, Press
from companion.games import GAMES, read_any_record
from companion.table.app_loop import AppLoop
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.tutorial_flow import TutorialFlow
from companion.table.tutorial_store import PROGRESS_FILE, lesson_folder


@pytest.fixture(autouse=True)
def own_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))


def lesson_lines(capsys, *args) -> list[str]:
    """The transcript of ``tutorial --game wakanda --demo ARGS``."""
    return demo_lines(capsys, "wakanda", *args)


# --- the demo ----------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(1, 21))
def test_the_demo_learner_finishes_the_lesson_and_every_rule_is_taught(capsys, seed):
    steps = lesson_lines(capsys, "--seed", str(seed))
    parsed = check_transcript(steps, {f"W{n}" for n in range(1, 11)})
    # A newcomer's mistakes are lessons: refused with the rule, or taken back; then done.
    wrong = [m.group(4) for m in parsed if m.group(4).startswith(("refused:", "taken back:"))]
    assert wrong and all("; " in what for what in wrong)
    assert "refused: Village 6 is not open yet — W4; " in "\n".join(steps)
    # The steps talk to the player to move by name, and the real game is played to the end.
    assert any(m.group(3).startswith(("Ana:", "Ben:")) for m in parsed)
    assert parsed[-1].group(2) == "W9"


def test_the_same_seed_gives_the_same_lesson(capsys):
    assert lesson_lines(capsys, "--seed", "7") == lesson_lines(capsys, "--seed", "7")


def test_the_demo_keeps_its_lesson_game_in_the_data_folder(tmp_path, capsys):
    lines = lesson_lines(capsys, "--seed", "3", "--data", str(tmp_path))
    assert lines[-1].startswith("lesson complete")
    kept = list((lesson_folder(tmp_path, "wakanda") / "games").glob("*-wakanda.jsonl"))
    assert len(kept) == 1 and read_any_record(kept[0].read_text())[1].phase == "over"
    # The lesson is over: its progress is forgotten, and no player's game was touched.
    assert json.loads((tmp_path / PROGRESS_FILE).read_text())["lessons"] == {}
    assert not (tmp_path / "current.jsonl").exists()


def test_a_demo_never_takes_over_a_lesson_under_way(tmp_path, capsys):
    assert main(["tutorial", "--input", str(DATA / "lesson_wakanda_1.txt"), "--display", "none",
                 "--data", str(tmp_path)]) == 0
    assert main(["tutorial", "--demo", "--data", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a lesson of Wakanda is under way there" in err


def test_seed_without_demo_is_a_usage_error(capsys):
    assert main(["tutorial", "--seed", "3"]) == 2
    assert capsys.readouterr().err.strip() == "totem-companion tutorial: --seed is for --demo"


# --- newcomers at the table ----------------------------------------------------------------

def test_newcomers_learn_by_doing_through_a_power_cut(tmp_path, capsys):
    data = tmp_path / "data"
    frames = frames_of("wakanda", DATA / "lesson_wakanda_1.txt", data, capsys)
    # The first page says what the game is made of and asks for one action.
    assert frames[0].startswith("W1 The pieces 1/2 | 2 players. 21 pieces")
    assert frames[1].endswith("OK go on · hold OK skip")
    # Each rule is explained the first time it is used, on the real table: the piece drawn
    # and what it scores in this row.
    assert any(f.startswith("W2 The row 1/2 | Shuffle the 8 village") for f in frames)
    assert ("W4 Build 1/2 | Player 1 drew eagle. | Village 2 scores 8 | for each eagle on its | "
            "owner's poles. | OK more · ▲▼ pages") in frames
    # The step's ask is where the players look, by name.
    assert "P1 play 1 P2 0 | Player 1: build it on | village 1-3" in frames
    # A wrong action is a lesson: the rule in words, then the step asks again.
    wrong = frames.index("W4 Not quite 1/2 | Village 5 is not open | yet — W4 | Villages 1 to 3 are | "
                         "open. The next one | OK more · ▲▼ pages")
    assert frames[wrong + 1].endswith("OK: try again")
    assert frames[wrong + 2] == "P1 play 1 P2 0 | Player 1: build it on | village 1-3"
    assert any(f.startswith("W4 Not quite 1/2 | Draw first: the bag | is not empty — W4") for f in frames)
    # Back is one step back: the draw taken back, with what to do on the table.
    assert "Take back? | Player 2 drew sun | OK yes · BACK no" in frames
    assert "P2 draw P1 0 | Taken back: put the sun | back in the bag | Player 2: draw and scan" in frames
    # Holding OK skips claiming: on to the villages of this row, in a picture.
    assert frames[-1] == ("W7 Villages 1/2 | TEE EAG CHF VAR SUN TOM | ×2 ×8 ×5 2×k ±1 ×4 | "
                          "per piece, on ALL poles | OK more · ▲▼ pages")

    # The power comes back: the lesson resumes at its step, with its page again.
    frames = frames_of("wakanda", DATA / "lesson_wakanda_2.txt", data, capsys)
    assert frames[0].startswith("W7 Villages 1/3 | TEE EAG CHF VAR SUN TOM")
    assert frames[1].startswith("W7 Villages 2/3 | Resumed at step 11. | Villages count ALL")
    assert any(f.startswith("W5 Play on 1/2 | Now play on, turn by") for f in frames)
    assert "P2 draw P1 0 | Chief on village 3 | Player 2: draw and scan" in frames
    # In free play a wrong action is the game's own refusal, with its rule.
    assert frames[-1] == "P2 draw P1 0 | Wings are Player 1's; it | is Player 2's turn — W4 | Player 2: draw and scan"
    journal = (lesson_folder(data, "wakanda") / "current.jsonl").read_text()
    assert [line for line in journal.splitlines()[1:]] == [
        '{"p": 0, "draw": "eagle"}', '{"p": 0, "build": "eagle", "village": 1}',
        '{"p": 1, "draw": "sun"}', '{"undo": true}', '{"p": 1, "draw": "sun"}',
        '{"p": 1, "build": "sun", "village": 2}', '{"p": 0, "draw": "chief"}',
        '{"p": 0, "build": "chief", "village": 3}']
    assert not (data / "current.jsonl").exists()  # a lesson's game is not a player's game


def test_a_lesson_killed_mid_step_resumes_at_its_step(tmp_path, capsys):
    """A real power cut: the box is killed (SIGKILL) once the frame after the skip is shown,
    then started again."""
    data = tmp_path / "data"
    kill_when_shown("wakanda", DATA / "lesson_wakanda_1.txt", data, "W7 Villages 1/2", tmp_path)
    again = Session(data, TagRegistry(data / "tags.json"), tutorial="wakanda")
    lesson = again.flow
    assert isinstance(lesson, TutorialFlow)
    assert lesson.step.key == "row" and lesson.page.title == "W7 Villages"
    assert lesson.page.picture is not None and lesson.page.pages[1][0] == "Resumed at step 11."
    assert [move for _, move in again.game.history][-1].piece == "chief"


# --- the menu, leaving and coming back -----------------------------------------------------

def learn(box, title):
    """Choose ``Learn <title>`` on the menu."""
    for _ in range(10):
        if box.view.choice.labels[box.view.choice.selected] == f"Learn {title}":
            return box.handle(Press("ok"))
        box.handle(Press("down"))
    raise AssertionError(f"no Learn {title} on the menu")


def test_the_menu_offers_the_lesson_and_leaving_keeps_it(tmp_path):
    box = Session(tmp_path, TagRegistry(tmp_path / "tags.json"))
    learn(box, "Wakanda")
    assert box.screen == "lesson" and box.view.title == "W1 The pieces"
    box.handle(Press("ok")); box.handle(Press("ok"))          # the pieces are in the bag
    assert box.view.title == "W10 Face down?"
    box.handle(Press("back"))                                  # one step back: the pieces' page
    assert box.view.title == "W1 The pieces" and box.view.page == 0
    box.handle(Press("ok")); box.handle(Press("ok"))           # read before: the variants
    assert box.view.choice.title == "Variant"
    box.handle(Press("back"))                                  # the set-up's Back: the menu
    assert not isinstance(box.flow, TutorialFlow) and box.view.choice.title == "Totem Companion"
    learn(box, "Wakanda")                                      # back where it was left
    assert box.view.title == "W10 Face down?" and box.view.pages[0][0] == "Resumed at step 2."


def test_skipping_the_set_up_topic_leaves_the_set_up_to_the_players(tmp_path):
    box = Session(tmp_path, TagRegistry(tmp_path / "tags.json"), tutorial="wakanda")
    box.handle(Press("ok")); box.handle(Press("ok"))
    box.handle(Hold("ok"))                                     # skip the set-up's lessons
    lesson = box.flow
    assert lesson.step.key == "draw" and lesson.log[-1] == (
        "step 2 [W10]: Choose open or hidden tiles -> skipped to the next topic")
    assert box.screen == "menu" and box.message == "Skipped to: A turn"
    assert box.view.choice.title == "Variant"                  # the set-up still asks


def test_damaged_progress_begins_the_lesson_again_in_one_line(tmp_path):
    (tmp_path / PROGRESS_FILE).write_text('{"version": 1, "lessons": ')
    box = Session(tmp_path, TagRegistry(tmp_path / "tags.json"), tutorial="wakanda")
    assert box.view.title == "W1 The pieces"
    box.handle(Press("ok")); box.handle(Press("ok"))
    kept = json.loads((tmp_path / PROGRESS_FILE).read_text())
    assert kept["lessons"]["wakanda"]["step"] == "variant"



@pytest.mark.parametrize("hostile", [
    '{"version": 1, "lessons": ' + "[" * 30_000 + "]" * 30_000 + "}",  # nested past Python's stack, under 64 KiB
    '{"version": 1, "version": 1, "lessons": {}}',  # a key given twice: which one is meant?
    '{"version": 1, "lessons": {"wakanda": {"start": ' + "9" * 5000 + "}}}",  # a number too long
])
def test_a_deeply_nested_or_hostile_progress_file_begins_the_lesson_again(tmp_path, hostile):
    (tmp_path / PROGRESS_FILE).write_text(hostile)
    box = Session(tmp_path, TagRegistry(tmp_path / "tags.json"), tutorial="wakanda")
    assert box.view.title == "W1 The pieces"


class NoDisplay:
    """A display that shows nothing."""

    def show(self, image):
        return 0

    def close(self):
        pass


def test_a_lesson_cut_off_at_its_score_resumes_on_the_real_final_position(tmp_path):
    lesson = GAMES["wakanda"].table.lessons
    tags = lesson.demo_tags()
    box = Session(tmp_path, TagRegistry(tmp_path / "tags.json", tags), players=("Ana", "Ben"),
                  tutorial="wakanda")
    learner = lesson.learner(AppLoop(box, NoDisplay()), tags, random.Random(9))
    while box.flow.step is None or box.flow.step.key != "villages":
        learner.advance()
    game = box.game
    assert game.phase == "over"
    again = Session(tmp_path, TagRegistry(tmp_path / "tags.json", tags), tutorial="wakanda")
    assert again.flow.inner.kind == "score" and again.game.history == game.history
    assert again.view.title == "W7 Points"
    words = " ".join(" ".join(page) for page in again.view.pages)
    for player in (0, 1):
        for village, points in game.score(player).villages.items():
            assert f"{village} {points}" in words  # the real final position, village by village
