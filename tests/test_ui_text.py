"""The players' words and the translation hook."""

from __future__ import annotations

import pytest

from companion.ui import text


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    text.set_language("en")


def test_english_by_default_with_fields_filled_in():
    assert text.t("scan_tile", n=3) == "Scan village tile 3"
    assert text.t("wins", name="Ana") == "Ana wins"


def test_bulgarian_is_bundled():
    assert text.t("scan_tile", lang="bg", n=3) == "Сканирай плочка 3"
    text.set_language("bg")
    assert text.language() == "bg"
    assert text.piece_name("eagle") == "Орел"
    assert text.tile_label("sun") == "СЛЪ"


def test_a_key_a_language_lacks_falls_back_to_english():
    text.set_language("bg")
    assert text.t("why.higher") == "Higher total (W9)"


def test_add_language_extends_and_can_be_chosen():
    text.add_language("xx", {"wins": "{name} gana"})
    text.set_language("xx")
    assert text.t("wins", name="Ana") == "Ana gana"
    assert text.t("score.total") == "Total"


def test_an_unknown_language_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="bg, en"):
        text.set_language("tlh")


def test_every_piece_and_village_has_a_name_and_a_tile_label_of_three_letters():
    from companion.games.wakanda.rules import PIECES, VILLAGES

    for lang in ("en", "bg"):
        for name in set(PIECES) | set(VILLAGES):
            assert text.piece_name(name, lang)
            assert len(text.tile_label(name, lang)) == 3
    assert text.tile_label(None) == "?"


def test_bulgarian_translates_only_keys_english_has():
    assert set(text.BULGARIAN) <= set(text.ENGLISH)
