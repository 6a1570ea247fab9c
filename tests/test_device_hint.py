"""The hint button in play, on the box (companion/table/hint_pages.py, Wakanda's coach in
companion/games/wakanda/hints.py): the suggested move on the board picture — its village
alone lit, its piece waiting on the pole — with its reason, the next best at the next press,
then the rule; on a refusal the rule first, then the moves; what to do when a draw or a tile
is due; the screen given back exactly; a scan or a village button closing it and counting;
one search a position; the Hints setting (off: the rule alone) kept in the record and
through resume; only what the player to move knows; input scripts and the text display;
golden images of the hint screens."""

from __future__ import annotations

import json
import random

import pytest
from board_pixels import lit_villages
from box_helpers import choose, scan
from conftest import WORKED_EXAMPLE, play

from companion.cli import main
from companion.errors import RecordError
from companion.events import Hold, Press, Tag
from companion.games.wakanda import Build, Claim, read_record, write_record
from companion.games.wakanda import hints as coach_module
from companion.games.wakanda.hints import Coach
from companion.games.wakanda.information import information_set
from companion.games.wakanda.reasons import reason
from companion.games.wakanda.screens import HINT_LINES, hint_screen
from companion.games.wakanda.search import suggest
from companion.games.wakanda.words import t as wakanda_t
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.settings import SETTINGS_FILE, Settings, SettingsStore
from companion.table.views import WhyView, render
from companion.ui import text
from companion.ui.canvas import SMALL, WIDTH, frame_words, wrap
from companion.ui.screens import FOOTER_CHARS, MENU_LINE_CHARS, paginate
from companion.words import LANGUAGES

ROW = ("teepee", "eagle", "chief", "variety", "sun", "tomahawk")
#: The worked example after 25 moves: Ana to build or claim, a skin and two tomahawks in
#: hand, villages 1 and 2 hers; she may build on 3, 4 and 5 or claim 3.
MIDGAME = " ".join(WORKED_EXAMPLE.split()[:25])


# --- helpers ---------------------------------------------------------------------------------

def resumed(tmp_path, game, *, hints: bool = True) -> Session:
    """A box whose journal holds ``game``, resumed from the menu; ``hints``: the box's
    Hints setting now."""
    data = tmp_path / "data"
    data.mkdir(parents=True, exist_ok=True)
    (data / "current.jsonl").write_text(write_record(game), encoding="utf-8")
    store = SettingsStore(None, settings=Settings(hints=hints))
    box = Session(data, TagRegistry(tmp_path / "tags.json", {}), settings=store)
    choose(box, "resume")
    assert box.screen == "board"
    return box


def journal(box: Session) -> str:
    return (box.data_dir / "current.jsonl").read_text(encoding="utf-8")


def screen_of(box: Session):
    """What a player sees: the view, the note and the picture."""
    return box.view, box.message, box.frame().tobytes()


def words(box: Session) -> list[str]:
    """The frame's words, as ``--display text`` prints them."""
    return frame_words(box.frame())


def press(box: Session, button: str):
    return box.handle(Press(button))


def midgame(**settings):
    return play(MIDGAME, hints=True, **settings)


# --- the moves, best first, then the rule ------------------------------------------------------

def test_at_a_choice_hint_shows_the_best_move_lit_then_the_next_best_then_the_rule(tmp_path):
    game = midgame()
    expected = suggest(game)                         # what the search answers for Ana
    box = resumed(tmp_path, game)
    before, kept = screen_of(box), journal(box)
    assert lit_villages(box.frame()) == {3, 4, 5}    # the board: where Ana can play
    press(box, "hint")
    assert box.screen == "hint" and box.view.tip.move == expected.move
    # The search's reason as a line of its own: "Claim village 3: locks 11 points for you".
    assert box.view.tip.words == expected.reason[:1].upper() + expected.reason[1:]
    assert words(box)[-1] == "1/3 · HINT: next move"
    assert lit_villages(box.frame()) == {expected.move.village}
    press(box, "hint")
    second = expected.alternatives[0].move
    assert box.view.tip.move == second and box.view.number == 2
    assert lit_villages(box.frame()) == {second.village}
    assert words(box)[-1] == "2/3 · HINT: next move"
    press(box, "hint")
    assert box.view.tip.move == expected.alternatives[1].move
    assert words(box)[-1] == "3/3 · HINT: the rule"
    press(box, "hint")
    assert box.view.kind == "why" and box.view.rule == "W4" and box.view.then is None
    press(box, "hint")                               # the end: the board as it was
    assert screen_of(box) == before and journal(box) == kept


