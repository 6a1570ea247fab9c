"""One engine interface (companion/engine.py) and refusals as data: both engines are an
``Engine``, refuse with the shared ``IllegalMove`` (a catalogue key, raw parameters, the
rule, the domain of its words) and end with the shared ``Outcome``; every refusal has
words in every language the box speaks, with the rule kept out of the words."""

from __future__ import annotations

import ast
import copy
import pickle
import random
import re
import string
from pathlib import Path

import pytest

from companion import catalogues
from companion.engine import Engine, IllegalMove, Outcome, Refusal, Termination
from companion.games import totem_wars, wakanda
from companion.games.totem_wars import ChooseTotems, Count, Play, TotemsDue, TotemWars, deal, default_deck, greedy_bot
from companion.games.totem_wars import words as totem_wars_words
from companion.games.wakanda import Build, Claim, Draw, Pass, Reveal, Wakanda
from companion.games.wakanda import words as wakanda_words
from companion.games.wakanda.bots import greedy_bot as wakanda_greedy
from companion.games.wakanda.bots import play_game
from companion.ui import text
from companion.ui.text import refusal_reason, refusal_text
from companion.words import LANGUAGES, SHARED, catalogue

COMPANION = Path(__file__).parent.parent / "companion"
RULE = re.compile(r"\b[TWR]\d+[a-z]?\b")
ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]
C = default_deck().card


def typed_engines() -> tuple[Engine[wakanda.Move], Engine[totem_wars.Move]]:
    """Both engines as the protocol, checked by mypy (``mypy tests/test_engine.py``)."""
    first: Engine[wakanda.Move] = Wakanda(ROW, players=("Ana", "Ben"))
    second: Engine[totem_wars.Move] = TotemWars(["Ana", "Ben", "Cleo"])
    return first, second


# --- one interface ----------------------------------------------------------------------------

@pytest.mark.parametrize("engine", typed_engines(), ids=["wakanda", "totem-wars"])
def test_both_engines_are_an_engine(engine):
    assert isinstance(engine, Engine)
    assert isinstance(engine.players, tuple) and engine.history == () and engine.outcome() is None
    assert engine.legal_moves() and engine.phase != "over"


@pytest.mark.parametrize("engine", typed_engines(), ids=["wakanda", "totem-wars"])
def test_pop_with_nothing_to_undo_is_the_same_refusal_in_both(engine):
    with pytest.raises(IllegalMove) as info:
        engine.pop()
    refusal = info.value.refusal
    domain = "wakanda" if isinstance(engine, Wakanda) else "totem_wars"
    assert refusal == Refusal("nothing_to_undo", {}, None, domain) and str(info.value) == "nothing to undo"
    # The game's words go on into the shared ones: the same words as the shared refusal's.
    for lang in LANGUAGES:
        assert refusal_text(refusal, lang) == refusal_text(Refusal("nothing_to_undo"), lang)


def test_push_pop_and_history_are_tuples_of_player_and_move_in_both():
    wk = Wakanda(ROW, players=("Ana", "Ben"))
    wk.push(Draw("sun"))
    wk.push(Build("sun", 1))
    assert wk.history == ((0, Draw("sun")), (0, Build("sun", 1)))
    assert wk.pop() == Build("sun", 1) and wk.history == ((0, Draw("sun")),)
    tw = TotemWars(["Ana", "Ben"])
    totems = ChooseTotems((C("indians/snake"), C("africans/lion")))
    tw.push(totems)
    tw.push(Play((C("indians/wolf"),)))
    assert tw.history == ((None, totems), (1, Play((C("indians/wolf"),))))
    assert tw.pop() == Play((C("indians/wolf"),)) and tw.history == ((None, totems),)


def test_totem_wars_legal_moves_are_counts_because_hands_are_hidden():
    game = TotemWars(["Ana", "Ben"])
    assert game.legal_moves() == [TotemsDue(2)] and game.to_move is None
    game.push(ChooseTotems((C("indians/snake"), C("africans/lion"))))
    assert game.legal_moves() == [Count(1), Count(2), Count(3), Count(4), Count(5)]
    assert [move.n for move in game.legal_moves()] == game.legal_counts()
    assert totem_wars.moves_json(game)["moves"][:2] == [{"p": 1, "count": 1}, {"p": 1, "count": 2}]


