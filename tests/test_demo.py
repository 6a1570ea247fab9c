"""The demo end to end: bots' moves as raw input events through session, screens, display."""

import json
import os
import re

import pytest
from fakes import CountingBus, FakeClock

from companion.cli import main
from companion.games.wakanda import read_record, score_json


@pytest.fixture(autouse=True)
def own_folders(tmp_path, monkeypatch):
    """No user configuration, and a data folder the demo must not touch."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))


def demo(capsys, *args):
    status = main(["demo", *args])
    return status, capsys.readouterr()


def test_a_whole_game_with_its_turns_and_result(tmp_path, capsys):
    record = tmp_path / "game.jsonl"
    status, out = demo(capsys, "--seed", "7", "--record", str(record))
    assert status == 0, out.err
    lines = out.out.splitlines()
    assert lines[0].startswith("Seed 7 · Ana (")
    assert lines[1].startswith("Villages: ")
    turns = [line for line in lines if line.startswith("Turn ")]
    assert turns[0].startswith("Turn 1 · ") and " draws " in turns[0]
    game, _ = read_record(record.read_text())
    result = score_json(game)
    assert result["finished"]
    totals = [p["total"] for p in result["players"]]
    winner = result["winners"][0]
    names = game.players
    assert re.fullmatch(rf"{names[winner]} wins {totals[winner]} to {totals[1 - winner]}( \(.*\))?",
                        lines[-2])
    assert lines[-1] == f"Record written to {record}"
    actions = sum(1 for _, m in game.history if type(m).__name__ in ("Build", "Claim", "Pass"))
    assert len(turns) == actions
    assert not (tmp_path / "user-data").exists()          # the user's journal is never touched


def test_same_seed_same_game(capsys):
    assert demo(capsys, "--seed", "12")[1].out == demo(capsys, "--seed", "12")[1].out


def test_without_a_seed_one_is_chosen_and_printed(capsys):
    status, out = demo(capsys)
    seed = re.match(r"Seed (\d+) ", out.out).group(1)
    assert demo(capsys, "--seed", seed)[1].out == out.out


@pytest.mark.parametrize("seed", range(20, 32))
def test_the_box_takes_every_move_of_many_games(capsys, seed):
    # The demo stops with an error when the box refuses or mistakes any event.
    status, out = demo(capsys, "--seed", str(seed))
    assert status == 0, out.err
    assert re.search(r"(wins|Shared win) \d+ to \d+", out.out.splitlines()[-1])


def test_frames_go_to_a_png_display(tmp_path, capsys):
    frames = tmp_path / "frames"
    status, out = demo(capsys, "--seed", "5", "--display", f"png:{frames}")
    assert status == 0, out.err
    written = sorted(frames.iterdir())
    assert len(written) > 40
    assert written[0].name == "frame-0001.png"


def test_data_folder_keeps_the_finished_record(tmp_path, capsys):
    data = tmp_path / "data"
    status, _ = demo(capsys, "--seed", "9", "--data", str(data))
    assert status == 0
    kept = list((data / "games").iterdir())
    assert len(kept) == 1 and not (data / "current.jsonl").exists()
    header = json.loads(kept[0].read_text().splitlines()[0])
    assert header["game"] == "wakanda"


@pytest.mark.parametrize("game", ["wakanda", "totem-wars"])
def test_a_data_folder_with_an_unfinished_game_is_left_alone(tmp_path, capsys, game):
    data = tmp_path / "data"
    data.mkdir()
    waiting = '{"game": "wakanda", "players": ["Ana", "Ben"], ' \
              '"villages": ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"], "first": 0}\n'
    (data / "current.jsonl").write_text(waiting)
    status, out = demo(capsys, "--game", game, "--seed", "3", "--data", str(data))
    assert status == 1 and out.err.count("\n") == 1 and "an unfinished game waits" in out.err
    assert (data / "current.jsonl").read_text() == waiting and not (data / "games").exists()


def test_totem_wars_plays_a_whole_game(tmp_path, capsys):
    record = tmp_path / "tw.jsonl"
    status, out = demo(capsys, "--game", "totem-wars", "--seed", "5", "--record", str(record))
    assert status == 0 and out.err == ""
    assert "Totems: " in out.out and "Big game to 42 (T16)" in out.out
    assert main(["score", "--json", str(record)]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] is True


def test_unwritable_record_is_one_line(tmp_path, capsys):
    status, out = demo(capsys, "--seed", "1", "--record", str(tmp_path / "no" / "such" / "r.jsonl"))
    assert status == 1 and out.err.count("\n") == 1 and "cannot write the record" in out.err


def test_demo_through_mocked_buttons_and_a_counting_i2c_bus(tmp_path):
    """The whole stack below the session too: bots press gpiozero mock pins, the debounce and
    hold logic makes the events, the SSD1306 driver sends only what changed."""
    import io

    from gpiozero.pins.mock import MockFactory

    from companion.config import DEFAULT_PINS
    from companion.events import Hold, Press
    from companion.games.wakanda import result_line
    from companion.games.wakanda.demo import TablePlayer, play_demo
    from hardware.buttons import GpioButtons
    from hardware.oled import open_oled

    clock, factory, bus = FakeClock(), MockFactory(), CountingBus()
    buttons = GpioButtons(DEFAULT_PINS, clock=clock, pin_factory=factory)
    pins = {name: factory.pin(pin) for name, pin in DEFAULT_PINS.items()}
    made, shown = [], []

    class ButtonPlayer(TablePlayer):
        """Presses and holds become pin levels over (fake) time; tags go in as read."""

        def send(self, event):
            if not isinstance(event, (Press, Hold)):
                return super().send(event)
            pin = pins[event.button]
            pin.drive_low()
            self.wait(0.05 + (0.8 if isinstance(event, Hold) else 0))
            pin.drive_high()
            self.wait(0.05)
            events, made[:] = list(made), []
            assert events == [event]
            return super().send(events[0])

        def wait(self, seconds):
            clock.now += seconds
            buttons.poll()

    class CountedOled:
        def __init__(self):
            self.oled = open_oled("ssd1306", bus=bus)

        def show(self, image):
            sent = self.oled.show(image)
            shown.append(sent)
            return sent

        def close(self):
            self.oled.close()

    buttons.start(made.append)
    try:
        out = io.StringIO()
        game = play_demo(15, CountedOled(), tmp_path / "data", out=out, player_type=ButtonPlayer)
    finally:
        buttons.close()
        factory.reset()
    assert game.outcome() is not None and "Turn 1 · " in out.getvalue()
    assert result_line(game)
    changed = [n for n in shown if n]
    assert shown.count(0) > 10                            # unchanged frames send nothing
    assert sum(changed) / len(changed) < 1024             # changed regions only, on average
    print(f"{len(shown)} frames, {len(changed)} changed, {sum(changed)} bytes over I2C")


def test_a_tied_result_names_the_tie_break_once(wakanda_play):
    from companion.games.wakanda import result_line
    game = wakanda_play("d:sun c:1 d:sun c:2 d:sun c:3 d:sun c:4 d:sun c:5 d:sun c:6",
                        empty_claim="always")
    assert result_line(game) == "Ana wins 0 to 0: tie broken by the third headdress (W9)"


SCRIPT = """press ok
press ok
tag village:teepee
tag village:eagle
tag village:chief
tag village:variety
tag village:sun
tag village:tomahawk
press ok
tag sun
gone sun
wait 5
press v5
tag sun
gone sun
press v1
press back
press ok
"""


def test_an_input_script_is_narrated_step_by_step(tmp_path, capsys):
    script = tmp_path / "bug.txt"
    script.write_text(SCRIPT)
    status, out = demo(capsys, "--input", str(script))
    assert (status, out.err) == (0, "")
    assert out.out.splitlines() == [
        "game     Player 1 v Player 2 (Wakanda)",
        "         Player 1 drew sun",
        "refused  press v5: Village 5 is not open yet — W4",
        "         Player 1 built sun on village 1",
        "         taken back (1)",
    ]
    assert not (tmp_path / "user-data").exists()  # a scratch folder, unless --data is given


def test_an_input_script_with_seed_or_record_is_bad_usage(tmp_path, capsys):
    script = tmp_path / "bug.txt"
    script.write_text("press ok\n")
    status, out = demo(capsys, "--input", str(script), "--seed", "3")
    assert status == 2 and out.err.count("\n") == 1


def test_a_narrated_script_ends_with_the_result(tmp_path, capsys):
    from companion.games.wakanda.bots import play_game
    from companion.games.wakanda.rules import HEADDRESSES
    game = play_game(4)
    lines = ["press ok", "press ok"] + [f"tag village:{v}" for v in game.villages] + ["press ok"]
    if game.first != 0:
        lines[-1:] = ["press down", "press ok"]
    for player, move in game.history:
        kind = type(move).__name__
        if kind == "Draw":
            lines += [f"tag {move.piece}", f"gone {move.piece}"]
        elif kind == "Build":
            lines += [f"tag {move.piece}", f"gone {move.piece}", f"press v{move.village}"]
        elif kind == "Claim":
            lines += [f"tag {HEADDRESSES[player]}", f"gone {HEADDRESSES[player]}", f"press v{move.village}"]
        else:
            lines += ["press ok"]
    lines += ["press ok"]                                  # leave the score pages: kept
    script = tmp_path / "game.txt"
    script.write_text("\n".join(lines) + "\n")
    status, out = demo(capsys, "--input", str(script))
    assert (status, out.err) == (0, "")
    from companion.games.wakanda import result_line
    assert out.out.splitlines()[-1] == f"result   {result_line(game)}"
    assert "refused" not in out.out


def test_a_narrated_totem_wars_script_says_the_totems_are_down_and_each_rounds_result(tmp_path):
    """The totems: that they are down, never which (T2); after a round's last placement, the
    war and where the cards went, and the refill (T10–T13)."""
    import io

    from box_helpers import scan
    from tw_table_helpers import make, set_up

    from companion.events import Press, Tag, TagGone
    from companion.games.totem_wars.round_screens import outcome_line, refill_line
    from companion.table.script_demo import narrate_script
    from hardware.displays import NullDisplay

    table = make(tmp_path)
    set_up(table, ("Ana", "Ben", "Cleo"), 0)
    scan(table, "indians/eagle")                            # Ben's totem, laid before the script
    totems = ("eskimos/narwhal", "indians/buffalo")         # Cleo's, Ana's
    placements = (("aborigines/eagle", "indians/bear", "indians/hawk"),
                  ("aborigines/kookaburra", "aborigines/turtle", "eskimos/owl", "eskimos/whale"),
                  ("eskimos/polar_bear", "eskimos/walrus", "indians/raven", "indians/salmon"),
                  ("africans/vulture",))
    events = [event for card in totems for event in (Tag(card), TagGone(card))] + [Press("ok")]
    for cards in placements:
        events += [event for card in cards for event in (Tag(card), TagGone(card))] + [Press("ok")]
    out = io.StringIO()
    assert narrate_script(events, table, NullDisplay(), out) == 0
    game = table.game
    result = game.last_round
    assert result.war
    assert out.getvalue().splitlines() == [
        "game     Ana v Ben v Cleo (Totem Wars)",
        "         All totems are down",
        "         Ben placed 3 cards",
        "         Cleo placed 4 cards",
        "         Ana placed 4 cards",
        "         Ben placed 1 card",
        f"         Round 1 · war! · {outcome_line(game, result)} · {refill_line(game, result)}",
    ]
    assert "Ben takes 12 cards (T11)" in out.getvalue()


def test_a_record_that_cannot_be_written_is_said_before_the_game(tmp_path, capsys):
    os.mkfifo(tmp_path / "pipe")                             # nobody reads it: would block
    for target in (tmp_path / "no" / "such" / "r.jsonl", tmp_path, tmp_path / "pipe"):
        status, out = demo(capsys, "--game", "totem-wars", "--seed", "1", "--record", str(target))
        assert status == 1 and out.out == ""                # nothing played
        assert out.err.count("\n") == 1 and f"{target}: cannot write the record" in out.err


@pytest.mark.parametrize("game", ["wakanda", "totem-wars"])
def test_a_demo_in_a_temporary_folder_ends_on_the_score_not_on_kept(tmp_path, capsys, game):
    """The temporary folder goes with the demo: the box must not say the game was kept. With
    --data the game is kept, and says so."""
    from companion.ui.text import t
    status, out = demo(capsys, "--game", game, "--seed", "3", "--display", "text")
    assert status == 0, out.err
    frames = [line for line in out.out.splitlines() if line.startswith("frame ")]
    assert t("session.finished") not in out.out
    last_page = "3/3" if game == "totem-wars" else "/3"
    assert last_page in frames[-1]                              # the last score page
    data = tmp_path / "data"
    status, out = demo(capsys, "--game", game, "--seed", "3", "--display", "text", "--data", str(data))
    frames = [line for line in out.out.splitlines() if line.startswith("frame ")]
    assert status == 0 and t("session.finished") in frames[-1]
    assert len(list((data / "games").iterdir())) == 1


@pytest.mark.parametrize("where", ["after", "before"])
def test_demo_refuses_web_in_one_line_rather_than_serve_nothing(capsys, where):
    args = ["demo", "--web", "8080", "--display", "none"] if where == "after" else \
        ["--web", "8080", "demo", "--display", "none"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err == "totem-companion demo: --web: a demo serves no phone page (run or sim --web PORT does)\n"


def test_wakanda_demo_without_a_display_says_so_in_one_line():
    """``DemoOptions`` may carry no display (Totem Wars plays without one); Wakanda's demo
    plays through the box's screens, so it refuses before any game rather than fail in it."""
    from companion.errors import UserError
    from companion.games.wakanda.demo import run_demo
    from companion.table.table_game import DemoOptions

    with pytest.raises(UserError, match="needs a display"):
        run_demo(DemoOptions(seed=1))
