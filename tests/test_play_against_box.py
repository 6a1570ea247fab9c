"""Playing Wakanda against the box (issue 12): the set-up that seats it at a level, its turn
(draw for it, place what it says, nothing else), undo over its moves, the journal and
resume, a whole game from an input script, and the record's ``box`` header."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import slot_helpers
from board_pixels import lit_villages
from box_helpers import choose, scan
from slot_helpers import uid

from companion.cli import main
from companion.engine import Refusal
from companion.errors import RecordError, UserError
from companion.events import Hold, Press
from companion.games.wakanda import Build, Claim, Draw, Pass, Wakanda, box_player, read_record, write_record
from companion.games.wakanda.bots import play_game, random_bot
from companion.games.wakanda.box_player import BoxPlayer, decision_seed
from companion.games.wakanda.search import DEFAULT_LEVEL, LEVELS, suggest
from companion.games.wakanda.setup_flow import BOX
from companion.games.wakanda.words import WORDS, in_text
from companion.games.wakanda.words import refusal as wakanda_refusal
from companion.games.wakanda.words import t as wakanda_t
from companion.search import Suggestion
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.ui import text
from companion.ui.canvas import frame_words
from companion.words import LANGUAGES

DATA = Path(__file__).parent / "data"
SCRIPT = DATA / "wakanda_against_box.txt"
ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]


def make(tmp_path, players=()):
    return Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json", {}), players=players,
                   rng=random.Random(1))


def against_box(tmp_path, level=DEFAULT_LEVEL, first=0, variant="open"):
    """A new game, no names known: Player 1 (wings) against the box (crests) at ``level``."""
    s = make(tmp_path)
    choose(s, "wakanda")
    choose(s, (variant, BOX))
    choose(s, level)
    for village in ROW[: 3 if variant == "hidden" else 6]:
        scan(s, f"village:{village}")
    choose(s, first)
    assert s.screen == "board"
    return s


def journal(s):
    return [json.loads(line) for line in (s.data_dir / "current.jsonl").read_text().splitlines()]


def band(s) -> str:
    """The words of the board's band, under its header, as one line."""
    return " ".join(frame_words(s.frame())[1:])


def box_move(mocker, move):
    """From now on the box decides ``move`` in any new position (its search is tested
    elsewhere); call it before the box's draw, whose frame already says the move."""
    return mocker.patch("companion.games.wakanda.box_player.suggest",
                        return_value=Suggestion(player=1, move=move, reason="", value=0.5))


# --- set-up ---------------------------------------------------------------------------------

def test_without_names_the_variant_step_seats_the_box_then_asks_its_level(tmp_path):
    s = make(tmp_path)
    choose(s, "wakanda")
    assert s.view.choice.labels == ("Open: all tiles up", "Hidden: 4-6 down", "Open, vs the box",
                                    "Hidden, vs the box")
    choose(s, ("hidden", BOX))
    assert s.flow.current == "level"
    assert s.view.choice.labels == ("Easy", "Medium", "Hard", "Strongest")
    assert s.view.choice.value == DEFAULT_LEVEL                 # the default chosen first
    s.handle(Press("back"))                                     # back: the variant again
    assert s.flow.current == "variant" and s.view.choice.value == ("hidden", BOX)
    choose(s, ("hidden", BOX))
    choose(s, "standard")
    for village in ROW[:3]:
        scan(s, f"village:{village}")
    assert s.view.choice.labels == ("Player 1", "Box", "Draw lots")
    choose(s, 1)
    assert journal(s)[0]["players"] == ["Player 1", "Box"]
    assert journal(s)[0]["box"] == {"1": "standard"} and journal(s)[0]["variant"] == "hidden"
    assert s.game.box == {1: "standard"}


def test_choosing_the_plain_variant_after_all_seats_two_people(tmp_path):
    s = make(tmp_path)
    choose(s, "wakanda")
    choose(s, ("open", BOX))
    s.handle(Press("back"))                                     # from the level, the variant
    choose(s, "open")
    assert s.flow.current == "tiles"                            # no level step
    for village in ROW:
        scan(s, f"village:{village}")
    assert s.view.choice.labels == ("Player 1", "Player 2", "Draw lots")
    choose(s, 0)
    assert "box" not in journal(s)[0] and s.game.box == {}


