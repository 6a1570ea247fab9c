"""The speaker (hardware/speaker.py): espeak-ng on a thread of its own, the newest line only, a
confirmation said to its end unless a newer line makes it stale (issue 32);
``say`` never waits; espeak-ng in a process group of its own that never outlives a line (one
that ignores SIGTERM, a child left on its pipes, 50 MB on its standard error); a voice that
fails says so once and is tried again later. espeak-ng is replaced by shell scripts that
behave as told by the line they read."""

from __future__ import annotations

import io
import os
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from hardware.speaker import GRACE, Speaker, espeak_args

#: The stand-in: records each line and its process group, then does what the line says.
ESPEAK = """#!/bin/sh
line=$(cat)
echo $$ >> "{dir}/groups"
case "$line" in
  *stubborn*) trap '' TERM; echo ready >> "{dir}/ready"; sleep 1000; sleep 1000 ;;
  *long*) echo ready >> "{dir}/ready"; exec sleep 1000 ;;
  *orphan*) (exec sleep 1000) & echo $! >> "{dir}/children" ;;
  *held*) echo ready >> "{dir}/ready"; while [ ! -e "{dir}/go" ]; do sleep 0.01; done ;;
esac
echo "$line" >> "{dir}/said"
printf '%s\\n' "$@" > "{dir}/args"
"""


def script(tmp_path: Path, body: str, name: str = "espeak-ng") -> str:
    path = tmp_path / name
    path.write_text(body.format(dir=tmp_path), encoding="utf-8")
    path.chmod(0o755)
    return str(path)


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def wait_until(condition: Callable[[], bool], timeout: float = 10) -> bool:
    """Wait for a condition another process brings about (a file written, a process gone)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def group_members(group: int) -> list[int]:
    """The processes of process group ``group`` that still run (not zombies)."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        state, _, pgrp = stat.rsplit(")", 1)[1].split()[:3]
        if int(pgrp) == group and state not in "ZX":
            members.append(int(entry))
    return members


def gone(groups: list[str]) -> bool:
    """Whether every process of these groups has ended (waited for: a signal takes a moment)."""
    return wait_until(lambda: all(not group_members(int(group)) for group in groups))


@pytest.fixture
def espeak(tmp_path: Path) -> str:
    return script(tmp_path, ESPEAK)


def test_the_command_line_says_the_voice_speed_volume_and_device():
    assert espeak_args("fr-fr", speed=140, volume=80, device="plughw:1,0") == \
        ["espeak-ng", "-v", "fr-fr", "-s", "140", "-a", "80", "-d", "plughw:1,0", "--stdin"]
    assert espeak_args("bg", wav="/tmp/x.wav")[-3:] == ["-w", "/tmp/x.wav", "--stdin"]
    assert "-d" not in espeak_args("en-gb")


def test_a_line_is_said_with_its_voice_speed_and_volume(tmp_path, espeak):
    speaker = Speaker(speed=150, volume=90, program=espeak)
    speaker.say("Ana: draw and scan", "en-gb")
    assert speaker.wait_idle(timeout=10) and speaker.spoken == 1
    assert lines(tmp_path / "said") == ["Ana: draw and scan"]
    assert lines(tmp_path / "args") == ["-v", "en-gb", "-s", "150", "-a", "90", "--stdin"]
    speaker.close()
    assert gone(lines(tmp_path / "groups"))


def test_say_returns_at_once_and_a_new_line_stops_the_stale_one(tmp_path, espeak):
    speaker = Speaker(program=espeak)
    speaker.say("a long first prompt", "en-gb")       # returns while the line is being said
    assert wait_until(lambda: lines(tmp_path / "ready"))
    speaker.say("second prompt", "en-gb")
    assert speaker.wait_idle(timeout=10)
    assert lines(tmp_path / "said") == ["second prompt"] and speaker.spoken == 1
    speaker.close()
    assert gone(lines(tmp_path / "groups"))


def test_only_the_newest_waiting_line_is_said(tmp_path, espeak):
    speaker = Speaker(program=espeak)
    speaker.say("a stubborn prompt", "en-gb")         # takes GRACE to end: the others wait
    assert wait_until(lambda: lines(tmp_path / "ready"))
    speaker.say("second prompt", "en-gb")
    speaker.say("third prompt", "en-gb")
    assert speaker.wait_idle(timeout=10)
    assert lines(tmp_path / "said") == ["third prompt"] and speaker.begun == 2
    speaker.close()


