"""``totem-companion match``: levels play each other; the score with its interval and the
time per decision. A handful of games only: the long measurement is in docs/search.md."""

import json

from companion.cli import main
from companion.commands.match import tasks, wilson


def test_a_short_match_prints_the_score_its_interval_and_the_times(capsys):
    assert main(["match", "--game", "wakanda", "--a", "standard", "--b", "easy", "--games", "4",
                 "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "wakanda: standard (A) vs easy (B), 4 games, seed 1"
    assert lines[1].startswith("A standard: ") and "95% interval" in lines[1] and "Wilson" in lines[1]
    assert lines[2].startswith("mean margin A-B: ")
    assert lines[3].startswith("time per decision, A standard: median ") and " p95 " in lines[3]
    assert lines[4].startswith("time per decision, B easy: median ")


def test_the_json_result_adds_up_and_does_not_depend_on_the_jobs(capsys):
    args = ["match", "--a", "easy", "--b", "baseline30", "--games", "4", "--seed", "2", "--json"]
    assert main(args) == 0
    one = json.loads(capsys.readouterr().out)
    assert one["wins"] + one["shared"] + one["losses"] == one["games"] == 4
    assert one["score"] == one["wins"] + one["shared"] / 2
    low, high = one["interval"]
    assert low <= one["share"] <= high
    assert one["ms"]["a"]["decisions"] > 0 and one["ms"]["b"]["median"] > 0
    assert main(args + ["--jobs", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in two.items() if k != "ms"} == {k: v for k, v in one.items() if k != "ms"}


def test_seats_and_first_player_alternate_and_pairs_share_their_draws():
    work = tasks("wakanda", "a", "b", 8, seed=0)
    assert [(seat, first) for _, _, _, seat, _, first in work[:4]] == [(0, 0), (1, 0), (0, 1), (1, 1)]
    seeds = [seed for *_, seed, _ in work]
    assert seeds[0] == seeds[1] != seeds[2] == seeds[3]


def test_the_wilson_interval():
    assert wilson(0.5, 0) == (0.0, 1.0)
    low, high = wilson(0.75, 1000)
    assert round(low, 3) == 0.722 and round(high, 3) == 0.776


def test_bad_usage_is_one_line(capsys):
    assert main(["match", "--a", "easy", "--b", "hardest"]) == 2
    assert capsys.readouterr().err.startswith("totem-companion match: unknown level 'hardest'")
    assert main(["match", "--a", "easy", "--b", "easy", "--games", "0"]) == 2
    assert capsys.readouterr().err == "totem-companion match: --games must be at least 1\n"
