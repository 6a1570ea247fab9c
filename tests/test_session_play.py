"""Playing Wakanda through the session: draw, build, claim, pass, reveal, undo, the end.

Every test feeds raw input events (as the hardware or a script would) and checks what the
players would see and what the journal keeps.
"""

import json
import random

from box_helpers import choose, scan

from companion.engine import Refusal
from companion.events import Hold, Press
from companion.games.wakanda import Build, Claim, Draw, Pass, Reveal
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.ui.canvas import frame_words

ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]


def make(tmp_path, tags=None, players=()):
    registry = TagRegistry(tmp_path / "tags.json", tags or {})
    return Session(tmp_path / "data", registry, players=players, rng=random.Random(1))






def set_up(session, row=ROW, variant="open", first=0):
    choose(session, "wakanda")
    choose(session, variant)
    for village in row[: 3 if variant == "hidden" else 6]:
        scan(session, f"village:{village}")
    choose(session, first)
    assert session.screen == "board"
    return session.game


def journal(session):
    return [json.loads(line) for line in
            (session.data_dir / "current.jsonl").read_text().splitlines()]


def test_draw_by_scan_and_build_by_scan_then_village(tmp_path):
    s = make(tmp_path)
    game = set_up(s)
    assert scan(s, "sun").signal == "accepted"
    assert game.hands[0]["sun"] == 1 and game.phase == "action"
    assert scan(s, "sun").signal == "accepted"          # the piece being placed
    assert s.view.pending == "sun"
    assert s.handle(Press("v2")).signal == "your_turn"
    assert game.poles[1] == ("sun",) and game.to_move == 1
    assert journal(s)[1:] == [{"p": 0, "draw": "sun"}, {"p": 0, "build": "sun", "village": 2}]


def test_buttons_only_draw_build_and_claim(tmp_path):
    s = make(tmp_path)
    game = set_up(s)
    s.handle(Press("ok"))                                # draw: pick the type
    assert s.screen == "picker"
    choose(s, Draw("eagle"))
    s.handle(Press("v1"))                                # one type in hand: built at once
    assert game.poles[0] == ("eagle",)
    s.handle(Press("ok"))
    choose(s, Draw("sun"))
    assert s.handle(Hold("v1")).signal == "your_turn"    # hold: claim
    assert game.owners[0] == 1
    assert journal(s)[-1] == {"p": 1, "claim": 1}


def test_picker_offers_the_hand_and_selects_the_piece_just_drawn(tmp_path):
    s = make(tmp_path)
    game = set_up(s)
    # Ana keeps a sun in hand by claiming instead of building it.
    scan(s, "sun"); s.handle(Press("v1"))                # Ana builds sun on 1
    scan(s, "skin"); s.handle(Press("v2"))               # Ben builds skin on 2
    scan(s, "sun"); s.handle(Hold("v1"))                 # Ana claims 1, keeps a sun
    scan(s, "teepee"); s.handle(Press("v3"))             # Ben
    scan(s, "chief")                                     # Ana holds sun and chief
    assert dict(game.hands[0]) == {**{p: 0 for p in game.hands[0]}, "sun": 1, "chief": 1}
    s.handle(Press("v2"))
    assert s.screen == "picker" and set(s.view.choice.labels) == {"chief", "sun"}
    assert s.view.choice.value == Build("chief", 2)      # the piece just drawn comes first
    s.handle(Press("down"))
    assert s.handle(Press("ok")).signal == "your_turn"
    assert game.poles[1] == ("skin", "sun")


def test_refused_action_changes_nothing_and_names_the_rule(tmp_path):
    s = make(tmp_path)
    game = set_up(s)
    out = s.handle(Press("v2"))
    assert out.signal == "refused" and s.message == "Draw first: the bag is not empty — W4"
    scan(s, "sun")
    before = (game.poles, game.hands[0]["sun"], len(journal(s)))
    out = s.handle(Press("v5"))
    assert out.signal == "refused"
    assert s.message == "Village 5 is not open yet — W4"
    assert s.view.refused
    assert (game.poles, game.hands[0]["sun"], len(journal(s))) == before
    out = s.handle(Hold("v1"))
    assert out.signal == "refused" and s.message.endswith("— R1")   # an empty pole
    s.handle(Press("ok"))
    assert s.screen == "picker"                          # OK lists the legal moves
    assert Claim(1) not in s.view.choice.values and Build("sun", 3) in s.view.choice.values


