"""The Totem Wars coach: a totem from the hand, placements that are legal and explained, the
war declaration, refusals, and the same through ``hint --hand`` and the engine protocol."""

import json
import random
import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.commands.engine import answer
from companion.commands.match import tasks
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
from companion.games.totem_wars.ismcts import Root
from companion.games.totem_wars.playout import Playout, Scores, canny, greedy
from companion.games.totem_wars.search import TotemChoice, move_line
from companion.games.totem_wars.simulation import deal
from companion.games.totem_wars.words import card_label, cards
from companion.games.totem_wars.words import t as tw_t
from companion.ui import text

DATA = Path(__file__).parent / "data"
C = default_deck().card
#: Ana deals; Ben lays the lion, Ana the snake (T2); Ben starts the round (T3).
START = ('{"game": "totem-wars", "players": ["Ana", "Ben"], "dealer": 0, "deck": "default"}\n'
         '{"totems": ["indians/snake", "africans/lion"]}\n')


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
    assert PLACE_WHY.fullmatch(s.reason) and 0 <= s.value <= 1
    assert s == search.suggest(sim.game, level="strong", seed=2, hand=[c.name for c in sim.hands[p]])
    assert sim.game.history[-1][1] == ChooseTotems(sim.game.totems)   # the game is as it was


#: A placement's reason: the expected end points in halves (T15), the points now (T8), the
#: round in words (T9-T11), a raise's cost (T5), a war in words (T10).
PLACE_WHY = re.compile(r"place [^:]+: (?:(?P<gain>[+-]\d+(?:\.5)?) points? at the end|no more points at the end), "
                       r"(?P<now>\d+) points? now, "
                       r"(?P<take>(?:likely |rarely )?takes the round|may take the round|does not take the round)"
                       r"(?:, raises by \d cards?)?(?:, war (?P<war>certain|likely|possible))?")


#: The words for the chance to take the round, and the share of play-outs taken each says
#: (the suggestion's value): plain only when the round ends at the placement.
TAKE_WORDS = {
    "takes the round": lambda value: value == 1,
    "does not take the round": lambda value: value == 0,
    "likely takes the round": lambda value: value >= 0.7,
    "may take the round": lambda value: 0.3 < value < 0.7,
    "rarely takes the round": lambda value: value <= 0.3,
}


def placements(level, seeds=range(3)):
    """Every placement suggestion of a few coached two- to four-player games."""
    for seed in seeds:
        sim = deal(random.Random(seed), ("Ana", "Ben", "Cleo", "Dan")[:2 + seed % 3], dealer=0)
        picks = [search.suggest(sim.game, p, hand=[c.name for c in sim.hands[p]]).move.card
                 for p in range(len(sim.game.players))]
        sim.push(ChooseTotems(tuple(picks)))
        while sim.game.phase != "over":
            s = search.suggest(sim.game, level=level, seed=seed, hand=[c.name for c in sim.hands[sim.seat]])
            if isinstance(s.move, Play):
                yield s
            sim.push(s.move)


@pytest.mark.parametrize("level, seeds", [("standard", range(3)), ("strong", range(1))])
def test_each_placement_says_the_end_points_that_order_them_and_its_chances_in_words(level, seeds):
    seen = set()
    for s in placements(level, seeds):
        said = [PLACE_WHY.fullmatch(s.reason)] + [PLACE_WHY.fullmatch(a.reason) for a in s.alternatives]
        assert all(said), [s.reason, *(a.reason for a in s.alternatives)]
        gains = [float(m["gain"] or 0) for m in said]
        assert gains == sorted(gains, reverse=True)                # best first, as the figure says
        for m, value in zip(said, [s.value, *(a.value for a in s.alternatives)]):
            assert TAKE_WORDS[m["take"]](value), (m["take"], value)
            seen.add(m["take"])
    assert {"likely takes the round", "may take the round", "rarely takes the round"} <= seen


def test_easy_says_first_the_points_now_that_order_its_placements():
    for s in placements("easy", seeds=range(2)):
        whys = [s.reason, *(a.reason for a in s.alternatives)]
        assert all(re.fullmatch(r"place [^:]+: \d+ points? now, ([+-]\d+(\.5)? points? at the end|"
                                r"no more points at the end), .+", why)
                   for why in whys), whys
        now = [int(why.split(": ")[1].split()[0]) for why in whys]
        assert now == sorted(now, reverse=True)