def test_with_names_the_box_is_the_last_choice_of_each_seat(tmp_path):
    s = make(tmp_path, players=("Ana", "Ben"))
    choose(s, "wakanda")
    assert s.view.choice.labels == ("Ana", "Ben", "Player 1", "The box")
    choose(s, BOX)                                              # the box wears the wings
    assert s.view.choice.labels == ("Ana", "Ben", "Player 2")   # one seat for the box
    choose(s, "Ben")
    assert s.flow.current == "level"
    s.handle(Press("back")); s.handle(Press("back"))            # back to the wings
    assert s.flow.current == "name0" and s.view.choice.value is BOX
    choose(s, "Ana")                                            # a person after all…
    assert s.view.choice.labels == ("Ben", "Player 2", "The box")
    choose(s, BOX)                                              # …and the box the crests
    choose(s, "easy")
    assert s.view.choice.labels[:2] == ("Open: all tiles up", "Hidden: 4-6 down")
    assert len(s.view.choice.labels) == 2                       # the box is seated already
    choose(s, "open")
    for village in ROW:
        scan(s, f"village:{village}")
    assert s.view.choice.labels == ("Ana", "Box", "Draw lots")
    choose(s, 0)
    assert journal(s)[0]["players"] == ["Ana", "Box"] and journal(s)[0]["box"] == {"1": "easy"}


def test_the_box_is_no_name_to_offer_at_the_next_set_up(tmp_path):
    s = make(tmp_path, players=("Ana",))
    choose(s, "wakanda")
    choose(s, "Ana")
    choose(s, BOX)
    choose(s, DEFAULT_LEVEL)
    choose(s, "open")
    for village in ROW:
        scan(s, f"village:{village}")
    choose(s, 0)
    assert s.settings.names == ("Ana",)


def test_every_level_has_its_words_in_every_language():
    for level in LEVELS:
        assert WORDS.has(f"level.{level}")
        for lang in LANGUAGES:
            assert wakanda_t(f"level.{level}", lang)
        assert wakanda_t(f"level.{level}") != wakanda_t(f"level.{level}", lang="bg")
    assert wakanda_t("box.name", lang="bg") == "Кутията"
    assert all(wakanda_t("box.name", lang) for lang in LANGUAGES)


# --- the box's turn -------------------------------------------------------------------------

def test_the_box_asks_for_its_draw_and_takes_the_scan_as_its_draw(tmp_path):
    s = against_box(tmp_path, level="easy")
    scan(s, "sun"); s.handle(Press("v1"))                       # Player 1 draws and builds
    assert band(s) == "Sun on village 1 Draw for me, scan it"
    s.handle(Press("back")); s.handle(Press("back"))            # (a question asked and dropped)
    assert band(s) == "Draw for me and scan the piece"
    assert scan(s, "skin").signal == "accepted"
    assert journal(s)[-1] == {"p": 1, "draw": "skin"}


def test_the_box_says_its_own_move_and_takes_exactly_that(tmp_path):
    s = against_box(tmp_path, level="easy")
    scan(s, "sun"); s.handle(Press("v1"))
    scan(s, "skin")                                             # drawn for the box
    game = s.game
    wanted = suggest(game, 1, level="easy", seed=decision_seed(game)).move
    assert isinstance(wanted, Build) and wanted.piece == "skin"  # only a skin in its hand
    assert band(s) == f"Box drew skin Place my skin on {wanted.village}"
    assert lit_villages(s.frame()) == {wanted.village}          # its village alone is lit
    lines = len(journal(s))
    other = 1 if wanted.village != 1 else 2
    for event in (Press(f"v{other}"), Hold(f"v{wanted.village}"), Press("ok")):
        assert s.handle(event).signal == "refused"
        assert s.message == f"Not that: I build skin on village {wanted.village}"
    assert scan(s, "crests").signal == "refused"                # its headdress: not its move
    assert len(journal(s)) == lines and game.to_move == 1
    assert scan(s, "skin").signal == "accepted"                 # its piece, scanned…
    assert band(s) == f"Now press village {wanted.village}"
    assert s.handle(Press(f"v{other}")).signal == "refused"     # …and another village
    assert s.handle(Press(f"v{wanted.village}")).signal == "your_turn"
    assert journal(s)[-1] == {"p": 1, "build": "skin", "village": wanted.village}


