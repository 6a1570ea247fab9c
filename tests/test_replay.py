"""``replay RECORD --out DIR``: one OLED frame per record line, bad records in one line."""

import json
from pathlib import Path

import pytest
from PIL import Image

from companion import records
from companion.cli import main
from companion.games.wakanda import write_record
from companion.games.wakanda.bots import play_game

DATA = Path(__file__).parent / "data"


def record_file(tmp_path, text):
    path = tmp_path / "game.jsonl"
    path.write_text(text)
    return path


def test_one_frame_per_line(tmp_path, capsys):
    text = write_record(play_game(3, variant="hidden"))
    lines = text.splitlines()
    text = "\n".join(lines[:5] + ['{"undo": true}'] + lines[4:]) + "\n"   # an undo, played again
    path = record_file(tmp_path, text)
    out = tmp_path / "frames"
    assert main(["replay", str(path), "--out", str(out)]) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == [f"{n:04d}.png" for n in range(1, len(lines) + 3)]
    first, undo, last = (Image.open(out / name) for name in (names[0], "0006.png", names[-1]))
    assert first.size == (128, 64) and first.mode == "1"
    assert first.tobytes() != last.tobytes()
    assert undo.tobytes() != Image.open(out / "0005.png").tobytes()
    assert f"{len(names)} frames written" in capsys.readouterr().out


def test_a_bad_line_is_reported_with_its_number(tmp_path, capsys):
    text = write_record(play_game(1)).splitlines()
    text.insert(3, json.dumps({"p": 0, "build": "eagle", "village": 6}))
    path = record_file(tmp_path, "\n".join(text) + "\n")
    out = tmp_path / "frames"
    assert main(["replay", str(path), "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"totem-companion replay: {path}: line 4: ")
    assert "\n" not in err and not out.exists()             # nothing written for a bad record


def test_missing_record(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "none.jsonl"), "--out", str(tmp_path / "f")]) == 1
    assert capsys.readouterr().err.strip().endswith("none.jsonl: no such file")


def test_torn_last_line_is_a_warning(tmp_path, capsys):
    text = write_record(play_game(2))
    path = record_file(tmp_path, text + '{"p": 0, "dr')
    out = tmp_path / "frames"
    assert main(["replay", str(path), "--out", str(out)]) == 0
    assert len(list(out.iterdir())) == len(text.splitlines())
    assert "warning: line" in capsys.readouterr().err


def test_a_totem_wars_record_gives_a_frame_per_line(tmp_path, capsys):
    record = Path(__file__).parent / "data" / "totem_wars_round.jsonl"
    out = tmp_path / "frames"
    assert main(["replay", str(record), "--out", str(out)]) == 0
    lines = [line for line in record.read_text().splitlines() if line.strip()]
    assert len(list(out.glob("*.png"))) == len(lines)


