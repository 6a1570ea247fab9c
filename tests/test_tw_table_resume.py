"""Resuming a Totem Wars game: journal text → state → the same screen, torn lines dropped."""

from tw_table_helpers import (
    WAR_RECORD,
    WAR_RECORD_ON_THE_BOX,
    as_written,
    make,
    place,
    play_war_round,
    scan,
    set_up,
)

from companion.events import Press
from companion.games.totem_wars import read_record, write_record
from companion.games.totem_wars.round_screens import round_page
from companion.table.journal import CURRENT
from companion.table.registry import TagRegistry
from companion.table.session import Session


def write_journal(tmp_path, text):
    folder = tmp_path / "data"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / CURRENT).write_text(text, encoding="utf-8")


def test_resume_in_the_middle_of_a_war_shows_the_same_screen(tmp_path):
    t = make(tmp_path)
    play_war_round(t)
    t.handle(Press("ok"))
    t.handle(Press("ok"))                                        # page 3 of the war's result
    before = t.frame().tobytes()
    again = make(tmp_path)                                       # the power came back
    assert write_record(again.game) == write_record(t.game) == WAR_RECORD_ON_THE_BOX
    assert again.screen == "round" and again.view.page == 0
    assert again.frame().tobytes() == round_page(t.game, t.game.last_round, 0).tobytes()
    assert before != again.frame().tobytes()                     # pages are a view, not state
    again.handle(Press("ok")); again.handle(Press("ok"))
    assert again.frame().tobytes() == before


def test_journal_text_before_the_war_gives_the_state_and_the_screen(tmp_path):
    lines = WAR_RECORD.splitlines(True)
    write_journal(tmp_path, "".join(lines[:5]))                  # Ben's answer still to come
    t = make(tmp_path)
    game = t.game
    assert t.screen == "board" and game.to_move == 1 and game.level == 4
    assert game.table[2] and game.legal_counts() == [1]
    assert t.message == "Resumed. Ben: rescan cards laid, then OK"  # a scan without OK is lost
    t.handle(Press("back")); t.handle(Press("back"))             # the note goes with the next key
    live = make(tmp_path / "live")
    play_war_round(live)
    live.handle(Press("back")); live.handle(Press("ok"))         # take Ben's answer back
    assert live.game.table == game.table and live.game.hand_sizes == game.hand_sizes
    live.handle(Press("back")); live.handle(Press("back"))       # same screen with no note
    assert live.frame().tobytes() == t.frame().tobytes()
    place(t, "africans/vulture")
    assert t.game.last_round.taker == 1 and t.screen == "round"


def test_a_torn_last_line_is_dropped_on_resume(tmp_path):
    write_journal(tmp_path, WAR_RECORD + '{"p": 2, "play": ["afr')
    t = make(tmp_path)
    assert write_record(t.game) == as_written(WAR_RECORD) and t.screen == "round"
    t.handle(Press("back")); t.handle(Press("ok"))               # undo works after the cut
    text = (tmp_path / "data" / CURRENT).read_text()
    assert text == WAR_RECORD + '{"undo": true}\n'
    assert read_record(text)[0].rounds == ()


def test_resume_after_the_totems_shows_the_deal_reminder(tmp_path):
    write_journal(tmp_path, "".join(WAR_RECORD.splitlines(True)[:2]))
    t = make(tmp_path)
    assert t.screen == "deal"
    assert t.handle(Press("ok")).signal == "your_turn" and t.screen == "board"


def test_totems_laid_but_not_all_down_are_asked_again(tmp_path):
    t = make(tmp_path)
    set_up(t, ("Ana", "Ben", "Cleo"), 0)
    scan(t, "indians/eagle")
    again = make(tmp_path)                                       # only the header was kept
    assert again.screen == "totems" and again.view.done == 0


def test_a_finished_game_resumes_on_its_score_pages(tmp_path):
    from pathlib import Path
    text = (Path(__file__).parent / "data" / "totem_wars_finished.jsonl").read_text()
    write_journal(tmp_path, text)
    t = make(tmp_path)
    assert t.screen == "score" and t.view.count == 3


def test_a_line_the_record_refuses_resumes_the_game_before_it(tmp_path):
    write_journal(tmp_path, WAR_RECORD.replace('"indians/bear"', '"indians/dragon"'))
    box = Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json"))
    assert box.screen == "menu" and box.message == "Bad line 3 dropped"
    assert "line 3 dropped: unknown card 'indians/dragon'" in box.journal_problem
    kept = list((tmp_path / "data" / "games").iterdir())         # the whole file, as it was
    assert [p.name[16:] for p in kept] == ["totem-wars-damaged.jsonl"]
    assert "indians/dragon" in kept[0].read_text()
    t = make(tmp_path)                                           # resumed: the totems are down
    assert write_record(t.game) == as_written("".join(WAR_RECORD.splitlines(True)[:2]))
    assert t.screen == "deal"


def test_replay_frames_are_the_screens_the_box_showed(tmp_path):
    from companion.games.totem_wars.replay import frames
    shown = list(frames(WAR_RECORD))
    assert [note for _, note in shown][:2] == ["Ana, Ben, Cleo: set up, Ana deals", "All totems are down"]
    assert shown[-1][1] == "Ben placed 1 card"
    t = make(tmp_path)
    play_war_round(t)
    assert shown[-1][0].tobytes() == t.frame().tobytes()        # the war's first result page


def test_the_menu_names_the_game_to_resume_and_its_players(tmp_path):
    from companion.ui.screens import MENU_LINE_CHARS
    write_journal(tmp_path, WAR_RECORD)
    box = Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json"))
    assert box.view.choice.labels[0] == "Resume Totem Wars"
    assert box.view.footer == "Ana, Ben, Cleo"
    assert all(len(label) <= MENU_LINE_CHARS for label in box.view.choice.labels)