def test_its_village_button_alone_builds_its_piece_without_a_picker(tmp_path, mocker):
    s = against_box(tmp_path)
    scan(s, "sun"); s.handle(Press("v1"))
    decides = box_move(mocker, Claim(1))
    scan(s, "skin"); s.handle(Hold("v1"))                       # the box claims, keeps its skin
    scan(s, "teepee"); s.handle(Press("v2"))
    decides.return_value = Suggestion(player=1, move=Build("eagle", 3), reason="", value=0.5)
    scan(s, "eagle")                                            # the box holds skin and eagle
    assert s.handle(Press("v3")).signal == "your_turn"          # no piece to pick: its eagle
    assert s.game.poles[2] == ("eagle",)


def test_a_claim_is_asked_with_the_headdress_and_entered_as_any_claim(tmp_path, mocker):
    s = against_box(tmp_path)
    scan(s, "sun"); s.handle(Press("v1"))
    box_move(mocker, Claim(1))
    scan(s, "skin")
    assert band(s) == "Box drew skin Put my crests on 1"
    s.handle(Press("back")); s.handle(Press("back"))
    assert band(s) == "I claim village 1: put the crests on it"
    assert s.handle(Press("v1")).signal == "refused"            # a press builds: refused
    assert s.message == "Not that: I claim village 1 with the crests"
    assert scan(s, "wings").signal == "refused"                 # the other's headdress
    assert scan(s, "crests").signal == "accepted"
    assert band(s) == "Now press village 1"
    assert s.handle(Press("v1")).signal == "your_turn"
    assert s.game.owners[0] == 1


def test_a_hold_enters_its_claim_too(tmp_path, mocker):
    s = against_box(tmp_path)
    scan(s, "sun"); s.handle(Press("v1"))
    box_move(mocker, Claim(1))
    scan(s, "skin")
    assert s.handle(Hold("v1")).signal == "your_turn"
    assert journal(s)[-1] == {"p": 1, "claim": 1}


def test_a_tile_turned_up_after_its_claim_is_scanned_as_for_people(tmp_path, mocker):
    s = against_box(tmp_path, variant="hidden")
    scan(s, "sun"); s.handle(Press("v1"))
    box_move(mocker, Claim(1))
    scan(s, "skin"); s.handle(Hold("v1"))
    assert band(s).startswith("Box claimed village 1 Turn up village 4")
    assert scan(s, "village:height").signal == "accepted"
    assert s.game.villages[3] == "height" and s.game.to_move == 0


def test_the_box_with_no_move_passes_as_people_do(tmp_path):
    record = _record_until_a_pass()
    seat = record.to_move
    data = tmp_path / "data"
    data.mkdir()
    header, *lines = write_record(record).splitlines(keepends=True)
    (data / "current.jsonl").write_text(_with_box(header, {str(seat): "easy"}) + "".join(lines))
    s = make(tmp_path)
    s.handle(Press("ok"))                                       # resume
    s.handle(Press("back")); s.handle(Press("back"))            # (a question asked and dropped)
    assert band(s) == f"{s.game.name(seat)} has no move: press OK to pass (R3)"
    assert s.handle(Press("ok")).signal in ("your_turn", "accepted")
    assert journal(s)[-1] == {"p": seat, "pass": True}


def test_the_box_decides_from_its_own_information_only(tmp_path):
    """Two games that differ only in what Player 1 holds: the box plays the same."""
    moves = {}
    for held in ("sun", "skin"):
        game = Wakanda(ROW, first=1, players=("Ana", "Box"), box={1: DEFAULT_LEVEL})
        for move in (Draw("eagle"), Build("eagle", 1), Draw(held), Claim(1), Draw("chief")):
            game.push(move)
        moves[held] = (BoxPlayer(game.box).move(game), decision_seed(game))
    assert moves["sun"] == moves["skin"]


def test_the_same_position_gives_the_same_move_and_it_is_searched_once(tmp_path, mocker):
    game = Wakanda(ROW, players=("Ana", "Box"), box={1: "easy"})
    for move in (Draw("sun"), Build("sun", 1), Draw("skin")):
        game.push(move)
    found = mocker.spy(box_player, "suggest")
    player = BoxPlayer(game.box)
    first = player.move(game)
    assert player.move(game) == first and found.call_count == 1
    assert BoxPlayer(game.box).move(game.copy()) == first        # another box, the same move
    assert player.move(Wakanda(ROW, players=("Ana", "Box"), box={1: "easy"})) is None  # Ana's turn


