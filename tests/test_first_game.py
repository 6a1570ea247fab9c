"""A first game with the box, read as the players read it (``--display text``): every frame
that waits for a player says who does what, every accepted action is confirmed, and every
refusal is shown whole with its rule (issue: the box guides the table)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.cli import main

DATA = Path(__file__).parent / "data"
PLAYERS = ("Player 1", "Player 2")


@pytest.fixture
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    return tmp_path


def frames_of(script: str, folders, capsys) -> list[list[str]]:
    """The words of each frame the box showed for ``script``: a list of lines per frame."""
    assert main(["run", "--input", str(DATA / script), "--display", "text",
                 "--data", str(folders / "data")]) == 0
    out = capsys.readouterr().out
    return [line.split(": ", 1)[1].split(" | ") for line in out.splitlines() if line.startswith("frame ")]


def is_board(frame: list[str]) -> bool:
    """A Wakanda board: its header names the player to move and the phase."""
    return bool(re.match(r"^\S+ (draw|play|reveal) ", frame[0] + " "))


def test_a_first_game_of_wakanda_guides_the_players_at_every_step(folders, capsys):
    frames = frames_of("first_game_wakanda.txt", folders, capsys)
    boards = [frame for frame in frames if is_board(frame)]
    assert len(boards) > 15
    for frame in boards:   # a refusal or an undo's note too: what to do now, under it
        band = " ".join(frame[1:])
        asks = any(f"{name}:" in band for name in PLAYERS) or band.startswith(("Build the", "Claim with"))
        assert asks, f"nothing asked: {frame}"
    bands = [" ".join(frame[1:]) for frame in boards]
    above = [" ".join(frame[1:-1]) for frame in boards]   # a note, over the prompt's line
    # Every accepted action is confirmed on the next frame, above the next step.
    for done in ("Player 1 drew eagle", "Eagle on village 1", "Player 2 drew sun",
                 "Sun on village 2", "Player 1 drew chief", "Chief on village 1",
                 "Turn tile 4 straight"):   # the open variant's claim: the next tile opens (W4 B)
        assert any(band.startswith(done) for band in bands), done
    # Refusals whole, the rule last: never cut.
    refusals = [band for band in above if re.search(r" — W\d+$", band)]
    assert "Village 5 is not open yet — W4" in refusals
    assert "Crests are Player 2's; it is Player 1's turn — W4" in refusals
    assert not any("…" in band for band in refusals)
    # The undo says what to do on the table; the status page and the why-pages are a press away.
    assert "Taken back: put the sun back in the bag" in above
    assert any(frame[0] == "Status turn 3" for frame in frames)
    assert any(frame[0].startswith("W4 ") for frame in frames)


def is_placement(frame: list[str]) -> bool:
    """A Totem Wars round board: its header names the player to move and the round."""
    return bool(re.match(r"^.+ Round \d+$", frame[0])) and not frame[0].startswith("Status")


def test_a_first_round_of_totem_wars_guides_the_players_at_every_step(folders, capsys):
    frames = frames_of("first_game_totem_wars.txt", folders, capsys)
    totems = [frame for frame in frames if frame[0].startswith(("Lay your totems", "Deal 5 each (T2)"))]
    assert [frame[-2:] for frame in totems] == [["Player 2: lay your totem", "and scan it (T2)"],
                                                ["Player 1: lay your totem", "and scan it (T2)"]]
    assert totems[0][0] == "Deal 5 each (T2)"          # the deal comes first (T2)
    assert any("from Player 2 (T2), then" in frame for frame in frames)      # the deal reminder, names whole
    boards = [frame for frame in frames if is_placement(frame)]
    for frame in boards:
        band = " ".join(frame[-2:])
        asks = any(f"{name}:" in band for name in PLAYERS) or "scanned · OK to place" in band
        assert asks, f"nothing asked: {frame}"   # under a refusal too
        assert not any(row.startswith(("Playe…", "Player…")) for row in frame)   # names kept apart
    bands = [" ".join(frame[-3:]) for frame in boards]
    assert any("Player 2 placed 2 cards Player 1: place 2+" in band for band in bands)
    assert any("Raised to 3 (T5) Player 2: answer 1 card" in band for band in bands)
    assert any(band.endswith("Place at least 2 cards, the level of this round — T5 1 scanned · OK to place")
               for band in (" ".join(frame[-4:]) for frame in boards))
    assert any(frame[0] == "Status Round 1" for frame in frames)
    assert any(frame[0].startswith("Round 1 1/") for frame in frames)            # the result pages
