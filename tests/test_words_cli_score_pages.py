"""The OLED's score pages in French, both games (docs/screens.md shows them beside the
phone's French score page): every word from the catalogues, as ``replay RECORD --language
fr`` draws them."""

from __future__ import annotations

from pathlib import Path

from companion.games import game_entry
from companion.games.wakanda.record import read_record
from companion.games.wakanda.score_screens import score_pages
from companion.ui.text import speaking

DATA = Path(__file__).parent / "data"


def test_the_french_wakanda_score_pages_match_their_golden_images(golden):
    game, _ = read_record((DATA / "wakanda_worked_example.jsonl").read_text(encoding="utf-8"))
    with speaking("fr"):
        pages = score_pages(game)
    assert len(pages) == 3                                    # the result, then each player's page
    for number, page in enumerate(pages, start=1):
        golden(f"score_fr_wakanda_{number}", page)


def test_the_french_totem_wars_score_pages_match_their_golden_images(golden, tmp_path):
    text = (DATA / "totem_wars_finished.jsonl").read_text(encoding="utf-8")
    with speaking("fr"):
        frames = [image for image, _ in game_entry("totem-wars").table.frames(text, tmp_path)]
    golden("score_fr_totem_wars_round", frames[13])           # round 3's war and who takes (T10, T11)
    golden("score_fr_totem_wars_1", frames[-3])               # the final result (T15)
    golden("score_fr_totem_wars_2", frames[-2])               # each player's totem and tribe (T15)