def test_a_build_tip_shows_the_piece_on_its_pole_and_says_why(tmp_path):
    game = midgame()
    box = resumed(tmp_path, game)
    press(box, "hint")
    while not isinstance(box.view.tip.move, Build):
        press(box, "hint")
    tip = box.view.tip
    assert lit_villages(box.frame()) == {tip.move.village}
    board = hint_screen(game, None, tip.words, box.view.footer)   # the same, with no move
    assert box.frame().tobytes() != board.tobytes()               # the piece is drawn
    info = information_set(game, 0)
    assert tip.words.startswith(f"Build {tip.move.piece} on village {tip.move.village}: ")
    said = reason(info, tip.move, next(
        a.value for a in suggest(game).alternatives if a.move == tip.move), best=False)
    assert tip.words == said[:1].upper() + said[1:]


@pytest.mark.parametrize("button", ["ok", "back", "undo"])
def test_ok_back_and_undo_give_the_screen_back_exactly(tmp_path, button):
    box = resumed(tmp_path, midgame())
    scan(box, "skin")                                # a piece waiting for its village
    before, kept = screen_of(box), journal(box)
    press(box, "hint"); press(box, "hint")
    assert press(box, button).signal is None
    assert screen_of(box) == before and journal(box) == kept
    assert box.flow.confirming is None               # UNDO only closed the hint


def test_a_village_button_or_a_scan_closes_the_hint_and_counts(tmp_path):
    box = resumed(tmp_path, midgame())
    press(box, "hint")
    assert box.handle(Hold("v3")).signal == "your_turn"          # Ana claims village 3
    assert box.screen == "board" and box.game.owners[2] == 0
    assert journal(box).splitlines()[-1] == '{"p": 0, "claim": 3}'
    press(box, "hint")                                           # Ben must draw: what to do
    assert box.screen == "hint" and box.view.tip.move is None
    assert scan(box, "teepee").signal == "accepted"              # the draw counts
    assert box.screen == "board" and box.game.hands[1]["teepee"] == 1


def test_up_and_down_step_between_the_moves_and_never_open_the_status(tmp_path):
    box = resumed(tmp_path, midgame())
    press(box, "hint")
    numbers = []
    for button in ("down", "down", "down", "up"):
        press(box, button)
        numbers.append(box.view.number)
    assert numbers == [2, 3, 3, 2]
    press(box, "ok")
    assert box.screen == "board"                     # not the status page (DOWN on the board)


def test_a_new_note_closes_the_hint(tmp_path):
    box = resumed(tmp_path, midgame())
    press(box, "hint")
    assert box.handle(Tag("0A1B2C3D4E", "pad")).signal == "refused"   # an unknown tag
    assert box.screen == "board" and box.message == wakanda_t("session.unknown_tag")


# --- on a refusal: the rule first ---------------------------------------------------------------

def test_on_a_refusal_the_rule_comes_first_then_the_moves(tmp_path):
    box = resumed(tmp_path, midgame())
    assert box.handle(Hold("v6")).signal == "refused"            # village 6 is still turned
    before = screen_of(box)
    assert box.message.endswith("— W4")
    press(box, "hint")
    assert box.view.kind == "why" and box.view.rule == "W4"
    assert box.view.then == "HINT: a move"
    assert words(box)[-1] == "▲▼ more · HINT: a move"
    press(box, "down")                                           # ▲▼ still turn the pages
    assert box.view.page == 1
    press(box, "hint")
    assert box.screen == "hint" and box.view.number == 1
    press(box, "hint"); press(box, "hint")
    assert words(box)[-1] == "3/3 · OK back"                     # the rule was seen already
    press(box, "hint")
    assert screen_of(box) == before                              # the refusal is still there


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_footer_and_advice_fits_uncut(lang):
    thens = [wakanda_t(f"hint.then.{key}", lang) for key in ("next", "rule", "move", "advice")]
    footers = [wakanda_t("hint.footer", lang, n=3, of=3, then=then)
               for then in [*thens, wakanda_t("rules.footer_one", lang)]]
    footers += [wakanda_t(key, lang, then=then) for key in ("hint.footer_one", "rules.footer_then")
                for then in thens]
    assert all(len(footer) <= FOOTER_CHARS for footer in footers), footers
    advice = [wakanda_t("hint.now.draw", lang), wakanda_t("hint.now.reveal", lang, n=4)]
    assert all(len(wrap(line, WIDTH - 4, SMALL)) <= HINT_LINES for line in advice)
    for key in ("settings.hints_on", "settings.hints_off"):
        assert len(wakanda_t(key, lang)) <= MENU_LINE_CHARS
    assert len(wakanda_t("settings.hints_about", lang)) <= FOOTER_CHARS


def test_a_one_page_rule_says_what_hint_gives_next(tmp_path):
    view = WhyView("R7", "Suns in hand", tuple(paginate("Suns left in a hand at the end cost nothing.")),
                   then="HINT: a move")
    assert frame_words(render(view))[-1] == "HINT: a move · OK back"


