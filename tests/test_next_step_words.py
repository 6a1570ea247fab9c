"""The box says what to do next at every step of a first game, read as the players read it
(``run --input SCRIPT --display text``): the set-up steps at the table (T2, W2, W10, W4 B),
prompts with a verb, never a move the rules refuse (W6), small words whole (issue: a first
game at the table without friction)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.engine import Refusal
from companion.games.totem_wars.words import t as tw_t
from companion.games.wakanda.words import t as wk_t
from companion.ui.screens import prompt_line
from companion.ui.text import refusal_text
from companion.words import LANGUAGES

DATA = Path(__file__).parent / "data"

#: A Wakanda game of Ana and Ben (the open variant): Ben to draw, his three headdresses on
#: the table (W6).
NO_HEADDRESS = [
    {"game": "wakanda", "players": ["Ana", "Ben"],
     "villages": ["teepee", "eagle", "skin", "variety", "sun", "tomahawk"], "first": 1},
    {"p": 1, "draw": "eagle"}, {"p": 1, "build": "eagle", "village": 1},
    {"p": 0, "draw": "tomahawk"}, {"p": 0, "build": "tomahawk", "village": 1},
    {"p": 1, "draw": "chief"}, {"p": 1, "claim": 1},
    {"p": 0, "draw": "sun"}, {"p": 0, "build": "sun", "village": 3},
    {"p": 1, "draw": "teepee"}, {"p": 1, "claim": 3},
    {"p": 0, "draw": "skin"}, {"p": 0, "build": "skin", "village": 2},
    {"p": 1, "draw": "sun"}, {"p": 1, "claim": 2},
    {"p": 0, "draw": "teepee"}, {"p": 0, "build": "teepee", "village": 4},
]


@pytest.fixture
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    return tmp_path


def frames_of(script: str, folders, capsys, name: str = "script.txt") -> list[str]:
    """The words of each frame the box showed for the input ``script`` (its text)."""
    path = folders / name
    path.write_text(script)
    assert main(["run", "--input", str(path), "--display", "text", "--data", str(folders / "data")]) == 0
    out = capsys.readouterr().out
    return [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("frame ")]


ROW = "".join(f"tag village:{v}\n" for v in ("teepee", "eagle", "chief", "variety", "sun", "tomahawk"))


def test_the_tile_scan_says_how_to_lay_the_row_and_what_a_piece_is(folders, capsys):
    frames = frames_of("press ok\npress ok\ntag village:teepee\ntag eagle\ntag crests\n", folders, capsys)
    assert frames[2].endswith("| Lay tiles 4–6 turned")            # open: 4-6 turned 90° (W2)
    assert frames[3].startswith("Scan tile 2 of 6") and "Lay tiles" not in frames[3]
    assert frames[4].endswith("| Eagle: scan tile 2")               # what it is, what is wanted
    assert frames[5].endswith("| Crests: scan tile 2")


def test_the_hidden_tile_scan_says_to_lay_4_to_6_face_down(folders, capsys):
    frames = frames_of("press ok\npress down\npress ok\n", folders, capsys)
    assert frames[-1].startswith("Scan tile 1 of 3") and frames[-1].endswith("| Lay tiles 4–6 face down")


def test_the_open_variant_says_to_turn_the_next_tile_straight_after_a_claim(folders, capsys):
    script = (f"press ok\npress ok\n{ROW}press ok\n"          # Player 1 starts
              "tag eagle\npress v1\ntag sun\npress v2\n"    # Player 2 builds the sun on 2
              "tag chief\npress v1\n"                       # Player 1 builds on 1
              "tag teepee\ntag crests\npress v2\n")         # Player 2 claims 2 (W4 B)
    frames = frames_of(script, folders, capsys)
    assert frames[-1].endswith("| Turn tile 4 straight | Player 1: draw and scan")


CLAIM_OPENING_4 = (f"press ok\npress ok\n{ROW}press ok\n"          # Player 1 starts
                   "tag eagle\npress v1\ntag sun\npress v2\n"    # Player 2 builds the sun on 2
                   "tag chief\npress v1\n"                       # Player 1 builds on 1
                   "tag teepee\ntag crests\npress v2\n")         # Player 2 claims 2: tile 4 opens


def bands(frames: list[str]) -> list[list[str]]:
    """The band's lines of each board frame (its header left out)."""
    return [frame.split(" | ")[1:] for frame in frames]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_undone_claim_that_opened_a_tile_says_to_turn_it_back(folders, capsys, lang):
    """Open variant (W4 B): the claim said to turn tile 4 straight; its undo says to turn it
    back, and the box agrees: village 4 is refused as not open, the prompt under it."""
    (folders / "script.txt").write_text(CLAIM_OPENING_4 + "press back\npress ok\npress v4\n")
    assert main(["--language", lang, "run", "--input", str(folders / "script.txt"), "--display", "text",
                 "--data", str(folders / "data")]) == 0
    frames = [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines() if line.startswith("frame ")]
    undone, refused = bands(frames[-2:])
    players = [wk_t("setup.player", lang, n=n) for n in (1, 2)]
    # A long name is shortened on the prompt's one line, never its words.
    prompt = prompt_line(wk_t("prompt.act.short", lang, name="{name}"), players[1], players, short=True)
    assert " ".join(undone[:-1]) == wk_t("undo.headdress_off.turn_back", lang, n=2, m=4)
    assert undone[-1] == refused[-1] == prompt        # what to do now stays on the bottom line
    assert " ".join(refused[:-1]) == refusal_text(Refusal("not_open", {"village": 4}, "W4", "wakanda"), lang)
    if lang == "en":
        assert undone == ["Taken back: the", "headdress off village 2;", "turn tile 4 back",
                          "Player 2: build or claim"]


