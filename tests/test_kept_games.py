"""A game left for later never vanishes (issue 20, items 1, 2 and 9): every kept game is
offered on the menu, the last played first; a new game while one waits asks first; a lesson
left with hold Back comes back at its step through Learn; a resumed Totem Wars game asks for
the cards scanned before the stop again. Read from the frames' words (``--display text``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from box_helpers import choose, presses_to

from companion.cli import main
from companion.events import Hold, Press
from companion.games import GAMES
from companion.table.flow import ToResume, ToTutorial
from companion.table.journal import CURRENT, archive_unfinished
from companion.table.kept_games import bring_back, kept_games
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.tutorial_flow import TutorialFlow
from companion.ui.canvas import ELLIPSIS, LARGE, MEDIUM, SMALL, WIDTH, frame_words, text_width, wrap
from companion.ui.screens import prompt_line
from companion.words import LANGUAGES, SHARED
from hardware.script_input import ScriptInput

DATA = Path(__file__).parent / "data"
WAKANDA = '{"game": "wakanda", "players": ["%s", "%s"], "villages": ["teepee", "eagle", "chief", ' \
          '"variety", "sun", "tomahawk"], "first": 0}\n{"p": 0, "draw": "eagle"}\n'


@pytest.fixture(autouse=True)
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))


def frames_of(script: Path, data: Path, capsys) -> list[str]:
    """The words of each frame ``run --input SCRIPT`` shows, a line a frame."""
    assert main(["run", "--input", str(script), "--display", "text", "--data", str(data)]) == 0
    out = capsys.readouterr().out
    return [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("frame ")]


def menu_lines(frame: str) -> list[str]:
    """A menu frame's lines between its title and its footer."""
    return frame.split(" | ")[1:]


def test_two_kept_games_are_each_offered_and_a_new_game_asks_first(tmp_path, capsys):
    data = tmp_path / "data"
    frames = frames_of(DATA / "kept_games.txt", data, capsys)
    left = [n for n, f in enumerate(frames) if f.startswith("Leave this game? | It is kept: resume")]
    assert len(left) == 3
    # Left once: the Wakanda game is offered, and whose it is.
    assert frames[left[0] + 1].startswith("Totem Companion | Resume Wakanda | New: Wakanda | New: Totem Wars")
    assert frames[left[0] + 1].endswith("| Player 1 v Player 2")
    # A new game while it waits asks first, and says it stays.
    assert "Start a new game? | Wakanda is kept: it | stays on the menu | OK yes · BACK no" in frames
    # Left again: both are offered, the last played first.
    assert menu_lines(frames[left[1] + 1])[:3] == ["Resume Totem Wars", "Resume Wakanda", "New: Wakanda"]
    # The older one resumes where it was…
    assert "P2 draw P1 0 | Game resumed: turn 2, | Player 2 to play" in frames
    # …and is now the last played: first on the menu.
    assert menu_lines(frames[left[2] + 1])[:2] == ["Resume Wakanda", "Resume Totem Wars"]
    # The Totem Wars game resumes asking for the card scanned before it was left (item 9),
    # and takes it.
    resumed = next(n for n, f in enumerate(frames) if "Resumed. P1: rescan" in f)
    assert frames[resumed].endswith("| Resumed. P1: rescan | cards laid, then OK")
    assert frames[resumed + 1].endswith("| 1 scanned · OK to place")
    assert frames[-1].startswith("Round 1 1/4▼ | P1 3 | P2 0 | Player 1 takes 2 cards")
    # Nothing was lost: the Wakanda game still waits, as the one kept for later.
    assert [kept.game for kept in kept_games(data)] == ["wakanda"]
    assert (data / CURRENT).read_text().startswith('{"game": "totem-wars"')


def keep(data: Path, names: tuple[str, str], when: int) -> None:
    """A Wakanda game of ``names`` kept for later, last played at ``when`` (seconds)."""
    (data / CURRENT).write_text(WAKANDA % names)
    kept = archive_unfinished(data)
    assert kept is not None
    os.utime(kept, (when, when))


