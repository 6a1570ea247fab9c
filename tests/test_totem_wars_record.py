"""Totem Wars records: reading, writing, bad lines with rule numbers, torn last lines, war
declarations (R2) and records kept before them; and the ``score`` / ``moves`` commands."""

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import RecordError
from companion.games.totem_wars import (
    ChooseTotems,
    Declare,
    Play,
    default_deck,
    event_line,
    header_line,
    load_deck,
    read_record,
    result_line,
    write_record,
)
from companion.records import dump_line

DATA = Path(__file__).parent / "data"
ROUND = DATA / "totem_wars_round.jsonl"
FINISHED = DATA / "totem_wars_finished.jsonl"
#: Ana's crocodile (water, land) against Ben's eagle (air): a war of 0 against 0 waits for
#: Ana's habitat (R2).
EXAMPLE = DATA / "totem_wars_r2_example.jsonl"
#: The same war twice, kept before owners declared: no habitat lines.
BEFORE = DATA / "totem_wars_before_declarations.jsonl"
HEADER = '{"game": "totem-wars", "version": 2, "players": ["Ana", "Ben"], "dealer": 0, "deck": "default"}\n'
TOTEMS = '{"totems": ["indians/snake", "africans/lion"]}\n'
C = default_deck().card


def test_a_record_replays_with_undo_and_writes_back_without_the_undone_line():
    game, warnings = read_record(ROUND.read_text())
    assert warnings == [] and len(game.rounds) == 1 and game.last_round.taker == 0
    assert game.to_move == 1 and game.level == 2 and game.table[0] == (C("eskimos/fox"), C("eskimos/hare"))
    lines = ROUND.read_text().splitlines()
    kept = lines[:3] + lines[5:]
    assert write_record(game).splitlines() == kept
    assert read_record(write_record(game))[0].history == game.history


def test_header_and_event_lines():
    game, _ = read_record(HEADER + TOTEMS)
    assert header_line(game) == json.loads(HEADER)
    assert event_line(None, ChooseTotems((C("indians/snake"),))) == {"totems": ["indians/snake"]}
    assert event_line(1, Play((C("indians/wolf"), C("eskimos/wolf")))) == {
        "p": 1, "play": ["indians/wolf", "eskimos/wolf"]}
    assert event_line(0, Declare("land")) == {"p": 0, "habitat": "land"}


def test_a_declaration_line_replays_and_is_written_back():
    text = EXAMPLE.read_text() + '{"p": 0, "habitat": "land"}\n'
    game, warnings = read_record(text)
    assert warnings == [] and game.last_round.taker == 0 and game.last_round.declared == ("land", None)
    again, _ = read_record(write_record(game))
    assert again.history == game.history and again.history[-1] == (0, Declare("land"))
    undone, _ = read_record(text + '{"undo": true}\n')
    assert undone.rounds == () and undone.phase == "declare" and undone.to_move == 0


def test_a_record_kept_before_declarations_reads_with_the_old_choice_and_one_warning():
    text = BEFORE.read_text()
    game, warnings = read_record(text)
    assert warnings == ["line 5: 2 wars without the habitat declarations of two-habitat totems (a record "
                        "kept before owners declared): read with the habitat of the most war points, "
                        "the first listed on a tie (R2)"]
    # Both habitats give Ana 0 war points: the first listed, water, which Ben's air beats (T11).
    # Nobody declared: said as read, never as a declaration (R2).
    assert [(r.declared, r.read_as, r.taker) for r in game.rounds] == [((None, None), ("water", None), 1)] * 2
    assert not any(isinstance(move, Declare) for _, move in game.history)
    assert write_record(game) == "".join(dump_line(json.loads(line)) for line in text.splitlines())
    # An undo takes a war's play back with the habitat read for it, as when it was kept.
    undone, _ = read_record(text + '{"undo": true}\n{"undo": true}\n')
    assert len(undone.rounds) == 1 and undone.to_move == 0 and undone.declaration_due is None
    assert undone.table == ((), (C("eskimos/orca"),))


def test_a_record_that_ends_on_the_play_starting_the_war_waits_for_the_declaration():
    game, warnings = read_record(EXAMPLE.read_text())
    assert warnings == [] and game.phase == "declare" and game.declaration_due.player == 0


def test_a_torn_last_line_is_a_warning_and_is_not_applied():
    game, warnings = read_record(HEADER + TOTEMS + '{"p": 1, "play": ["indi')
    assert warnings == ["line 3: torn last line ignored (an interrupted write)"]
    assert game.to_move == 1 and game.table == ((), ())


