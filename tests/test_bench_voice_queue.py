"""The voice's queue (issue 32: "at a 0.8 s pace 59 of 64 lines were cut"). Figures:
.venv/bin/python -m pytest tests/test_bench_voice_queue.py --benchmark-enable --benchmark-only -s

The lines are what the narrator says over the input scripts of a Wakanda and a Totem Wars
game (the voice on for everything), each with what the narrator tells the speaker of it (a
confirmation to finish, an undo that cuts). They are handed to the real speaker one every
0.8 s, as fast players would play; its espeak-ng is a stand-in that speaks each line for its
reading time at the speaker's 160 words a minute. Both are run ``SCALE`` times faster (the
figures do not change, the run is shorter). Printed: of N lines, how many were said whole,
cut while said, and dropped unsaid (a newer one replaced them while they waited), before
(every new line cut the one being said) and after (the queue's policy,
``hardware/speaker.py``).
"""

from __future__ import annotations

import time
from pathlib import Path

from companion.events import Wait
from companion.table.app_loop import AppLoop
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.settings import SettingsStore
from companion.ui import text
from companion.voice.narrator import Narrator
from hardware.script_input import ScriptInput
from hardware.speaker import Speaker

DATA = Path(__file__).parent / "data"
PACE = 0.8
SCALE = 0.25
WORDS_A_MINUTE = 160
#: Speaks for the line's reading time, until stopped.
STAND_IN = f"""#!/bin/sh
words=$(wc -w)
exec sleep $(awk "BEGIN {{ print $words * 60 / {WORDS_A_MINUTE} * {SCALE} }}")
"""


class Screen:
    def show(self, frame) -> int:
        return 0

    def close(self) -> None:
        pass


class Recorder:
    """Keeps each line with how the narrator asks for it to be said."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str, dict]] = []

    def say(self, words: str, voice: str, **how) -> None:
        self.lines.append((words, voice, how))

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


def narrated(tmp_path: Path, script: str) -> list[tuple[str, str, dict]]:
    store, _ = SettingsStore.load(tmp_path / script, voice="everything", games=("wakanda", "totem-wars"),
                                  languages=text.languages())
    session = Session(tmp_path / script, TagRegistry(tmp_path / f"{script}.json"), settings=store)
    recorder = Recorder()
    loop = AppLoop(session, Screen(), watchers=(Narrator(recorder),))
    loop.show(session.frame())
    loop.tell_watchers()
    for event in ScriptInput(DATA / script).events():
        if not isinstance(event, Wait):
            loop.deliver(event)
    return recorder.lines


def played(program: str, lines: list[tuple[str, str, dict]], policy: bool) -> Speaker:
    speaker = Speaker(program=program, speed=WORDS_A_MINUTE)
    start = time.monotonic()
    for n, (words, voice, how) in enumerate(lines):
        # The players' pace: the n-th line at n × PACE (a pace, not a wait for an event).
        time.sleep(max(0.0, start + n * PACE * SCALE - time.monotonic()))
        if policy:
            speaker.say(words, voice, **how)
        else:
            speaker.say(words, voice, speed=how.get("speed"), volume=how.get("volume"))
    assert speaker.wait_idle(timeout=120)
    speaker.close()
    return speaker


def test_bench_lines_cut_and_dropped_at_a_fast_players_pace(benchmark, tmp_path):
    lines = [line for script in ("first_game_wakanda.txt", "first_game_totem_wars.txt")
             for line in narrated(tmp_path, script)]
    if benchmark.disabled:  # the suite's run: the first lines only, the figures are the benchmark's
        lines = lines[:12]
    program = tmp_path / "espeak-ng"
    program.write_text(STAND_IN, encoding="utf-8")
    program.chmod(0o755)
    figures = {}

    def run():
        for policy in (False, True):
            speaker = played(str(program), lines, policy)
            figures[policy] = (speaker.spoken, speaker.cut, speaker.dropped)

    benchmark.pedantic(run, rounds=1, iterations=1)
    for policy, name in ((False, "before (each line cuts the last)"), (True, "after (the queue's policy)")):
        whole, cut, dropped = figures[policy]
        print(f"\n{len(lines)} lines at a {PACE} s pace, {name}: {whole} said whole, {cut} cut, "
              f"{dropped} dropped")
    before, after = figures[False], figures[True]
    assert sum(before) == sum(after) == len(lines)
    assert after[1] < before[1] and after[0] > before[0]  # fewer lines cut, more said whole
