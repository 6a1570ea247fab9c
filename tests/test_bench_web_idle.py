"""The game's pace with the phone page under a flood of idle connections (issue 29: 1,100
idle connections stopped play). Figures:
.venv/bin/python -m pytest tests/test_bench_web_idle.py --benchmark-enable --benchmark-only -s

A whole game of Wakanda, played several times over by ``run --input --web PORT`` in a
process of its own, without other connections, then with 2,000 idle ones opened from 250
addresses of 127.0.0.0/8 just before play begins (the page keeps 128 and closes the rest
at once; those the system had no room for retry on their own). The figure is the actions
confirmed a second: frames shown, each the box's answer to one event. Both boxes play the
whole script to its end; the repeats go on from wherever the last game left the box (which
the box's own dice decide), so frames and records are compared for one game only, by
tests/test_web_doors.py.
"""

from __future__ import annotations

import resource
import socket
import time

import pytest
from reliability import demo_script
from test_web_doors import Box, free_port

#: Idle connections, and how many from each address.
IDLE, PER_ADDRESS = 2000, 8
#: Times the game is played over (about 110 frames each).
REPEAT = 8
#: Seconds the box shows its menu before play: time for its page to listen and for the
#: connections to be opened (checked: play must begin after them).
PAUSE = 5


def flood(port: int, count: int) -> list[socket.socket]:
    """``count`` idle connections to ``port``, opened without waiting for the box to take
    them (it cannot take them all at once: the rest are the system's to retry)."""
    socks = []
    for n in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((f"127.1.{n // PER_ADDRESS // 250}.{1 + n // PER_ADDRESS % 250}", 0))
        sock.connect_ex(("127.0.0.1", port))
        socks.append(sock)
    return socks


def confirmed_rate(folder, script: str, tags: dict[str, str], idle: int) -> tuple[float, list[str], list[str]]:
    """Play ``script`` with ``idle`` connections open: (frames a second in play, frames, records)."""
    box = Box(folder, f"wait {PAUSE}\n{script * REPEAT}", tags, free_port())
    box.listening()
    socks = flood(box.port, idle)
    with box.changed:
        before_play = len(box.frames)
    try:
        frames, records = box.end()
    finally:
        for sock in socks:
            sock.close()
    assert before_play == 1, "play began before the connections were open: raise PAUSE"
    assert "Traceback" not in "".join(box.err)
    played = box.times[1:]
    return (len(played) - 1) / (played[-1] - played[0]), frames, records


def test_bench_confirmed_actions_a_second_with_2000_idle_connections(benchmark, tmp_path):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < IDLE + 200:
        pytest.skip(f"this process may open {hard} descriptors, fewer than {IDLE} connections need")
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    script, tags = demo_script("wakanda", 5)
    figures = {}

    def once():
        began = time.monotonic()
        for idle in (0, IDLE):
            figures[idle] = confirmed_rate(tmp_path / f"idle{idle}", script, tags, idle)
        return time.monotonic() - began
    try:
        benchmark.pedantic(once, rounds=1, iterations=1)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    calm, flooded = figures[0], figures[IDLE]
    assert flooded[2] and calm[2]   # games were kept
    print(f"\nconfirmed actions a second: {calm[0]:.0f} without other connections, {flooded[0]:.0f} with "
          f"{IDLE} idle ones ({flooded[0] / calm[0]:.0%}); {len(calm[1])} and {len(flooded[1])} frames")
