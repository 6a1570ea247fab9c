"""Totem Wars against the box (issue 31): its cards dealt onto numbered spots and scanned, its
totem and placements said by spot and checked, undo over its placement, resume with its hand
known again, the record's ``box`` header and ``deal`` lines, whole games through ``run --input``."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from box_helpers import choose, scan
from tw_box_script import hidden_shown, write

from companion.cli import main
from companion.errors import RecordError
from companion.events import Press
from companion.games.totem_wars import ChooseTotems, Deal, IllegalMove, Play, TotemWars, read_record, write_record
from companion.games.totem_wars.box_seat import BoxSeats, decision_seed, public_game
from companion.games.totem_wars.box_setup import BOX, SOLO
from companion.games.totem_wars.hand_hint import hand_owner
from companion.games.totem_wars.public import note
from companion.games.totem_wars.search import DEFAULT_LEVEL, suggest
from companion.games.totem_wars.table_game import resumed
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.ui.canvas import frame_words

NAMES = ("Ana", "Ben", "Cleo", "Dan")


@pytest.fixture
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    return tmp_path


def run_script(text: str, folder, capsys, names=("Ana",)) -> list[str]:
    """Run ``text`` as an input script on a box whose data folder is ``folder / "data"``
    and whose configuration names ``names``: the frames' words."""
    folder.mkdir(exist_ok=True)
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "totem-companion" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f"players = {json.dumps(list(names))}\n", encoding="utf-8")
    path = folder / "script.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["run", "--input", str(path), "--display", "text", "--data", str(folder / "data")]) == 0
    return [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines() if line.startswith("frame ")]