def test_pending_piece_stays_after_a_refusal_and_back_drops_it(tmp_path):
    s = make(tmp_path)
    game = set_up(s)
    scan(s, "sun")
    scan(s, "sun")
    s.handle(Press("v6"))
    assert s.view.pending == "sun"                       # still in hand, press another village
    s.handle(Press("back"))
    assert s.view.pending is None and s.screen == "board"
    assert game.hands[0]["sun"] == 1


def test_a_new_scan_drops_the_headdress_waiting_for_a_village(tmp_path):
    s = make(tmp_path)
    game = set_up(s)
    scan(s, "sun")
    scan(s, "wings")
    assert s.view.message == "Claim with the wings: press a village button"   # what waits
    assert s.handle(Press("v1")).signal == "refused"     # an empty pole cannot be claimed
    assert scan(s, "teepee").signal == "refused"         # not in hand: the wings are put down
    assert s.view.pending is None
    assert s.handle(Press("v1")).signal == "your_turn"   # the sun goes up, no claim refused
    assert game.poles[0] == ("sun",) and game.headdresses == (3, 3)


def test_the_board_always_says_what_to_do_and_what_was_done(tmp_path):
    s = make(tmp_path)
    set_up(s)
    assert s.view.message == "Player 1: draw a piece from the bag and scan it" and s.view.done is None
    scan(s, "sun")
    assert s.view.done == "Player 1 drew sun"                  # the action, confirmed…
    assert s.view.message == "Player 1: build a piece"          # …above the next step (nothing to claim, W4)
    scan(s, "sun")
    assert s.view.message == "Build the sun: press a village button" and s.view.done is None
    s.handle(Press("v6"))                                # refused: the reason shows instead
    assert s.view.refused and s.view.message.rule == "W4" and s.message.endswith("— W4")
    s.handle(Press("up"))
    assert s.view.message == "Build the sun: press a village button" and not s.view.refused
    s.handle(Press("v1"))
    assert s.view.done == "Sun on village 1"             # the name would not leave room
    assert s.view.message == "Player 2: draw and scan"


def test_an_undo_says_what_to_put_back_on_the_table(tmp_path):
    s = make(tmp_path)
    set_up(s)
    scan(s, "eagle")
    s.handle(Press("back"))
    assert s.handle(Press("ok")).signal == "accepted"
    assert s.view.message == "Taken back: put the eagle back in the bag"
    scan(s, "eagle")
    s.handle(Press("v1"))
    s.handle(Press("back")); s.handle(Press("ok"))
    assert s.view.message == "Taken back: eagle off village 1, to the hand"


def test_the_status_page_is_one_press_away_and_any_key_leaves_it(tmp_path):
    s = make(tmp_path)
    game = set_up(s)
    scan(s, "eagle")
    s.handle(Press("v1"))
    assert s.handle(Press("down")).signal is None and s.screen == "status"
    assert frame_words(s.frame())[1:4] == ["Points Hand", "Player 1 0 0 3", "Player 2 0 0 3"]
    assert frame_words(s.frame())[-1] == "Bag: 20 pieces"
    s.handle(Press("ok"))
    assert s.screen == "board" and len(game.history) == 2   # leaving the page does nothing else
    s.handle(Press("down"))
    scan(s, "sun")                                        # a scan leaves the page and is taken
    assert s.screen == "board" and game.history[-1][1] == Draw("sun")


def test_the_build_picker_title_fits_beside_its_counter(tmp_path):
    from companion.ui.canvas import MEDIUM, SMALL, WIDTH, text_width
    s = make(tmp_path)
    set_up(s)
    scan(s, "sun"); s.handle(Press("v1"))
    scan(s, "skin"); s.handle(Press("v2"))
    scan(s, "sun"); s.handle(Hold("v1"))                 # Ana keeps a sun
    scan(s, "teepee"); s.handle(Press("v3"))
    scan(s, "chief")
    s.handle(Press("v3"))                                # a chief and a sun in hand: which?
    assert s.screen == "picker"
    title, count = s.view.choice.title, f"{len(s.view.choice.labels)}/{len(s.view.choice.labels)}"
    assert "3" in title
    assert text_width(title, MEDIUM) <= WIDTH - 4 - text_width(count, SMALL) - 4


def test_headdress_scan_then_village_claims(tmp_path):
    s = make(tmp_path)
    game = set_up(s)
    scan(s, "sun"); s.handle(Press("v1"))
    scan(s, "skin")
    out = scan(s, "wings")                               # Ana's headdress on Ben's turn
    assert out.signal == "refused"
    assert s.message == "Wings are Player 1's; it is Player 2's turn — W4"
    assert scan(s, "crests").signal == "accepted"
    assert s.handle(Press("v1")).signal == "your_turn"
    assert game.owners[0] == 1 and game.headdresses == (3, 2)


