"""Resume after a crash: at every line of a recorded game, and with the journal's last line
cut at every byte (a power cut mid-write). The game comes back exactly, and goes on. A
damaged journal never stops the box: the game resumes before its first bad line, or is set
aside when nothing of it can be read, and a new game can start."""

import json
import os
import random
import subprocess
import sys

import pytest
from box_helpers import choose, scan

from companion.cli import main
from companion.events import Hold, Press, Tag, TagGone
from companion.games.wakanda import Build, read_record, write_record
from companion.games.wakanda.bots import greedy_bot, play_game, random_bot
from companion.records import dump_line
from companion.table.registry import TagRegistry
from companion.table.session import Session


def journal_lines(seed=4, variant="hidden"):
    """A real game's record with some moves taken back and played again (undo lines)."""
    game = play_game(seed, bots=(greedy_bot, random_bot), variant=variant)
    text = [json.loads(line) for line in write_record(game).splitlines()]
    lines = [text[0]]
    for n, line in enumerate(text[1:], start=1):
        lines.append(line)
        if n % 9 == 0:
            lines += [{"undo": True}, line]
    return lines


def state(game):
    return (game.history, game.poles, dict(game.hands[0]), dict(game.hands[1]), dict(game.bag),
            game.villages, game.owners, game.to_move, game.phase, game.headdresses)


def crashed_box(tmp_path, content: bytes):
    data = tmp_path / "data"
    data.mkdir(parents=True, exist_ok=True)
    (data / "current.jsonl").write_bytes(content)
    return Session(data, TagRegistry(tmp_path / "tags.json"), rng=random.Random(0))




def enter(s, line):
    """The input events a player makes for one record line."""
    if "undo" in line:
        s.handle(Press("back")); s.handle(Press("ok"))
    elif "draw" in line:
        s.handle(Tag(line["draw"])); s.handle(TagGone(line["draw"]))
    elif "reveal" in line:
        s.handle(Tag(f"village:{line['reveal']}")); s.handle(TagGone(f"village:{line['reveal']}"))
    elif "build" in line:
        s.handle(Press("ok")); choose(s, Build(line["build"], line["village"]))
    elif "claim" in line:
        s.handle(Hold(f"v{line['claim']}"))
    else:
        s.handle(Press("ok"))


LINES = journal_lines()


def test_the_record_has_undos_and_reveals():
    assert sum("undo" in line for line in LINES) >= 3
    assert sum("reveal" in line for line in LINES) >= 3


@pytest.mark.parametrize("count", range(1, len(LINES) + 1))
def test_resume_after_a_crash_at_every_line(tmp_path, count):
    text = "".join(dump_line(line) for line in LINES[:count])
    expected, _ = read_record(text)
    s = crashed_box(tmp_path, text.encode())
    assert s.screen == "menu" and s.view.choice.values[0] == "resume"
    s.handle(Press("ok"))
    assert state(s.game) == state(expected)
    if expected.phase == "over":
        assert s.screen == "score"
        return
    enter(s, LINES[count])                                  # the game goes on from there
    kept = [json.loads(raw) for raw in (s.data_dir / "current.jsonl").read_text().splitlines()]
    assert kept == LINES[: count + 1]


def test_resume_with_the_last_line_cut_at_every_byte(tmp_path):
    whole = "".join(dump_line(line) for line in LINES[:20]).encode()
    before = "".join(dump_line(line) for line in LINES[:19]).encode()
    last = whole[len(before):]
    complete, _ = read_record(whole.decode())
    previous, _ = read_record(before.decode())
    for cut in range(len(last) + 1):
        box = tmp_path / str(cut)
        s = crashed_box(box, before + last[:cut])
        s.handle(Press("ok"))
        # Only a whole last line counts (its newline alone may be missing).
        want = complete if cut >= len(last) - 1 else previous
        assert state(s.game) == state(want), cut
        enter(s, LINES[19] if want is previous else LINES[20])
        kept = (s.data_dir / "current.jsonl").read_text()
        read_record(kept)                                   # never a glued or broken line
        assert kept.endswith("\n")


def test_a_finished_game_not_yet_left_resumes_on_the_score(tmp_path):
    text = "".join(dump_line(line) for line in LINES)
    s = crashed_box(tmp_path, text.encode())
    s.handle(Press("ok"))
    assert s.screen == "score" and s.game.outcome() is not None
    s.handle(Press("ok"))
    assert s.screen == "menu" and len(list((s.data_dir / "games").iterdir())) == 1


