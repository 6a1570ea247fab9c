"""Resume after a crash: at every line of a recorded game, and with the journal's last line
cut at every byte (a power cut mid-write). The game comes back exactly, and goes on."""

import json
import random

import pytest
from box_helpers import choose

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
