"""The players' words: the shared and the games' catalogues, and the box's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import catalogues
from companion.games.wakanda import words as wakanda
from companion.ui import text
from companion.words import LANGUAGES, Catalogue


def test_english_by_default_with_fields_filled_in():
    assert wakanda.t("scan_tile", n=3) == "Scan village tile 3"
    assert text.t("wins", name="Ana") == "Ana wins"


def test_bulgarian_is_bundled():
    assert wakanda.t("scan_tile", lang="bg", n=3) == "Сканирай плочка 3"
    with text.speaking("bg"):
        assert text.language() == "bg"
        assert wakanda.piece_name("eagle") == "Орел"
        assert wakanda.tile_label("sun") == "СЛЪ"
    assert text.language() == "en" and wakanda.piece_name("eagle") == "Eagle"   # only within


def test_every_language_the_box_speaks_can_be_chosen():
    assert text.languages() == tuple(LANGUAGES)
    assert LANGUAGES[:8] == ("en", "fr", "de", "es", "it", "nl", "pt", "bg")
    for lang in LANGUAGES:
        with text.speaking(lang):
            assert text.language() == lang
            assert text.t("wins", name="Ana") == text.t("wins", lang, name="Ana")
            assert "Ana" in text.t("wins", name="Ana")


def test_a_game_key_is_not_a_shared_word():
    with pytest.raises(KeyError):
        text.t("scan_tile", n=3)


def _compiled(folder: Path, domain: str, lang: str, messages: dict[str, tuple[str, str]]) -> None:
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    catalog = Catalog(locale=lang, domain=domain)
    for key, (english, words) in messages.items():
        catalog.add(english, words, context=key)
    path = folder / lang / "LC_MESSAGES" / f"{domain}.mo"
    path.parent.mkdir(parents=True)
    with path.open("wb") as fp:
        write_mo(fp, catalog)


def test_a_key_a_language_lacks_falls_back_to_english(tmp_path):
    _compiled(tmp_path, "test_fallback", "en", {"wins": ("{name} wins", "{name} wins"),
                                                "why.higher": ("Higher total (W9)", "Higher total (W9)")})
    _compiled(tmp_path, "test_fallback", "bg", {"wins": ("{name} wins", "{name} печели")})
    words = Catalogue("test_fallback", tmp_path)
    assert words.text("wins", "bg", name="Ana") == "Ana печели"
    assert words.text("why.higher", "bg") == "Higher total (W9)"
    assert words.text("why.higher", "fr") == "Higher total (W9)"   # no catalogue at all


def test_an_unknown_language_is_refused_with_the_known_ones():
    with pytest.raises(ValueError, match="en, fr, de, es, it, nl, pt, bg"):
        with text.speaking("tlh"):
            pass
    assert text.language() == "en"


def test_every_piece_and_village_has_a_name_and_a_tile_label_of_three_letters():
    from companion.games.wakanda.rules import PIECES, VILLAGES

    for lang in LANGUAGES:
        for name in set(PIECES) | set(VILLAGES):
            assert wakanda.piece_name(name, lang)
            assert wakanda.in_text(name, lang)
            assert len(wakanda.tile_label(name, lang)) == 3, (lang, name)
    assert wakanda.tile_label(None) == "?"


def test_every_language_translates_only_keys_english_has():
    from babel.messages.pofile import read_po

    for po in catalogues.po_files():
        english = po.parents[2] / "en" / "LC_MESSAGES" / po.name
        with po.open("rb") as a, english.open("rb") as b:
            keys = {m.context for m in read_po(a) if m.id}
            want = {m.context for m in read_po(b) if m.id}
        assert keys <= want, po
