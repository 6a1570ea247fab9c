"""A war's declaration at the box (R2): the owner of a two-habitat totem is asked, the best
habitat offered first; the journal keeps the answer; undo takes it back like a placement."""

from pathlib import Path

from tw_table_helpers import journal, make, place, scan, set_up

from companion.events import Press
from companion.games.totem_wars import Declare, read_record
from companion.games.totem_wars.views import frame_after

DATA = Path(__file__).parent / "data"


def to_the_war(tmp_path):
    """The rulebook check's example at the box: Ana (crocodile: water, land) and Ben (eagle:
    air) lay one card each, 0 points against 0, and the war's habitats decide it (T11)."""
    t = make(tmp_path)
    set_up(t, ("Ana", "Ben"), 0)
    scan(t, "indians/eagle"); scan(t, "africans/crocodile")      # Ben, then Ana (T2)
    t.handle(Press("ok"))
    place(t, "eskimos/whale")
    out = place(t, "aborigines/cockatoo")
    return t, out


def test_the_box_asks_ana_and_ok_declares_the_offered_land_so_ana_takes_the_cards(tmp_path):
    t, out = to_the_war(tmp_path)
    game = t.game
    assert out.signal == "accepted" and game.rounds == ()       # Ana answers her own question
    assert t.screen == "declare" and t.view.selected == 0
    assert game.declaration_due.player == 0 and game.declaration_due.habitats == ("land", "water")
    assert t.handle(Press("ok")).signal == "accepted"
    assert journal(t)[-1] == {"p": 0, "habitat": "land"}
    result = game.last_round
    assert result.declared == ("land", None) and result.taker == 0 and result.rule == "T11"
    assert t.screen == "round" and t.view.page == 0


def test_up_and_down_choose_another_habitat(tmp_path):
    t, _ = to_the_war(tmp_path)
    t.handle(Press("down"))
    assert t.view.selected == 1
    t.handle(Press("up")); t.handle(Press("up"))                 # round and round
    assert t.view.selected == 1
    t.handle(Press("ok"))
    assert journal(t)[-1] == {"p": 0, "habitat": "water"} and t.game.last_round.taker == 1


def test_a_card_waits_until_the_war_is_declared(tmp_path):
    t, _ = to_the_war(tmp_path)
    out = scan(t, "indians/wolf")
    assert out.signal == "refused" and t.message == "Ana declares the totem's habitat first — R2"
    assert t.screen == "declare" and len(journal(t)) == 4         # nothing kept


def test_undo_takes_the_declaration_back_then_the_placement(tmp_path):
    t, _ = to_the_war(tmp_path)
    game = t.game
    t.handle(Press("ok"))                                         # declared: the result pages
    t.handle(Press("back"))
    assert t.screen == "confirm" and t.view.detail == "Ana declared land"
    t.handle(Press("ok"))
    assert game.rounds == () and t.screen == "declare" and t.view.selected == 0
    assert journal(t)[-1] == {"undo": True}
    t.handle(Press("back"))                                       # Back on the question: undo?
    assert t.screen == "confirm" and t.view.detail == "Ana placed 1 card"
    t.handle(Press("ok"))
    assert game.declaration_due is None and t.screen == "board" and game.to_move == 0


def test_a_resumed_game_asks_again_and_replay_shows_the_question(tmp_path):
    t, _ = to_the_war(tmp_path)
    shown = t.frame().tobytes()
    again = make(tmp_path)                                        # the journal, read back
    assert again.screen == "declare" and again.game.history == t.game.history
    assert frame_after(again.game).tobytes() == shown
    again.handle(Press("ok"))
    assert again.game.history[-1] == (0, Declare("land")) and again.game.last_round.taker == 0


def test_a_game_kept_before_declarations_resumes_and_undoes_as_its_journal_reads(tmp_path):
    # Two wars without their habitat lines, then Ben's placement: read with the old choice.
    (tmp_path / "data").mkdir()
    journal_path = tmp_path / "data" / "current.jsonl"
    journal_path.write_text((DATA / "totem_wars_before_declarations.jsonl").read_text())
    t = make(tmp_path)
    game = t.game
    assert t.screen == "board" and [r.taker for r in game.rounds] == [1, 1] and game.to_move == 0
    for detail in ("Ben placed 1 card", "Ana placed 1 card"):  # the war's play and its habitat
        t.handle(Press("back"))
        assert t.screen == "confirm" and t.view.detail == detail
        t.handle(Press("ok"))
    assert len(game.rounds) == 1 and game.to_move == 0 and game.declaration_due is None
    again, _ = read_record(journal_path.read_text())
    assert again.history == game.history and again.table == game.table