def test_a_claim_that_opened_no_tile_is_undone_with_the_headdress_alone(folders, capsys):
    """The hidden variant turns a tile up as a move of its own (W10): a claim's undo takes
    the headdress off, nothing more."""
    script = ("press ok\npress down\npress ok\n"
              + "".join(f"tag village:{v}\n" for v in ("teepee", "eagle", "chief")) + "press ok\n"
              "tag eagle\npress v1\ntag sun\npress v2\ntag chief\npress v1\n"
              "tag teepee\ntag crests\npress v2\npress back\npress ok\n")
    frames = frames_of(script, folders, capsys)
    assert bands(frames)[-1] == ["Taken back: the", "headdress off village 2", "Player 2: build or claim"]


def test_a_refusal_keeps_what_to_do_now_on_the_bottom_line(folders, capsys):
    frames = frames_of(CLAIM_OPENING_4 + "press v5\n", folders, capsys)
    assert bands(frames)[-1] == ["Draw first: the bag is", "not empty — W4", "Player 1: draw and scan"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_placement_taken_back_says_which_cards_go_back_to_the_hand(folders, capsys, lang):
    assert main(["--language", lang, "run", "--input", str(DATA / "totem_wars_undo.txt"), "--display", "text",
                 "--data", str(folders / "data")]) == 0
    frames = [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines() if line.startswith("frame ")]
    band = frames[-1].split(" | ")
    player = tw_t("setup.player", lang, n=2)
    animals = ", ".join(tw_t(f"animal.{animal}.in_text", lang) for animal in ("seal", "whale"))
    said = tw_t("tw.undo.to_hand", lang, name=player, list=animals)
    assert " ".join(band[-4:-1]) == said or " ".join(band[-3:-1]) == said
    players = [tw_t("setup.player", lang, n=n) for n in (1, 2)]
    assert band[-1] == prompt_line(tw_t("tw.prompt.start.short", lang, name="{name}", n=5), player, players,
                                   short=True)   # what to do now, under it
    if lang == "en":
        assert band[-4:] == ["Taken back: Player 2", "takes seal, whale back", "in hand", "Player 2: place 1 to 5"]


def test_a_player_with_no_headdress_left_is_told_to_build_never_to_claim(folders, capsys):
    data = folders / "data"
    data.mkdir()
    (data / "current.jsonl").write_text("".join(json.dumps(line) + "\n" for line in NO_HEADDRESS))
    frames = frames_of("press ok\ntag skin\npress down\npress ok\n", folders, capsys)   # resume, Ben draws
    assert any(frame.endswith("| Ben drew skin | Ben: build a piece") for frame in frames)
    assert frames[-1].endswith("| Ben: build a piece on a | village")
    assert not any("claim" in frame for frame in frames[1:])        # W6: nothing left to claim with


def test_a_totem_wars_game_says_to_deal_5_each_before_the_totems(folders, capsys):
    frames = frames_of((DATA / "first_game_totem_wars.txt").read_text(), folders, capsys)
    first = next(i for i, frame in enumerate(frames) if frame.startswith("Who deals?"))
    assert frames[first + 1].startswith("Deal 5 each (T2) | Player 2 scan now")
    assert not any(frame.startswith("Deal 5 each") for frame in frames[first + 2:])   # once, first
    # Under the confirmation of a placement, what to place: a verb.
    assert any(frame.endswith("| Player 2 placed 2 cards | Player 1: place 2+") for frame in frames)
    # The deal reminder keeps a name that fits whole.
    assert any("| from Player 2 (T2), then | OK |" in frame for frame in frames)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_all_in_follows_the_plural_of_its_count(lang):
    one, three = (tw_t("tw.prompt.all_in", lang, name="Ana", n=n) for n in (1, 3))
    assert one != three and "3" in three
    if lang == "en":
        assert (one, three) == ("Ana: place your 1 card, then OK", "Ana: place all 3 cards you hold, then OK")
    assert tw_t("tw.prompt.all_in.short", "en", name="Ana", n=1) == "Ana: place your 1 card"


def test_the_readme_lists_every_display_the_command_line_takes():
    from companion.config import DISPLAY_KINDS

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    listed = readme[readme.index("Common options:"):].split("`--display ", 1)[1].split("`", 1)[0]
    assert set(listed.split("|")) == set(DISPLAY_KINDS) - {"auto"}   # auto: the default, not a choice


# --- R2: a due declaration is due -----------------------------------------------------------

R2_WAR = (DATA / "totem_wars_r2_example.jsonl").read_text()   # Ana's crocodile: water or land
NEXT_PLAY = '{"p": 1, "play": ["eskimos/orca"]}\n'


def score(path: Path, capsys) -> tuple[int, str, str]:
    status = main(["score", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_record_of_this_version_refuses_a_play_while_a_declaration_is_due(tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    record.write_text(R2_WAR.replace('{"game":"totem-wars",', '{"game":"totem-wars","version":2,', 1) + NEXT_PLAY)
    status, out, err = score(record, capsys)
    assert status == 1 and out == ""
    assert err.strip() == f"{record}: line 5: Ana's habitat declaration is due before the next play (p 0, R2)"


def test_an_older_record_reads_its_undeclared_war_by_points_and_never_says_declared(tmp_path, capsys):
    record = tmp_path / "old.jsonl"
    record.write_text(R2_WAR + NEXT_PLAY)
    status, out, err = score(record, capsys)
    assert status == 0 and "warning: line 5: a war without the habitat declarations" in err
    assert "  Not declared (R2): Ana read as water" in out and "Declared" not in out


def test_a_declared_war_says_declared(tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    record.write_text(R2_WAR.replace('{"game":"totem-wars",', '{"game":"totem-wars","version":2,', 1)
                      + '{"p": 0, "habitat": "land"}\n')
    status, out, _ = score(record, capsys)
    assert status == 0 and "  Declared (R2): Ana land" in out and "Not declared" not in out


@pytest.mark.parametrize("version", ["3", "0", '"2"', "true"])
def test_a_record_format_version_the_box_does_not_know_is_one_line(tmp_path, capsys, version):
    record = tmp_path / "game.jsonl"
    record.write_text(R2_WAR.replace('{"game":"totem-wars",', f'{{"game":"totem-wars","version":{version},', 1))
    status, _, err = score(record, capsys)
    assert status == 1 and "line 1: version must be a record format version from 1 to 2" in err
    assert len(err.strip().splitlines()) == 1


def test_the_box_writes_the_format_version_in_every_new_totem_wars_record(folders, capsys):
    frames_of((DATA / "first_game_totem_wars.txt").read_text(), folders, capsys)
    kept = [*(folders / "data").glob("current.jsonl"), *(folders / "data" / "games").glob("*.jsonl")]
    assert kept and all(json.loads(path.read_text().splitlines()[0])["version"] == 2 for path in kept)


# --- every frame says what to do next or how to go on ---------------------------------------

#: A button that goes on (OK, ▼, ▲▼, BACK, hold …) or a verb of what to do at the table.
GOES_ON = re.compile(r"OK|▼|▲|BACK|\bhold\b|\b(?i:scan|place|draw|build|claim|answer|lay|deal|deals|turn|"
                     r"press|choose|pass|put|take|reveal|raise)\b")


@pytest.mark.parametrize("command", [
    *(["demo", "--game", game, "--seed", str(seed)] for game in ("wakanda", "totem-wars") for seed in (1, 2, 3)),
    *(["tutorial", "--game", game, "--demo"] for game in ("wakanda", "totem-wars")),
], ids=lambda command: "-".join(command[1:]))
def test_every_frame_of_a_demo_or_a_lesson_says_what_to_do_or_how_to_go_on(folders, capsys, command):
    assert main([*command, "--display", "text", "--data", str(folders / "data")]) == 0
    frames = [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines() if line.startswith("frame ")]
    assert len(frames) > 50
    assert [frame for frame in frames if not GOES_ON.search(frame)] == []
