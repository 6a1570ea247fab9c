"""Wakanda game records (rules/wakanda.md, "Game record"): reading, validating, writing."""

import json
from pathlib import Path

import pytest

from companion.errors import RecordError
from companion.games.wakanda import (
    Build,
    Claim,
    Draw,
    Pass,
    Reveal,
    Wakanda,
    event_line,
    header_line,
    read_record,
    write_record,
)

DATA = Path(__file__).parent / "data"
HEADER = {"game": "wakanda", "players": ["Ana", "Ben"],
          "villages": ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"], "first": 0}


def record(*events, header=HEADER):
    return "".join(json.dumps(obj) + "\n" for obj in (header, *events))


def bad(text):
    with pytest.raises(RecordError) as info:
        read_record(text)
    return str(info.value)


def test_worked_example_reaches_the_rulebook_end_position():
    game, warnings = read_record((DATA / "wakanda_worked_example.jsonl").read_text())
    assert warnings == [] and game.phase == "over"
    assert game.poles == (("teepee", "eagle", "skin"), ("chief", "sun", "tomahawk"),
                          ("chief", "teepee", "sun", "skin"), ("sun", "sun", "skin"),
                          ("tomahawk", "teepee"), ("sun", "sun", "skin", "teepee"))
    assert game.owners == (0, 0, 0, 1, 1, 1)
    assert (game.score(0).total, game.score(1).total) == (20, 16)


def test_a_record_round_trips():
    text = (DATA / "wakanda_worked_example.jsonl").read_text()
    game, _ = read_record(text)
    assert write_record(game) == text
    again, _ = read_record(write_record(game))
    assert again.history == game.history and again.poles == game.poles


def test_settings_round_trip_and_defaults_are_left_out():
    game = Wakanda(["teepee", "eagle", "chief", None, None, None], first=1, players=("A", "B"),
                   variant="hidden", empty_claim="never", open_hands=True)
    header = header_line(game)
    assert header == {"game": "wakanda", "players": ["A", "B"],
                      "villages": ["teepee", "eagle", "chief", None, None, None], "first": 1,
                      "variant": "hidden", "empty_claim": "never", "open_hands": True}
    back, _ = read_record(write_record(game))
    assert (back.variant, back.empty_claim, back.open_hands, back.first) == ("hidden", "never", True, 1)
    assert set(header_line(Wakanda(HEADER["villages"]))) == {"game", "players", "villages", "first"}


@pytest.mark.parametrize("player, move, line", [
    (0, Draw("eagle"), {"p": 0, "draw": "eagle"}),
    (1, Build("sun", 3), {"p": 1, "build": "sun", "village": 3}),
    (0, Claim(6), {"p": 0, "claim": 6}),
    (1, Pass(), {"p": 1, "pass": True}),
    (None, Reveal("height"), {"reveal": "height"}),
])
def test_event_lines(player, move, line):
    assert event_line(player, move) == line


def test_undo_lines_take_back_the_last_event_not_undone():
    game, _ = read_record(record({"p": 0, "draw": "eagle"}, {"p": 0, "build": "eagle", "village": 1},
                                 {"undo": True}, {"undo": True}, {"p": 0, "draw": "sun"}))
    assert game.bag["eagle"] == 1 and game.hands[0]["sun"] == 1 and game.poles[0] == ()
    assert game.history == ((0, Draw("sun")),)


def test_hidden_variant_record_with_reveal_lines():
    header = dict(HEADER, villages=["teepee", "eagle", "chief", None, None, None], variant="hidden")
    text = record({"p": 0, "draw": "sun"}, {"p": 0, "build": "sun", "village": 1},
                  {"p": 1, "draw": "sun"}, {"p": 1, "claim": 1}, {"reveal": "height"},
                  {"p": 0, "draw": "skin"}, header=header)
    game, _ = read_record(text)
    assert game.villages[3] == "height" and game.phase == "action"
    assert write_record(game) == text
    assert bad(record({"p": 0, "draw": "sun"}, {"p": 0, "build": "sun", "village": 1},
                      {"p": 1, "draw": "sun"}, {"p": 1, "claim": 1}, {"p": 0, "draw": "skin"},
                      header=header)) == "line 6: village 4 must be turned up first (W10)"
    assert bad(record({"reveal": "sun"}, header=header)) == "line 2: no tile to reveal now (W10)"


def test_empty_lines_are_ignored_and_a_torn_last_line_is_a_warning():
    text = record({"p": 0, "draw": "eagle"}) + "\n\n" + '{"p": 0, "bui'
    game, warnings = read_record(text)
    assert game.phase == "action" and len(game.history) == 1
    assert warnings == ["line 5: torn last line ignored (an interrupted write)"]


@pytest.mark.parametrize("events, message", [
    # each illegal-move class of the issue
    ([{"p": 1, "draw": "eagle"}], "line 2: it is Ana's turn (W4)"),
    ([{"p": 0, "build": "eagle", "village": 1}], "line 2: draw first: the bag is not empty (W4)"),
    ([{"p": 0, "draw": "eagle"}, {"p": 0, "build": "eagle", "village": 1}, {"p": 1, "draw": "eagle"}],
     "line 4: no eagle left in the bag (W4)"),
    ([{"p": 0, "draw": "sun"}, {"p": 0, "build": "sun", "village": 5}],
     "line 3: village 5 is not open yet (W4)"),
    ([{"p": 0, "draw": "sun"}, {"p": 0, "build": "sun", "village": 9}],
     "line 3: there is no village 9: villages are 1 to 6 (W2)"),
    ([{"p": 0, "draw": "sun"}, {"p": 0, "build": "sun", "village": 1}, {"p": 1, "draw": "sun"},
      {"p": 1, "claim": 1}, {"p": 0, "draw": "sun"}, {"p": 0, "build": "sun", "village": 1}],
     "line 7: village 1 is already claimed (W4)"),
    ([{"p": 0, "draw": "sun"}, {"p": 0, "build": "eagle", "village": 1}],
     "line 3: no eagle in Ana's hand (W4)"),
    ([{"p": 0, "draw": "sun"}, {"p": 0, "claim": 1}],
     "line 3: the pole is empty: a claim needs a piece (R1)"),
    ([{"p": 0, "draw": "sun"}, {"p": 0, "pass": True}],
     "line 3: no passing while a move is possible (W5)"),
    ([{"p": 0, "draw": "sun"}, {"p": 0, "draw": "sun"}],
     "line 3: one draw a turn: now build or claim (W4)"),
    ([{"undo": True}], "line 2: nothing to undo"),
    # malformed event lines
    ([{"p": 0, "draw": "sun", "note": "hi"}], "line 2: unknown key 'note' in a draw line"),
    ([{"p": 0, "dance": 1}], "line 2: unknown key 'dance'"),
    ([{"p": 0}], "line 2: an event line needs exactly one of draw, build, claim, pass, reveal, undo"),
    ([{"p": 0, "draw": "sun", "claim": 1}], "line 2: an event line needs exactly one of"),
    ([{"draw": "sun"}], "line 2: missing key 'p' in a draw line"),
    ([{"p": 0, "draw": "sun"}, {"p": 0, "build": "sun"}], "line 3: missing key 'village' in a build line"),
    ([{"p": 2, "draw": "sun"}], "line 2: p must be player 0 or 1, got 2 (W1)"),
    ([{"p": True, "draw": "sun"}], "line 2: p must be player 0 or 1, got true (W1)"),
    ([{"p": 0, "draw": 3}], "line 2: draw must name a piece"),
    ([{"p": 0, "draw": "sun"}, {"p": 0, "claim": "1"}],
     "line 3: claim must be a village number from 1 to 6, got '1' (W2)"),
    ([{"p": 0, "draw": "sun"}, {"p": 0, "pass": False}], 'line 3: a pass line is {"p": N, "pass": true}'),
    ([{"undo": 1}], 'line 2: an undo line is {"undo": true}'),
    ([{"p": 0, "reveal": "sun"}], "line 2: unknown key 'p' in a reveal line"),
])
def test_bad_event_lines(events, message):
    assert bad(record(*events)).startswith(message)


def test_no_event_after_the_end():
    text = (DATA / "wakanda_worked_example.jsonl").read_text()
    lines = len(text.splitlines())
    assert bad(text + '{"p": 0, "pass": true}\n') == f"line {lines + 1}: the game is over (W6)"


def test_nothing_after_a_bad_line_is_applied():
    text = record({"p": 0, "draw": "sun"}, {"p": 0, "build": "sun", "village": 4},
                  {"p": 0, "build": "sun", "village": 1})
    assert bad(text) == "line 3: village 4 is not open yet (W4)"


@pytest.mark.parametrize("change, message", [
    ({"colour": "red"}, "line 1: unknown key 'colour'"),
    ({"first": None}, "line 1: first must be player 0 or 1, got null (W3)"),
    ({"players": ["Ana"]}, "line 1: players must be two non-empty names (W1)"),
    ({"players": ["Ana", ""]}, "line 1: players must be two non-empty names (W1)"),
    ({"players": "Ana and Ben"}, "line 1: players must be two non-empty names (W1)"),
    ({"villages": ["teepee", "eagle", "chief", "variety", "sun"]}, "line 1: villages must list the 6 tiles"),
    ({"villages": ["teepee", "eagle", "chief", "variety", "sun", "sun"]}, "line 1: village 'sun' appears twice"),
    ({"villages": ["teepee", "eagle", "chief", "variety", "sun", None]}, "line 1: village 6 is missing"),
    ({"villages": "teepee eagle"}, "line 1: villages must list the 6 tiles"),
    ({"villages": 6}, "line 1: villages must list the 6 tiles"),
    ({"players": None}, "line 1: players must be two non-empty names (W1)"),
    ({"players": 2}, "line 1: players must be two non-empty names (W1)"),
    ({"variant": "hidden", "villages": [None, "eagle", "chief", "variety", "sun", "skin"]},
     "line 1: village 1 is missing"),
    ({"variant": "blind"}, "line 1: variant must be 'open' or 'hidden'"),
    ({"empty_claim": "maybe"}, "line 1: empty_claim must be one of when_stuck, never, always"),
    ({"open_hands": 1}, "line 1: open_hands must be true or false"),
])
def test_bad_headers(change, message):
    assert bad(record(header=dict(HEADER, **change))).startswith(message)


@pytest.mark.parametrize("text, message", [
    ("", "line 1: the record is empty"),
    ('{"game": "wakanda", "players": ["Ana", "Ben"]}\n', "line 1: missing key 'first'"),
    ('{"game": "totem-wars", "players": ["A", "B"], "villages": [], "first": 0}\n',
     "line 1: not a Wakanda record"),
    (json.dumps(HEADER) + "\n{not json}\n", "line 2: not valid JSON"),
    (json.dumps(HEADER) + "\n[1, 2]\n", "line 2: each line must be a JSON object"),
])
def test_bad_json_and_headers(text, message):
    assert bad(text).startswith(message)