def test_undo_any_number_of_times_journal_first(tmp_path):
    s = make(tmp_path)
    game = set_up(s)
    scan(s, "sun"); s.handle(Press("v1"))
    scan(s, "eagle"); s.handle(Press("v2"))
    for expected in (3, 2, 1, 0):
        s.handle(Press("back"))
        assert s.screen == "confirm"
        assert s.handle(Press("ok")).signal == "accepted"
        assert len(game.history) == expected
    assert game.bag["sun"] == 6 and game.bag["eagle"] == 1 and game.poles[0] == ()
    assert journal(s)[-4:] == [{"undo": True}] * 4
    out = s.handle(Press("undo"))
    assert out.signal == "refused" and s.message == "Nothing to take back yet"


def test_undo_confirmation_back_keeps_the_move_and_a_scan_is_not_lost(tmp_path):
    s = make(tmp_path)
    game = set_up(s)
    scan(s, "sun")
    s.handle(Press("back"))
    s.handle(Press("back"))                              # no: keep it
    assert game.hands[0]["sun"] == 1 and s.screen == "board"
    s.handle(Press("undo"))
    s.handle(Press("v1"))                                # the question is dropped, the press taken
    assert game.poles[0] == ("sun",)


def test_pass_is_pressed_when_nothing_is_possible(tmp_path):
    from companion.games.wakanda.bots import play_game
    ref = play_game(532)                                 # a game with a forced pass (R3)
    assert any(isinstance(m, Pass) for _, m in ref.history)
    s = make(tmp_path)
    game = set_up(s, row=list(ref.setup_villages), first=ref.first)
    for _, move in ref.history:
        if isinstance(move, Pass):
            assert s.view.message == "No move: OK to pass (R3)"          # under what was done
            assert s.handle(Press("v1")).signal == "refused"
            assert "R3" in s.message
            assert s.handle(Press("ok")).signal in ("your_turn", "accepted")
            assert game.history[-1][1] == Pass()
            return
        if isinstance(move, Draw):
            scan(s, move.piece)
        elif isinstance(move, Build):
            scan(s, move.piece); s.handle(Press(f"v{move.village}"))
        elif isinstance(move, Claim):
            s.handle(Hold(f"v{move.village}"))
        assert game.history[-1][1] == move


def test_hidden_variant_reveal_by_scan_and_by_buttons(tmp_path):
    s = make(tmp_path)
    game = set_up(s, variant="hidden")
    assert game.villages[3:] == (None, None, None)
    scan(s, "sun"); s.handle(Press("v1"))
    scan(s, "skin"); s.handle(Hold("v1"))
    assert game.phase == "reveal"
    out = scan(s, "teepee")
    assert out.signal == "refused" and s.message.endswith("W10")
    assert scan(s, "village:teepee").signal == "refused"   # already tile 1
    assert scan(s, "village:height").signal == "accepted"
    assert game.villages[3] == "height" and journal(s)[-1] == {"reveal": "height"}
    scan(s, "sun"); s.handle(Press("v2"))
    scan(s, "sun"); s.handle(Hold("v2"))
    s.handle(Press("ok"))
    choose(s, Reveal("skin"))
    assert game.villages[4] == "skin"
    s.handle(Press("back")); s.handle(Press("ok"))        # undo the reveal: asked again
    assert game.phase == "reveal" and game.villages[4] is None


def test_a_tile_scanned_in_the_hidden_variant_may_be_face_down(tmp_path):
    s = make(tmp_path)
    set_up(s, variant="hidden")
    scan(s, "village:sun")                               # not in the row yet: maybe face down
    assert s.message == "Face-down tiles turn up after a claim — W10"
    assert s.view.message == Refusal("face_down", rule="W10", domain="wakanda")


def test_the_tile_to_turn_up_is_asked_for(tmp_path):
    s = make(tmp_path)
    game = set_up(s, variant="hidden")
    scan(s, "sun"); s.handle(Press("v1"))
    scan(s, "skin"); s.handle(Hold("v1"))
    assert game.phase == "reveal"
    # Under the line of the claim just made, the prompt is its one-line form.
    assert s.view.done and s.view.message == "Turn up village 4"
    assert s.flow.prompt() == "Turn up village 4: scan it or OK"