def test_a_bad_totem_wars_header_is_one_line(tmp_path, capsys):
    path = record_file(tmp_path, '{"game": "totem-wars"}\n')
    assert main(["replay", str(path), "--out", str(tmp_path / "f")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}: line 1: " in err


def test_each_frame_notes_what_its_line_did():
    from companion.games.wakanda.replay import frames as wakanda_frames
    text = write_record(play_game(3))
    lines = text.splitlines()
    text = "\n".join(lines[:2] + ['{"undo": true}'] + lines[1:3]) + "\n"
    notes = [note for _, note in wakanda_frames(text)]
    players = json.loads(lines[0])["players"]
    assert notes[0] == f"{players[0]} v {players[1]}: set up"
    assert notes[2] == f"Taken back: {notes[1]}" and notes[3] == notes[1]


def test_a_finished_totem_wars_record_ends_as_the_box_does(tmp_path, capsys):
    """After the last round's result: the winner, the taken cards, the big game (its totals
    are not in the record)."""
    from companion.games.totem_wars import read_record
    from companion.games.totem_wars.replay import frames as totem_wars_frames
    from companion.games.totem_wars.report import result_line
    from companion.games.totem_wars.round_screens import end_pages
    from companion.ui.canvas import frame_words
    record = Path(__file__).parent / "data" / "totem_wars_finished.jsonl"
    text = record.read_text()
    lines = [line for line in text.splitlines() if line.strip()]
    game = read_record(text)[0]
    shown = list(totem_wars_frames(text))
    assert len(shown) == len(lines) + 3
    pages = end_pages(game, None, elsewhere=True)
    assert [image.tobytes() for image, _ in shown[-3:]] == [page.tobytes() for page in pages]
    assert {note for _, note in shown[-3:]} == {result_line(game)}
    assert frame_words(shown[-1][0])[0].startswith("Big game to 42")
    out = tmp_path / "frames"
    assert main(["replay", str(record), "--out", str(out)]) == 0
    assert len(list(out.glob("*.png"))) == len(lines) + 3


def test_a_finished_totem_wars_replay_shows_the_big_game_the_data_folder_counted(tmp_path, capsys):
    """The big game's page gives the totals of ``big_game.json`` when it counted this game
    (issue: "Totals unavailable" though the file was fine); without the file, this game's
    points and that the totals are kept on the box that played it; with a damaged file,
    this game's points and that the file is damaged (T16)."""
    from companion.games.totem_wars import read_record
    from companion.games.totem_wars.big_game_store import count_game
    from companion.games.totem_wars.replay import frames as totem_wars_frames
    from companion.games.totem_wars.round_screens import end_pages
    from companion.ui.canvas import frame_words
    text = (Path(__file__).parent / "data" / "totem_wars_finished.jsonl").read_text()
    game = read_record(text)[0]
    data = tmp_path / "data"
    data.mkdir()
    assert list(totem_wars_frames(text, data))[-1][0].tobytes() == end_pages(game, None, elsewhere=True)[-1].tobytes()
    big = count_game(data, game)
    last = list(totem_wars_frames(text, data))[-1][0]
    assert last.tobytes() == end_pages(game, big.match)[-1].tobytes() != end_pages(game, None)[-1].tobytes()
    assert "unavailable" not in " ".join(frame_words(last))
    (data / "big_game.json").write_text("{")                      # damaged: said so, no crash
    assert list(totem_wars_frames(text, data))[-1][0].tobytes() == end_pages(game, None)[-1].tobytes()


def test_each_undo_names_the_move_it_took_back_as_it_was_made():
    """Two undos in a row take back the build then the draw; a hidden tile turned up and
    taken back is named with the count of open tiles it was turned up at."""
    from companion.games.wakanda.replay import frames as wakanda_frames
    lines = write_record(play_game(3)).splitlines()
    notes = [note for _, note in wakanda_frames("\n".join(lines[:3] + ['{"undo": true}'] * 2 + lines[1:3]) + "\n")]
    assert notes[3:5] == [f"Taken back: {notes[2]}", f"Taken back: {notes[1]}"] and notes[5:] == notes[1:3]
    hidden = write_record(play_game(3, variant="hidden")).splitlines()
    reveal = next(n for n, line in enumerate(hidden) if '"reveal"' in line)
    notes = [note for _, note in wakanda_frames("\n".join(hidden[:reveal + 1] + ['{"undo": true}']) + "\n")]
    assert notes[-1] == f"Taken back: {notes[-2]}"


@pytest.mark.parametrize("game, record", [
    ("wakanda", lambda: _undo_redo(write_record(play_game(3)), 400)),
    ("totem-wars", lambda: _undo_redo((DATA / "totem_wars_finished.jsonl").read_text(), 400)),
])
def test_replay_reads_each_line_a_fixed_number_of_times(mocker, game, record):
    """Replay is linear: each line is parsed twice (the record checked, then played once),
    not once per later line as when each line replayed the record up to it."""
    from companion.games import GAMES
    text = record()
    lines = len(text.splitlines())
    parsed = mocker.spy(records, "parse_json")
    frames = sum(1 for _ in GAMES[game].table.frames(text))
    assert frames >= lines and parsed.call_count <= 2 * lines


def _undo_redo(text: str, lines: int) -> str:
    """``text`` without its last line, then that line taken back and made again until the
    record has ``lines`` lines (every line legal, nothing finished)."""
    kept = text.splitlines()[:-1]
    last = kept[-1]
    while len(kept) < lines:
        kept += ['{"undo": true}', last]
    return "\n".join(kept[:lines]) + "\n"