def test_both_engines_end_with_the_shared_outcome():
    wk = play_game(3, bots=(wakanda_greedy, wakanda_greedy))
    outcome = wk.outcome()
    assert isinstance(outcome, Outcome) and outcome.termination is Termination.ALL_CLAIMED
    assert outcome.rule in ("W9", "R6") and outcome.winners
    sim = deal(random.Random(5), ("Ana", "Ben", "Cleo"))
    while sim.game.phase != "over":
        sim.push(greedy_bot(sim, random.Random(1)))
    outcome = sim.game.outcome()
    assert isinstance(outcome, Outcome) and outcome.termination is Termination.DECK_EXHAUSTED
    points = sim.game.all_points()
    assert outcome.rule == "T15" and outcome.winners == tuple(p for p in range(3) if points[p] == max(points))
    assert outcome.winner == (outcome.winners[0] if len(outcome.winners) == 1 else None)


# --- refusals as data -------------------------------------------------------------------------

def test_an_illegal_move_carries_key_params_and_rule_and_reads_as_before():
    game = Wakanda(ROW, players=("Ana", "Ben"))
    game.push(Draw("eagle"))
    with pytest.raises(IllegalMove) as info:
        game.push(Build("eagle", 4))
    exc = info.value
    assert exc.refusal == Refusal("not_open", {"village": 4}, "W4", "wakanda")
    assert exc.refusal == wakanda_words.refusal("not_open", {"village": 4}, "W4")
    assert (exc.key, exc.params, exc.rule) == ("not_open", {"village": 4}, "W4")
    assert (str(exc), exc.reason) == ("village 4 is not open yet (W4)", "village 4 is not open yet")
    assert refusal_text(exc.refusal, "en") == "Village 4 is not open yet — W4"
    assert refusal_text(exc.refusal, "bg") == "Село 4 още не е отворено — W4"


def test_parameters_are_raw_values_put_into_words_per_language():
    wk, tw = wakanda_words.refusal, totem_wars_words.refusal
    refusal = wk("not_in_hand", {"piece": "tomahawk", "name": "Ana"}, "W4")
    assert refusal_reason(refusal, "en") == "no tomahawk in Ana's hand"
    assert refusal_reason(refusal, "bg") == "Ana няма томахавка в ръка"
    taken = tw("taken_card", {"card": C("indians/buffalo")}, "T9")
    # A screen names the card; the record's machine English keeps it raw.
    assert refusal_reason(taken, "en") == "Buffalo (Indians) is among the taken cards"
    assert refusal_reason(taken, "bg") == totem_wars_words.t(
        "refusal.taken_card", "bg", card=C("indians/buffalo"))
    assert "Бизон (Индианци)" in refusal_reason(taken, "bg")
    assert str(IllegalMove("taken_card", rule="T9", domain="totem_wars", card=C("indians/buffalo"))) == \
        "indians/buffalo is among the taken cards (T9)"
    assert refusal_reason(tw("holds_only", {"name": "Ben", "hand": 1}), "en") == "Ben holds only 1 card"
    assert refusal_reason(tw("holds_only", {"name": "Ben", "hand": 4}), "bg") == "Ben държи само 4 карти"
    yours = wk("not_yours", {"headdress": "wings", "owner": "Ana", "mover": "Ben"}, "W4")
    assert refusal_text(yours, "en") == "Wings are Ana's; it is Ben's turn — W4"
    assert refusal_text(yours, "bg") == "Крила са на Ana; ред е на Ben — W4"
    unknown = refusal_reason(wk("unknown_piece", {"piece": "bison"}), "bg")
    assert "'bison'" in unknown and unknown == wakanda_words.t("refusal.unknown_piece", "bg", piece="bison")
    for lang in LANGUAGES:  # raw values, put into each language's words
        assert wakanda_words.in_text("tomahawk", lang) in refusal_reason(refusal, lang)
        assert totem_wars_words.card_label(C("indians/buffalo"), lang) in refusal_reason(taken, lang)
        assert "Ana" in refusal_reason(refusal, lang) and "4" in refusal_reason(
            tw("holds_only", {"name": "Ben", "hand": 4}), lang)


