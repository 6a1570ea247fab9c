"""After a Wakanda game played with hints: where each player lost the most points — judged
from what that player knew (review.py), shown on the score pages after the breakdown
(score_flow.py, score_screens.py) and by ``score --review`` (report.py)."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest
from box_helpers import choose
from conftest import WORKED_EXAMPLE, play

from companion.cli import main
from companion.events import Press
from companion.games.wakanda import Build, Claim, Draw, read_record, write_record
from companion.games.wakanda.information import information_set
from companion.games.wakanda.review import (
    CLEAR,
    MIN_POINTS,
    TOP,
    Loss,
    Review,
    ReviewJob,
    decisions,
    judge,
    review,
)
from companion.games.wakanda.score_flow import ReviewView
from companion.games.wakanda.score_screens import review_page
from companion.table.app_loop import AppLoop
from companion.table.registry import TagRegistry
from companion.table.session import Session

DATA = Path(__file__).parent / "data"
WORKED = DATA / "wakanda_worked_example.jsonl"
#: Long enough for a review of a whole game on a loaded machine; a test waits for the
#: review's own signal, never this long unless something is wrong.
DEADLINE = 30


@pytest.fixture(scope="module")
def worked():
    """The record of the rulebook's worked example (Ana 20, Ben 16) and its review, made once."""
    game = read_record(WORKED.read_text())[0]
    return game, review(game)


def with_header(text: str, **keys) -> str:
    """A record with ``keys`` added to its header line."""
    first, rest = text.split("\n", 1)
    header = json.loads(first)
    header.update(keys)
    return json.dumps(header) + "\n" + rest


# --- what is judged, from what -----------------------------------------------------------------

def test_only_choices_are_judged_each_from_its_players_information(worked):
    game, _ = worked
    before = game.history
    found = decisions(game)
    assert [d.turn for d in found] == sorted(d.turn for d in found)
    for decision in found:
        replay = game.copy()
        while len(replay.history) > decision.index:
            replay.pop()
        assert replay.phase == "action" and replay.to_move == decision.player
        assert decision.info == information_set(replay, decision.player)
        assert list(decision.moves) == replay.legal_moves() and len(decision.moves) > 1
        assert game.history[decision.index] == (decision.player, decision.played)
    assert game.history == before and game.phase == "over"      # the game itself is untouched


def test_the_other_hands_contents_change_nothing():
    # Ana's third turn, with Ben holding an eagle or a chief (one piece either way, R2).
    def ana_at_turn_three(bens_piece):
        game = play("d:teepee b:teepee:1")
        for move in (Draw(bens_piece), Claim(1), Draw("sun"), Build("sun", 2)):
            game.push(move)
        return game

    eagle, chief = ana_at_turn_three("eagle"), ana_at_turn_three("chief")
    assert eagle.hands[1] != chief.hands[1]
    (a,), (b,) = ([d for d in decisions(g) if d.player == 0 and d.turn == 3] for g in (eagle, chief))
    assert a.info == b.info
    assert judge(a, seed=3) == judge(b, seed=3)


def test_a_big_claim_left_to_the_other_player_is_the_loss_found(worked):
    _, made = worked
    biggest = made.losses[1][0]                                   # Ben, turn 24: chief village
    assert (biggest.turn, biggest.played, biggest.better) == (24, Claim(6), Claim(3))
    assert 4 < biggest.points < 8 and biggest.error < 1


def test_losses_are_clear_biggest_first_and_few(worked):
    _, made = worked
    assert made.decisions == (13, 12)
    for player, losses in enumerate(made.losses):
        assert len(losses) <= TOP
        assert [loss.points for loss in losses] == sorted((loss.points for loss in losses), reverse=True)
        for loss in losses:
            assert loss.player == player and loss.played != loss.better
            assert loss.points >= MIN_POINTS and loss.points >= CLEAR * loss.error


def test_the_same_game_gives_the_same_review(worked):
    game, made = worked
    assert review(read_record(write_record(game))[0]) == made    # from the record alone