def test_a_confirmation_is_said_to_its_end_then_only_the_last_line_of_a_burst(tmp_path, espeak):
    speaker = Speaker(program=espeak)
    speaker.say("a held confirmation", "en-gb", finish=True)
    assert wait_until(lambda: lines(tmp_path / "ready"))
    for line in ("first prompt", "second prompt", "third prompt"):  # while it is said
        speaker.say(line, "en-gb")
    assert lines(tmp_path / "said") == [] and speaker.begun == 1  # not cut, the burst waits
    (tmp_path / "go").touch()                                       # the confirmation ends
    assert speaker.wait_idle(timeout=10)
    assert lines(tmp_path / "said") == ["a held confirmation", "third prompt"]
    assert (speaker.spoken, speaker.cut, speaker.dropped) == (2, 0, 2)
    speaker.close()
    assert gone(lines(tmp_path / "groups"))


def test_a_newer_line_that_makes_a_confirmation_stale_cuts_it(tmp_path, espeak):
    speaker = Speaker(program=espeak)
    speaker.say("a held confirmation", "en-gb", finish=True)
    assert wait_until(lambda: lines(tmp_path / "ready"))
    speaker.say("taken back", "en-gb", cuts=True)                  # an undo: the move is gone
    assert speaker.wait_idle(timeout=10)
    assert lines(tmp_path / "said") == ["taken back"] and (speaker.cut, speaker.dropped) == (1, 0)
    speaker.close()
    assert gone(lines(tmp_path / "groups"))


def test_a_confirmation_waiting_is_replaced_by_a_newer_line(tmp_path, espeak):
    speaker = Speaker(program=espeak)
    speaker.say("a held result", "en-gb", finish=True)
    assert wait_until(lambda: lines(tmp_path / "ready"))
    speaker.say("a confirmation", "en-gb", finish=True)           # waits: the result goes on
    speaker.say("the next prompt", "en-gb")                        # the newest: said after it
    (tmp_path / "go").touch()
    assert speaker.wait_idle(timeout=10)
    assert lines(tmp_path / "said") == ["a held result", "the next prompt"] and speaker.dropped == 1
    speaker.close()


def test_each_line_is_said_at_its_own_speed_and_volume(tmp_path, espeak):
    speaker = Speaker(speed=150, volume=90, program=espeak)
    speaker.say("Ana: draw and scan", "fr-fr", speed=210, volume=50)
    assert speaker.wait_idle(timeout=10) and speaker.spoken == 1
    assert lines(tmp_path / "args") == ["-v", "fr-fr", "-s", "210", "-a", "50", "--stdin"]
    speaker.close()


def test_a_program_that_ignores_sigterm_is_killed_after_the_grace(tmp_path, espeak):
    speaker = Speaker(program=espeak)
    speaker.say("a stubborn rule", "de")
    assert wait_until(lambda: lines(tmp_path / "ready"))
    groups = lines(tmp_path / "groups")
    assert group_members(int(groups[0]))
    started = time.monotonic()
    speaker.stop()
    assert speaker.wait_idle(timeout=10)
    assert time.monotonic() - started >= GRACE * 0.9  # SIGTERM was not enough: SIGKILL after the grace
    assert gone(groups) and speaker.spoken == 0
    speaker.close()


def test_close_ends_the_thread_and_the_process_group(tmp_path, espeak):
    speaker = Speaker(program=espeak)
    speaker.say("a stubborn goodbye", "de")
    assert wait_until(lambda: lines(tmp_path / "ready"))
    speaker.close()
    assert gone(lines(tmp_path / "groups"))
    assert speaker._thread is not None and not speaker._thread.is_alive()
    speaker.say("after the end", "de")                # said to nobody: no process, no error
    speaker.stop()
    assert speaker.begun == 1


def test_a_child_left_on_the_pipes_ends_with_the_line(tmp_path, espeak):
    speaker = Speaker(program=espeak)
    speaker.say("an orphan", "en-gb")
    assert speaker.wait_idle(timeout=10) and speaker.spoken == 1
    assert lines(tmp_path / "children") and gone(lines(tmp_path / "groups"))
    speaker.close()