def test_a_placement_that_ends_the_round_says_its_outcome_plainly():
    game, _ = read_record(START + '{"p": 1, "play": ["indians/wolf"]}\n')   # Ana answers Ben's 1 card
    s = search.suggest(game, level="standard-2026",
                       hand=["indians/bear", "eskimos/seal", "africans/zebra", "eskimos/fox", "aborigines/emu"])
    why = {a.move: a.reason for a in s.alternatives}
    # Ben's wolf scores nothing (T8): the bear alone takes the round and both Indians (T9, T15) …
    assert why[Play((C("indians/bear"),))] == ("place Bear (Indians): +2 points at the end, 3 points now, "
                                               "takes the round")
    # … the seal ties at 0 and loses the war (T10, T11) …
    assert why[Play((C("eskimos/seal"),))] == ("place Seal (Eskimos): -1 point at the end, 0 points now, "
                                               "does not take the round, war certain")
    # … the emu ties at 0 in a war of land totems nobody wins: the cards would go under the
    # deck and be dealt straight back (T10-T13), so it is not offered.
    assert Play((C("aborigines/emu"),)) not in why and s.move != Play((C("aborigines/emu"),))
    # A raise costs the cards over the level (T5); Ben may still answer: a chance, in words.
    assert s.reason == ("place Zebra (Africans), Bear (Indians): +2.5 points at the end, 3 points now, "
                        "may take the round, raises by 1 card, war possible")


@pytest.mark.parametrize("level", ["standard", "strong"])
def test_the_search_says_plainly_how_a_round_ends_at_the_placement(level):
    game, _ = read_record(START + '{"p": 1, "play": ["indians/wolf"]}\n')
    s = search.suggest(game, level=level, hand=["indians/bear", "eskimos/seal", "africans/zebra", "eskimos/fox",
                                                "aborigines/emu"])
    plain = 0
    for move, why in [(s.move, s.reason), *((a.move, a.reason) for a in s.alternatives)]:
        end = round_after(game, move)
        take = PLACE_WHY.fullmatch(why)["take"]
        if end is None:                 # Ben answers a raise (T5, T6): a chance, in words
            assert take in {"likely takes the round", "may take the round", "rarely takes the round"}, why
        else:
            plain += 1
            assert take == ("takes the round" if end.taker == 0 else "does not take the round"), why
    assert plain and s.move.cards != (C("aborigines/emu"),)     # the emu's war nobody wins (T12)


def test_the_reasons_are_in_the_boxs_language():
    game, _ = read_record(START + '{"p": 1, "play": ["indians/wolf"]}\n')
    with text.speaking("bg"):
        s = search.suggest(game, level="standard-2026", hand=["indians/bear", "eskimos/seal", "africans/zebra",
                                                              "eskimos/fox", "aborigines/emu"])
    # The same reason as in English (above), each part in the catalogue's Bulgarian.
    bg = "bg"
    placed = ", ".join(card_label(C(name), bg) for name in ("africans/zebra", "indians/bear"))
    parts = [tw_t("tw.hint.gain", bg, n="+" + tw_t("tw.hint.half", bg, n=2), plural_by=2),
             tw_t("tw.hint.now", bg, n=3), tw_t("tw.hint.take.maybe", bg),
             tw_t("tw.hint.raise", bg, extra=cards(1, bg)), tw_t("tw.hint.war.possible", bg)]
    assert s.reason == tw_t("hint.because", bg, move=tw_t("tw.hint.place", bg, cards=placed), why=", ".join(parts))
    assert s.reason.startswith("сложи Зебра (Африканци), Мечка (Индианци): +2,5 ")


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


def test_hint_says_the_next_best_in_the_same_words_as_the_best(tmp_path, capsys):
    record = tmp_path / "answer.jsonl"
    record.write_text(START + '{"p": 1, "play": ["indians/wolf"]}\n')
    hand = ["indians/bear", "indians/eagle", "aborigines/snake", "eskimos/seal", "africans/zebra"]
    assert main(["hint", str(record), "--hand", ",".join(hand)]) == 0
    out = capsys.readouterr().out
    s = search.suggest(read_record(record.read_text())[0], hand=hand)
    assert out.splitlines() == [f"Ana: {s.reason}", "level standard; next best:",
                                *(f"  {a.reason}" for a in s.alternatives[:5])]
    assert "%" not in out and len(s.alternatives) > 5


