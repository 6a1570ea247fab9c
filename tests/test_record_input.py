"""Records, and the files read beside them, as hostile input: every bad line or file is one
short line (a ``RecordError``/``UserError``, exit status 1 on the command line), never a
traceback, a hang or a file opened that the record should not open.

- one strict JSON parser for record lines, engine requests, ``tags.json`` and
  ``big_game.json``: a key given twice (ambiguous), an integer of thousands of digits,
  nesting thousands deep, NaN and Infinity are refused;
- a float or ``true`` where a seat, a village or a player belongs is refused, with its rule;
- a record's deck is ``"default"``, a deck's name in the data folder's ``decks/``, or the
  cards — never a path; deck files, tag registries and big games are read bounded;
- an error line quotes at most about 80 characters of the bad input, escaped.
"""

from __future__ import annotations

import io
import json
import os
import threading
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands.engine import REQUEST_BYTES, answer, serve
from companion.errors import RecordError, UserError
from companion.games.totem_wars import default_deck, load_deck
from companion.games.totem_wars import read_record as read_totem_wars
from companion.games.totem_wars.big_game_store import BIG_GAME_FILE, load_big_game
from companion.games.totem_wars.deck import DeckError, deck_from_toml
from companion.games.wakanda import Wakanda, write_record
from companion.games.wakanda import read_record as read_wakanda
from companion.games.wakanda.bots import play_game
from companion.games.wakanda.setup import SetupError
from companion.records import MAX_LINES, JsonError, parse_json
from companion.table.registry import TagRegistry