def test_a_deck_named_in_the_header_is_taken_from_the_data_folder_and_a_custom_deck_is_written_out(tmp_path):
    deck_path = DATA / "totem_wars_deck.toml"
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "club.toml").write_text(deck_path.read_text())
    header = {"game": "totem-wars", "players": ["Ana", "Ben"], "dealer": 1, "deck": "club"}
    game, _ = read_record(json.dumps(header) + '\n{"totems": ["indians/thunderbird", "eskimos/arctic_hare"]}\n',
                          tmp_path)
    assert game.deck == load_deck(deck_path) and game.to_move == 0
    written = header_line(game)
    assert len(written["deck"]) == 52  # self-contained: the card list, not the path
    assert read_record(write_record(game))[0].deck == game.deck


@pytest.mark.parametrize("lines, message", [
    (['{"game": "totem-wars", "players": ["Ana"]}'], "line 1: Totem Wars is for 2 to 4 players, not 1 (T1)"),
    (['{"game": "totem-wars", "players": ["Ana", "Ben"], "seed": 3}'], "line 1: unknown key 'seed'"),
    (['{"game": "totem-wars", "players": ["Ana", 7]}'], "line 1: players must be a list of names (T1)"),
    (['{"game": "totem-wars", "players": ["Ana", "Ben"], "dealer": 2}'],
     "line 1: dealer must be a seat from 0 to 1, got 2 (T2)"),
    (['{"game": "totem-wars", "players": ["Ana", "Ben"], "deck": 52}'], "line 1: deck must be \"default\""),
    (['{"game": "totem-wars", "players": ["Ana", "Ben"], "deck": [{"tribe": "indians"}]}'],
     "line 1: deck card 1: missing key 'animal' (T1a)"),
    (['{"game": "totem-wars", "players": ["Ana", "Ben"], "deck": "/no/such/deck.toml"}'],
     "line 1: deck '/no/such/deck.toml': a record names a deck of the data folder's decks/ by its name"),
    ([HEADER, '{"p": 1, "play": ["indians/wolf"]}'], "line 2: every player lays a totem before the first round (T2)"),
    ([HEADER, '{"totems": ["indians/snake"]}'], "line 2: one totem per player: 2 cards, not 1 (T2)"),
    ([HEADER, '{"totems": ["indians/unicorn", "africans/lion"]}'], "line 2: unknown card 'indians/unicorn'"),
    ([HEADER, TOTEMS, '{"p": 0, "play": ["indians/wolf"]}'], "line 3: it is Ben's turn (p 1), not Ana's (T5)"),
    ([HEADER, TOTEMS, '{"p": 1, "play": ["africans/lion"]}'],
     "line 3: africans/lion is a totem; it stays on the table all game (T2)"),
    ([HEADER, TOTEMS, '{"p": 1, "play": ["indians/wolf", "indians/bear"]}', '{"p": 0, "play": ["eskimos/fox"]}'],
     "line 4: place at least 2 cards, the level of this round (T5)"),
    ([HEADER, TOTEMS, '{"p": 1, "play": ["indians/wolf"]}', '{"p": 0, "play": ["eskimos/fox", "eskimos/hare"]}',
      '{"p": 1, "play": ["eskimos/orca", "eskimos/seal"]}'], "line 5: Ben answers with exactly 1 card (T6)"),
    ([HEADER, TOTEMS, '{"p": 3, "play": ["indians/wolf"]}'], "line 3: p must be a seat from 0 to 1"),
    ([HEADER, TOTEMS, '{"p": 1, "play": "indians/wolf"}'], "line 3: play must be a list of card names"),
    ([HEADER, TOTEMS, '{"p": 1, "play": ["indians/wolf"], "x": 1}'], "line 3: unknown key 'x'"),
    ([HEADER, TOTEMS, '{"pass": true}'], "line 3: expected a totems, play, habitat, deal or undo line"),
    ([HEADER, TOTEMS, '{"p": 1, "habitat": "land"}'], "line 3: no habitat declaration is due (R2)"),
    ([*EXAMPLE.read_text().splitlines(), '{"p": 1, "habitat": "air"}'],
     "line 5: it is Ana's declaration (p 0), not Ben's (R2)"),
    ([*EXAMPLE.read_text().splitlines(), '{"p": 0, "habitat": "air"}'],
     "line 5: Ana's totem has no habitat air (R2)"),
    ([*EXAMPLE.read_text().splitlines(), '{"p": 0, "habitat": "sea"}'],
     "line 5: habitat must be water, land or air (T1)"),
    ([*EXAMPLE.read_text().splitlines(), '{"p": 0, "habitat": "land", "x": 1}'], "line 5: unknown key 'x'"),
    ([HEADER, '{"undo": true}'], "line 2: nothing to undo"),
    ([HEADER, '{"undo": 1}'], "line 2: undo must be true"),
    ([HEADER, 'not json', TOTEMS], "line 2: not valid JSON"),
])
def test_bad_lines_are_one_clear_error_and_stop_the_replay(lines, message):
    with pytest.raises(RecordError) as exc:
        read_record("\n".join(line.rstrip("\n") for line in lines) + "\n")
    assert str(exc.value).startswith(message)