def test_a_totem_wars_match_runs(capsys):
    assert main(["match", "--game", "totem-wars", "--a", "standard", "--b", "easy", "--games", "2"]) == 0
    assert capsys.readouterr().out.startswith("totem-wars: standard (A) vs easy (B), 2 games")


#: Ben lays 3 cards; Ana answers with 3 and the round ends. Her eagles and hippo score 3 as
#: Ben's cards do: a war of land totems nobody wins, the cards back under a deck that deals
#: them straight back (T10-T13) — what a player placing what scores most would lay.
ENDLESS = ('{"game": "totem-wars", "players": ["Ana", "Ben"], "dealer": 0, "deck": "default"}\n'
           '{"totems": ["indians/deer", "africans/leopard"]}\n'
           '{"p": 1, "play": ["africans/ostrich", "eskimos/hare", "eskimos/orca"]}\n')
ENDLESS_HAND = ["eskimos/polar_bear", "africans/hippo", "indians/eagle", "aborigines/turtle", "aborigines/eagle"]


def round_after(game, move):
    """The round ``move`` ends, Ana declaring as is best for her (R2); None when Ben still
    places or declares after it."""
    rounds, pushed = len(game.rounds), 0
    try:
        game.push(move)
        pushed += 1
        while len(game.rounds) == rounds:
            if game.phase != "declare" or game.declaration_due.player != 0:
                return None
            game.push(game.legal_moves()[0])
            pushed += 1
        return game.rounds[-1]
    finally:
        for _ in range(pushed):
            game.pop()


@pytest.mark.parametrize("level", search.LEVELS)
def test_no_level_suggests_a_tie_that_deals_the_same_cards_back(level):
    game, _ = read_record(ENDLESS)
    tie = round_after(game, Play((C("aborigines/eagle"), C("africans/hippo"), C("indians/eagle"))))
    assert tie.taker is None and tie.destination == "under the deck" and game.deck_count > 0
    s = search.suggest(game, level=level, hand=ENDLESS_HAND)
    for move in [s.move, *(a.move for a in s.alternatives)]:
        end = round_after(game, move)
        assert end is None or end.taker is not None, move


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_play_out_plays_a_game_as_the_engine_does(players):
    for seed in range(8):
        sim = deal(random.Random(seed), ("Ana", "Ben", "Cleo", "Dan")[:players], dealer=seed % players)
        picks = [search.suggest(sim.game, p, hand=[c.name for c in sim.hands[p]]).move.card for p in range(players)]
        sim.push(ChooseTotems(tuple(picks)))
        cards = sim.game.deck.cards
        number = {card: i for i, card in enumerate(cards)}
        out = Playout(Scores(cards, sim.game.totems), [[number[c] for c in hand] for hand in sim.hands],
                      [number[c] for c in sim.pile], list(sim.game.all_points()), sim.game.round_starter)
        twin = Playout(Scores(cards, sim.game.totems), [], [], [0] * players, 0)
        while sim.game.phase != "over":
            if sim.game.phase == "declare":
                sim.push(sim.game.legal_moves()[0])    # the habitat the engine offers first (R2)
                continue
            p = sim.seat
            twin.hands, twin.table = [[number[c] for c in hand] for hand in sim.hands], [
                sum(1 << number[c] for c in down) for down in sim.game.table]
            sim.push(Play(tuple(cards[i] for i in greedy(twin, p, sim.game.legal_counts()))))
        assert out.play([greedy] * players) == list(sim.game.all_points()), seed
        assert out.rounds == len(sim.game.rounds)


def test_each_deal_gives_the_others_the_cards_the_seat_cannot_see_at_their_sizes():
    sim = deal(random.Random(4), ("Ana", "Ben", "Cleo", "Dan"), dealer=0)
    sim.push(ChooseTotems(tuple(hand[0] for hand in sim.hands)))
    sim.push(Play(tuple(sim.hands[1][:2])))
    root = Root(sim.game, 2, sim.hands[2])
    unseen = {root.index[c] for c in sim.game.unseen} - set(root.hand)
    for seed in range(5):
        hands, pile = root.deal(random.Random(seed))
        assert hands[2] == root.hand and [len(h) for h in hands] == list(sim.game.hand_sizes)
        dealt = [c for p in (0, 1, 3) for c in hands[p]] + pile
        assert sorted(dealt) == sorted(unseen) and len(pile) == sim.game.deck_count