def test_refusal_text_without_a_rule_and_in_the_current_language():
    with text.speaking("bg"):
        assert refusal_text(Refusal("game_over")) == "Играта свърши"
        assert refusal_text(Refusal("game_over", rule="T15")) == "Играта свърши — T15"
    assert refusal_text(Refusal("game_over", rule="W6")) == "The game is over — W6"


def test_an_illegal_move_copies_and_pickles_as_its_refusal():
    exc = IllegalMove("holds_only", rule="T5", domain="totem_wars", name="Ben", hand=1)
    for again in (pickle.loads(pickle.dumps(exc)), copy.copy(exc)):
        assert (again.refusal, str(again)) == (exc.refusal, "Ben holds only 1 card (T5)")


def test_a_refusal_is_a_hashable_value():
    one = Refusal("not_open", {"village": 5}, "W4", "wakanda")
    assert one == Refusal("not_open", {"village": 5}, "W4", "wakanda")
    assert hash(one) == hash(Refusal("not_open", {"village": 5}, "W4", "wakanda"))
    assert len({one, Refusal("not_open", {"village": 6}, "W4", "wakanda"), one}) == 2
    assert one != Refusal("not_open", {"village": 5}, "W4")   # the domain is part of it


def _domain_of(node: ast.Call, imported: dict[str, str]) -> str | None:
    """The domain of a refusal made by ``node``: ``IllegalMove``/``Refusal`` name it
    (``domain=``, default the shared ``companion``); a game's ``illegal``/``refusal`` is
    its own; None for a call of another function."""
    name = node.func.id if isinstance(node.func, ast.Name) else None
    if name in ("IllegalMove", "Refusal"):
        given = [kw.value for kw in node.keywords if kw.arg == "domain"]
        if name == "Refusal" and len(node.args) > 3:
            given.append(node.args[3])
        if not given:
            return "companion"
        return str(given[0].value) if isinstance(given[0], ast.Constant) else "?"
    if name in ("illegal", "refusal") and name in imported:
        return imported[name]
    return None