def test_a_line_that_takes_too_long_is_ended_and_said_once(tmp_path, espeak):
    err = io.StringIO()
    speaker = Speaker(program=espeak, err=err, max_seconds=0.3)
    speaker.say("a long hang", "en-gb")
    assert wait_until(lambda: lines(tmp_path / "ready"))
    assert speaker.wait_idle(timeout=10) and gone(lines(tmp_path / "groups"))
    speaker.close()
    assert err.getvalue() == (f"totem-companion: the voice is silent: {espeak} took longer than 0.3 s for a "
                              "line; tried again later, the game goes on\n")


def test_50_mb_on_its_standard_error_is_read_in_bounded_memory(tmp_path):
    noisy = script(tmp_path, "#!/bin/sh\ncat >/dev/null\necho $$ >> '{dir}/groups'\n"
                             "yes 'ALSA lib pcm.c: Unknown PCM plughw:9' | head -c 50000000 >&2\nexit 1\n")
    err = io.StringIO()
    speaker = Speaker(program=noisy, err=err)
    tracemalloc.start()
    try:
        speaker.say("hello", "en-gb")
        assert speaker.wait_idle(timeout=60)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    speaker.close()
    print(f"\n50 MB on espeak-ng's standard error: the box's peak Python memory {peak / 1e6:.2f} MB")
    assert peak < 2_000_000
    assert err.getvalue().count("\n") == 1 and "failed (ALSA lib pcm.c: Unknown PCM" in err.getvalue()
    assert gone(lines(tmp_path / "groups"))


def test_a_failing_voice_is_said_once_tried_again_later_and_comes_back(tmp_path):
    now = [0.0]
    failing = "#!/bin/sh\ncat >/dev/null\necho 'ALSA lib pcm.c: Unknown PCM plughw:9' >&2\nexit 1\n"
    program = script(tmp_path, failing)
    err = io.StringIO()
    speaker = Speaker(device="plughw:9", program=program, err=err, clock=lambda: now[0])
    speaker.say("hello", "en-gb")
    assert speaker.wait_idle(timeout=10) and speaker.begun == 1
    speaker.say("not now", "en-gb")                   # silent for a while: not even tried
    assert speaker.wait_idle(timeout=10) and speaker.begun == 1
    now[0] = 6.0                                      # after RETRY_AFTER: tried, fails, unsaid
    speaker.say("again", "en-gb")
    assert speaker.wait_idle(timeout=10) and speaker.begun == 2
    now[0] = 12.0                                     # the wait doubled: not yet
    speaker.say("not yet", "en-gb")
    assert speaker.wait_idle(timeout=10) and speaker.begun == 2
    script(tmp_path, ESPEAK)                          # the program is mended
    now[0] = 17.0
    speaker.say("back", "en-gb")
    assert speaker.wait_idle(timeout=10) and speaker.spoken == 1
    assert lines(tmp_path / "said") == ["back"]
    speaker.close()
    assert err.getvalue() == ("totem-companion: the voice is silent: " + program + " failed (ALSA lib pcm.c: "
                              "Unknown PCM plughw:9); tried again later, the game goes on\n"
                              "totem-companion: the voice speaks again\n")


def test_no_espeak_is_one_line_and_then_silence(tmp_path):
    err = io.StringIO()
    speaker = Speaker(program=str(tmp_path / "no-espeak-ng"), err=err)
    speaker.say("hello", "en-gb")
    assert speaker.wait_idle(timeout=10)
    speaker.say("hello again", "en-gb")
    assert speaker.wait_idle(timeout=10)
    speaker.close()
    assert err.getvalue() == (f"totem-companion: the voice is silent: {tmp_path / 'no-espeak-ng'} cannot be "
                              "started (No such file or directory); tried again later, the game goes on\n")


def test_espeak_that_cannot_open_the_device_exits_0_and_is_still_one_line(tmp_path):
    program = script(tmp_path, "#!/bin/sh\ncat >/dev/null\n"
                               "printf 'ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM nosuchdev\\n"
                               "error: No such file or directory\\n' >&2\n")
    err = io.StringIO()
    speaker = Speaker(device="nosuchdev", program=program, err=err)
    speaker.say("hello", "en-gb")
    assert speaker.wait_idle(timeout=10)
    speaker.say("never said", "en-gb")
    assert speaker.wait_idle(timeout=10)
    speaker.close()
    assert err.getvalue() == (f"totem-companion: the voice is silent: {program} failed (ALSA lib "
                              "pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM nosuchdev); tried again later, "
                              "the game goes on\n")
    assert speaker.begun == 1 and speaker.spoken == 0
