"""SIGTERM (systemd stopping the service) at any moment ends the app loop: its handler only
puts on a ``queue.SimpleQueue``, whose ``put`` is safe while the interrupted main thread is
inside ``get`` (``queue.Queue.put`` there waits for a lock that thread holds, for ever).

Each trial runs in one child process: an input source floods the loop and, after a random
number of events, sends SIGTERM to its own process, so the signal lands wherever the main
thread happens to be (in ``get``, handling an event, showing a frame). A hang shows as the
child missing its deadline, with every thread's stack printed by faulthandler."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).parent.parent
TRIALS = 100

CHILD = textwrap.dedent("""
    import faulthandler, os, random, signal, sys, threading
    from types import SimpleNamespace
    from companion.table.app_loop import AppLoop

    faulthandler.dump_traceback_later(float(sys.argv[2]), exit=True)   # a hang: stacks, exit 1

    class Session:
        working, sound = False, False
        def frame(self): return None
        def redraw(self): return None
        def handle(self, event): return SimpleNamespace(frame=None, signal=None)

    class Display:
        def show(self, frame): return 0
        def close(self): pass

    class Flood:
        '''Puts events without pause; SIGTERM to this process after ``count`` of them.'''
        def __init__(self, count):
            self.count, self.closed = count, threading.Event()
        def start(self, put):
            self.thread = threading.Thread(target=self.run, args=(put,), daemon=True)
            self.thread.start()
        def run(self, put):
            sent = 0
            while not self.closed.is_set():
                put(sent)
                sent += 1
                if sent == self.count:
                    os.kill(os.getpid(), signal.SIGTERM)
        def close(self):
            self.closed.set()
            self.thread.join()

    rng = random.Random(int(sys.argv[3]))
    for trial in range(int(sys.argv[1])):
        loop = AppLoop(Session(), Display(), poll=0.001)
        assert loop.stop_on_signal()
        loop.run([Flood(rng.randrange(1, 2000))])
        print(trial, flush=True)
""")


def test_sigterm_at_random_moments_always_ends_the_loop():
    seed = time.time_ns()
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", CHILD, str(TRIALS), "100", str(seed)],
                          capture_output=True, text=True, timeout=150, cwd=ROOT)
    ended = done.stdout.split()
    assert done.returncode == 0, f"seed {seed}: trial {len(ended)} hung or failed:\n{done.stderr}"
    assert ended == [str(trial) for trial in range(TRIALS)]
    print(f"\n{TRIALS} SIGTERMs at random moments, all ended: {time.monotonic() - started:.1f} s (seed {seed})")


def test_the_handler_is_set_only_on_the_main_thread():
    import threading

    from companion.table.app_loop import AppLoop

    result = []
    worker = threading.Thread(target=lambda: result.append(AppLoop(None, None).stop_on_signal()))
    worker.start()
    worker.join()
    assert result == [False]