def test_a_resumed_game_says_where_it_resumes(tmp_path):
    from companion.events import Press
    from companion.table.registry import TagRegistry
    from companion.table.session import Session
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "current.jsonl").write_text("".join(dump_line(line) for line in LINES[:4]))
    box = Session(folder, TagRegistry(tmp_path / "tags.json"))
    box.handle(Press("ok"))                                   # Resume, offered first
    assert box.screen == "board"
    assert box.game.to_move == 1 and len(box.game.history) == 3  # draw, build; Ben drew
    assert box.message == "Game resumed: turn 2, Player 2 to play"


# --- a damaged journal -------------------------------------------------------------------

ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]
JOIN = 20  # seconds: no start may hang

#: Complete lines no record holds (what a crash, a bad card or a hand edit leaves).
BAD = {
    "a huge integer": b'{"p": ' + b"9" * 5000 + b', "draw": "sun"}',
    "nesting 2000 deep": b'{"p": 0, "draw": ' + b"[" * 2000 + b"]" * 2000 + b"}",
    "NUL bytes": b"\0" * 30,
    "bad UTF-8": b'{"p": 0, "draw": "\xc3\x28"}',
    "not JSON": b'{"p": 0, "dr',
    "a key given twice": b'{"p": 0, "p": 1, "draw": "sun"}',
    "a move the rules refuse": b'{"p": 0, "build": "sun", "village": 9}',
}


def text_of(lines):
    return "".join(dump_line(line) for line in lines)


@pytest.mark.parametrize("kind", BAD)
def test_a_damaged_line_is_dropped_and_the_game_resumes_before_it(tmp_path, kind):
    data = text_of(LINES[:9]).encode() + BAD[kind] + b"\n" + text_of(LINES[10:14]).encode()
    s = crashed_box(tmp_path, data)
    assert s.view.choice.values[0] == "resume" and s.message == "Bad line 10 dropped"
    assert "current.jsonl: line 10 dropped: " in s.journal_problem
    assert "(and the 4 lines after it)" in s.journal_problem
    kept = list((s.data_dir / "games").iterdir())
    assert len(kept) == 1 and kept[0].read_bytes() == data  # nothing lost: the file, whole
    s.handle(Press("ok"))
    expected, _ = read_record(text_of(LINES[:9]))
    assert state(s.game) == state(expected)
    enter(s, LINES[9])                                      # the game goes on from there
    kept_lines = [json.loads(raw) for raw in (s.data_dir / "current.jsonl").read_text().splitlines()]
    assert kept_lines == LINES[:10]


def set_up_a_new_game(s):
    """Choose a new Wakanda game on the menu and set it up; the box is then on the board."""
    choose(s, "wakanda")
    s.handle(Press("ok"))
    for village in ROW:
        scan(s, f"village:{village}")
    s.handle(Press("ok"))
    assert s.screen == "board" and s.game.history == ()


@pytest.mark.parametrize("kind", BAD)
def test_a_game_whose_header_is_damaged_is_set_aside_and_a_new_one_starts(tmp_path, kind):
    data = BAD[kind] + b"\n" + text_of(LINES[1:5]).encode()
    s = crashed_box(tmp_path, data)
    assert "resume" not in s.view.choice.values and s.message == "Unreadable game set aside"
    kept = list((s.data_dir / "games").iterdir())
    assert len(kept) == 1 and kept[0].name.endswith("-damaged.jsonl") and kept[0].read_bytes() == data
    assert "the game cannot be resumed; set aside as" in s.journal_problem
    set_up_a_new_game(s)


def odd_journal(tmp_path, kind):
    """A data folder whose ``current.jsonl`` is ``kind``, not a regular file; the folder."""
    data = tmp_path / "data"
    data.mkdir()
    current = data / "current.jsonl"
    if kind == "pipe":
        os.mkfifo(current)
    elif kind == "folder":
        current.mkdir()
    elif kind == "dangling link":
        current.symlink_to(tmp_path / "gone.jsonl")
    elif kind == "link to a record outside":
        (tmp_path / "outside.jsonl").write_text(text_of(LINES[:5]))
        current.symlink_to(tmp_path / "outside.jsonl")
    else:
        current.symlink_to(kind)                            # a device
    return data


