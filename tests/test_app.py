"""The app loop (one queue, one thread, display, feedback) and the run/sim commands driven
by input scripts, with no hardware."""

import json
import threading

import pytest

from companion.cli import main
from companion.events import Press, Tag, TagGone
from companion.games.wakanda import Build, Claim, Draw, Pass, Reveal
from companion.games.wakanda.bots import greedy_bot, play_game, random_bot
from companion.table.app_loop import AppLoop
from companion.table.registry import TagRegistry
from companion.table.session import Session

JOIN = 20  # seconds: no test may hang


class Display:
    def __init__(self, fail=False):
        self.frames, self.closed, self.fail = [], False, fail

    def show(self, image):
        if self.fail:
            raise OSError("I2C bus error")
        changed = not self.frames or self.frames[-1] != image.tobytes()
        self.frames.append(image.tobytes())
        return 1024 if changed else 0

    def close(self):
        self.closed = True


class Feedback:
    def __init__(self):
        self.played, self.closed = [], False

    def play(self, signal, *, sound=True):
        self.played.append(signal if sound else f"{signal} (silent)")

    def close(self):
        self.closed = True


class Source:
    """Puts its events from its own thread, then ends the loop (like a script)."""

    def __init__(self, events, loop):
        self.events, self.loop, self.closed, self.thread = events, loop, False, None

    def start(self, put):
        def play():
            for event in self.events:
                put(event)
            self.loop.stop()
        self.thread = threading.Thread(target=play, daemon=True)
        self.thread.start()

    def close(self):
        self.closed = True


def run_in_thread(target):
    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(JOIN)
    assert not thread.is_alive(), "the loop did not end"


def session(tmp_path):
    return Session(tmp_path / "data", TagRegistry(tmp_path / "tags.json"))


def test_loop_feeds_the_session_in_order_and_closes_everything(tmp_path):
    s, display, feedback = session(tmp_path), Display(), Feedback()
    loop = AppLoop(s, display, feedback)
    source = Source([Press("ok"), Press("ok")] +
                    [e for v in ("teepee", "eagle", "chief", "variety", "sun", "tomahawk")
                     for e in (Tag(f"village:{v}"), TagGone(f"village:{v}"))] +
                    [Press("ok"), Tag("sun"), TagGone("sun"), Press("v5")], loop)
    run_in_thread(lambda: loop.run([source]))
    assert loop.handled == 18
    assert s.game.hands[0]["sun"] == 1                    # v5 is not open: refused
    assert feedback.played[-2:] == ["accepted", "refused"]
    assert len(display.frames) == 19                      # the first frame, then one per event
    assert source.closed and display.closed and feedback.closed


def test_a_display_that_stops_answering_does_not_stop_the_game(tmp_path, capsys):
    import io
    err = io.StringIO()
    s = session(tmp_path)
    loop = AppLoop(s, Display(fail=True), Feedback(), err=err)
    source = Source([Press("ok"), Press("ok"), Press("back")], loop)
    run_in_thread(lambda: loop.run([source]))
    assert loop.handled == 3 and s.screen == "setup"
    assert err.getvalue().count("display stopped answering") == 1


class Watcher:
    def __init__(self, fail=False):
        self.fail, self.seen_views, self.closed = fail, [], False

    def seen(self, session, out):
        if self.fail:
            raise RuntimeError("unplugged")
        self.seen_views.append((session.view, out))

    def heard(self, session, event):
        return False

    def close(self):
        self.closed = True


def test_watchers_see_every_view_and_a_failing_one_is_dropped_once(tmp_path):
    import io
    err = io.StringIO()
    s, good, bad = session(tmp_path), Watcher(), Watcher(fail=True)
    loop = AppLoop(s, Display(), err=err, watchers=(good, bad))
    source = Source([Press("ok"), Press("ok"), Press("back")], loop)
    run_in_thread(lambda: loop.run([source]))
    assert [out is None for _, out in good.seen_views] == [True, False, False, False]
    assert good.seen_views[-1][0] == s.view and good.closed
    assert err.getvalue().count("Watcher stopped (unplugged)") == 1 and bad not in loop.watchers


def test_ctrl_c_ends_cleanly(tmp_path):
    s = session(tmp_path)
    display, feedback = Display(), Feedback()

    class Interrupted:
        closed = False

        def start(self, put):
            raise KeyboardInterrupt

        def close(self):
            self.closed = True

    source = Interrupted()
    loop = AppLoop(s, display, feedback)
    run_in_thread(lambda: loop.run([source]))
    assert source.closed and display.closed and feedback.closed


def test_closing_goes_on_when_one_device_fails(tmp_path):
    import io

    class Broken(Display):
        def close(self):
            raise OSError("gone")

    feedback, err = Feedback(), io.StringIO()
    AppLoop(session(tmp_path), Broken(), feedback, err=err).close()
    assert feedback.closed and "closing Broken failed" in err.getvalue()