def test_on_the_reader_hub_its_piece_on_another_village_is_a_stray_to_take_off(tmp_path, mocker):
    s = slot_helpers.new_box(tmp_path)
    choose(s, "wakanda")
    choose(s, ("open", BOX))
    choose(s, DEFAULT_LEVEL)
    for village in slot_helpers.ROW:
        slot_helpers.scan(s, uid(f"village:{village}"))
    choose(s, 0)
    box_move(mocker, Build("skin", 2))
    slot_helpers.scan(s, uid("sun")); slot_helpers.put(s, uid("sun"), 1)     # Player 1: sun on 1
    slot_helpers.scan(s, uid("skin"))                                       # drawn for the box
    assert slot_helpers.put(s, uid("skin"), 3).signal == "refused"
    assert s.message == "Take the skin off village 3: not that: I build skin on village 2"
    slot_helpers.lift(s, uid("skin"), 3)
    assert slot_helpers.put(s, uid("skin"), 2).signal == "your_turn"
    assert s.game.poles[1] == ("skin",)


# --- undo -----------------------------------------------------------------------------------

def test_undo_over_the_box_move_goes_back_to_the_players_move(tmp_path, mocker):
    s = against_box(tmp_path)
    scan(s, "sun"); s.handle(Press("v1"))                       # Player 1: sun on 1
    box_move(mocker, Build("skin", 2))
    scan(s, "skin"); s.handle(Press("v2"))                      # the box: skin on 2
    s.handle(Press("back"))
    assert frame_words(s.frame())[:3] == ["Take back?", "Sun on village 1,", "and my reply"]
    assert s.handle(Press("ok")).signal == "accepted"
    assert band(s) == "Skin off 2 to bag, sun off 1 Player 1: build a piece"   # what to do now, under it
    game = s.game
    assert game.to_move == 0 and game.phase == "action" and game.hands[0]["sun"] == 1
    assert journal(s)[-3:] == [{"undo": True}] * 3
    scan(s, "sun"); assert s.handle(Press("v3")).signal == "your_turn"   # played again


def test_a_journal_that_fails_mid_undo_keeps_the_game_as_the_journal_says(tmp_path, mocker):
    s = against_box(tmp_path)
    scan(s, "sun"); s.handle(Press("v1"))
    box_move(mocker, Build("skin", 2))
    scan(s, "skin"); s.handle(Press("v2"))
    real = s.play.journal.append
    calls = []

    def append(line):
        calls.append(line)
        if len(calls) == 2:
            raise UserError("cannot write the game journal: disk full")
        real(line)

    mocker.patch.object(s.play.journal, "append", side_effect=append)
    s.handle(Press("back"))
    assert s.handle(Press("ok")).signal == "refused"
    assert s.message == "Cannot save the game: 1 of 3 moves taken back"
    kept, _ = read_record((s.data_dir / "current.jsonl").read_text())
    assert kept.history == s.game.history and len(kept.history) == 3   # one move taken back


def test_undo_of_a_draw_for_the_box_takes_back_the_draw_alone(tmp_path):
    s = against_box(tmp_path, level="easy")
    scan(s, "sun"); s.handle(Press("v1"))
    scan(s, "eagle")                                            # a wrong piece drawn for the box
    s.handle(Press("back"))
    assert frame_words(s.frame())[:2] == ["Take back?", "Box drew eagle"]
    s.handle(Press("ok"))
    assert band(s) == "Taken back: put the eagle back in the bag Draw for me, scan it"
    assert s.game.phase == "draw" and s.game.to_move == 1
    assert journal(s)[-1] == {"undo": True} and journal(s)[-2] == {"p": 1, "draw": "eagle"}


def test_undo_when_only_the_box_has_decided_goes_back_to_the_start(tmp_path, mocker):
    s = against_box(tmp_path, first=1)
    box_move(mocker, Build("eagle", 2))
    scan(s, "eagle"); s.handle(Press("v2"))
    s.handle(Press("back"))
    assert "My moves, back to the" in " ".join(frame_words(s.frame()))
    s.handle(Press("ok"))
    assert band(s) == "Eagle off 2 to bag Draw for me, scan it"
    assert s.game.history == () and s.game.to_move == 1