def _keys_refused() -> list[tuple[str, str, str]]:
    """(file, domain, key) for every ``IllegalMove("key", …)`` / ``Refusal("key", …)`` and
    every game's ``illegal("key", …)`` / ``refusal("key", …)`` in the package."""
    found = []
    for path in sorted(COMPANION.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {alias.asname or alias.name: catalogue(node.module.split(".")[-2]).domain
                    for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
                    and node.module.startswith("companion.games.") and node.module.endswith(".words")
                    for alias in node.names if alias.name in ("illegal", "refusal")}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
                domain = _domain_of(node, imported)
                if domain is not None:
                    found.append((str(path.relative_to(COMPANION.parent)), domain, str(node.args[0].value)))
    return found


def _domains():
    return [SHARED, *(catalogue(domain) for domain in ("wakanda", "totem_wars"))]


def test_every_refusal_the_code_raises_has_words_in_every_language():
    refused = _keys_refused()
    assert len(refused) > 50  # the engines, the card picker and the flows are found
    assert {domain for _, domain, _ in refused} >= {"wakanda", "totem_wars"}
    missing = [f"{path}: {domain} {key}" for path, domain, key in refused
               if domain not in ("companion", "wakanda", "totem_wars") or not catalogue(domain).has(f"refusal.{key}")]
    assert not missing
    from babel.messages.pofile import read_po

    for po in catalogues.po_files():
        with po.open("rb") as fp:
            untranslated = [m.context for m in read_po(fp) if m.id and (m.context or "").startswith("refusal.")
                            and not all(m.string if isinstance(m.string, tuple | list) else (m.string,))]
        assert not untranslated, po


def _fields(template: str) -> set[tuple[str, str | None, str | None]]:
    return {(name, conversion, spec) for _, name, spec, conversion in string.Formatter().parse(template) if name}


def test_refusal_words_hold_no_rule_and_the_same_fields_in_every_language():
    checked = 0
    for words in _domains():
        kinds = {*words.kinds, *SHARED.kinds}
        for key in words.keys():
            if not key.startswith("refusal."):
                continue
            checked += 1
            entry = words.english(key)
            english = entry.plural or entry.msgid
            assert not RULE.findall(entry.msgid) and not RULE.findall(english), key
            assert all(spec in ("", None, *kinds) for _, _, spec in _fields(english)), key
            want = {name for name, _, _ in _fields(english)}
            for lang in LANGUAGES:
                many, one = words.template(key, lang, 5), words.template(key, lang, 1)
                assert not RULE.findall(many) and not RULE.findall(one), (lang, key)
                assert {name for name, _, _ in _fields(many)} == want, (lang, key)
                # a plural's singular may leave out its count
                assert {name for name, _, _ in _fields(one)} <= want, (lang, key)
    assert checked > 50


def _wakanda_tries(game: Wakanda):
    yield from (Draw(piece) for piece in ("eagle", "sun", "bison"))
    yield from (Build(piece, v) for piece in ("eagle", "chief", "sun", "bison") for v in (0, 1, 4, 6, 7))
    yield from (Claim(v) for v in (0, 1, 2, 3, 5, 7))
    yield Pass()
    yield from (Reveal(name) for name in ("sun", "height", "bison"))
    yield "not a move"


def test_every_wakanda_refusal_reads_the_same_in_records_and_has_words_in_every_language():
    seen = set()
    for seed in range(6):
        rng = random.Random(seed)
        game = Wakanda(wakanda.random_setup(rng, "hidden"), players=("Ana", "Ben"), variant="hidden",
                       empty_claim=("when_stuck", "never")[seed % 2])
        while True:
            for move in _wakanda_tries(game):
                try:
                    game.check(move)
                except IllegalMove as exc:
                    seen.add(exc.key)
                    assert str(exc) == exc.reason + (f" ({exc.rule})" if exc.rule else "")
                    assert all(refusal_text(exc.refusal, lang) for lang in LANGUAGES)
            if game.phase == "over":
                break
            moves = game.legal_moves()
            game.push(moves[0] if game.phase == "action" and rng.random() < 0.3 else rng.choice(moves))
    assert {"not_open", "claimed", "draw_first", "one_draw", "none_in_bag", "no_such_village",
            "unknown_piece", "no_reveal", "turn_up_first", "tile_in_row", "game_over"} <= seen


def test_every_totem_wars_refusal_reads_the_same_in_records_and_has_words_in_every_language():
    seen = set()
    for seed in range(4):
        rng = random.Random(seed)
        sim = deal(rng, ("Ana", "Ben", "Cleo"))
        game = sim.game
        while True:
            known = sorted(default_deck().cards)
            tries = [Play(()), Play((known[0], known[0])), "not a move",
                     ChooseTotems(tuple(known[:3])), ChooseTotems(tuple(known[:2]))]
            tries += [Play(tuple(rng.sample(known, k))) for k in (1, 2, 3, 6) for _ in range(3)]
            for move in tries:
                try:
                    game.check(move)
                except IllegalMove as exc:
                    seen.add(exc.key)
                    assert str(exc) == exc.reason + f" ({exc.rule})"
                    assert all(refusal_text(exc.refusal, lang) for lang in LANGUAGES)
            if game.phase == "over":
                break
            sim.push(greedy_bot(sim, rng))
    assert {"no_cards_named", "named_twice", "one_totem_each", "totems_first", "totems_laid",
            "holds_only", "totem_card", "game_over"} <= seen


def test_the_example_of_docs_internals_engines_runs():
    doc = (COMPANION.parent / "docs" / "internals.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Engines"):doc.index("\n## ", doc.index("## Engines") + 1)]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/internals.md", "exec"), {})