def test_a_move_about_as_good_as_the_best_loses_nothing():
    game = play("d:eagle b:eagle:2")                              # any village of three, turn 1
    (first,) = decisions(game)
    assert judge(first) is None


# --- on a thread of its own ---------------------------------------------------------------------

def test_the_job_makes_the_same_review_and_counts_its_progress(worked):
    game, made = worked
    job = ReviewJob(game)
    assert job.wait(DEADLINE)
    assert job.result == made and not job.failed
    assert job.progress == (25, 25)


def test_the_job_can_be_stopped():
    game = play(WORKED_EXAMPLE)
    started, release = threading.Event(), threading.Event()

    def slow_judge(decision, seed):
        started.set()
        release.wait(DEADLINE)
        return None

    job = ReviewJob(game, judged=slow_judge)
    assert started.wait(DEADLINE)
    job.cancel()
    release.set()
    assert job.wait(DEADLINE)
    assert job.result is None and not job.failed and job.progress == (1, 25)


def test_a_review_that_cannot_be_made_says_so(worked):
    game, _ = worked

    def broken(decision, seed):
        raise RuntimeError("a bug")

    job = ReviewJob(game, judged=broken)
    assert job.wait(DEADLINE)
    assert job.failed and job.result is None
    words = review_page(game, 0, 4, 5, None, failed=True).info["words"]
    assert any("No review this time" in text for _, _, text in words)


# --- on the score pages -------------------------------------------------------------------------

def finished_box(tmp_path, record: str) -> Session:
    data = tmp_path / "data"
    data.mkdir()
    (data / "current.jsonl").write_text(record)
    box = Session(data, TagRegistry(tmp_path / "tags.json", {}))
    choose(box, "resume")
    assert box.screen == "score"
    return box


def words(box) -> list[str]:
    return [text for _, _, text in sorted(box.frame().info["words"])]


def test_with_hints_each_player_has_a_review_page_after_the_breakdown(tmp_path, worked):
    _, made = worked
    box = finished_box(tmp_path, with_header(WORKED.read_text(), hints=True))
    assert box.flow.job.wait(DEADLINE)
    for _ in range(3):                                            # the result, Ana's, Ben's points
        box.handle(Press("down"))
    assert box.view == ReviewView(player=0, page=3, count=5, done=True)
    assert "Ana: review" in words(box) and "4/5▼" in words(box)
    assert f"+{round(made.losses[0][0].points)}" in words(box)
    box.handle(Press("down"))
    assert box.view.player == 1 and "+6" in words(box)          # Ben's claim of village 6
    assert "5/5 OK" in words(box)                                 # the last page: OK goes on
    box.handle(Press("down"))
    assert box.screen == "menu"                                   # ▼ on the last page too, as after a round


def test_the_review_page_says_reviewing_until_the_review_is_made(tmp_path, mocker):
    release = threading.Event()

    def slow(decision, seed):
        release.wait(DEADLINE)
        return None

    mocker.patch("companion.games.wakanda.review.judge", slow)
    box = finished_box(tmp_path, with_header(WORKED.read_text(), hints=True))
    box.handle(Press("up"))                                       # round to the last page: Ben's review
    assert box.view == ReviewView(player=1, page=4, count=5, done=False)
    assert "Reviewing…" in words(box) and "0 of 25 moves" in words(box)
    release.set()
    assert box.flow.job.wait(DEADLINE)
    box.handle(Press("up"))
    box.handle(Press("down"))                                     # away and back: the review
    assert box.view.done and not box.working and "No clear loss" in words(box) and "12 moves looked at" in words(box)


