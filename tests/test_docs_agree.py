"""Words for users that describe the program say what it does."""

import re
from pathlib import Path

from companion import catalogues
from companion.games import GAMES
from companion.words import SHARED

ROOT = Path(__file__).resolve().parents[1]


def test_the_example_configuration_says_what_bulgarian_covers():
    example = (ROOT / "hardware" / "config.example.toml").read_text(encoding="utf-8")
    comment = example[:example.index("\nlanguage =")].rsplit("\n\n", 1)[-1]
    # What it says is translated is: the set-ups and Totem Wars' screens (names, fields and
    # button labels alone need no words of their own).
    assert "set-ups" in comment and "both games" in comment and "English for now" not in comment
    said = [(words, key) for words in (SHARED, *(entry.words for entry in GAMES.values()))
            for key in words.keys() if key.startswith(("setup.", "tw."))]
    assert len(said) > 100
    # Bulgarian has words of its own for each, but for those made of fields alone.
    same = {key for words, key in said
            if all(words.template(key, "bg", n) == words.template(key, "en", n) for n in (1, 2))}
    assert same == {key for words, key in said if not re.sub(r"\{[^{}]*\}", "", words.english(key).msgid).strip(" ():")}
    assert same == {"tw.card", "tw.tribe_title"}
    # And every language the box speaks translates each of them (none left to English).
    from babel.messages.pofile import read_po

    for po in catalogues.po_files():
        with po.open("rb") as fp:
            empty = [m.context for m in read_po(fp) if m.id and (m.context or "").startswith(("setup.", "tw."))
                     and not all(m.string if isinstance(m.string, tuple | list) else (m.string,))]
        assert empty == [], po


def test_the_readme_names_every_hold_key_of_the_simulator():
    from hardware.keyboard_input import key_help
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("| key | does |"):readme.index("**The demo**")]
    for hold in ("`Shift`+digit holds it", "`Shift`+`o` holds it", "`Shift`+`b` holds it"):
        assert hold in table
    assert "Shift: hold" in key_help("en")