# --- no choice due: what to do ------------------------------------------------------------------

def test_when_a_draw_is_due_hint_says_to_draw_then_gives_the_rule(tmp_path):
    box = resumed(tmp_path, play("d:eagle b:eagle:2", hints=True))
    before = screen_of(box)
    press(box, "hint")
    assert box.view.tip.move is None and box.view.count == 1
    assert words(box)[-4:] == ["No choice yet: draw a", "piece from the bag and", "scan it",
                               "HINT: the rule · OK back"]
    assert lit_villages(box.frame()) == set()
    press(box, "hint")
    assert box.view.rule == "W4"
    press(box, "hint")
    assert screen_of(box) == before


def test_when_a_tile_is_due_hint_says_to_turn_it_up(tmp_path):
    game = play("d:eagle b:eagle:2 d:sun c:2", villages=("teepee", "eagle", "chief", None, None, None),
                variant="hidden", hints=True)
    assert game.phase == "reveal"
    box = resumed(tmp_path, game)
    press(box, "hint")
    assert box.view.tip.words == "No choice yet: turn up village 4 and scan it"
    press(box, "hint")
    assert box.view.rule == "W10"


def test_a_finished_game_gives_no_tips():
    game = play(WORKED_EXAMPLE, hints=True)
    assert Coach().tips(game) == ()


def test_the_seat_the_box_plays_gets_no_tips_its_opponent_does():
    game = play("d:eagle b:eagle:2 d:sun", hints=True, box={1: "easy"})
    assert game.to_move == 1 and Coach().tips(game) == ()
    game.push(Build("sun", 1)); game.push(next(iter(game.legal_moves())))
    assert game.to_move == 0 and len(Coach().tips(game)) > 1


# --- one search a position ------------------------------------------------------------------------

def test_the_search_runs_once_a_position(tmp_path, mocker):
    box = resumed(tmp_path, midgame())
    searched = mocker.spy(coach_module, "suggest")
    for button in ("hint", "hint", "hint", "down", "up", "ok", "hint", "hint"):
        press(box, button)
    assert searched.call_count == 1                  # stepping, closing, opening again: no search
    press(box, "back"); box.handle(Hold("v3"))       # Ana claims: Ben's turn
    scan(box, "sun")
    press(box, "hint")
    assert searched.call_count == 2                  # a new position


def test_the_hint_reads_only_what_the_player_to_move_knows(tmp_path):
    """Two games that differ only in the piece Ben holds give Ana the same tips."""
    tips = []
    for hidden in ("chief", "tomahawk"):
        game = play(f"d:eagle b:eagle:2 d:{hidden} c:2 d:sun", hints=True)
        assert game.hands[1][hidden] == 1 and game.to_move == 0
        box = resumed(tmp_path / hidden, game)
        press(box, "hint")
        shown = [box.view.tip]
        while box.screen == "hint" and box.view.number < box.view.count:
            press(box, "hint")
            shown.append(box.view.tip)
        tips.append(shown)
    assert tips[0] == tips[1] and len(tips[0]) > 1


# --- the Hints setting, the record, resume -------------------------------------------------------

def test_hints_off_give_the_rule_alone_and_the_record_says_nothing(tmp_path):
    data = tmp_path / "data"
    store, _ = SettingsStore.load(data, games=("wakanda", "totem-wars"), languages=("en", "bg"))
    box = Session(data, TagRegistry(tmp_path / "tags.json", {}), settings=store,
                  rng=random.Random(1))
    choose(box, "settings")
    choose(box, "hints")                                         # on → off
    assert "Hints: off" in box.view.choice.labels
    assert json.loads((data / SETTINGS_FILE).read_text()) == {"version": 1, "hints": False}
    press(box, "back")
    choose(box, "wakanda"); choose(box, "open")
    for village in ROW:
        scan(box, f"village:{village}")
    choose(box, 0)
    assert box.screen == "board" and box.game.hints is False
    assert "hints" not in json.loads(journal(box).splitlines()[0])
    before = screen_of(box)
    press(box, "hint")
    assert box.view.kind == "why" and box.view.rule == "W4"      # the rule, no coach
    press(box, "hint")
    assert screen_of(box) == before


def test_a_game_started_with_hints_says_so_in_its_record(tmp_path):
    box = Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json", {}), rng=random.Random(1))
    choose(box, "wakanda"); choose(box, "open")
    for village in ROW:
        scan(box, f"village:{village}")
    choose(box, 0)
    header = json.loads(journal(box).splitlines()[0])
    assert header["hints"] is True and box.game.hints is True    # hints are on by default


