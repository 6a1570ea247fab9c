"""Totem Wars through the table session: scripted games for 2, 3 and 4 players.

Every test feeds raw input events (as the hardware or a script would) and checks what the
players would see and what the journal keeps.
"""

import random

from tw_table_helpers import WAR_RECORD_ON_THE_BOX, journal, make, place, play_war_round, scan, set_up

from companion.events import Hold, Press
from companion.games.totem_wars import greedy_bot, read_record, write_record
from companion.games.totem_wars.big_game_store import load_big_game
from companion.games.totem_wars.demo import TotemWarsPlayer, _play


def test_two_players_tie_twice_and_the_cards_go_under_the_deck(tmp_path):
    t = make(tmp_path)
    game = set_up(t, ("Ana", "Ben"), 0)
    assert t.view.done == 0
    assert scan(t, "africans/lion").signal == "accepted"        # Ben, left of the dealer
    assert t.view.done == 1 and game.phase == "totems"          # secret: nothing pushed yet
    assert len(journal(t)) == 1
    scan(t, "indians/snake")                                    # Ana
    assert t.screen == "deal"
    assert journal(t)[-1] == {"totems": ["indians/snake", "africans/lion"]}
    assert t.handle(Press("ok")).signal == "your_turn" and t.screen == "board"
    assert place(t, "africans/zebra", "africans/giraffe").signal == "your_turn"
    assert game.level == 2 and game.to_move == 0
    out = place(t, "indians/wolf")
    assert out.signal == "refused"
    assert t.message == "Place at least 2 cards, the level of this round — T5"
    assert t.view.pending == (game.deck.card("indians/wolf"),)  # kept: add a card and retry
    scan(t, "indians/bear")
    t.handle(Press("ok"))
    result = game.last_round
    assert result.points == (5, 5) and result.war_points == (5, 5)
    assert result.habitats == ("land", "land") and result.taker is None     # T11, R3
    assert result.destination == "under the deck" and result.refill == ((1, 2), (0, 2))
    assert t.screen == "round" and t.view.page == 0
    for _ in range(t.view.count - 1):
        t.handle(Press("ok"))
    assert t.view.page == t.view.count - 1                      # the refill page
    assert t.handle(Press("ok")).signal == "your_turn" and t.screen == "board"
    assert game.to_move == 1                                    # the same starter (T13)
    assert journal(t)[2:] == [{"p": 1, "play": ["africans/zebra", "africans/giraffe"]},
                              {"p": 0, "play": ["indians/wolf", "indians/bear"]}]


def test_three_players_raise_answer_and_war_won_by_the_totem(tmp_path):
    t = make(tmp_path)
    game = set_up(t, ("Ana", "Ben", "Cleo"), 0)
    for card in ("indians/eagle", "eskimos/narwhal", "indians/buffalo"):
        scan(t, card)
    t.handle(Press("ok"))
    place(t, "aborigines/eagle", "indians/bear", "indians/hawk")
    place(t, "aborigines/kookaburra", "aborigines/turtle", "eskimos/owl", "eskimos/whale")
    assert t.view.done == "Cleo raises to 4 (T5)" and game.level == 4
    place(t, "eskimos/polar_bear", "eskimos/walrus", "indians/raven", "indians/salmon")
    assert game.to_move == 1 and game.legal_counts() == [1]     # Ben answers (T6)
    place(t, "africans/vulture")
    result = game.last_round
    assert result.warring == (0, 1, 2) and result.war_points == (5, 7, 7)
    assert result.habitats == (None, "air", "water") and result.taker == 1
    assert [len(cards) for cards in game.taken] == [0, 12, 0]
    assert t.screen == "round" and t.view.count == 8            # summary, 3 + 3, next
    assert write_record(game) == WAR_RECORD_ON_THE_BOX


def test_undo_from_the_round_result_takes_the_round_back(tmp_path):
    t = make(tmp_path)
    play_war_round(t)
    game = t.game
    t.handle(Press("back"))
    assert t.screen == "confirm" and t.view.detail == "Ben placed 1 card"
    assert t.handle(Press("ok")).signal == "accepted"
    assert game.rounds == () and game.to_move == 1 and t.screen == "board"
    assert t.view.done == "Taken back: Ben placed 1 card"
    assert journal(t)[-1] == {"undo": True}
    assert place(t, "africans/vulture").signal is not None and len(game.rounds) == 1


