"""The Totem Wars coach: a totem from the hand, placements that are legal and explained, the
war declaration, refusals, and the same through ``hint --hand`` and the engine protocol."""

import json
import random
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands.engine import answer
from companion.engine import IllegalMove
from companion.errors import UserError
from companion.games.totem_wars import (
    ChooseTotems,
    Declare,
    Play,
    TotemWars,
    default_deck,
    read_record,
    search,
    write_record,
)
from companion.games.totem_wars.search import TotemChoice, move_line
from companion.games.totem_wars.simulation import deal

DATA = Path(__file__).parent / "data"
C = default_deck().card


def two_players_after_totems(seed=3):
    sim = deal(random.Random(seed), ("Ana", "Ben"), dealer=0)
    picks = [search.suggest(sim.game, p, hand=[c.name for c in sim.hands[p]]).move.card for p in (0, 1)]
    sim.push(ChooseTotems(tuple(picks)))
    return sim


def test_the_totem_is_the_tribe_the_hand_holds_most():
    hand = ["africans/lion", "eskimos/seal", "indians/wolf", "eskimos/whale", "eskimos/orca"]
    s = search.suggest(TotemWars(["Ana", "Ben"]), 1, hand=hand)
    assert s.move == TotemChoice(C("eskimos/orca")) and s.player == 1
    assert move_line(1, s.move) == {"p": 1, "totem": "eskimos/orca"}
    assert s.reason == "totem Orca (Eskimos): 2 more of your cards are Eskimos"
    assert {a.move.card.name for a in s.alternatives} == set(hand) - {"eskimos/orca"}


@pytest.mark.parametrize("level", search.LEVELS)
def test_every_placement_is_legal_and_explained(level):
    sim = two_players_after_totems()
    for _ in range(12):
        if sim.game.phase == "over":
            break
        p = sim.seat
        s = search.suggest(sim.game, level=level, seed=1, hand=[c.name for c in sim.hands[p]])
        if isinstance(s.move, Play):
            assert len(s.move.cards) in sim.game.legal_counts() and set(s.move.cards) <= set(sim.hands[p])
            assert s.reason.startswith("place ") and " now" in s.reason
        else:
            assert isinstance(s.move, Declare)
        sim.push(s.move)


def test_the_coach_plays_the_round_out_for_its_chances():
    sim = two_players_after_totems()
    p = sim.seat
    s = search.suggest(sim.game, level="strong", seed=2, hand=[c.name for c in sim.hands[p]])
    assert "takes the round" in s.reason and 0 <= s.value <= 1
    assert s == search.suggest(sim.game, level="strong", seed=2, hand=[c.name for c in sim.hands[p]])
    assert sim.game.history[-1][1] == ChooseTotems(sim.game.totems)   # the game is as it was


def test_a_war_declaration_is_the_best_habitat_and_needs_no_hand():
    text = (DATA / "totem_wars_r2_example.jsonl").read_text()
    game, _ = read_record(text)
    while game.phase != "declare":
        game.pop()
    s = search.suggest(game)
    assert s.move == game.legal_moves()[0] and s.player == game.declaration_due.player
    assert s.reason.startswith(f"declare {s.move.habitat}: ") and s.reason.endswith("war points")


def test_refusals():
    game, _ = read_record((DATA / "totem_wars_round.jsonl").read_text())   # Ben to place
    ana = ["indians/eagle", "indians/owl", "africans/eagle"]
    with pytest.raises(IllegalMove, match=r"not Ana's turn \(T5\)"):
        search.suggest(game, 0, hand=ana)
    with pytest.raises(UserError, match="needs the seat's hand"):
        search.suggest(game)
    with pytest.raises(UserError, match=r"Ben holds 5 cards, not 3 \(T2, T13\)"):
        search.suggest(game, hand=ana)
    with pytest.raises(UserError, match=r"indians/wolf cannot be in a hand"):
        search.suggest(game, hand=["indians/wolf"])
    with pytest.raises(UserError, match=r"indians/dodo is not a card of this game's deck \(T1a\)"):
        search.suggest(game, hand=["indians/dodo"])
    with pytest.raises(UserError, match="unknown level"):
        search.suggest(game, level="hardest", hand=ana)
    with pytest.raises(UserError, match=r"every player lays a totem at once \(T2\)"):
        search.suggest(TotemWars(["Ana", "Ben"]), hand=ana)
    finished, _ = read_record((DATA / "totem_wars_finished.jsonl").read_text())
    with pytest.raises(IllegalMove, match=r"the game is over \(T15\)"):
        search.suggest(finished, hand=ana)


def test_hint_and_the_engine_protocol_take_the_hand(tmp_path, capsys):
    sim = two_players_after_totems()
    record = tmp_path / "round.jsonl"
    record.write_text(write_record(sim.game))
    hand = [c.name for c in sim.hands[sim.seat]]
    assert main(["hint", str(record), "--hand", ",".join(hand), "--json"]) == 0
    hint = json.loads(capsys.readouterr().out)
    assert set(hint["move"]) == {"p", "play"} and set(hint["move"]["play"]) <= set(hand)
    assert main(["hint", str(record)]) == 1
    assert "needs the seat's hand" in capsys.readouterr().err
    lines = [json.loads(line) for line in write_record(sim.game).splitlines()]
    reply = answer(json.dumps({"id": 1, "record": lines, "hand": hand}))
    assert reply["move"] == hint["move"] and reply["id"] == 1
    totem = answer(json.dumps({"id": 2, "record": lines[:1], "seat": 0,
                               "hand": ["indians/snake", "indians/wolf", "africans/snake", "eskimos/seal",
                                        "indians/bear"]}))
    assert totem["move"] == {"p": 0, "totem": "indians/snake"}


def test_a_totem_wars_match_runs(capsys):
    assert main(["match", "--game", "totem-wars", "--a", "standard", "--b", "easy", "--games", "2"]) == 0
    assert capsys.readouterr().out.startswith("totem-wars: standard (A) vs easy (B), 2 games")
