"""The voice's cost to the box (issue 24: event to frame unchanged with the voice on).
Figures:
.venv/bin/python -m pytest tests/test_bench_voice.py --benchmark-enable --benchmark-only -s

Each round delivers the next event of a player's mid-game cycle through the app loop (the
session, the display, then the watchers), as ``test_bench_session.py`` does, with the voice
off, on for prompts and on for everything: the figures are the whole event, the voice's
words included. Between two events, as between two players' actions, the speaker has taken
its line and said it (untimed). The frame reaches the display before the voice is told: the
line printed after each run is the median time from the event to the frame shown. The
speaker is the real one, its queue's policy included (``hardware/speaker.py``), its espeak-ng
a stand-in that reads its line and ends.
"""

import itertools
import statistics
import time

import pytest
from test_bench_session import MemoryJournal, mid_game

from companion.table.app_loop import AppLoop
from companion.voice.narrator import Narrator
from hardware.speaker import Speaker

ROUNDS = 300


class Screen:
    """A display that notes when each frame reached it."""

    def __init__(self):
        self.shown: list[float] = []

    def show(self, frame):
        self.shown.append(time.perf_counter())
        return 0

    def close(self):
        pass


#: An espeak-ng that reads its line and ends.
SPEAKING = "#!/bin/sh\ncat >/dev/null\n"


class CountingSpeaker(Speaker):
    """The speaker, counting the lines it was given."""

    given = 0

    def say(self, text, voice, **how):
        self.given += 1
        super().say(text, voice, **how)


@pytest.mark.parametrize("voice", ["off", "prompts", "everything"])
def test_bench_event_to_frame_with_the_voice(benchmark, tmp_path, voice):
    session, cycle = mid_game(tmp_path)
    session.play.journal = MemoryJournal()
    session.settings.change(voice=voice)
    program = tmp_path / "espeak-ng"
    program.write_text(SPEAKING, encoding="utf-8")
    program.chmod(0o755)
    speaker = CountingSpeaker(program=str(program))
    screen = Screen()
    loop = AppLoop(session, screen, watchers=(Narrator(speaker),))
    events = itertools.cycle(cycle)
    sent: list[float] = []

    def between_actions():
        # The speaker has said the line of the last event: its thread is idle again.
        assert speaker.wait_idle(timeout=10)

    def deliver():
        sent.append(time.perf_counter())
        return loop.deliver(next(events))

    try:
        out = benchmark.pedantic(deliver, setup=between_actions, rounds=ROUNDS, iterations=1)
    finally:
        loop.close()
    assert out.frame.size == (128, 64) and loop.watchers and len(screen.shown) == len(sent)
    assert (speaker.given > 0) == (voice != "off")
    to_frame = statistics.median(shown - start for start, shown in zip(sent, screen.shown))
    print(f"\nvoice {voice}: event to frame shown, median {to_frame * 1e6:.0f} us over {len(sent)} events")