def test_a_game_keeps_its_hints_through_resume_whatever_the_box_says_now(tmp_path):
    coached = resumed(tmp_path / "a", midgame(), hints=False)
    assert coached.game.hints is True
    press(coached, "hint")
    assert coached.screen == "hint"                 # started with hints: still coached
    plain = resumed(tmp_path / "b", play(MIDGAME), hints=True)
    assert plain.game.hints is False
    press(plain, "hint")
    assert plain.view.kind == "why"                 # started without: the rule alone


def test_the_record_carries_hints_and_refuses_a_bad_value():
    game = midgame()
    text_ = write_record(game)
    assert json.loads(text_.splitlines()[0])["hints"] is True
    assert read_record(text_)[0].hints is True
    assert read_record(write_record(play(MIDGAME)))[0].hints is False
    header = {"game": "wakanda", "players": ["Ana", "Ben"], "villages": list(ROW), "first": 0,
              "hints": "yes"}
    with pytest.raises(RecordError, match=r"line 1: hints must be true or false"):
        read_record(json.dumps(header) + "\n")


def test_a_settings_file_with_a_bad_hints_value_is_damaged(tmp_path):
    (tmp_path / SETTINGS_FILE).write_text('{"version": 1, "hints": "off"}')
    store, problem = SettingsStore.load(tmp_path, games=("wakanda",), languages=("en",))
    assert "hints: true or false" in problem and store.hints is True


# --- input scripts and the text display -----------------------------------------------------------

def test_hint_in_an_input_script_with_the_text_display(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    data = tmp_path / "data"
    data.mkdir()
    (data / "current.jsonl").write_text(write_record(midgame()), encoding="utf-8")
    script = tmp_path / "script.txt"
    script.write_text("press ok\npress hint\npress hint\npress back\nhold v3\n")
    status = main(["run", "--input", str(script), "--display", "text", "--data", str(data)])
    frames = [line.split(": ", 1)[1] for line in capsys.readouterr().out.splitlines()]
    assert status == 0
    first = next(frame for frame in frames if frame.endswith("1/3 · HINT: next move"))
    assert "Claim village 3: locks" in first
    assert any(frame.endswith("2/3 · HINT: next move") for frame in frames)
    assert json.loads((data / "current.jsonl").read_text().splitlines()[-1]) == {"p": 0, "claim": 3}


# --- golden images ---------------------------------------------------------------------------------

def _claim():
    game = midgame()
    move = Claim(3)
    return hint_screen(game, move, reason(information_set(game, 0), move, 1.0), "1/3 · HINT: next move")


def _build_bulgarian():
    with text.speaking("bg"):
        game = midgame()
        move = Build("skin", 4)
        footer = wakanda_t("hint.footer", n=2, of=3, then=wakanda_t("hint.then.next"))
        return hint_screen(game, move, reason(information_set(game, 0), move, 0.74, best=False), footer)


def _draw():
    game = play("d:eagle b:eagle:2", hints=True)
    return hint_screen(game, None, wakanda_t("hint.now.draw"),
                       wakanda_t("hint.footer_one", then=wakanda_t("hint.then.rule")))


def _why_then_move():
    title, words_ = wakanda_t("rule.W4.title", "en"), wakanda_t("rule.W4.text", "en")
    return render(WhyView("W4", title, tuple(paginate(words_)), then=wakanda_t("hint.then.move")))


GOLDEN = {
    "hint_claim": _claim,
    "hint_build_bulgarian": _build_bulgarian,
    "hint_draw": _draw,
    "why_then_move": _why_then_move,
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_hint_screen_matches_its_golden_image(name, golden):
    golden(name, GOLDEN[name]())


@pytest.mark.parametrize("language", ["en", "bg"])
def test_a_long_hint_never_covers_the_header_of_the_board(language, speak):
    # A three-line reason leaves less room for the poles: the tab and the hands stay whole,
    # the suggested piece and the caps stay under them (golden: hint_build_bulgarian).
    from companion.games.wakanda.screens import HEADER_HEIGHT
    speak(language)
    game = midgame()
    move = Build("skin", 4)
    long = "build skin on village 4: " + "and more words " * 3
    assert len(wrap(long, WIDTH - 4, SMALL)) == HINT_LINES
    short, tall = (hint_screen(game, move, words_, "2/3 · HINT: next move") for words_ in ("skin on 4", long))
    header = (0, 0, WIDTH, HEADER_HEIGHT)
    assert tall.crop(header).tobytes() == short.crop(header).tobytes()
    assert reason(information_set(game, 0), move, 0.74, best=False)   # said in game terms
    assert all(len(wrap(reason(information_set(game, 0), m, 0.74, best=False), WIDTH - 4, SMALL)) <= HINT_LINES
               for m in game.legal_moves() if isinstance(m, Build | Claim))