def test_a_four_player_match_seats_a_once_and_splits_a_shared_win(capsys):
    assert main(["match", "--game", "totem-wars", "--a", "standard", "--b", "easy", "--games", "4",
                 "--players", "4", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert one["players"] == 4 and one["wins"] + one["shared"] + one["losses"] == 4
    assert one["wins"] <= one["score"] <= one["wins"] + one["shared"] / 2
    assert one["interval"][0] <= one["share"] <= one["interval"][1]
    assert one["ms"]["a"]["decisions"] > 0 and one["ms"]["b"]["decisions"] > one["ms"]["a"]["decisions"]
    assert main(["match", "--game", "totem-wars", "--a", "standard", "--b", "easy", "--games", "3",
                 "--players", "3"]) == 0
    assert capsys.readouterr().out.startswith("totem-wars, 3 players: standard (A) vs easy (B), 3 games")


def test_a_match_groups_games_by_deal_with_a_in_each_seat():
    work = tasks("totem-wars", "a", "b", 8, seed=0, players=4)
    assert [(seat, first) for *_, seat, _, first in work] == [(0, 0), (1, 0), (2, 0), (3, 0),
                                                              (0, 1), (1, 1), (2, 1), (3, 1)]
    seeds = [seed for *_, seed, _ in work]
    assert len(set(seeds[:4])) == 1 and seeds[3] != seeds[4]


def test_a_match_refuses_a_number_of_players_the_game_has_not(capsys):
    assert main(["match", "--game", "totem-wars", "--a", "easy", "--b", "easy", "--players", "5"]) == 2
    assert capsys.readouterr().err == "totem-companion match: --players must be one of 2, 3, 4 for totem-wars, not 5\n"
    assert main(["match", "--a", "easy", "--b", "easy", "--players", "4"]) == 2
    assert capsys.readouterr().err == "totem-companion match: --players must be one of 2 for wakanda, not 4\n"


def last_to_place(ben_laid, ana_hand):
    """A 2-player play-out where Ben (lion) has laid ``ben_laid`` and Ana (snake), the last
    to place, holds ``ana_hand``: what ``canny`` and ``greedy`` place for her."""
    cards = default_deck().cards
    number = {card: i for i, card in enumerate(cards)}
    ben = [number[C(n)] for n in ben_laid]
    out = Playout(Scores(cards, [C("indians/snake"), C("africans/lion")]), [[number[C(n)] for n in ana_hand], ben[:]],
                  [], [1, 1], starter=1)
    out.place(1, ben)
    out.level = len(ben_laid)
    return ({cards[i].name for i in policy(out, 0, out.counts(0, True, False))} for policy in (canny, greedy))


def test_the_last_to_place_takes_with_the_cards_of_its_tribe_or_keeps_them_back():
    # Ben's wolf scores 0 (T8): the bear takes it, the seal would tie (T10).
    took, greedy_took = last_to_place(["indians/wolf"], ["indians/bear", "eskimos/seal"])
    assert took == greedy_took == {"indians/bear"}
    # Ben's two Africans on his lion score 5: Ana's two Indians only tie it. Canny keeps them
    # back (the taker would have them, T9); greedy lays them all, raising for 7 points (T5).
    kept, laid = last_to_place(["africans/zebra", "africans/giraffe"],
                               ["indians/bear", "indians/eagle", "eskimos/seal", "eskimos/whale"])
    assert kept == {"eskimos/seal", "eskimos/whale"} and {"indians/bear", "indians/eagle"} < laid


def test_a_duel_that_goes_round_too_long_is_scored_where_it_stands(mocker):
    mocker.patch.object(search, "DUEL_ROUNDS", 1)
    duel = search.duel(("easy", "easy", "easy"), seed=3, first=0)
    assert len(duel.totals) == 3 and max(duel.totals) < 13        # one round: no game's end (T15)
    assert duel.winners == tuple(p for p, v in enumerate(duel.totals) if v == max(duel.totals))