def test_a_finished_record_scores_by_t15():
    game, _ = read_record(FINISHED.read_text())
    outcome = game.outcome()
    assert game.phase == "over" and outcome is not None
    for p in range(len(game.players)):
        totem = game.totems[p]
        assert game.all_points()[p] == 1 + sum(c.tribe == totem.tribe for c in game.taken[p])


# -- the command line --------------------------------------------------------------------------

def test_score_json_of_a_finished_and_an_unfinished_record(capsys):
    assert main(["score", str(FINISHED), str(ROUND), "--json"]) == 0
    finished, provisional = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    game, _ = read_record(FINISHED.read_text())
    assert finished["game"] == "totem-wars" and finished["finished"] is True
    assert finished["winners"] == list(game.outcome().winners)
    assert [p["points"] for p in finished["players"]] == list(game.all_points())
    assert provisional["finished"] is False and provisional["winners"] == []
    assert provisional["players"][0] == {"name": "Ana", "totem": "indians/snake", "points": 3,
                                         "taken": {"aborigines": 3, "africans": 3, "eskimos": 1, "indians": 2}}


def test_score_text_lists_every_round_and_the_winner(capsys):
    assert main(["score", str(FINISHED)]) == 0
    out = capsys.readouterr().out
    game, _ = read_record(FINISHED.read_text())
    assert out.count("\nRound ") == len(game.rounds)
    assert "Final score (T15):" in out and out.rstrip().endswith(result_line(game))
    assert result_line(game).endswith(" point" + "s" * (max(game.all_points()) != 1) + " (T15)")
    assert "T14: the last player with cards" in out


def test_score_text_of_a_round_shows_the_best_arrangement(capsys):
    assert main(["score", str(ROUND)]) == 0
    out = capsys.readouterr().out
    assert "Round 1 (Ben starts), cards placed: Ben 3, Cleo 3, Ana 3" in out
    assert "Ana 5 pts: Indians: snake* bear wolf | Eskimos: whale" in out
    assert "Ana takes 9 cards (T9)." in out and "Refill (T13): Ana 3, Ben 3, Cleo 3" in out
    assert "Provisional score (T15):" in out


def test_moves_json_gives_every_legal_count(capsys):
    assert main(["moves", str(ROUND), str(FINISHED), "--json"]) == 0
    during, ended = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert during == {"to_move": 1, "moves": [{"p": 1, "count": c} for c in (2, 3, 4, 5)]}
    assert ended == {"to_move": None, "moves": []}


def test_moves_while_a_war_waits_for_a_declaration_r2(capsys):
    assert main(["moves", str(EXAMPLE), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "to_move": 0, "moves": [{"p": 0, "habitat": "land"}, {"p": 0, "habitat": "water"}]}
    assert main(["moves", str(EXAMPLE)]) == 0
    assert capsys.readouterr().out.strip() == (
        "Round 1, war (T10): Ana declares the habitat of the totem Crocodile (Africans) (R2): "
        "land or water (land is best).")


def test_score_text_of_records_with_and_before_declarations(tmp_path, capsys):
    declared = tmp_path / "declared.jsonl"
    declared.write_text(EXAMPLE.read_text() + '{"p": 0, "habitat": "land"}\n')
    assert main(["score", str(declared)]) == 0
    out = capsys.readouterr().out
    assert "  Declared (R2): Ana land\n  Totem habitats (T11): Ana land, Ben air\n  Ana takes 2 cards (T11)." in out
    assert main(["score", str(BEFORE)]) == 0
    captured = capsys.readouterr()
    assert captured.out.count("Ben takes 2 cards (T11).") == 2
    assert captured.err.count("\n") == 1 and captured.err.startswith(f"{BEFORE}: warning: line 5: 2 wars")


def test_moves_during_the_totems_and_as_text(tmp_path, capsys):
    path = tmp_path / "start.jsonl"
    path.write_text(HEADER)
    assert main(["moves", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"to_move": None, "moves": [{"totems": 2}]}
    assert main(["moves", str(path)]) == 0
    assert "each player lays one card as their totem (T2)" in capsys.readouterr().out
    assert main(["moves", str(ROUND)]) == 0
    assert capsys.readouterr().out.strip() == (
        "Round 2: Ben places at least 2 or all they hold (T5); holds 5, may place 2, 3, 4 or 5 cards.")


def test_a_bad_record_is_one_line_on_stderr_and_exit_1(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text(HEADER + TOTEMS + '{"p": 1, "play": ["indians/wolf", "indians/bear"]}\n'
                    '{"p": 0, "play": ["eskimos/fox"]}\n')
    assert main(["score", str(path)]) == 1
    err = capsys.readouterr().err
    assert err == f"{path}: line 4: place at least 2 cards, the level of this round (T5)\n"