DATA = Path(__file__).parent / "data"
WAKANDA = {"game": "wakanda", "players": ["Ana", "Ben"],
           "villages": ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"], "first": 0}
TOTEM_WARS = {"game": "totem-wars", "players": ["Ana", "Ben"], "dealer": 0, "deck": "default"}
TOTEMS = '{"totems": ["indians/snake", "africans/lion"]}'
HUGE = "9" * 5000       # over Python's 4,300 digits: int() raises ValueError
DEEP = "[" * 3000 + "]" * 3000  # deeper than the recursion limit: json raises RecursionError
DEEPISH = "[" * 40 + "]" * 40   # parses, but deeper than any record line needs
#: The longest error line these inputs may give: a line number, the reason, 80 characters
#: quoted (escaped: a NUL byte is four, "\\x00").
SHORT = 500


def text(*lines) -> str:
    return "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)


def refusal(read, record: str, *args) -> str:
    with pytest.raises(RecordError) as info:
        read(record, *args)
    message = str(info.value)
    assert "\n" not in message and len(message) < SHORT, message
    return message


def one_line(exc_info) -> str:
    message = str(exc_info.value)
    assert "\n" not in message and len(message) < SHORT, message
    return message


def within(seconds: float, call):
    """``call()`` in a thread, failing the test if it has not returned after ``seconds``
    (a read that blocks on a pipe must fail the test, not hang the suite)."""
    outcome: dict = {}

    def run():
        try:
            outcome["value"] = call()
        except BaseException as exc:  # handed to the test below
            outcome["error"] = exc
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still blocked after {seconds} s"
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


# --- one strict JSON parser ------------------------------------------------------------

HOSTILE_LINES = [
    ('{"p": 0, "p": 1, "draw": "sun"}', "key 'p' given twice (an ambiguous line)"),
    ('{"p": 0, "draw": "sun", "draw": "eagle"}', "key 'draw' given twice (an ambiguous line)"),
    ('{"p": ' + HUGE + ', "draw": "sun"}', "a number of more than 100 digits"),
    ('{"p": -' + HUGE + ', "draw": "sun"}', "a number of more than 100 digits"),
    ('{"p": 0, "draw": ' + DEEP + '}', "nested more than 32 deep"),
    ('{"p": 0, "draw": ' + DEEPISH + '}', "nested more than 32 deep"),
    ('{"p": NaN, "draw": "sun"}', "NaN is not a number here"),
    ('{"p": Infinity, "draw": "sun"}', "Infinity is not a number here"),
    ('{"p": -Infinity, "draw": "sun"}', "-Infinity is not a number here"),
    ('{"p": 1e400, "draw": "sun"}', "the number '1e400' is too large"),
]


@pytest.mark.parametrize("line, reason", HOSTILE_LINES)
def test_a_hostile_wakanda_line_is_one_line_naming_it(line, reason):
    assert refusal(read_wakanda, text(WAKANDA, line)) == f"line 2: {reason}"


@pytest.mark.parametrize("line, reason", HOSTILE_LINES)
def test_a_hostile_totem_wars_line_is_one_line_naming_it(line, reason):
    line = line.replace('"draw"', '"play"').replace('"sun"', '["indians/wolf"]').replace('"eagle"', "[]")
    assert refusal(read_totem_wars, text(TOTEM_WARS, TOTEMS, line)) == f"line 3: {reason.replace('draw', 'play')}"


def test_a_key_given_twice_in_a_header_is_ambiguous():
    header = json.dumps(WAKANDA)[:-1] + ', "first": 1}'
    assert refusal(read_wakanda, text(header)) == "line 1: key 'first' given twice (an ambiguous line)"


def test_a_torn_last_line_is_still_a_warning_but_a_hostile_last_line_is_not_torn():
    game, warnings = read_wakanda(text(WAKANDA) + '{"p": 0, "dr')
    assert warnings == ["line 2: torn last line ignored (an interrupted write)"] and not game.history
    assert refusal(read_wakanda, text(WAKANDA) + '{"p": 0, "p": 0, "draw": "sun"}') == (
        "line 2: key 'p' given twice (an ambiguous line)")


def test_the_parser_keeps_what_json_allows():
    assert parse_json('{"a": [1, -2, 3.5, true, null, "x"], "b": {"c": 1e300}}') == {
        "a": [1, -2, 3.5, True, None, "x"], "b": {"c": 1e300}}
    assert parse_json("[" * 32 + "]" * 32) is not None
    with pytest.raises(JsonError) as info:
        parse_json("[" * 33 + "]" * 33)
    assert info.value.reason == "nested more than 32 deep" and not info.value.syntax
    with pytest.raises(JsonError) as info:
        parse_json('{"a": ')
    assert info.value.syntax


@pytest.mark.parametrize("command", ["score", "moves", "hint"])
@pytest.mark.parametrize("line", [line for line, _ in HOSTILE_LINES])
def test_the_commands_print_one_line_for_a_hostile_record(tmp_path, capsys, command, line):
    path = tmp_path / "game.jsonl"
    path.write_text(text(WAKANDA, line))
    assert main([command, str(path), "--data", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    # score and moves report each record on its own line; hint has one record
    assert out == "" and err.count("\n") == 1 and len(err) < SHORT
    assert err.removeprefix(f"totem-companion {command}: ").startswith(f"{path}: line 2: ")


@pytest.mark.parametrize("command", ["score", "moves", "hint", "replay"])
@pytest.mark.parametrize("filler", ["{}\n", "\n"])
def test_a_record_of_more_lines_than_a_game_has_is_refused_before_it_is_read(tmp_path, capsys, command,
                                                                              filler):
    # Millions of short lines (within the 16 MB) took seconds and over a GB to read whole.
    path = tmp_path / "game.jsonl"
    path.write_text(text(WAKANDA) + filler * (2 * MAX_LINES))
    extra = ["--out", str(tmp_path / "frames")] if command == "replay" else []
    assert main([command, str(path), "--data", str(tmp_path), *extra]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "more lines than a game has" in err


def test_replay_prints_one_line_and_writes_no_frame_for_a_hostile_record(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    path.write_text(text(WAKANDA, {"p": 0, "draw": "sun"}, '{"p": 0, "build": "sun", "village": ' + HUGE + '}'))
    assert main(["replay", str(path), "--out", str(tmp_path / "frames"), "--data", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err == f"totem-companion replay: {path}: line 3: a number of more than 100 digits\n"
    assert not (tmp_path / "frames").exists()


# --- whole numbers: no floats, no booleans -----------------------------------------------

@pytest.mark.parametrize("record, message", [
    (text(dict(WAKANDA, first=1.0), {"p": 1, "draw": "sun"}), "line 1: first must be player 0 or 1, got 1.0 (W3)"),
    (text(dict(WAKANDA, first=True)), "line 1: first must be player 0 or 1, got true (W3)"),
    (text(WAKANDA, {"p": 0.0, "draw": "sun"}), "line 2: p must be player 0 or 1, got 0.0 (W1)"),
    (text(WAKANDA, {"p": False, "draw": "sun"}), "line 2: p must be player 0 or 1, got false (W1)"),
    (text(WAKANDA, {"p": 0, "draw": "sun"}, {"p": 0, "build": "sun", "village": 1.0}),
     "line 3: village must be a village number from 1 to 6, got 1.0 (W2)"),
    (text(WAKANDA, {"p": 0, "draw": "sun"}, {"p": 0, "build": "sun", "village": 1},
          {"p": 1, "draw": "sun"}, {"p": 1, "claim": True}),
     "line 5: claim must be a village number from 1 to 6, got true (W2)"),
])
def test_wakanda_refuses_floats_and_booleans_where_whole_numbers_belong(record, message):
    assert refusal(read_wakanda, record) == message


def test_the_wakanda_engine_itself_refuses_a_float_first_player():
    with pytest.raises(SetupError, match=r"first must be player 0 or 1, got 1.0 \(W3\)"):
        Wakanda(WAKANDA["villages"], first=1.0)


@pytest.mark.parametrize("record, message", [
    (text(dict(TOTEM_WARS, dealer=1.0)), "line 1: dealer must be a seat from 0 to 1, got 1.0 (T2)"),
    (text(dict(TOTEM_WARS, dealer=True)), "line 1: dealer must be a seat from 0 to 1, got true (T2)"),
    (text(TOTEM_WARS, TOTEMS, {"p": 1.0, "play": ["indians/wolf"]}),
     "line 3: p must be a seat from 0 to 1, got 1.0 (T1)"),
    (text(TOTEM_WARS, TOTEMS, {"p": True, "play": ["indians/wolf"]}),
     "line 3: p must be a seat from 0 to 1, got true (T1)"),
    (text(*(DATA / "totem_wars_r2_example.jsonl").read_text().splitlines(), {"p": 0.0, "habitat": "land"}),
     "line 5: p must be a seat from 0 to 1, got 0.0 (T1)"),
])
def test_totem_wars_refuses_floats_and_booleans_where_whole_numbers_belong(record, message):
    assert refusal(read_totem_wars, record) == message


def test_score_refuses_the_float_first_player_that_used_to_crash_it(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    path.write_text(text(dict(WAKANDA, first=1.0), {"p": 1, "draw": "sun"}))
    assert main(["score", str(path), "--data", str(tmp_path)]) == 1
    assert capsys.readouterr().err == f"{path}: line 1: first must be player 0 or 1, got 1.0 (W3)\n"


# --- a record's deck: a name in the data folder, never a path ----------------------------

def data_with_deck(folder: Path, name: str = "club") -> Path:
    (folder / "decks").mkdir(parents=True, exist_ok=True)
    (folder / "decks" / f"{name}.toml").write_text((DATA / "totem_wars_deck.toml").read_text())
    return folder


@pytest.mark.parametrize("name", ["/dev/zero", "/dev/urandom", "../club", "decks/club", "club.toml/..",
                                  ".club", "..", "C:\\club", "cl\0ub", "cl\udc80ub", "cl\x1b[2Jub",
                                  "c" * 200, ""])
def test_a_deck_that_is_not_a_plain_name_is_refused_and_nothing_is_opened(tmp_path, mocker, name):
    data_with_deck(tmp_path)
    opened = mocker.spy(os, "open")
    message = refusal(read_totem_wars, text(dict(TOTEM_WARS, deck=name)), tmp_path)
    assert message.startswith("line 1: deck ") and "never a path (T1a)" in message
    assert opened.call_count == 0


def test_a_deck_named_by_the_record_is_read_from_the_data_folder(tmp_path):
    data_with_deck(tmp_path, "my club")
    game, _ = read_totem_wars(text(dict(TOTEM_WARS, deck="my club")), tmp_path)
    assert game.deck == load_deck(DATA / "totem_wars_deck.toml") != default_deck()


@pytest.mark.parametrize("data, message", [
    (None, "line 1: deck 'club': a deck named by a record is looked for in the data folder's decks/, "
           "and there is no data folder here (T1a)"),
    ("empty", "line 1: deck 'club': no such deck in "),
])
def test_a_named_deck_that_cannot_be_found_is_one_line(tmp_path, data, message):
    folder = None if data is None else tmp_path
    assert refusal(read_totem_wars, text(dict(TOTEM_WARS, deck="club")), folder).startswith(message)


@pytest.mark.parametrize("make", [
    lambda path: os.mkfifo(path),
    lambda path: path.symlink_to("/dev/zero"),
    lambda path: path.mkdir(),
    lambda path: path.write_bytes(b"#" * (1024 * 1024 + 1)),
    lambda path: path.write_bytes(b"[indians]\nowl = [\"\xff\"]\n"),
])
def test_a_named_deck_file_that_is_not_a_small_text_file_is_one_line_and_no_hang(tmp_path, make):
    (tmp_path / "decks").mkdir()
    make(tmp_path / "decks" / "club.toml")
    with pytest.raises(RecordError) as info:
        within(10, lambda: read_totem_wars(text(dict(TOTEM_WARS, deck="club")), tmp_path))
    assert one_line(info).startswith(f"line 1: {tmp_path / 'decks' / 'club.toml'}: ")


def test_score_moves_and_replay_find_a_named_deck_in_the_data_folder(tmp_path, capsys):
    data = data_with_deck(tmp_path / "data")
    path = tmp_path / "game.jsonl"
    path.write_text(text(dict(TOTEM_WARS, deck="club"), '{"totems": ["indians/thunderbird", "eskimos/arctic_hare"]}'))
    assert main(["score", str(path), "--json", "--data", str(data)]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] is False
    assert main(["moves", str(path), "--json", "--data", str(data)]) == 0
    assert json.loads(capsys.readouterr().out)["to_move"] == 1  # left of the dealer (T3)
    assert main(["replay", str(path), "--out", str(tmp_path / "frames"), "--data", str(data)]) == 0
    assert len(list((tmp_path / "frames").glob("*.png"))) == 2
    assert main(["score", str(path), "--data", str(tmp_path / "elsewhere")]) == 1
    assert "line 1: deck 'club': no such deck in" in capsys.readouterr().err


def test_the_data_folder_of_the_configuration_is_where_a_named_deck_is_looked_for(tmp_path, capsys):
    data = data_with_deck(tmp_path / "data")
    config = tmp_path / "config.toml"
    config.write_text(f'[data]\ndir = "{data}"\n')
    path = tmp_path / "game.jsonl"
    path.write_text(text(dict(TOTEM_WARS, deck="club")))
    assert main(["score", str(path), "--config", str(config)]) == 0
    assert "Ana" in capsys.readouterr().out


def test_the_engine_finds_a_named_deck_in_its_data_folder(tmp_path):
    data = data_with_deck(tmp_path)
    # The thunderbird is a card of this deck only: a totem from it needs the deck.
    hand = ["indians/thunderbird", "indians/eagle", "indians/owl", "indians/raven", "eskimos/seal"]
    request = json.dumps({"id": 1, "record": [dict(TOTEM_WARS, deck="club")], "seat": 0, "hand": hand})
    reply = answer(request, data_dir=data)
    assert reply["id"] == 1 and reply["move"]["totem"] in hand
    assert answer(request, data_dir=tmp_path / "none")["error"].startswith("line 1: deck 'club': no such deck in")


# --- deck files -----------------------------------------------------------------------

@pytest.mark.parametrize("toml, message", [
    (f"[indians]\nowl = {HUGE}\n", "club.toml: not a valid deck file (a number too long) (T1a)"),
    ("[indians]\nowl = " + "[" * 3000 + "]" * 3000 + "\n",
     "club.toml: not a valid deck file (arrays or tables nested too deep) (T1a)"),
    ("[indians]\nowl = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n",
     "club.toml: not a valid deck file (arrays or tables nested too deep) (T1a)"),
    ("[indians]\nowl = [\n", "club.toml: not a valid deck file (Invalid"),
    # A hexadecimal number converts at any length (no digit limit): a bad card, not a crash.
    ("[indians]\nowl = 0x" + "f" * 5000 + "\n", "club.toml: indians/owl: a card has 1 or 2 habitats"),
])
def test_a_deck_file_that_breaks_the_parser_is_one_line(toml, message):
    with pytest.raises(DeckError) as info:
        deck_from_toml(toml, "club.toml")
    assert one_line(info).startswith(message)


@pytest.mark.parametrize("toml, shown", [
    ('[indians]\n"' + "o" * 500 + '" = ["air"]\n', "the animal must be a name"),
    ('[indians]\n"o\\u001b[2J" = ["air"]\n', "'o\\x1b[2J'"),
    ('[indians]\nowl = ["' + "s" * 500 + '"]\n', "unknown habitat 'sssss"),
    ('["' + "t" * 500 + '"]\nowl = ["air"]\n', "unknown tribe [tttt"),
])
def test_a_deck_file_error_quotes_little_of_the_bad_entry(toml, shown):
    with pytest.raises(DeckError) as info:
        deck_from_toml(toml, "club.toml")
    assert shown in one_line(info)


@pytest.mark.parametrize("make, reason", [
    (lambda path: os.mkfifo(path), "not a regular file"),
    (lambda path: path.write_bytes(b"#" * (1024 * 1024 + 1)), "too big (over 1 MB)"),
])
def test_load_deck_reads_a_regular_file_of_at_most_1_mb(tmp_path, make, reason):
    make(tmp_path / "club.toml")
    with pytest.raises(DeckError) as info:
        within(10, lambda: load_deck(tmp_path / "club.toml"))
    assert reason in one_line(info)


# --- tags.json and big_game.json ---------------------------------------------------------

TAGS = '{"version": 1, "tags": {"0A1B2C3D4E": "eagle"}}'


@pytest.mark.parametrize("content, reason", [
    ('{"version": 1, "version": 1, "tags": {}}', "key 'version' given twice (an ambiguous line)"),
    ('{"version": 1, "tags": {"0A1B2C3D4E": "eagle", "0A1B2C3D4E": "chief"}}',
     "key '0A1B2C3D4E' given twice (an ambiguous line)"),
    ('{"version": ' + HUGE + ', "tags": {}}', "a number of more than 100 digits"),
    ('{"version": 1, "tags": {}, "x": ' + DEEP + '}', "nested more than 32 deep"),
    ('{"version": NaN, "tags": {}}', "NaN is not a number here"),
    (b'{"version": 1, "tags": {"\xff": "eagle"}}', "not UTF-8 text"),
])
def test_a_hostile_tag_registry_is_one_line(tmp_path, content, reason):
    path = tmp_path / "tags.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(UserError) as info:
        TagRegistry.load(path)
    assert one_line(info) == f"{path}: the tag registry is damaged ({reason}); restore a copy or enroll again"


@pytest.mark.parametrize("content, message", [
    ('{"version": 1, "tags": {"0a1b2c3d4e": "eagle", "0A1B2C3D4E": "chief"}}',
     "tag '0A1B2C3D4E' is listed twice; which item it is on is ambiguous"),
    ('{"version": 1.0, "tags": {}}', "tag registry version 1.0 is not supported"),
    ('{"version": true, "tags": {}}', "tag registry version true is not supported"),
    ('{"version": 1, "tags": {"0A1B2C3D4E": "' + "e" * 5000 + '"}}', "bad entry {\"0A1B2C3D4E\": \"eeee"),
])
def test_a_tag_registry_that_is_not_one_is_refused(tmp_path, content, message):
    path = tmp_path / "tags.json"
    path.write_text(content)
    with pytest.raises(UserError) as info:
        TagRegistry.load(path)
    assert message in one_line(info)


@pytest.mark.parametrize("make, reason", [
    (lambda path: os.mkfifo(path), "not a regular file"),
    (lambda path: path.symlink_to("/dev/zero"), "not a regular file"),
    (lambda path: path.write_text(TAGS + " " * (1024 * 1024)), "too big (over 1 MB)"),
])
def test_a_tag_registry_is_read_bounded(tmp_path, make, reason):
    make(tmp_path / "tags.json")
    with pytest.raises(UserError) as info:
        within(10, lambda: TagRegistry.load(tmp_path / "tags.json"))
    assert reason in one_line(info)


BIG = '{"match": {"players": ["Ana", "Ben"], "first_dealer": 0, "games": [[5, 3]]}, "counted": ["a1"]}'


@pytest.mark.parametrize("content, reason", [
    (BIG[:-1] + ', "counted": []}', "key 'counted' given twice (an ambiguous line)"),
    (BIG.replace("[5, 3]", f"[{HUGE}, 3]"), "a number of more than 100 digits"),
    (BIG.replace("[5, 3]", DEEP), "nested more than 32 deep"),
    (BIG.replace("[5, 3]", "[Infinity, 3]"), "Infinity is not a number here"),
])
def test_a_hostile_big_game_file_is_one_line(tmp_path, content, reason):
    (tmp_path / BIG_GAME_FILE).write_text(content)
    with pytest.raises(UserError) as info:
        load_big_game(tmp_path)
    assert one_line(info) == (f"{tmp_path / BIG_GAME_FILE}: the big game's totals are damaged ({reason}); "
                              "remove the file to start a new big game")


def test_a_big_game_file_with_a_float_for_points_is_refused(tmp_path):
    (tmp_path / BIG_GAME_FILE).write_text(BIG.replace("[5, 3]", "[5.0, 3]"))
    with pytest.raises(UserError, match="whole points"):
        load_big_game(tmp_path)


@pytest.mark.parametrize("make, reason", [
    (lambda path: os.mkfifo(path), "not a regular file"),
    (lambda path: path.write_text(BIG + " " * (1024 * 1024)), "too big (over 1 MB)"),
])
def test_a_big_game_file_is_read_bounded(tmp_path, make, reason):
    make(tmp_path / BIG_GAME_FILE)
    with pytest.raises(UserError) as info:
        within(10, lambda: load_big_game(tmp_path))
    assert reason in one_line(info)


# --- a record file itself ----------------------------------------------------------------

@pytest.mark.parametrize("command", ["score", "moves", "hint"])
@pytest.mark.parametrize("make, reason", [
    (lambda path: os.mkfifo(path), "a record: not a regular file"),
    (lambda path: path.symlink_to("/dev/zero"), "a record: not a regular file"),
    (lambda path: path.mkdir(), "is a folder, not a record"),
    (lambda path: path.write_bytes(b"\xff\xfe"), "a record: not a UTF-8 text file"),
])
def test_a_record_that_is_not_a_text_file_is_one_line_and_no_hang(tmp_path, capsys, command, make, reason):
    path = tmp_path / "game.jsonl"
    make(path)
    assert within(10, lambda: main([command, str(path), "--data", str(tmp_path)])) == 1
    # score and moves report each record on its own line; hint has one record
    assert capsys.readouterr().err.removeprefix(f"totem-companion {command}: ") == f"{path}: {reason}\n"


def test_a_record_file_name_with_a_newline_stays_one_line(tmp_path, capsys):
    path = tmp_path / "bad\nname.jsonl"
    path.write_text(text(WAKANDA, '{"p": 0, "p": 1}'))
    assert main(["score", str(path), "--data", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad\\nname.jsonl" in err


# --- errors quote little, escaped -------------------------------------------------------

@pytest.mark.parametrize("line, shown", [
    ({"p": 0, "x" * 10_000: 1}, "unknown key '" + "x" * 80 + "…'"),
    ({"p": 0, "draw": "sun", "\x1b[2J": 1}, "unknown key '\\x1b[2J' in a draw line"),
    ({"p": 0, "draw": "y" * 10_000}, "unknown piece '" + "y" * 80 + "…' (W1)"),
    ({"p": 0, "draw": "\x1b]0;owned\x07"}, "unknown piece '\\x1b]0;owned\\x07' (W1)"),
    ({"p": [0] * 10_000, "draw": "sun"}, "p must be player 0 or 1, got [0, 0, "),
    ({"p": "\x00" * 100, "draw": "sun"}, "got '\\x00\\x00"),
])
def test_a_wakanda_error_quotes_at_most_80_characters_escaped(line, shown):
    message = refusal(read_wakanda, text(WAKANDA, line))
    assert shown in message and "\x1b" not in message and "\x00" not in message


@pytest.mark.parametrize("record, shown", [
    (text(TOTEM_WARS, '{"totems": ["%s", "africans/lion"]}' % ("z" * 10_000)), "unknown card '" + "z" * 80 + "…'"),
    (text(dict(TOTEM_WARS, game="w" * 10_000)), "(game '" + "w" * 80 + "…')"),
    (text(dict(TOTEM_WARS, deck={"k": "v" * 10_000})), 'got {"k": "' + "v" * 73 + "… (T1a)"),
])
def test_a_totem_wars_error_quotes_at_most_80_characters(record, shown):
    assert shown in refusal(read_totem_wars, record)


def test_a_record_with_a_name_longer_than_the_screen_shows_is_refused_at_its_header(tmp_path, capsys):
    """A player's name has at most 16 characters (what the screens show whole): a longer
    one, even of megabytes, is refused at line 1 in one short escaped line, at once."""
    path = tmp_path / "game.jsonl"
    path.write_text(text(dict(WAKANDA, players=["Ana", "B\x1b[2J" * 5000]), {"p": 1, "draw": "sun"}))
    assert main(["score", str(path), "--data", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{path}: line 1: a player's name has at most 16 characters, not 25,000")
    assert err.count("\n") == 1 and len(err) < 700 and "\x1b" not in err
    reply = answer(json.dumps({"id": 1, "record": path.read_text()}))
    assert reply["error"].startswith("line 1: a player's name") and len(reply["error"]) < 700
    path.write_text(text(dict(TOTEM_WARS, players=["Ana", "B" * 17])))
    assert main(["score", str(path), "--data", str(tmp_path)]) == 1
    assert "line 1: a player's name has at most 16 characters, not 17: 'BBBB" in capsys.readouterr().err


# --- the engine protocol -----------------------------------------------------------------

@pytest.mark.parametrize("line, reason", [
    ('{"id": 1, "id": 2, "record": []}', "key 'id' given twice (an ambiguous line)"),
    ('{"id": ' + HUGE + ', "record": []}', "a number of more than 100 digits"),
    ('{"id": 1, "record": ' + DEEP + '}', "nested more than 32 deep"),
    ('{"id": 1, "record": ' + DEEPISH + '}', "nested more than 32 deep"),
    ('{"id": NaN, "record": []}', "NaN is not a number here"),
])
def test_a_hostile_request_is_an_error_answer(line, reason):
    assert answer(line) == {"id": None, "error": reason}


def test_a_hostile_record_in_a_request_is_an_error_answer_with_its_id():
    request = {"id": 7, "record": text(WAKANDA, '{"p": 0, "p": 0, "draw": "sun"}')}
    assert answer(json.dumps(request)) == {"id": 7, "error": "line 2: key 'p' given twice (an ambiguous line)"}
    request = {"id": 8, "record": [dict(WAKANDA, first=1.0)], "seed": 1.5}
    assert answer(json.dumps(request))["error"] in ("line 1: first must be player 0 or 1, got 1.0 (W3)",
                                                    "seed must be a whole number, got 1.5")


def test_the_engine_answers_every_line_in_order_and_goes_on():
    # The header and the first draw: the player to move builds or claims.
    record = [json.loads(line) for line in write_record(play_game(3)).splitlines()[:2]]
    requests = b"\n".join([
        b'{"id": 1, "id": 2}',
        b'{"id": ' + HUGE.encode() + b"}",
        b'{"id": 3, "record": ' + DEEP.encode() + b"}",
        b'\xff\xfe{"id": 4}',
        b'{"id": 5, "record": "' + b"r" * REQUEST_BYTES + b'"}',  # longer than a request may be
        b"",
        json.dumps({"id": "good", "record": record}).encode(),
    ]) + b"\n"
    answers = io.StringIO()
    serve(io.BytesIO(requests), answers)
    replies = [json.loads(line) for line in answers.getvalue().splitlines()]
    assert [reply.get("error") for reply in replies[:5]] == [
        "key 'id' given twice (an ambiguous line)", "a number of more than 100 digits",
        "nested more than 32 deep", "a request is UTF-8 text", "a request is at most 1 MB"]
    assert replies[5]["id"] == "good" and "move" in replies[5]
    assert len(replies) == 6
