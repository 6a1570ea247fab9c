"""The words of the table's flows and the Totem Wars screens: every key the code asks for
exists in the catalogue it asks, every language translates its English keys with the same
fields and rule numbers, and two Totem Wars screens in Bulgarian match their golden images."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from tw_table_helpers import WAR_RECORD

from companion import catalogues
from companion.games import GAMES
from companion.games.totem_wars import HABITATS, TRIBES, default_deck, read_record
from companion.games.totem_wars.card_picker import card_problem
from companion.games.totem_wars.screens import board_screen, deal_screen
from companion.games.totem_wars.words import animal_in_text, animal_name, cards
from companion.games.wakanda.rules import HEADDRESSES
from companion.ui import text
from companion.words import LANGUAGES, SHARED, Catalogue, catalogue

COMPANION = Path(__file__).parent.parent / "companion"
RULE = re.compile(r"\b[TWR]\d+[a-z]?\b")


#: Where a module's ``t`` comes from → the catalogue it looks in.
T_MODULES = {"companion.ui.text": "companion", "companion.games.wakanda.words": "wakanda",
             "companion.games.totem_wars.words": "totem_wars"}


def _catalogues_of_t(path: Path, tree: ast.AST) -> list[Catalogue]:
    """The catalogues a bare ``t("key")`` of this module looks in: the one of the module its
    ``t`` is imported from (the shared ``t`` only in the shared words), or its own words."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in T_MODULES \
                and any((alias.asname or alias.name) == "t" for alias in node.names):
            return [catalogue(T_MODULES[node.module])]
    module = ".".join(path.relative_to(COMPANION.parent).with_suffix("").parts)
    return [catalogue(T_MODULES[module])] if module in T_MODULES else []


def _keys_asked_for():
    """(file, catalogues, key) for every ``t("key", …)`` call with a written key in the
    package (a game's ``t``, the shared ``t``, ``text.t``, ``SHARED.text``), and every
    ``self._t("key")`` of the lessons (any game with lessons)."""
    lessons = [entry.words for entry in GAMES.values() if entry.table.lessons is not None]
    for path in sorted(COMPANION.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = _catalogues_of_t(path, tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)):
                continue
            func, where = node.func, None
            if isinstance(func, ast.Name) and func.id == "t":
                where = own
            elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                if (func.value.id, func.attr) in (("text", "t"), ("SHARED", "text")):
                    where = [SHARED]
                elif (func.value.id, func.attr) == ("self", "_t") and path.name == "tutorial_flow.py":
                    where = lessons
            if where is not None:
                yield path.relative_to(COMPANION.parent), where, node.args[0].value


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_key_the_code_asks_for_is_in_its_catalogue():
    asked = list(_keys_asked_for())
    assert len(asked) > 100  # the flows and screens are found, not skipped
    unknown = [f"{path}: {key}" for path, where, key in asked if not where]
    assert not unknown       # every t is one of the catalogues'
    missing = [f"{path}: {key} not in {words.domain}" for path, where, key in asked
               for words in where if not words.has(key)]
    assert not missing
    domains = {words.domain for _, where, _ in asked for words in where}
    assert domains == {"companion", *(entry.domain for entry in GAMES.values())}


def test_keys_built_from_names_are_in_the_games_words():
    from companion.games.wakanda.rules import PIECES, VILLAGES

    wakanda, totem_wars = GAMES["wakanda"].words, GAMES["totem-wars"].words
    keys = [(wakanda, f"headdress.{h}{end}") for h in HEADDRESSES for end in ("", ".in_text")]
    keys += [(wakanda, f"{'piece' if name in PIECES else 'village'}.{name}{end}")
             for name in set(PIECES) | set(VILLAGES) for end in ("", ".in_text")]
    keys += [(wakanda, f"tile.{name}") for name in (*VILLAGES, "hidden")]
    keys += [(totem_wars, f"tribe.{tribe}{end}") for tribe in TRIBES for end in ("", ".short")]
    keys += [(totem_wars, f"habitat.{h}{end}") for h in HABITATS for end in ("", ".short")]
    keys += [(totem_wars, f"animal.{card.animal}{end}") for card in default_deck() for end in ("", ".in_text")]
    keys += [(entry.words, f"game.{entry.domain}") for entry in GAMES.values()]
    assert [key for words, key in keys if not words.has(key)] == []
    assert all(words.text(key, lang) for words, key in keys for lang in LANGUAGES)


def _domains() -> list[Catalogue]:
    return [SHARED, *(entry.words for entry in GAMES.values())]


def test_every_language_has_its_englishs_keys_fields_and_rules():
    for words in _domains():
        for key in words.keys():
            entry = words.english(key)
            for lang in LANGUAGES:
                # The plural's other form has every field of the English plural; its
                # singular may leave out the count.
                many, one = words.template(key, lang, 5), words.template(key, lang, 1)
                assert _fields(many) == _fields(entry.plural or entry.msgid), (lang, key)
                assert _fields(one) <= _fields(entry.plural or entry.msgid), (lang, key)
                assert sorted(RULE.findall(many)) == sorted(RULE.findall(entry.plural or entry.msgid)), (lang, key)


def test_the_totem_wars_flows_and_screens_are_translated():
    from babel.messages.pofile import read_po

    prefixes = ("tw.", "tribe.", "habitat.", "animal.", "cards", "menu.", "undo.", "leave.",
                "session.", "deck.", "picker.")
    keys = [(words, key) for words in (SHARED, GAMES["totem-wars"].words)
            for key in words.keys() if key.startswith(prefixes)]
    assert len(keys) > 100
    # Left in Bulgarian as in English on purpose: text made only of names and fields.
    same = {"tw.card", "tw.tribe_title", "tw.prompt.place.short"}
    untranslated = {key for words, key in keys
                    if all(words.template(key, "bg", n) == words.template(key, "en", n) for n in (1, 2))}
    assert sorted(untranslated - same) == []
    # Every language's own catalogue holds words for each (none left to English).
    for po in catalogues.po_files():
        if po.stem not in ("companion", "totem_wars"):
            continue
        with po.open("rb") as fp:
            empty = [m.context for m in read_po(fp) if m.id and (m.context or "").startswith(prefixes)
                     and not all(m.string if isinstance(m.string, tuple | list) else (m.string,))]
        assert empty == [], po


def test_bulgarian_words_in_flow_notes(speak):
    speak("bg")
    d = default_deck().card
    game = read_record("".join(WAR_RECORD.splitlines(True)[:3]))[0]
    problem = card_problem(game, d("indians/buffalo"))
    assert text.refusal_text(problem.refusal) == "Бизон (Индианци) е тотем — T2"
    assert cards(1) == "1 карта" and cards(4) == "4 карти"
    assert animal_name("sea_lion") == "Sea lion"  # another deck's animal: as written
    assert animal_in_text("sea_lion") == "sea lion"


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
def test_bulgarian_screen_matches_its_golden_image(name, golden, speak):
    speak("bg")
    golden(name, SCREENS[name]())
