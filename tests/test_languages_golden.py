"""Frames in three of the box's eight languages (README, docs/screens.md): the same screens
as in English, every word from the language's catalogues, fitting the same places."""

from __future__ import annotations

import pytest

from companion.games.wakanda.screens import board_screen
from companion.games.wakanda.words import piece_name, refusal
from companion.games.wakanda.words import t as wakanda_t
from companion.ui import text
from tests.conftest import WORKED_EXAMPLE, play


def _board_done(lang: str):
    game = play(" ".join(WORKED_EXAMPLE.split()[:25]))
    done = wakanda_t("done.built", lang, piece=piece_name("teepee", lang), n=5)
    prompt = wakanda_t("prompt.act.short", lang, name="Ana")
    return board_screen(game, done=done, message=prompt)


def _board_refused(lang: str):
    game = play(" ".join(WORKED_EXAMPLE.split()[:25]))
    return board_screen(game, message=refusal("not_open", {"village": 6}, "W4"), refused=True)


FRAMES = {"board_done": _board_done, "board_refused": _board_refused}


@pytest.mark.parametrize("lang", ["fr", "de", "pt"])
@pytest.mark.parametrize("frame", sorted(FRAMES))
def test_a_frame_in_another_language_matches_its_golden_image(frame, lang, golden):
    with text.speaking(lang):  # the refusal is drawn in the language spoken
        golden(f"lang_{frame}_{lang}", FRAMES[frame](lang))