def test_back_takes_the_last_scanned_card_off_and_confirmation_can_be_declined(tmp_path):
    t = make(tmp_path)
    game = set_up(t, ("Ana", "Ben"), 1)                          # Ben deals: Ana starts
    scan(t, "indians/snake"); scan(t, "africans/lion")
    t.handle(Press("ok"))
    scan(t, "indians/wolf"); scan(t, "indians/bear")
    t.handle(Press("back"))
    assert t.view.pending == (game.deck.card("indians/wolf"),)
    assert t.message == "Bear (Indians) taken off: not placed"
    t.handle(Press("back"))
    t.handle(Press("back"))                                      # nothing scanned: undo?
    assert t.screen == "confirm" and t.view.detail == "Ben's totem"
    t.handle(Press("back"))                                      # no
    assert t.screen == "board" and game.phase == "play"
    t.handle(Press("back")); t.handle(Press("ok"))               # yes: Ben's totem again
    assert game.phase == "totems" and t.view.done == 1
    scan(t, "africans/hippo")
    assert journal(t)[-1] == {"totems": ["indians/snake", "africans/hippo"]}


def test_buttons_only_totems_and_placement_with_the_card_picker(tmp_path):
    t = make(tmp_path)
    game = set_up(t, ("Ana", "Ben"), 0)

    def pick(card):
        t.handle(Press("ok"))
        assert t.screen == "menu"
        for _ in range(20):
            if t.view.choice.value == card.split("/")[0]:
                break
            t.handle(Press("down"))
        t.handle(Press("ok"))
        for _ in range(20):
            if t.view.choice.value.name == card:
                return t.handle(Press("ok"))
            t.handle(Press("down"))
        raise AssertionError(card)

    pick("africans/lion"); pick("indians/snake")
    assert game.totems == (game.deck.card("indians/snake"), game.deck.card("africans/lion"))
    t.handle(Press("ok"))
    pick("africans/zebra")
    assert t.handle(Press("ok")).signal == "your_turn"
    assert game.table[1] == (game.deck.card("africans/zebra"),)
    t.handle(Press("ok"))                                        # opens the picker
    t.handle(Press("back"))
    assert t.screen == "board"


def test_hold_back_offers_to_leave_and_the_game_is_kept(tmp_path):
    t = make(tmp_path)
    set_up(t, ("Ana", "Ben"), 0)
    scan(t, "africans/lion"); scan(t, "indians/snake")
    t.handle(Hold("back"))
    assert t.view.question == "Leave this game?"
    t.handle(Press("ok"))
    assert t.screen == "menu" and t.game is None
    again = make(tmp_path)
    assert again.screen == "deal" and again.game.totems[1].name == "africans/lion"


def test_four_players_play_a_whole_game_and_the_big_game_counts_it(tmp_path):
    t = make(tmp_path)
    rng = random.Random(4)
    names = ("Ana", "Ben", "Cleo", "Dan")
    lines = []
    game = _play(t, TotemWarsPlayer(t, rng), names, 2, [greedy_bot] * 4, rng, lines.append, kept=True)
    assert game.outcome() is not None and t.screen == "menu"
    assert t.message == "Finished game kept"
    kept = list((t.data_dir / "games").iterdir())
    assert len(kept) == 1 and read_record(kept[0].read_text())[0].outcome() == game.outcome()
    big = load_big_game(t.data_dir)
    assert big.match.totals == tuple(game.points(p) for p in range(4)) and big.match.dealer == 3
    assert lines[-1].startswith("Big game to 42 (T16): Ana ")


def test_totems_stay_secret_until_all_are_down(tmp_path):
    frames = []
    for n, card in enumerate(("africans/lion", "eskimos/seal")):
        t = make(tmp_path / str(n))
        set_up(t, ("Ana", "Ben"), 0)
        scan(t, card)
        frames.append(t.frame().tobytes())
        assert t.game.totems == (None, None)
    assert frames[0] == frames[1]                                # who is done, never which card


def test_a_scan_on_the_deal_reminder_starts_the_first_placement(tmp_path):
    t = make(tmp_path)
    game = set_up(t, ("Ana", "Ben"), 0)
    scan(t, "africans/lion"); scan(t, "indians/snake")
    assert t.screen == "deal"
    assert scan(t, "africans/zebra").signal == "accepted"        # no scan is lost
    assert t.screen == "board" and [c.name for c in t.view.pending] == ["africans/zebra"]
    assert game.to_move == 1
