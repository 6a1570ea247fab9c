"""The other player's hand in Wakanda's top bar reads at a glance (issue: a family's evening
without friction, item 7: "J2:1" said nothing): their name, a hand mark, the count, as Totem
Wars' board marks a hand; the phase word keeps its place beside it in every language."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from companion.events import Wait
from companion.games.wakanda.screens import HAND
from companion.games.wakanda.words import t as wk_t
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.ui.canvas import frame_words
from companion.ui.text import speaking
from companion.ui.text import t as shared_t
from companion.words import LANGUAGES
from hardware.script_input import ScriptInput

DATA = Path(__file__).parent / "data"


def frames(tmp_path: Path, script: str, lang: str) -> list[tuple[Image.Image, list[str]]]:
    """Every frame the box shows for the input ``script`` in ``lang``, with its words."""
    with speaking(lang):
        box = Session(tmp_path, TagRegistry(tmp_path / "tags.json"))
        shown = [box.frame()]
        for event in ScriptInput(DATA / script).events():
            if not isinstance(event, Wait):
                shown.append(box.handle(event).frame)
        return [(image, frame_words(image)) for image in shown]


def hand_marks(image: Image.Image) -> list[int]:
    """The columns where the hand mark stands in the top bar."""
    top = image.crop((0, 2, image.width, 2 + HAND.height))
    mark = list(HAND.getdata())
    return [x for x in range(image.width - HAND.width + 1)
            if list(top.crop((x, 0, x + HAND.width, HAND.height)).getdata()) == mark]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_top_bar_shows_the_other_hand_as_a_hand_mark_and_a_count(tmp_path, lang):
    shown = frames(tmp_path, "first_game_wakanda.txt", lang)
    other = shared_t("setup.player", lang, n=2)
    short = other[0] + "2"                                       # "J2", "S2", "И2"
    draw = wk_t("phase.draw", lang)
    boards = [(image, words) for image, words in shown if words and words[0].endswith(f"{short} 0")]
    assert boards                                                 # Player 1's turns, Player 2's hand empty
    for image, words in boards:
        assert ":" not in words[0].split(" ")[-2]                 # "J2 0", never "J2:0"
        marks = hand_marks(image)
        assert len(marks) == 1 and marks[0] > 64                  # one hand, at the right of the bar
    # The phase word still has its place beside the hands.
    assert any(f" {draw} {short} 0" in words[0] for _, words in boards)