def test_the_box_shows_the_review_once_made_with_no_button_pressed(tmp_path, mocker):
    release, shown = threading.Event(), threading.Event()

    def slow(decision, seed):
        release.wait(DEADLINE)
        return None

    class Display:
        def show(self, frame):
            if any("No clear loss" in text for _, _, text in frame.info["words"]):
                shown.set()
            return 0

        def close(self):
            pass

    mocker.patch("companion.games.wakanda.review.judge", slow)
    box = finished_box(tmp_path, with_header(WORKED.read_text(), hints=True))
    box.handle(Press("up"))                                       # Ben's review, being made
    assert box.working
    loop = AppLoop(box, Display(), poll=0.01)
    thread = threading.Thread(target=loop.run, daemon=True)
    thread.start()
    release.set()
    assert shown.wait(DEADLINE), "the review was never shown"
    assert not box.working
    loop.stop()
    thread.join(DEADLINE)
    assert not thread.is_alive()


def test_without_hints_there_is_no_review(tmp_path):
    box = finished_box(tmp_path, WORKED.read_text())
    assert box.flow.job is None and len(box.flow.pages) == 3


def test_the_seat_the_box_plays_is_not_reviewed_and_leaving_stops_the_review(tmp_path):
    box = finished_box(tmp_path, with_header(WORKED.read_text(), hints=True, box={"1": "easy"}))
    job = box.flow.job
    assert box.flow.reviewed == (0,) and len(box.flow.pages) == 4
    box.handle(Press("back"))
    box.handle(Press("ok"))                                       # take the last claim back: play again
    assert box.screen == "board" and job.wait(DEADLINE)


def test_review_pages_golden(golden, worked):
    game, made = worked
    golden("wakanda_review_losses", review_page(game, 1, 5, 5, made))
    golden("wakanda_review_busy", review_page(game, 0, 4, 5, None, progress=(7, 25)))
    three = Review(decisions=(13, 12), losses=(
        (Loss(0, 9, Build("sun", 4), Claim(2), 11.6, 1.2), Loss(0, 19, Build("skin", 4), Claim(4), 2.4, 0.7),
         Loss(0, 27, Claim(1), Build("teepee", 3), 1.2, 0.1)), ()))
    golden("wakanda_review_three", review_page(game, 0, 4, 5, three))
    none = Review(decisions=(13, 12), losses=(made.losses[0], ()))
    golden("wakanda_review_none_bulgarian", _bulgarian(lambda: review_page(game, 1, 5, 5, none)))


def _bulgarian(draw):
    from companion.ui import text
    with text.speaking("bg"):
        return draw()


# --- score --review ------------------------------------------------------------------------------

def test_score_review_as_text(capsys, worked):
    _, made = worked
    assert main(["score", "--review", str(WORKED)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Wakanda, Ana vs Ben (finished)") and "\n\nReview: " in out
    assert "Ben, 12 moves looked at:\n  turn 24: claiming village 3 would have scored 6 more than " \
           "claiming village 6 (±0.2)" in out
    assert out.count("  turn ") == len(made.losses[0]) + len(made.losses[1])


def test_score_review_as_json(capsys, worked):
    _, made = worked
    assert main(["score", "--review", "--json", str(WORKED)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["players"][0]["total"] == 20                    # the score as without --review
    ben = result["review"]["players"][1]
    assert ben["name"] == "Ben" and ben["decisions"] == 12
    assert ben["losses"][0] == {"turn": 24, "played": {"p": 1, "claim": 6}, "better": {"p": 1, "claim": 3},
                                "points": round(made.losses[1][0].points, 1),
                                "error": round(made.losses[1][0].error, 1)}


def test_score_review_of_a_game_without_a_review_and_of_a_bad_record(capsys, tmp_path):
    assert main(["score", "--review", str(DATA / "totem_wars_finished.jsonl")]) == 0
    assert capsys.readouterr().out.rstrip().endswith("No review: Totem Wars games have none.")
    assert main(["score", "--review", "--json", str(DATA / "totem_wars_finished.jsonl")]) == 0
    assert json.loads(capsys.readouterr().out)["review"] is None
    bad = tmp_path / "bad.jsonl"
    shutil.copy(WORKED, bad)
    bad.write_text(bad.read_text() + '{"p": 0, "draw": "sun"}\n')
    assert main(["score", "--review", str(bad)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "line 48: the game is over (W6)" in captured.err
