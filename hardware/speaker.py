"""The box's speaker: espeak-ng says each line on a thread of its own.

``say`` never waits: it leaves the line for the speaking thread and stops the line being
said, so a new prompt cancels a stale one and the session goes on at once. Only the newest
line waits; those it replaced are never said. espeak-ng plays on the configuration's ALSA
device (``[voice] device``; empty: the system's default) at its speed and volume.

A speaker that cannot speak (no espeak-ng, a device that refuses) says so once, in one line,
and stays silent: the game goes on.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable
from typing import TextIO

PROGRAM = "espeak-ng"


def espeak_args(voice: str, *, speed: int = 160, volume: int = 100, device: str = "",
                wav: str | None = None, program: str = PROGRAM) -> list[str]:
    """The espeak-ng command line for a line read on its standard input: ``voice`` at
    ``speed`` words a minute and ``volume`` (its amplitude), on ``device`` or into the WAV
    file ``wav``."""
    args = [program, "-v", voice, "-s", str(speed), "-a", str(volume)]
    if wav is not None:
        args += ["-w", wav]
    elif device:
        args += ["-d", device]
    return [*args, "--stdin"]


def _failure(returncode: int, problem: str) -> str | None:
    """Why espeak-ng could not speak, or None. It exits with 0 when the audio device is
    refused, saying ``error: …`` after ALSA's lines: the line naming the device tells most."""
    if returncode < 0:
        return None  # stopped by a newer line
    lines = problem.strip().splitlines()
    if returncode == 0 and not any(line.startswith("error") for line in lines):
        return None
    named = [line for line in lines if "Unknown PCM" in line or "cannot find card" in line]
    return (named or lines or [f"exit status {returncode}"])[-1].strip()


class Speaker:
    """Says lines with espeak-ng, one at a time, the newest only (see the module)."""

    def __init__(self, *, speed: int = 160, volume: int = 100, device: str = "",
                 program: str = PROGRAM, err: TextIO | None = None,
                 popen: Callable[..., subprocess.Popen] = subprocess.Popen):
        self.speed, self.volume, self.device, self.program = speed, volume, device, program
        self.err = err if err is not None else sys.stderr
        self._popen = popen
        self._lock = threading.Condition()
        self._waiting: tuple[str, str] | None = None
        self._process: subprocess.Popen | None = None
        self._closed = False
        self._asked = 0  # says and stops so far: a line taken before the last one is stale
        self._broken = False
        self._thread: threading.Thread | None = None
        self.spoken = 0  # lines said to the end (tests wait on it)

    def say(self, text: str, voice: str) -> None:
        """Say ``text`` with the espeak-ng ``voice``, dropping what was being said; returns
        at once."""
        with self._lock:
            if self._closed or self._broken:
                return
            self._waiting = (text, voice)
            self._asked += 1
            self._stop_process()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
                self._thread.start()
            self._lock.notify_all()

    def stop(self) -> None:
        """Silence: the line being said stops, the one waiting is dropped."""
        with self._lock:
            self._waiting = None
            self._asked += 1
            self._stop_process()

    def close(self) -> None:
        """Stop speaking and end the speaking thread."""
        with self._lock:
            self._closed = True
            self._waiting = None
            self._stop_process()
            self._lock.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout=2)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is said or waits to be (tests; the box never waits)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._waiting is None and self._process is None, timeout)

    def _stop_process(self) -> None:
        # Under the lock. terminate only sends the signal: the speaking thread reaps it.
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()

    def _run(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._waiting is not None or self._closed)
                if self._closed:
                    return
                assert self._waiting is not None
                (text, voice), self._waiting = self._waiting, None
                asked = self._asked
            args = espeak_args(voice, speed=self.speed, volume=self.volume, device=self.device,
                               program=self.program)
            try:  # outside the lock: ``say`` never waits for a process to start
                process = self._popen(args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE)
            except OSError as exc:
                with self._lock:
                    self._give_up(f"{self.program} cannot be started ({exc.strerror or exc})")
                return
            with self._lock:
                self._process = process
                if self._asked != asked or self._closed:
                    self._stop_process()  # replaced or stopped while it started
            _, problem = process.communicate(text.encode("utf-8"))
            failure = _failure(process.returncode, problem.decode("utf-8", "replace"))
            with self._lock:
                self._process = None
                if failure is not None:
                    self._give_up(f"{self.program} failed ({failure})")
                    return
                if process.returncode == 0:
                    self.spoken += 1
                self._lock.notify_all()

    def _give_up(self, why: str) -> None:
        # Under the lock: one line, then silence; the game goes on.
        self._broken, self._waiting = True, None
        self._lock.notify_all()
        print(f"totem-companion: the voice is silent: {why}; the game goes on", file=self.err)