def test_several_kept_games_are_offered_the_last_played_first(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    for n, names in enumerate([("Ana", "Ben"), ("Cleo", "Dan"), ("Eve", "Finn")]):
        keep(data, names, 1_000_000 + 100 * n)
    box = Session(data, TagRegistry(data / "tags.json"))
    assert box.view.choice.labels[:4] == ("Resume Wakanda",) * 3 + ("New: Wakanda",)
    footers = []
    for _ in range(3):
        footers.append(box.view.footer)
        box.handle(Press("down"))
    assert footers == ["Eve v Finn", "Cleo v Dan", "Ana v Ben"]
    # No game in the journal: a new game starts without a question.
    box.handle(Press("down"))
    assert box.handle(Press("ok")) and box.screen == "setup"


def test_many_kept_games_show_the_latest_three_and_more_behind_one_line(tmp_path):
    """New stays near the top however many games are kept: the latest three, then a line
    that lists the others, in place, the first of them chosen."""
    data = tmp_path / "data"
    data.mkdir()
    names = [(f"A{n}", f"B{n}") for n in range(12)]
    for n, pair in enumerate(names):
        keep(data, pair, 1_000_000 + 100 * n)
    box = Session(data, TagRegistry(data / "tags.json"))
    labels = box.view.choice.labels
    assert labels[:5] == ("Resume Wakanda",) * 3 + ("9 more kept…", "New: Wakanda")
    for _ in range(3):
        box.handle(Press("down"))
    assert box.view.choice.value == "more_kept"
    box.handle(Press("ok"))
    assert box.screen == "menu" and box.view.choice.labels[:12] == ("Resume Wakanda",) * 12
    assert box.view.choice.labels[12] == "New: Wakanda" and box.view.footer == "A8 v B8"   # the 4th latest
    box.handle(Press("ok"))
    assert box.screen == "board" and box.game.players == ("A8", "B8")


def test_four_kept_games_are_all_listed_a_line_for_one_would_save_nothing(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    for n in range(4):
        keep(data, (f"A{n}", f"B{n}"), 1_000_000 + 100 * n)
    box = Session(data, TagRegistry(data / "tags.json"))
    assert box.view.choice.labels[:5] == ("Resume Wakanda",) * 4 + ("New: Wakanda",)


def test_resuming_a_kept_game_keeps_the_one_in_the_journal(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    keep(data, ("Ana", "Ben"), 1_000_000)
    (data / CURRENT).write_text(WAKANDA % ("Cleo", "Dan"))
    box = Session(data, TagRegistry(data / "tags.json"))
    assert box.view.choice.labels[:2] == ("Resume Wakanda", "Resume Wakanda")
    assert box.view.footer == "Cleo v Dan"
    choose(box, box.view.choice.values[1])
    assert tuple(box.game.players) == ("Ana", "Ben") and box.message == "Game resumed: turn 1, Ana to play"
    box.handle(Hold("back"))
    box.handle(Press("ok"))
    assert [kept.players for kept in kept_games(data)] == [("Cleo", "Dan")]
    assert box.view.footer == "Ana v Ben"


def test_back_on_the_question_keeps_the_menu_and_the_game(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / CURRENT).write_text(WAKANDA % ("Ana", "Ben"))
    box = Session(data, TagRegistry(data / "tags.json"))
    choose(box, "totem-wars")
    assert box.screen == "confirm" and box.view.detail == "Wakanda is kept: it stays on the menu"
    box.handle(Press("back"))
    assert box.screen == "menu" and box.view.choice.value == "totem-wars"
    assert (data / CURRENT).exists() and kept_games(data) == []


def test_files_that_are_no_kept_game_are_not_offered(tmp_path):
    data = tmp_path / "data"
    games = data / "games"
    games.mkdir(parents=True)
    (games / "20260101-000000-wakanda-unfinished.jsonl").write_text("not json\n")
    (games / "20260101-000001-game-unfinished.jsonl").write_text('{"game": "chess", "players": ["A", "B"]}\n')
    (games / "20260101-000002-wakanda-unfinished.jsonl").mkdir()
    os.mkfifo(games / "20260101-000003-wakanda-unfinished.jsonl")
    (games / "20260101-000004-wakanda-damaged.jsonl").write_text(WAKANDA % ("Ana", "Ben"))
    os.symlink(games / "20260101-000004-wakanda-damaged.jsonl", games / "20260101-000005-wakanda-unfinished.jsonl")
    assert kept_games(data) == []
    box = Session(data, TagRegistry(data / "tags.json"))
    assert box.view.choice.labels[0] == "New: Wakanda"
    for file in ("../tags.json", "20260101-000004-wakanda-damaged.jsonl", "20260101-000000-wakanda-unfinished.jsonl"):
        with pytest.raises(Exception, match="no game kept for later"):
            bring_back(data, file)


def test_a_kept_game_gone_meanwhile_is_said_in_one_line(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    keep(data, ("Ana", "Ben"), 1_000_000)
    box = Session(data, TagRegistry(data / "tags.json"))
    for kept in (data / "games").iterdir():
        kept.unlink()
    box.handle(Press("ok"))
    assert box.screen == "menu" and box.message.startswith("Cannot resume")
    assert box.view.choice.labels[0] == "New: Wakanda"


def test_a_menu_with_no_kept_game_has_no_resume_line(tmp_path):
    box = Session(tmp_path, TagRegistry(tmp_path / "tags.json"))
    assert not any(isinstance(value, ToResume) or value == "resume" for value in box.view.choice.values)


# --- item 2: a lesson left with hold Back -------------------------------------------------

def lesson_left(lesson: Path, stop: str, learn: int) -> str:
    """A script that opens the lesson from the menu (``learn`` presses down), plays
    ``lesson`` up to its line ``stop``, holds Back to leave, and comes back through Learn."""
    lines = lesson.read_text().splitlines()
    played = lines[:next(n for n, line in enumerate(lines) if line.startswith(stop))]
    down = ["press down"] * learn
    return "\n".join([*down, "press ok", *played, "hold back", "press ok", *down, "press ok"]) + "\n"


@pytest.mark.parametrize(("game", "stop", "step"), [
    ("wakanda", "hold ok", "W4 Claim 1/2 | Resumed at step 10."),
    ("totem_wars", "hold ok", "T6 Answering 1/2 | Resumed at step 7."),
])
def test_a_lesson_left_with_hold_back_resumes_at_its_step(tmp_path, capsys, game, stop, step):
    menu = Session(tmp_path / "menu", TagRegistry(tmp_path / "menu" / "tags.json"))
    learn = presses_to(menu, ToTutorial(game.replace("_", "-")))
    script = tmp_path / "script.txt"
    script.write_text(lesson_left(DATA / f"lesson_{game}_1.txt", stop, learn))
    frames = frames_of(script, tmp_path / "data", capsys)
    title = GAMES[game.replace("_", "-")].shown_title()
    asked = frames.index(f"Leave the lesson? | Kept: Learn {title} | resumes it | OK yes · BACK no"
                         if game == "wakanda" else
                         "Leave the lesson? | Kept: Learn Totem | Wars resumes it | OK yes · BACK no")
    assert frames[asked + 1].startswith("Totem Companion | New: Wakanda")  # a lesson is no kept game
    assert frames[-1].startswith(step), frames[-1]
    assert frames[asked - 1].startswith(step.split(" | ")[0])  # the step it was left at


def test_a_lesson_left_keeps_its_game_and_its_step(tmp_path):
    data = tmp_path / "data"
    box = Session(data, TagRegistry(data / "tags.json"), tutorial="totem-wars")
    lines = (DATA / "lesson_totem_wars_1.txt").read_text().splitlines()
    script = tmp_path / "script.txt"
    script.write_text("\n".join(lines[:next(n for n, line in enumerate(lines) if line.startswith("hold ok"))]))
    for event in ScriptInput(script).events():
        box.handle(event)
    lesson = box.flow
    assert isinstance(lesson, TutorialFlow)
    key, moves = lesson.step.key, len(lesson.game.history) if lesson.game else 0
    box.handle(Hold("back"))
    box.handle(Press("ok"))
    assert box.screen == "menu"
    again = Session(data, TagRegistry(data / "tags.json"), tutorial="totem-wars").flow
    assert isinstance(again, TutorialFlow) and again.step.key == key
    assert (len(again.game.history) if again.game else 0) == moves


# --- the words fit their places in every language -----------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_new_questions_and_the_resumed_ask_fit_in_every_language(lang):
    cut = []
    for entry in GAMES.values():
        title = entry.shown_title(lang)
        learn = SHARED.text("menu.learn", lang, title=title)
        for question, detail in (("kept.new_question", SHARED.text("kept.new_detail", lang, title=title)),
                                 ("tutorial.leave.question", SHARED.text("tutorial.leave.detail", lang,
                                                                        entry=learn))):
            if text_width(SHARED.text(question, lang), LARGE) > WIDTH \
                    or any(ELLIPSIS in line for line in wrap(detail, WIDTH - 4, MEDIUM, max_lines=2)):
                cut.append(f"{question}: {detail!r}")
    words = GAMES["totem-wars"].words
    ask = prompt_line(words.text("resumed.totem_wars_again", lang, name="{name}"), "Konstantinovich")
    if len(wrap(ask, WIDTH - 4, SMALL)) > 2:
        cut.append(ask)
    assert cut == []


def finished_record(game: str, tmp_path: Path, capsys) -> str:
    """A finished record of ``game``: Totem Wars' from the test data, Wakanda's from a demo."""
    if game == "totem-wars":
        return (DATA / "totem_wars_finished.jsonl").read_text()
    demo = ["demo", "--game", "wakanda", "--seed", "2", "--display", "none", "--data", str(tmp_path / "demo")]
    assert main(demo) == 0
    capsys.readouterr()
    [record] = (tmp_path / "demo" / "games").glob("*-wakanda.jsonl")
    return record.read_text()


@pytest.mark.parametrize("game", ["wakanda", "totem-wars"])
def test_a_finished_game_that_cannot_be_kept_says_so_on_the_oled_and_ok_tries_again(game, tmp_path, capsys):
    data = tmp_path / "data"
    data.mkdir()
    (data / CURRENT).write_text(finished_record(game, tmp_path, capsys))
    (data / "games").write_text("")  # a file where the finished games' folder goes
    box = Session(data, TagRegistry(tmp_path / "tags.json"), players=["Ana", "Ben", "Cleo"])
    choose(box, "resume")
    assert box.screen == "score"
    assert box.handle(Press("ok")).signal == "refused" and box.screen == "score"
    words = " ".join(frame_words(box.frame()))
    assert "not kept" in words and "OK tries again" in words, words
    (data / "games").unlink()
    box.handle(Press("ok"))
    assert box.screen == "menu" and len(list((data / "games").glob(f"*-{game}.jsonl"))) == 1