def record_of(folder) -> str:
    return (folder / "data" / "current.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize(("seed", "players", "seat"), [(3, 2, 1), (5, 2, 0), (8, 3, 2), (11, 4, 0), (12, 4, 3)])
def test_a_whole_game_against_the_box_from_an_input_script(folders, capsys, seed, players, seat):
    text, played = write(folders / "writer", seed, players, seat, dealer=seat)
    frames = run_script(text, folders / "table", capsys, NAMES[:players - 1])
    record = record_of(folders / "table")
    assert record == record_of(folders / "writer")              # the script plays the same game
    game, _ = read_record(record)
    assert "undo" in record and game.history == played.game.history
    assert game.phase == "over" and game.box == {seat: DEFAULT_LEVEL}
    assert json.loads(record.splitlines()[0])["box"] == {str(seat): DEFAULT_LEVEL}
    said = " ".join(frames).replace(" | ", " ")  # lines of the band joined again
    assert "deal my card onto spot 1, scan it" in said
    assert "my totem is spot" in said
    assert "Not that card: I lay spot" in said                 # the wrong card, refused
    assert "lies on spot" in said and "of the box: in its hand" in said
    assert "and my reply" in said                               # the undo over its placement
    # Every placement of the box is the one its search makes from its own hand.
    replay = TotemWars(game.players, game.dealer, box=game.box)
    for player, move in game.history:
        if player == seat and isinstance(move, Play):
            hand = [c.name for c in replay.box_hand(seat)]
            found = suggest(public_game(replay), seat, level=DEFAULT_LEVEL, seed=decision_seed(replay), hand=hand)
            assert found.move == move
        replay.push(move)
    kept = folders / "game.jsonl"
    kept.write_text(record)
    assert main(["score", str(kept), "--json"]) == 0
    assert [p["name"] for p in json.loads(capsys.readouterr().out)["players"]][seat] == "Box"
    assert game.players[seat] == "Box" and "Box" not in game.players[:seat] + game.players[seat + 1:]
    assert main(["replay", str(kept), "--out", str(folders / "frames")]) == 0
    capsys.readouterr()
    assert any((folders / "frames").iterdir())


def test_no_card_on_the_boxs_spots_is_read_on_any_frame_or_the_public_view(folders, mocker):
    """The script's writer checks every frame (``hidden_shown``); here a card on a spot is
    put on the screen on purpose, and the check sees it."""
    text, played = write(folders / "writer", 3)
    assert hidden_shown(played) == []
    game = TotemWars(["Ana", "Box"], 0, box={1: "easy"})
    game.push(Deal(game.deck.card("indians/snake")))
    flow = mocker.Mock(game=game)
    assert note(flow, "Snake (Indians)") == "1 card"            # the phone and the voice


def test_the_script_resumed_halfway_ends_the_same(folders, capsys):
    text, played = write(folders / "writer", 3)
    lines = text.splitlines()
    # Cut right after a card dealt to the box: the resumed box knows its hand again.
    cut = next(i for i, line in enumerate(lines) if i > len(lines) // 2 and "dealt onto spot" in line) + 2
    run_script("\n".join(lines[:cut]) + "\n", folders / "table", capsys)
    frames = run_script("press ok\n" + "\n".join(lines[cut:]) + "\n", folders / "table", capsys)
    assert "Resume Totem Wars" in frames[0]
    assert not any("Not that card" in frame for frame in frames)  # it asked for the same cards
    game, _ = read_record(record_of(folders / "table"))
    assert game.phase == "over" and game.history == played.game.history


# --- the set-up ------------------------------------------------------------------------------

def session(tmp_path, players=()):
    return Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json", {}), players=players,
                   rng=random.Random(1))


def test_without_names_the_count_offers_solo_games_then_asks_the_level(tmp_path):
    s = session(tmp_path)
    choose(s, "totem-wars")
    assert s.view.choice.labels == ("2 players", "3 players", "4 players", "Solo vs the box",
                                    "Solo vs 2 boxes", "Solo vs 3 boxes")
    choose(s, (SOLO, 3))
    assert s.view.choice.title == "Box: how strong?" and s.view.choice.value == DEFAULT_LEVEL
    assert s.view.choice.labels == ("Easy", "Hard", "Strongest")      # never a yardstick of match
    choose(s, "easy")
    assert s.view.choice.labels == ("Player 1", "Box 1", "Box 2")      # the dealer
    choose(s, 0)
    assert s.game.box == {1: "easy", 2: "easy"} and s.game.players == ("Player 1", "Box 1", "Box 2")
    assert "Box 1: deal my card onto spot 1, scan it" in " ".join(frame_words(s.frame()))


def test_a_whole_solo_game_against_three_box_seats(folders, capsys):
    text, played = write(folders / "writer", 4, 4, None)
    run_script(text, folders / "table", capsys, names=())
    game, _ = read_record(record_of(folders / "table"))
    assert game.phase == "over" and game.box == {1: DEFAULT_LEVEL, 2: DEFAULT_LEVEL, 3: DEFAULT_LEVEL}


def test_with_names_the_box_is_the_last_name_of_each_seat_never_all(tmp_path):
    s = session(tmp_path, players=("Ana", "Ben"))
    choose(s, "totem-wars")
    choose(s, 2)
    assert s.view.choice.values[-1] is BOX
    choose(s, BOX)
    assert s.view.choice.title == "Box: how strong?"             # right after seating it
    choose(s, DEFAULT_LEVEL)
    assert BOX not in s.view.choice.values                       # one seat is a person's
    choose(s, "Ana")
    choose(s, 1)
    assert s.game.players == ("Box", "Ana") and s.game.box == {0: DEFAULT_LEVEL}


def test_no_box_seat_plays_as_before(tmp_path):
    s = session(tmp_path)
    choose(s, "totem-wars")
    choose(s, (SOLO, 2))
    s.handle(Press("back"))                                      # back to the count
    choose(s, 2)
    choose(s, 0)
    assert s.game.box == {} and s.screen == "totems"
    assert "box" not in json.loads(record_of(tmp_path).splitlines()[0])


# --- the engine and the record ----------------------------------------------------------------

def dealt_game():
    """Ana against the box (seat 1): the box's five cards dealt onto spots 1-5."""
    game = TotemWars(["Ana", "Box"], 0, box={1: "standard"})
    d = game.deck.card
    for name in ("indians/snake", "indians/wolf", "indians/bear", "africans/lion", "eskimos/seal"):
        game.push(Deal(d(name)))
    return game, d


def test_the_box_must_have_its_cards_dealt_before_anything_else():
    game = TotemWars(["Ana", "Box"], 0, box={1: "standard"})
    d = game.deck.card
    with pytest.raises(IllegalMove, match=r"first deal Box's card onto spot 1 \(T2\)"):
        game.push(ChooseTotems((d("indians/eagle"), d("indians/snake"))))
    game, d = dealt_game()
    assert game.spots(1)[:5] == tuple(map(d, ("indians/snake", "indians/wolf", "indians/bear",
                                              "africans/lion", "eskimos/seal")))
    with pytest.raises(IllegalMove, match="no card is due"):
        game.push(Deal(d("indians/eagle")))
    with pytest.raises(IllegalMove, match=r"that card lies on spot 1 of the box: in its hand \(T2\)"):
        game.push(ChooseTotems((d("indians/snake"), d("indians/wolf"))))
    with pytest.raises(IllegalMove, match="is not on Box's spots"):
        game.push(ChooseTotems((d("indians/eagle"), d("indians/hawk"))))
    game.push(ChooseTotems((d("indians/eagle"), d("indians/wolf"))))
    assert game.deal_due.spot == 2 and game.spots(1)[1] is None   # the totem's spot is next (T2)
    with pytest.raises(IllegalMove, match=r"spot 2 \(T13\)"):
        game.push(Play((d("indians/bear"),)))
    with pytest.raises(IllegalMove, match="that card lies on spot 1"):
        game.push(Deal(d("indians/snake")))
    game.push(Deal(d("africans/zebra")))
    assert game.to_move == 1
    with pytest.raises(IllegalMove, match="is not on Box's spots"):
        game.push(Play((d("indians/hawk"),)))
    game.push(Play((d("indians/bear"), d("indians/snake"))))
    assert game.box_hand(1) == [d("africans/zebra"), d("africans/lion"), d("eskimos/seal")]
    game.pop()
    assert len(game.box_hand(1)) == 5


def test_the_record_keeps_the_box_and_its_deals_and_reads_them_back():
    game, d = dealt_game()
    text = write_record(game)
    assert json.loads(text.splitlines()[0])["box"] == {"1": "standard"}
    assert json.loads(text.splitlines()[1]) == {"p": 1, "deal": "indians/snake"}
    again, _ = read_record(text)
    assert again.spots(1) == game.spots(1) and again.box == {1: "standard"}


@pytest.mark.parametrize(("line", "reason"), [
    ('{"p": 0, "deal": "indians/snake"}', "line 2: the card due is Box's (p 1), not Ana's (T13)"),
    ('{"p": 1, "deal": 3}', 'line 2: deal must be a card name like "indians/snake"'),
    ('{"p": 1, "deal": "indians/dragon"}', "line 2: unknown card"),
])
def test_a_bad_deal_line_is_one_line(line, reason):
    header = '{"game": "totem-wars", "players": ["Ana", "Box"], "box": {"1": "easy"}}\n'
    with pytest.raises(RecordError) as found:
        read_record(header + line + "\n")
    assert str(found.value).startswith(reason)


@pytest.mark.parametrize("box", [{"2": "easy"}, {"1": "hardest"}, ["easy"], {"1": 3}])
def test_a_bad_box_in_a_header_is_one_line(box):
    header = {"game": "totem-wars", "players": ["Ana", "Box"], "box": box}
    with pytest.raises(RecordError, match='line 1: box must map a seat "0" to "1" to a level'):
        read_record(json.dumps(header) + "\n")


def test_undo_over_the_boxs_placement_goes_back_to_the_persons_move():
    game, d = dealt_game()
    box = BoxSeats(game.box)
    game.push(ChooseTotems((d("indians/eagle"), d("indians/wolf"))))
    game.push(Deal(d("africans/zebra")))
    assert box.undo_count(game) == 1                            # a deal: the players' own entry
    move = box.placement(game)
    game.push(move)
    assert box.undo_count(game) == 3                            # back over the deal to the totems
    assert box.undo_text(game, lambda g, p, m: "the totems") == "the totems, and my reply"


def test_a_game_resumed_where_the_box_wants_a_card_says_so():
    game, d = dealt_game()
    game.push(ChooseTotems((d("indians/eagle"), d("indians/wolf"))))
    again, _ = read_record(write_record(game))
    assert resumed(again) == "Resumed. Box: my card, spot 2"
    assert again.box_hand(1) == game.box_hand(1)                # its hand known again


# --- the demo ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("seat", "seed"), [(1, 2), (2, 7), (4, 9)])
def test_the_demo_plays_a_whole_game_with_the_box_in_a_seat(folders, capsys, seat, seed):
    record = folders / "demo.jsonl"
    assert main(["demo", "--game", "totem-wars", "--box", str(seat), "--seed", str(seed),
                 "--record", str(record)]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[0]
    assert "Box" in header and "Box (" not in header and "Totems: " in out  # the box plays no bot
    game, _ = read_record(record.read_text(encoding="utf-8"))
    assert game.phase == "over" and game.box == {seat - 1: DEFAULT_LEVEL}
    assert game.players[seat - 1] == "Box"
    assert any(isinstance(move, Deal) for _, move in game.history)


@pytest.mark.parametrize("seat", ["0", "5"])
def test_a_demo_box_seat_out_of_range_is_one_line(folders, capsys, seat):
    assert main(["demo", "--game", "totem-wars", "--box", seat, "--seed", "1"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--box: a seat from 1 to" in err[0]


# --- at the table ---------------------------------------------------------------------------------

def against_box(tmp_path):
    """Player 1 against the box (seat 2), Player 1 deals; no card dealt yet."""
    s = session(tmp_path)
    choose(s, "totem-wars")
    choose(s, (SOLO, 2))
    choose(s, DEFAULT_LEVEL)
    choose(s, 0)
    return s


def band(s) -> str:
    return " ".join(frame_words(s.frame())).replace(" | ", " ")


def test_a_card_dealt_to_the_box_is_taken_back_alone_and_ok_is_refused_until_it_is_dealt(tmp_path):
    s = against_box(tmp_path)
    assert s.handle(Press("ok")).signal.value == "refused"
    assert "First deal Box's card onto spot 1 — T2" in band(s)
    scan(s, "indians/snake")
    assert "Snake" not in band(s) and "Box: deal my card onto spot 2, scan it" in band(s)
    s.handle(Press("back"))
    assert s.screen == "confirm" and s.view.detail == "Card dealt to Box"
    s.handle(Press("ok"))
    assert s.game.box_hand(1) == [] and "spot 1" in band(s)
    assert [json.loads(line) for line in record_of(tmp_path).splitlines()][1:] == [
        {"p": 1, "deal": "indians/snake"}, {"undo": True}]


def test_the_box_wants_its_own_totem_and_a_person_cannot_lay_its_cards(tmp_path):
    s = against_box(tmp_path)
    for name in ("indians/snake", "indians/wolf", "indians/bear", "africans/lion", "eskimos/seal"):
        scan(s, name)
    totem = s.play.box.totem(s.game, 1)
    spot = s.game.spots(1).index(totem) + 1
    assert f"Box: my totem is spot {spot}: turn it up, scan it (T2)" in band(s)
    other = next(c for c in s.game.box_hand(1) if c != totem)
    assert scan(s, other.name).signal.value == "refused"
    assert f"Not that card: my totem is spot {spot} — T2" in band(s)
    assert scan(s, totem.name).signal.value == "accepted"      # the box's totem is down
    assert scan(s, other.name).signal.value == "refused"        # Player 1's totem: not the box's card
    spot_of_other = s.game.spots(1).index(other) + 1
    assert f"That card lies on spot {spot_of_other} of the box: in its hand — T2" in band(s)
    assert scan(s, "indians/eagle").signal.value == "accepted"
    assert s.game.totems == (s.game.deck.card("indians/eagle"), totem)


def test_back_on_the_end_pages_after_the_boxs_last_move_goes_back_to_a_person(folders, capsys):
    text, played = write(folders / "writer", 3)
    last_player, _ = played.game.history[-1]
    frames = run_script(text + "press back\npress ok\n", folders / "table", capsys)
    game, _ = read_record(record_of(folders / "table"))
    assert game.phase != "over"
    if last_player == 1:  # the box's placement ended the game: back over it to Player 1's
        assert frames[-2].replace(" | ", " ").endswith("and my reply OK yes · BACK no")
        assert game.to_move == 0


def test_the_box_names_the_column_its_spots_go_into_when_they_share_one(mocker):
    game, d = dealt_game()
    game.push(ChooseTotems((d("indians/eagle"), d("indians/wolf"))))
    game.push(Deal(d("africans/zebra")))
    box = BoxSeats(game.box)
    same = Play((d("indians/snake"), d("indians/bear")))       # both above the Indian totem (T7)
    mocker.patch.object(box, "placement", return_value=same)
    assert box.prompt(game, 0, [1, 0], [], False) == "Box: I lay spots 1, 3: column of the Indians"
    assert box.prompt(game, 0, [1, 0], [], True) == "Box: spots 1, 3"
    assert box.prompt(game, 0, [1, 0], [d("indians/snake")], False) == "Box: I lay spot 3: column of the Indians"
    apart = Play((d("indians/snake"), d("eskimos/seal")))       # two columns: the spots alone
    mocker.patch.object(box, "placement", return_value=apart)
    assert box.prompt(game, 0, [1, 0], [], False) == "Box: I lay spots 1, 5: scan each"


def test_moves_names_the_card_due_to_the_boxs_spot(tmp_path, capsys):
    record = tmp_path / "box.jsonl"
    record.write_text('{"game": "totem-wars", "players": ["Ana", "Box"], "box": {"1": "easy"}}\n'
                      '{"p": 1, "deal": "indians/snake"}\n', encoding="utf-8")
    assert main(["moves", str(record)]) == 0
    assert capsys.readouterr().out.strip() == "Deal: Box's card, face down onto spot 2, scanned (T2)."


def test_the_hint_never_asks_for_the_boxs_hand(tmp_path):
    s = against_box(tmp_path)
    for name in ("indians/snake", "indians/wolf", "indians/bear", "africans/lion", "eskimos/seal"):
        assert hand_owner(s.play) is None                        # a card due to its spots
        scan(s, name)
    assert s.game.totems == (None, None) and hand_owner(s.play) is None   # its totem is next (T2)
    scan(s, s.play.box.totem(s.game, 1).name)
    assert hand_owner(s.play) == 0                               # Player 1's totem: their hand
