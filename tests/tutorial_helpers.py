"""Helpers for the tests of the lessons: the demo's transcript, the frames of a script, and
a real power cut (the box killed once a frame is shown)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from companion.cli import main

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
#: One line of the transcript: ``step N [RULE]: <asked> -> <done>``.
STEP = re.compile(r"^step (\d+) \[([WT]\d+)\]: (.+) -> (.+)$")


def demo_lines(capsys, game: str, *args: str) -> list[str]:
    """The lines ``tutorial --game GAME --demo ARGS`` prints."""
    assert main(["tutorial", "--game", game, "--demo", *args]) == 0
    return capsys.readouterr().out.splitlines()


def check_transcript(lines: list[str], rules: set[str]) -> list[re.Match]:
    """Check a demo's transcript: one line a step, numbered in order, the count at the end,
    every rule of ``rules`` taught; the steps' matches."""
    *steps, last = lines
    done = re.fullmatch(r"lesson complete: (\d+) steps", last)
    assert done, last
    parsed = [STEP.match(line) for line in steps]
    assert all(parsed), [line for line, m in zip(steps, parsed) if not m]
    numbers = [int(m.group(1)) for m in parsed]
    assert numbers == list(range(1, len(numbers) + 1))
    assert int(done.group(1)) == len(numbers)
    assert {m.group(2) for m in parsed} >= rules, rules - {m.group(2) for m in parsed}
    return parsed


def frames_of(game: str, script: Path, data: Path, capsys) -> list[str]:
    """The words of each frame of ``game``'s lesson for the input ``script``, a line a frame."""
    assert main(["tutorial", "--game", game, "--input", str(script), "--display", "text",
                 "--data", str(data)]) == 0
    out = capsys.readouterr().out
    return [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("frame ")]


def kill_when_shown(game: str, script: Path, data: Path, words: str, tmp_path: Path) -> None:
    """Run ``game``'s lesson on ``script`` in a process of its own and kill it (SIGKILL, a
    power cut) as soon as a frame with ``words`` is shown; the script then waits, so the
    kill comes mid-lesson."""
    waiting = tmp_path / "waiting-script.txt"
    waiting.write_text(script.read_text() + "wait 120\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    box = subprocess.Popen([sys.executable, "-m", "companion", "tutorial", "--game", game,
                            "--input", str(waiting), "--display", "text", "--data", str(data)],
                           stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        assert box.stdout is not None
        for line in box.stdout:
            if words in line:
                break  # shown: the journal and the progress are on disk before the frame
        else:
            raise AssertionError(f"the lesson never showed {words!r}")
        box.send_signal(signal.SIGKILL)
    finally:
        box.wait()
        if box.stdout is not None:
            box.stdout.close()
    assert box.returncode == -signal.SIGKILL
