"""``match --variant hidden``: the duel plays Wakanda's hidden variant (W10) — tiles 4-6 face
down at the start, turned up in row order, the same tiles for both games of a pair — and
the search decides from what its seat knows of them."""

from __future__ import annotations

import json
import random

from companion.cli import main
from companion.games.wakanda import search
from companion.games.wakanda.setup import random_setup


def seen_by_the_search(mocker):
    """Each decision's (variant, row as the deciding seat saw it), in order."""
    seen = []
    real = search.suggest

    def spy(game, *args, **kwargs):
        seen.append((game.variant, game.villages))
        return real(game, *args, **kwargs)

    mocker.patch.object(search, "suggest", side_effect=spy)
    return seen


def test_a_hidden_duel_turns_up_the_tiles_laid_face_down(mocker):
    seen = seen_by_the_search(mocker)
    search.duel(("easy", "easy"), seed=5, first=0, variant="hidden")
    row = random_setup(random.Random("wakanda setup 5"))
    assert {variant for variant, _ in seen} == {"hidden"}
    assert seen[0][1] == (*row[:3], None, None, None)       # 4-6 face down at the start
    assert seen[-1][1] == tuple(row)                         # turned up in row order
    hidden_rows = {villages for _, villages in seen}
    assert len(hidden_rows) == 4                             # one more tile at each of 3 claims


def test_both_games_of_a_pair_turn_up_the_same_tiles(mocker):
    seen = seen_by_the_search(mocker)
    one = search.duel(("easy", "baseline30"), seed=9, first=1, variant="hidden")
    first_rows = [villages for _, villages in seen]
    seen.clear()
    search.duel(("baseline30", "easy"), seed=9, first=1, variant="hidden")
    assert first_rows[-1] == seen[-1][1]
    again = search.duel(("easy", "baseline30"), seed=9, first=1, variant="hidden")
    assert (one.winners, one.totals) == (again.winners, again.totals)


def test_the_open_variant_is_the_default():
    default, open_ = search.duel(("easy", "easy"), 3, 0), search.duel(("easy", "easy"), 3, 0, "open")
    assert (default.winners, default.totals) == (open_.winners, open_.totals)


def test_match_with_the_hidden_variant_says_so(capsys):
    assert main(["match", "--variant", "hidden", "--a", "easy", "--b", "easy", "--games", "2",
                 "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "wakanda (hidden variant): easy (A) vs easy (B), 2 games, seed 3"
    assert main(["match", "--variant", "hidden", "--a", "easy", "--b", "easy", "--games", "2",
                 "--seed", "3", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["variant"] == "hidden" and summary["games"] == 2


def test_an_unknown_variant_is_one_line_of_bad_usage(capsys):
    assert main(["match", "--variant", "sideways", "--a", "easy", "--b", "easy"]) == 2
    assert capsys.readouterr().err == ("totem-companion match: unknown variant 'sideways' for "
                                       "wakanda (variants: open, hidden)\n")
    assert main(["match", "--game", "totem-wars", "--variant", "hidden", "--a", "easy",
                 "--b", "easy"]) == 2
    assert capsys.readouterr().err == ("totem-companion match: unknown variant 'hidden' for "
                                       "totem-wars (it has none)\n")
