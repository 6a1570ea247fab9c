"""Refused actions and bad input at a Totem Wars table: one line with the rule, no change."""

import pytest
from tw_table_helpers import journal, make, place, play_war_round, scan, set_up

from companion.errors import UserError
from companion.events import Press, ReaderState, Tag, TagGone


@pytest.fixture
def table(tmp_path):
    """Ana and Ben, Ana deals; totems laid (Ben lion, Ana snake); Ben to start round 1."""
    t = make(tmp_path)
    set_up(t, ("Ana", "Ben"), 0)
    scan(t, "africans/lion"); scan(t, "indians/snake")
    t.handle(Press("ok"))
    return t


def unchanged(t, action):
    """Run ``action`` and check the game and its journal did not move."""
    before = (t.game.history, t.game.table, t.game.hand_sizes, len(journal(t)), t.view.pending)
    out = action()
    assert (t.game.history, t.game.table, t.game.hand_sizes, len(journal(t)),
            t.view.pending) == before
    return out


@pytest.mark.parametrize("card, line", [
    ("indians/snake", "Snake (Indians) is a totem — T2"),
    ("indians/dragon", "No card indians/dragon in this game's deck — T1a"),
])
def test_a_card_that_cannot_be_in_a_hand_is_refused(table, card, line):
    out = unchanged(table, lambda: scan(table, card))
    assert out.signal == "refused" and table.message == line and table.view.refused


def test_a_card_on_the_table_and_a_taken_card_are_refused(tmp_path):
    t = make(tmp_path)
    play_war_round(t)                                            # Ben took 12 cards
    t.handle(Press("ok"))
    assert scan(t, "indians/raven").signal == "refused"          # a scan leaves the pages
    assert t.message == "Raven (Indians) was taken — T9" and t.screen == "board"
    place(t, "africans/lion")                                    # Ben starts round 2
    out = scan(t, "africans/lion")
    assert out.signal == "refused" and t.message == "Lion (Africans) is on the table already — T4"


def test_a_card_scanned_twice_for_one_placement_is_refused(table):
    scan(table, "africans/zebra")
    out = unchanged(table, lambda: scan(table, "africans/zebra"))
    assert out.signal == "refused" and table.message == "Zebra (Africans) is scanned already — T4"


def test_a_repeated_read_of_a_card_still_on_the_pad_is_ignored(table):
    assert table.handle(Tag("africans/zebra")).signal == "accepted"
    assert table.handle(Tag("africans/zebra")).signal is None
    assert len(table.view.pending) == 1
    table.handle(TagGone("africans/zebra"))
    assert table.handle(Tag("africans/zebra")).signal == "refused"   # put back: a new scan


def test_more_cards_than_the_hand_holds_are_refused(table):
    for card in ("africans/zebra", "africans/giraffe", "africans/hippo", "africans/gorilla",
                 "africans/leopard"):
        assert scan(table, card).signal == "accepted"
    out = unchanged(table, lambda: scan(table, "africans/eagle"))
    assert out.signal == "refused" and table.message == "Ben holds only 5 cards — T5"


def test_an_answer_too_big_is_refused_at_the_scan(table):
    place(table, "africans/zebra")
    place(table, "indians/wolf", "indians/bear")                 # Ana raises to 2
    assert table.game.legal_counts() == [1]                      # Ben answers 1 (T6)
    scan(table, "africans/giraffe")
    out = scan(table, "africans/hippo")
    assert out.signal == "refused" and table.message == "Ben answers with exactly 1 card — T6"


def test_ok_with_too_few_cards_is_refused_and_keeps_the_scans(table):
    place(table, "africans/zebra", "africans/giraffe")
    before = (table.game.history, len(journal(table)))
    out = place(table, "indians/wolf")
    assert out.signal == "refused" and (table.game.history, len(journal(table))) == before
    assert [c.name for c in table.view.pending] == ["indians/wolf"]
    assert table.message == "Place at least 2 cards, the level of this round — T5"


def test_the_same_totem_twice_is_refused_without_naming_it(tmp_path):
    t = make(tmp_path)
    set_up(t, ("Ana", "Ben", "Cleo"), 0)
    scan(t, "africans/lion")
    out = scan(t, "africans/lion")
    assert out.signal == "refused" and t.view.done == 1
    assert t.message == "That card is down as a totem already — T2"    # secret until all down


def test_the_totem_picker_still_lists_the_totems_laid(tmp_path):
    t = make(tmp_path)
    set_up(t, ("Ana", "Ben", "Cleo"), 0)
    scan(t, "africans/lion")                                    # Ben's totem
    t.handle(Press("up"))                                       # Cleo picks with the buttons
    assert t.flow.picker.choice.labels == ("Aborigines", "Africans", "Eskimos", "Indians")
    while t.flow.picker.choice.value != "africans":
        t.handle(Press("down"))
    t.handle(Press("ok"))
    assert "Lion" in t.flow.picker.choice.labels                # a gap would give it away
    while t.flow.picker.choice.value.name != "africans/lion":
        t.handle(Press("down"))
    assert t.handle(Press("ok")).signal == "refused"
    assert t.message == "That card is down as a totem already — T2" and t.view.done == 1


def test_unknown_tags_and_wakanda_pieces_are_explained(tmp_path):
    t = make(tmp_path, players=(), tags={"0A1B2C3D4E": "indians/wolf"})
    set_up(t, ("Player 1", "Player 2"), 0)
    assert scan(t, "0011223344").signal == "refused" and t.message == "Unknown tag — enroll it"
    assert scan(t, "eagle").signal == "refused"
    assert t.message == "A Wakanda piece: this game is Totem Wars"
    assert scan(t, "0a1b2c3d4e").signal == "accepted" and t.view.done == 1   # enrolled UID


def test_a_reader_unplugged_says_so_and_the_game_goes_on(table):
    out = table.handle(ReaderState("pad", False))
    assert out.signal == "refused" and table.message.startswith("Reader unplugged")
    assert scan(table, "africans/zebra").signal == "accepted"


def test_nothing_to_take_back_at_the_first_totem(tmp_path):
    t = make(tmp_path)
    set_up(t, ("Ana", "Ben"), 0)
    assert t.handle(Press("back")).signal == "refused"
    assert t.message == "Nothing to take back yet"


def test_a_journal_that_cannot_be_written_refuses_the_placement(table, mocker):
    append = mocker.patch.object(table.play.journal, "append", side_effect=UserError("disk full"))
    scan(table, "africans/zebra")
    out = table.handle(Press("ok"))
    assert out.signal == "refused" and table.message == "Cannot save the game: not played"
    assert table.game.table == ((), ()) and len(table.view.pending) == 1
    append.assert_called_once()
    mocker.stop(append)                                          # room on the disk again
    assert table.handle(Press("ok")).signal == "your_turn"       # the scan was kept: ok plays it
    assert [c.name for c in table.game.table[1]] == ["africans/zebra"] and not table.view.pending
    assert journal(table)[-1] == append.call_args.args[0]        # the very line that failed
