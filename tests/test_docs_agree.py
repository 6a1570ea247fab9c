"""Words for users that describe the program say what it does."""

from pathlib import Path

from companion.ui import text

ROOT = Path(__file__).resolve().parents[1]


def test_the_example_configuration_says_what_bulgarian_covers():
    example = (ROOT / "hardware" / "config.example.toml").read_text(encoding="utf-8")
    comment = example[:example.index("\nlanguage =")].rsplit("\n\n", 1)[-1]
    # What it says is translated is: the set-ups and Totem Wars' screens (names, fields and
    # button labels alone need no words of their own).
    assert "set-ups" in comment and "both games" in comment and "English for now" not in comment
    same = {"tw.card", "tw.tribe_title"}
    untranslated = {key for key in text.ENGLISH if key.startswith(("setup.", "tw."))} - set(text.BULGARIAN)
    assert untranslated == same


def test_the_readme_names_every_hold_key_of_the_simulator():
    from hardware.keyboard_input import KEY_HELP
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("| key | does |"):readme.index("**The demo**")]
    for hold in ("`Shift`+digit holds it", "`Shift`+`o` holds it", "`Shift`+`b` holds it"):
        assert hold in table
    assert "Shift: hold" in KEY_HELP
