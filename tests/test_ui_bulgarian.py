"""The words of the table's flows and the Totem Wars screens: every key the code asks for
exists in English, Bulgarian translates only English keys with the same fields and rule
numbers, and two Totem Wars screens in Bulgarian match their golden images."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from tw_table_helpers import WAR_RECORD

from companion.games.totem_wars import HABITATS, TRIBES, default_deck, read_record
from companion.games.totem_wars.card_picker import card_problem
from companion.games.totem_wars.screens import board_screen, deal_screen
from companion.games.wakanda.rules import HEADDRESSES
from companion.ui import text

COMPANION = Path(__file__).parent.parent / "companion"
RULE = re.compile(r"\b[TWR]\d+[a-z]?\b")


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    text.set_language("en")


def _keys_asked_for():
    """(file, key) for every ``t("key", …)`` call with a written key in the package."""
    for path in sorted(COMPANION.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "t" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                yield path.relative_to(COMPANION.parent), node.args[0].value


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_key_the_code_asks_for_is_in_english():
    asked = list(_keys_asked_for())
    assert len(asked) > 100  # the flows and screens are found, not skipped
    missing = [f"{path}: {key}" for path, key in asked if key not in text.ENGLISH]
    assert not missing


def test_keys_built_from_names_are_in_english():
    keys = [f"headdress.{h}" for h in HEADDRESSES]
    keys += [f"tribe.{tribe}{end}" for tribe in TRIBES for end in ("", ".short")]
    keys += [f"habitat.{h}{end}" for h in HABITATS for end in ("", ".short")]
    keys += [f"animal.{card.animal}" for card in default_deck()]
    assert [key for key in keys if key not in text.ENGLISH] == []


def test_bulgarian_keys_are_english_keys_with_the_same_fields_and_rules():
    for key, template in text.BULGARIAN.items():
        assert key in text.ENGLISH, key
        english = text.ENGLISH[key]
        assert _fields(template) == _fields(english), key
        assert RULE.findall(template) == RULE.findall(english), key


def test_the_totem_wars_flows_and_screens_are_translated():
    prefixes = ("tw.", "tribe.", "habitat.", "animal.", "cards.", "menu.", "undo.", "leave.",
                "session.", "deck.")
    keys = {k for k in text.ENGLISH if k.startswith(prefixes)}
    # Left in English on purpose: text made only of names, fields and button labels.
    same = {"tw.card", "tw.tribe_title", "picker.footer"}
    assert sorted(keys - set(text.BULGARIAN) - same) == []


def test_bulgarian_words_in_flow_notes():
    text.set_language("bg")
    d = default_deck().card
    game = read_record("".join(WAR_RECORD.splitlines(True)[:3]))[0]
    problem = card_problem(game, d("indians/buffalo"))
    assert text.refusal_text(problem.refusal) == "Бизон (Индианци) е тотем — T2"
    assert text.cards(1) == "1 карта" and text.cards(4) == "4 карти"
    assert text.animal_name("sea_lion") == "Sea lion"  # another deck's animal: as written


def _war_game(lines: int):
    return read_record("".join(WAR_RECORD.splitlines(True)[:lines]))[0]


def _refused():
    game = _war_game(3)
    problem = card_problem(game, default_deck().card("indians/buffalo"))
    return board_screen(game, message=text.refusal_text(problem.refusal), refused=True)


SCREENS = {
    "tw_deal_bulgarian": lambda: deal_screen(_war_game(2)),
    "tw_board_refused_bulgarian": _refused,
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_bulgarian_screen_matches_its_golden_image(name, golden):
    text.set_language("bg")
    golden(name, SCREENS[name]())