ODD = ["/dev/full", "/dev/zero", "/dev/null", "pipe", "folder", "dangling link",
       "link to a record outside"]


@pytest.mark.parametrize("kind", ODD)
def test_a_journal_that_is_not_a_regular_file_is_set_aside_and_a_new_game_starts(tmp_path, kind):
    data = odd_journal(tmp_path, kind)
    s = Session(data, TagRegistry(tmp_path / "tags.json"), rng=random.Random(0))
    assert "resume" not in s.view.choice.values and s.message == "Unreadable game set aside"
    assert "not a game record: set aside as" in s.journal_problem
    assert not os.path.lexists(data / "current.jsonl")
    set_up_a_new_game(s)
    if kind == "link to a record outside":                  # followed never, written never
        assert (tmp_path / "outside.jsonl").read_text() == text_of(LINES[:5])
        assert os.path.islink(next((data / "games").iterdir()))


def write_damaged(data, kind):
    """``data``/current.jsonl damaged as ``kind`` (a bad line, a bad header or not a file)."""
    if kind in ODD:
        return odd_journal(data.parent, kind)
    data.mkdir()
    line, where = kind
    header = b"" if where == "header" else text_of(LINES[:1]).encode()
    (data / "current.jsonl").write_bytes(header + BAD[line] + b"\n" + text_of(LINES[1:4]).encode())
    return data


@pytest.mark.parametrize("kind", [*((line, "line") for line in BAD), *((line, "header") for line in BAD), *ODD],
                         ids=str)
def test_a_start_with_a_damaged_journal_reaches_the_first_frame(tmp_path, monkeypatch, capsys, kind):
    # Under the service a crash at start would be a restart loop: every start gets a menu.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    data = write_damaged(tmp_path / "data", kind)
    script = tmp_path / "script.txt"
    script.write_text("wait 0\n")
    assert main(["run", "--input", str(script), "--display", "text", "--data", str(data)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("frame 1: Totem Companion | ")
    assert ("Resume Wakanda" in out) == (kind[1:] == ("line",))
    assert err.count("\n") == 1 and ("dropped" in err or "set aside" in err)


def run_box(data, script, *, timeout=JOIN):
    """``run`` in a process of its own, as the service starts it."""
    return subprocess.run([sys.executable, "-m", "companion", "run", "--display", "text",
                           "--input", str(script), "--data", str(data)],
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "XDG_CONFIG_HOME": str(data.parent / "config")})


def test_the_box_starts_on_a_journal_with_a_number_of_5000_digits(tmp_path):
    # printf '%s\n{"p": %s, "draw": "sun"}\n' "$HEADER" "$(python3 -c 'print("9"*5000)')"
    data = tmp_path / "data"
    data.mkdir()
    header = json.dumps(LINES[0])
    (data / "current.jsonl").write_text(f'{header}\n{{"p": {"9" * 5000}, "draw": "sun"}}\n')
    script = tmp_path / "script.txt"
    script.write_text("press ok\n")                         # Resume
    done = run_box(data, script)
    assert done.returncode == 0, done.stderr
    assert "Resume Wakanda" in done.stdout.splitlines()[0]
    assert "Game resumed: turn 1" in done.stdout.splitlines()[1]
    assert done.stderr.count("\n") == 1
    assert "current.jsonl: line 2 dropped: a number too long; the whole file is kept as" in done.stderr
    assert (data / "current.jsonl").read_text() == header + "\n"


def test_the_box_starts_on_a_journal_linked_to_dev_full(tmp_path):
    data = odd_journal(tmp_path, "/dev/full")
    script = tmp_path / "script.txt"
    script.write_text("press ok\npress ok\n" + "".join(f"tag village:{v}\ngone village:{v}\n" for v in ROW)
                      + "press ok\ntag eagle\ngone eagle\n")
    done = run_box(data, script)
    assert done.returncode == 0, done.stderr
    assert "was a link to /dev/full, not a game record: set aside as" in done.stderr
    assert os.path.islink(next((data / "games").iterdir()))
    lines = (data / "current.jsonl").read_text().splitlines()   # a new game, in a file of its own
    assert not os.path.islink(data / "current.jsonl") and json.loads(lines[-1]) == {"p": 0, "draw": "eagle"}