def test_undo_over_a_claim_and_a_tile_turned_up_says_where_each_goes(tmp_path, mocker):
    s = against_box(tmp_path, variant="hidden")
    decides = box_move(mocker, Build("teepee", 2))
    scan(s, "sun"); s.handle(Press("v1"))                       # Player 1: sun on 1
    scan(s, "teepee"); s.handle(Press("v2"))                    # the box: teepee on 2
    scan(s, "eagle"); s.handle(Hold("v1"))                      # Player 1 claims village 1…
    scan(s, "village:height")                                   # …and tile 4 turns up
    decides.return_value = Suggestion(player=1, move=Claim(2), reason="", value=0.5)
    scan(s, "skin"); s.handle(Hold("v2"))                       # the box claims village 2…
    scan(s, "village:sun")                                      # …and tile 5 turns up
    s.handle(Press("back")); s.handle(Press("ok"))              # the tile alone (a wrong scan?)
    assert band(s) == "Taken back: village 5 face down again Turn up village 5"
    s.handle(Press("back")); s.handle(Press("ok"))              # the box's claim: back to Ana's
    # Whole, the tile last, and what to do now under it.
    assert band(s) == "Crests off 2, skin to bag, wings off 1, tile 4 down Player 1: build or claim"
    game = s.game
    assert game.phase == "action" and game.to_move == 0 and game.villages[3] is None
    assert game.hands[0]["eagle"] == 1 and game.owners[0] is None


# --- the journal, resume, the input script ------------------------------------------------

def test_a_resumed_game_goes_on_with_the_same_decision(tmp_path):
    s = against_box(tmp_path)
    scan(s, "sun"); s.handle(Press("v1"))
    scan(s, "chief")
    s.handle(Press("back")); s.handle(Press("back"))            # the long form of its prompt
    said = band(s)
    assert said.startswith(("I build", "I claim"))
    again = make(tmp_path)                                      # the box switched off and on
    again.handle(Press("ok"))                                   # resume
    assert again.game.box == {1: DEFAULT_LEVEL}
    assert band(again).startswith("Game resumed, turn 2. ")      # and what the box asks for
    move = again.flow.box_player.move(again.game)
    assert f" on {move.village}" in band(again)
    again.handle(Press("back")); again.handle(Press("back"))
    assert band(again) == said


@pytest.fixture
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    return tmp_path


def run_script(path: Path, data: Path, capsys) -> list[str]:
    assert main(["run", "--input", str(path), "--display", "text", "--data", str(data)]) == 0
    return [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines()
            if line.startswith("frame ")]


def test_a_whole_game_against_the_box_from_an_input_script(folders, capsys):
    frames = run_script(SCRIPT, folders / "data", capsys)
    record = (folders / "data" / "current.jsonl").read_text()
    game, _ = read_record(record)
    assert game.phase == "over" and game.box == {1: DEFAULT_LEVEL}
    assert frames[-1].startswith(("Box wins", "Player 1 wins"))
    said = " | ".join(frames)
    assert "Draw for me and scan the piece" in said or "Draw for me, scan it" in said
    assert "Not that: I build" in said                          # the wrong scan, refused
    assert "and my reply" in said                               # the undo over its move
    # Every decision of the box in the record is the one its search makes from its seat.
    replay = Wakanda(game.setup_villages, first=game.first, players=game.players, box=game.box)
    for player, move in game.history:
        if player == 1 and not isinstance(move, Draw):
            assert suggest(replay, 1, level=DEFAULT_LEVEL, seed=decision_seed(replay)).move == move
        replay.push(move)
    # score and replay name the box.
    kept = folders / "game.jsonl"
    kept.write_text(record)
    assert main(["score", str(kept), "--json"]) == 0
    assert [p["name"] for p in json.loads(capsys.readouterr().out)["players"]] == ["Player 1", "Box"]
    assert main(["replay", str(kept), "--out", str(folders / "frames")]) == 0
    capsys.readouterr()
    assert (folders / "frames").is_dir() and any((folders / "frames").iterdir())


def test_back_on_the_score_after_the_boxs_last_move_goes_back_to_the_players(folders, capsys):
    # The script's game ends with the box's claim (its last frames say so).
    script = folders / "then_back.txt"
    script.write_text(SCRIPT.read_text() + "press back\npress ok\n")
    frames = run_script(script, folders / "data", capsys)
    game, _ = read_record((folders / "data" / "current.jsonl").read_text())
    assert frames[-2].startswith("Take back? | ") and frames[-2].endswith("my reply | OK yes · BACK no")
    assert game.phase == "action" and game.to_move == 0         # Player 1 plays again