def script_of(game):
    """The input script a player would make for a whole game (scans and buttons mixed)."""
    lines = ["press ok", "press ok" if game.variant == "open" else "press down\npress ok"]
    lines += [f"tag village:{v}\ngone village:{v}" for v in game.setup_villages if v]
    lines.append("press ok" if game.first == 0 else "press down\npress ok")
    for n, (player, move) in enumerate(game.history):
        if isinstance(move, Draw):
            lines.append(f"tag {move.piece}\ngone {move.piece}")
        elif isinstance(move, Reveal):
            lines.append(f"tag village:{move.village} slot1\ngone village:{move.village} slot1")
        elif isinstance(move, Build):
            lines.append(f"tag {move.piece}\ngone {move.piece}\npress v{move.village}")
        elif isinstance(move, Claim):
            lines.append(f"hold v{move.village}" if n % 2 else
                         f"tag {('wings', 'crests')[player]}\ngone {('wings', 'crests')[player]}\n"
                         f"press v{move.village}")
        elif isinstance(move, Pass):
            lines.append("press ok")
    lines += ["wait 0", "press down", "press ok"]          # a score page, then keep the record
    return "\n".join(lines) + "\n"


@pytest.fixture
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    return tmp_path


@pytest.mark.parametrize("command,variant,seed", [("run", "open", 4), ("sim", "hidden", 8)])
def test_a_whole_game_from_an_input_script_without_hardware(folders, command, variant, seed):
    game = play_game(seed, bots=(greedy_bot, random_bot), variant=variant)
    script = folders / "game.txt"
    script.write_text(script_of(game))
    data, frames = folders / "data", folders / "frames"
    status = []
    run_in_thread(lambda: status.append(main([command, "--input", str(script), "--data", str(data),
                                              "--display", f"png:{frames}"])))
    assert status == [0]
    kept = list((data / "games").iterdir())
    assert len(kept) == 1 and not (data / "current.jsonl").exists()
    lines = [json.loads(line) for line in kept[0].read_text().splitlines()]
    from companion.games.wakanda import write_record
    expected = [json.loads(line) for line in write_record(game).splitlines()]
    expected[0]["hints"] = True                  # started on the box: hints on, the default
    assert lines == expected
    assert len(list(frames.iterdir())) > len(lines)


def test_a_script_that_stops_mid_game_leaves_it_to_resume(folders):
    script = folders / "start.txt"
    script.write_text("press ok\npress ok\n" +
                      "press ok\n" * 6 + "press ok\ntag eagle\n")
    data = folders / "data"
    status = []
    run_in_thread(lambda: status.append(main(["run", "--input", str(script), "--data", str(data),
                                              "--display", "none"])))
    assert status == [0]
    lines = (data / "current.jsonl").read_text().splitlines()
    assert json.loads(lines[-1]) == {"p": 0, "draw": "eagle"}


def test_bad_script_line_is_one_line(folders, capsys):
    script = folders / "bad.txt"
    script.write_text("press ok\npush v1\n")
    assert main(["run", "--input", str(script), "--display", "none",
                 "--data", str(folders / "data")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bad.txt: line 2: unknown event 'push'" in err


def test_game_option_goes_straight_to_the_set_up_of_totem_wars(folders):
    script = folders / "tw.txt"
    # Two players, the first deals; the totems are scanned from the dealer's left (T2).
    script.write_text("press ok\npress ok\ntag africans/lion\ngone africans/lion\n"
                      "tag indians/snake\ngone indians/snake\n")
    data = folders / "data"
    assert main(["run", "--game", "totem-wars", "--input", str(script), "--display", "none",
                 "--data", str(data)]) == 0
    lines = (data / "current.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["game"] == "totem-wars"
    assert json.loads(lines[1]) == {"totems": ["indians/snake", "africans/lion"]}


def test_keyboard_without_a_terminal_is_one_line(folders):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "companion", "sim", "--display", "none",
                           "--data", str(folders / "data")], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=JOIN)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "needs a terminal" in done.stderr


def test_a_source_that_cannot_start_draws_no_frame(tmp_path):
    from companion.errors import UserError
    display = Display()

    class NoTerminal:
        closed = False

        def start(self, put):
            raise UserError("keyboard input needs a terminal")

        def close(self):
            self.closed = True

    source = NoTerminal()
    loop = AppLoop(session(tmp_path), display)
    with pytest.raises(UserError):
        loop.run([source])
    assert display.frames == [] and display.closed and source.closed


def test_keyboard_without_a_terminal_draws_nothing_on_the_terminal(folders):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "companion", "sim",
                           "--data", str(folders / "data")], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=JOIN)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "needs a terminal" in done.stderr