def test_game_to_the_end_score_pages_then_menu(tmp_path):
    from companion.games.wakanda.bots import play_game
    ref = play_game(5)
    s = make(tmp_path)
    game = set_up(s, row=list(ref.setup_villages), first=ref.first)
    for _, move in ref.history:
        if isinstance(move, Draw):
            scan(s, move.piece)
        elif isinstance(move, Build):
            s.handle(Press(f"v{move.village}"))
            if s.screen == "picker":
                choose(s, move)
        elif isinstance(move, Claim):
            s.handle(Hold(f"v{move.village}"))
        elif isinstance(move, Pass):
            s.handle(Press("ok"))
    assert game.history == ref.history and game.outcome() is not None
    assert s.screen == "score"
    pages = len(s.flow.pages)
    assert pages >= 2
    s.handle(Press("down"))
    assert s.view.page == 1
    s.handle(Press("up")); s.handle(Press("up"))
    assert s.view.page == pages - 1                        # ▲ on the first page: the last one
    s.handle(Press("down"))                                # ▼ on the last page goes on, as OK does
    assert s.screen == "menu" and s.game is None
    kept = list((s.data_dir / "games").iterdir())
    assert len(kept) == 1 and not (s.data_dir / "current.jsonl").exists()
    assert s.view.choice.values[0] == "wakanda"           # nothing left to resume


def test_last_claim_can_be_taken_back_from_the_score(tmp_path):
    from companion.games.wakanda.bots import play_game
    ref = play_game(2)
    s = make(tmp_path)
    game = set_up(s, row=list(ref.setup_villages), first=ref.first)
    for _, move in ref.history:
        if isinstance(move, Draw):
            s.handle(Press("ok")); choose(s, move)
        elif isinstance(move, Build):
            s.handle(Press("ok")); choose(s, move)
        elif isinstance(move, Claim):
            s.handle(Press("ok")); choose(s, move)
        else:
            s.handle(Press("ok"))
    assert s.screen == "score"
    s.handle(Press("back"))
    assert s.screen == "confirm"
    s.handle(Press("ok"))
    assert s.screen == "board" and game.outcome() is None
    assert journal(s)[-1] == {"undo": True}


def test_a_take_back_from_the_score_that_cannot_be_saved_keeps_the_score(tmp_path):
    from companion.errors import UserError
    from companion.games.wakanda.bots import play_game
    ref = play_game(2)
    s = make(tmp_path)
    game = set_up(s, row=list(ref.setup_villages), first=ref.first)
    for _, move in ref.history:
        s.handle(Press("ok"))
        if s.screen == "picker":
            choose(s, move)
    assert s.screen == "score"

    def broken(line):
        raise UserError("cannot write the game journal: No space left on device")

    s.play.journal.append = broken
    s.handle(Press("back"))
    out = s.handle(Press("ok"))
    assert out.signal == "refused" and "nothing taken back" in s.message
    assert s.screen == "score" and game.outcome() is not None
    assert s.handle(Press("ok")).signal is None and s.screen == "menu"   # the game is kept


def test_leave_to_menu_keeps_the_game_for_resume(tmp_path):
    s = make(tmp_path)
    game = set_up(s)
    scan(s, "sun"); s.handle(Press("v1"))
    s.handle(Hold("back"))
    assert s.screen == "confirm"
    s.handle(Press("ok"))
    assert s.screen == "menu" and s.view.choice.values[0] == "resume"
    s.handle(Press("ok"))
    assert s.screen == "board" and s.game.history == game.history


def test_journal_failure_refuses_and_keeps_the_state(tmp_path):
    s = make(tmp_path)
    game = set_up(s)

    def broken(line):
        from companion.errors import UserError
        raise UserError("cannot write the game journal: No space left on device")

    s.play.journal.append = broken
    out = scan(s, "sun")
    assert out.signal == "refused" and "not played" in s.message
    assert game.history == () and game.bag["sun"] == 6


def test_the_journal_has_the_action_before_the_frame_shows_it(tmp_path):
    s = make(tmp_path)
    set_up(s)
    journal_file = s.play.journal
    written, real_append = [], journal_file.append

    def spy(line):
        real_append(line)
        on_disk = (s.data_dir / "current.jsonl").read_text().splitlines()[-1]
        written.append((json.loads(on_disk), s.frame()))

    journal_file.append = spy
    before = s.frame()
    out = scan(s, "eagle")
    assert written == [({"p": 0, "draw": "eagle"}, before)]   # on disk while the old frame showed
    assert out.frame is not before and out.signal == "accepted"