def test_the_script_resumed_halfway_ends_the_same(folders, capsys):
    whole = run_script(SCRIPT, folders / "whole", capsys)
    lines = SCRIPT.read_text().splitlines()
    # Cut right after a draw for the box: the resumed box must decide as before.
    cut = next(i for i, line in enumerate(lines) if i > len(lines) // 2
               and "drawn for the box" in line) + 2
    first, rest = folders / "first.txt", folders / "rest.txt"
    first.write_text("\n".join(lines[:cut]) + "\n")
    rest.write_text("press ok                # resume\n" + "\n".join(lines[cut:]) + "\n")
    run_script(first, folders / "data", capsys)
    frames = run_script(rest, folders / "data", capsys)
    assert any("Game resumed" in frame for frame in frames)
    assert not any("Not that" in frame for frame in frames)     # it asked for the same moves
    assert frames[-1] == whole[-1]
    assert (folders / "data" / "current.jsonl").read_text().splitlines()[-1] == \
        (folders / "whole" / "current.jsonl").read_text().splitlines()[-1]


# --- the record -----------------------------------------------------------------------------

def test_the_record_header_keeps_the_box_and_reads_it_back():
    game = Wakanda(ROW, players=("Ana", "Box"), box={1: "standard"})
    text_ = write_record(game)
    assert json.loads(text_.splitlines()[0])["box"] == {"1": "standard"}
    assert read_record(text_)[0].box == {1: "standard"}
    assert "box" not in json.loads(write_record(Wakanda(ROW)).splitlines()[0])


@pytest.mark.parametrize("box", [{"2": "easy"}, {"1": "hardest"}, ["easy"], {"1": 3}, {"0": None}])
def test_a_bad_box_in_a_header_is_one_line(box):
    header = {"game": "wakanda", "players": ["Ana", "Box"], "villages": ROW, "first": 0, "box": box}
    with pytest.raises(RecordError) as found:
        read_record(json.dumps(header) + "\n")
    assert str(found.value).startswith('line 1: box must map a seat "0" or "1" to a level (easy, ')


def test_refusals_of_the_box_have_words_in_every_language():
    refusal = wakanda_refusal("box_build", {"piece": "sun", "n": 3})
    assert refusal == Refusal("box_build", {"piece": "sun", "n": 3}, None, "wakanda")
    assert text.refusal_text(refusal) == "Not that: I build sun on village 3"
    assert text.refusal_text(refusal, "bg") == "Не това: строя слънце на село 3"
    claim = wakanda_refusal("box_claim", {"n": 2, "headdress": "crests"})
    assert text.refusal_text(claim, "bg") == "Не това: вземам село 2 с гребени"
    for lang in LANGUAGES:
        assert in_text("sun", lang) in text.refusal_text(refusal, lang) and "3" in text.refusal_text(refusal, lang)
        assert in_text("crests", lang) in text.refusal_text(claim, lang)


# --- helpers ----------------------------------------------------------------------------------

def _record_until_a_pass() -> Wakanda:
    """A position where the player to move can only pass (R3): a random game where empty
    claims are never allowed (R1), up to its first pass."""
    whole = play_game(18, bots=(random_bot, random_bot), empty_claim="never")
    game = Wakanda(whole.setup_villages, first=whole.first, players=whole.players,
                   empty_claim="never")
    for _, move in whole.history:
        if isinstance(move, Pass):
            return game
        game.push(move)
    raise AssertionError("that game has no pass")


def _with_box(header: str, box: dict) -> str:
    line = json.loads(header)
    line["box"] = box
    return json.dumps(line) + "\n"


# --- the screens ----------------------------------------------------------------------------

def test_the_screens_of_a_game_against_the_box(tmp_path, mocker, golden):
    s = make(tmp_path)
    choose(s, "wakanda")
    s.handle(Press("down")); s.handle(Press("down"))
    golden("box_setup_variant", s.frame())                      # the box offered with a variant
    choose(s, ("open", BOX))
    golden("box_setup_level", s.frame())                        # how strong it plays
    choose(s, DEFAULT_LEVEL)
    for village in ROW:
        scan(s, f"village:{village}")
    choose(s, 0)
    box_move(mocker, Build("chief", 3))
    scan(s, "sun"); s.handle(Press("v1"))
    golden("box_turn_draw", s.frame())                          # draw for the box
    scan(s, "chief")
    s.handle(Press("back")); s.handle(Press("back"))
    golden("box_turn_build", s.frame())                         # its move, to place
    scan(s, "eagle")
    golden("box_turn_refused", s.frame())                       # anything else refused
    scan(s, "chief"); s.handle(Press("v3"))
    s.handle(Press("back"))
    golden("box_undo", s.frame())                               # undo over its move
