"""The big game's page at the end of a Totem Wars replay (T16), through ``replay``.

The record does not hold the big game's totals. With a data folder that still keeps this
game's points, the page gives the totals as they stood after it (even when games were
counted since); else it shows this game's own points and says why the totals are not
there: kept on the box that played it, or the folder's file cannot be read.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from companion.cli import main
from companion.games.totem_wars import read_record
from companion.games.totem_wars.big_game_store import BigGame, count_game, load_big_game, save_big_game
from companion.games.totem_wars.match import Match
from companion.games.totem_wars.replay import frames
from companion.games.totem_wars.round_screens import end_pages
from companion.games.totem_wars.simulation import play_game
from companion.ui.canvas import ELLIPSIS, frame_words
from companion.words import LANGUAGES

RECORD = Path(__file__).parent / "data" / "totem_wars_finished.jsonl"
#: Three players, dealt by Ben; Ana 5, Ben 4, Cleo 5 (T15).
TEXT = RECORD.read_text()
GAME = read_record(TEXT)[0]


def _replayed(tmp_path: Path, data: Path | None = None) -> tuple[Image.Image, str]:
    """The last frame ``replay`` wrote (as the PNG on disk) and its words, one line each."""
    out = tmp_path / "frames"
    args = ["replay", str(RECORD), "--out", str(out)] + (["--data", str(data)] if data else [])
    assert main(args) == 0
    image = list(frames(TEXT, data))[-1][0]
    with Image.open(sorted(out.glob("*.png"))[-1]) as written:
        assert written.convert("1").tobytes() == image.tobytes()
    return image, "\n".join(frame_words(image))


def _folder(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    return data


def test_without_a_data_folder_the_page_gives_this_games_points_and_where_the_totals_are(tmp_path, capsys):
    image, words = _replayed(tmp_path)
    assert words.splitlines()[0].startswith("Big game to 42")
    assert "This game's points (T16)" in words
    assert {"Ana 5", "Ben 4", "Cleo 5"} <= {" ".join(line.split()) for line in words.splitlines()}
    assert "Totals are kept on the box that played it" in " ".join(words.splitlines())
    assert "data folder" not in words and "unavailable" not in words
    assert image.tobytes() == end_pages(GAME, None, elsewhere=True)[-1].tobytes()


def test_a_data_folder_that_counted_the_game_last_gives_its_totals(tmp_path, capsys):
    data = _folder(tmp_path)
    big = count_game(data, GAME)
    image, words = _replayed(tmp_path, data)
    assert image.tobytes() == end_pages(GAME, big.match)[-1].tobytes()
    assert "Next: Cleo deals (T16)" in words and "This game" not in words


def test_a_data_folder_that_counted_games_since_gives_the_totals_as_of_this_game(tmp_path, capsys):
    data = _folder(tmp_path)
    first = count_game(data, GAME)
    later, _ = play_game(5, 3, dealer=first.match.dealer)   # the next small game (T16)
    assert later.players == GAME.players
    now = count_game(data, later)
    assert len(now.match.games) == 2
    image, words = _replayed(tmp_path, data)
    assert image.tobytes() == end_pages(GAME, first.match)[-1].tobytes()
    assert "Next: Cleo deals (T16)" in words and "This game" not in words


@pytest.mark.parametrize("store", [
    "another big game",        # a new big game started since: this game's points are gone
    "points not in step",      # points entered without a record: which game is which is unknown
    "other points",            # the fingerprint's game does not give this game's points
])
def test_a_data_folder_without_this_games_totals_gives_its_own_points(tmp_path, capsys, store):
    data = _folder(tmp_path)
    mine = count_game(data, GAME)
    key = mine.counted[0]
    stored = {
        "another big game": BigGame(Match(GAME.players, 2).add_points((3, 3, 3)), ("0123456789abcdef",)),
        "points not in step": BigGame(mine.match.add_points((2, 2, 2)), (key,)),
        "other points": BigGame(Match(GAME.players, 1).add_points((6, 6, 6)), (key,)),
    }[store]
    save_big_game(data, stored)
    image, words = _replayed(tmp_path, data)
    assert image.tobytes() == end_pages(GAME, None, elsewhere=True)[-1].tobytes()
    assert "This game's points (T16)" in words and "data folder" not in words
    assert load_big_game(data) == stored   # replaying never writes the big game


@pytest.mark.parametrize("damage", ["{", '{"match": 1}', "\xff", "folder"])
def test_a_damaged_big_game_file_is_named_on_the_page_with_this_games_points(tmp_path, capsys, damage):
    data = _folder(tmp_path)
    path = data / "big_game.json"
    if damage == "folder":
        path.mkdir()
    else:
        path.write_bytes(damage.encode("latin-1"))
    image, words = _replayed(tmp_path, data)
    assert "big_game.json damaged: totals unknown" in " ".join(words.splitlines())
    assert "This game's points (T16)" in words and "box that played" not in words
    assert image.tobytes() == end_pages(GAME, None)[-1].tobytes()
    assert "Traceback" not in capsys.readouterr().err


def test_the_page_of_this_games_points(golden):
    golden("tw_end_big_game_this_game", end_pages(GAME, None, elsewhere=True)[-1])


LONG = ("Maximiliana-Jo", "Bartholomew-Li", "Konstantinos-P", "Anastasia-Rose")


def _with_names(record: str, names: tuple[str, ...]) -> str:
    head, rest = record.split("\n", 1)
    header = json.loads(head)
    header["players"] = list(names[:len(header["players"])])
    return json.dumps(header) + "\n" + rest


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_this_games_points_fit_the_screen_in_every_language(speak, lang, players):
    """Both reasons and the heading whole (no ellipsis), every player's points on the page,
    with the longest names, in every language."""
    speak(lang)
    game = read_record(_with_names(play_game(7, players)[1], LONG))[0]
    for elsewhere in (True, False):
        words = frame_words(end_pages(game, None, elsewhere)[-1])
        assert [line for line in words if ELLIPSIS in line and not any(name[:4] in line for name in LONG)] == []
        points = [word for line in words[1:] for word in line.split() if word.isdigit()]
        assert sorted(map(int, points[-players:])) == sorted(game.all_points()), words
