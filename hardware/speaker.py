"""The box's speaker: espeak-ng says each line on a thread of its own.

``say`` never waits: it leaves the line for the speaking thread and the session goes on at
once. The queue's policy (issue 32):

- a line that says what happened (``finish``: a confirmation, a refusal, a result) is said
  to its end, unless a newer line makes it stale (``cuts``: an undo, "Where are we?");
- any other line (a prompt, a screen) is cut by the next line;
- only the newest line waits: of a burst that comes while a line is said, at most the last
  is said, those it replaced are dropped.

espeak-ng plays on the configuration's ALSA device (``[voice] device``; empty: the system's
default) at the speed and volume of each line (the settings', else the configuration's).

espeak-ng cannot hang the box or outlive it: it runs in a process group of its own, and a
line that is replaced, stopped or takes too long ends with SIGTERM to the whole group, then
SIGKILL after ``GRACE`` seconds (a program that ignores SIGTERM, or a child it left holding
its pipes, goes too). What it writes on its standard error is read as it comes and only its
last ``MAX_ERROR_BYTES`` kept.

A speaker that cannot speak (no espeak-ng, a device that refuses, a line that hangs) says so
once, in one line, stays silent for a while and tries again, waiting longer after each
failure (``RETRY_AFTER`` doubling up to ``MAX_RETRY_AFTER``); when it speaks again it says so
in one line. The game goes on meanwhile.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

PROGRAM = "espeak-ng"
#: Seconds a process group has between SIGTERM and SIGKILL.
GRACE = 0.5
#: What of espeak-ng's standard error is kept (its end): enough for ALSA's lines.
MAX_ERROR_BYTES = 64 * 1024
#: The most of a line written to espeak-ng (a line is a sentence: far less).
MAX_LINE_BYTES = 4096
#: A failing voice is tried again after this many seconds, doubling up to MAX_RETRY_AFTER.
RETRY_AFTER, MAX_RETRY_AFTER = 5.0, 300.0


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


@dataclass(frozen=True)
class _Line:
    """A line waiting to be said, with how it is said and whether it may be cut."""

    text: str
    voice: str
    speed: int
    volume: int
    finish: bool


def line_seconds(text: str, speed: int) -> float:
    """How long a line may take before it counts as hung: four times its reading at
    ``speed`` words a minute (a word about six characters), and never under 10 s."""
    return max(10.0, 4 * 60 * len(text) / 6 / max(speed, 1))


def _failure(returncode: int, problem: str) -> str | None:
    """Why espeak-ng could not speak, or None. It exits with 0 when the audio device is
    refused, saying ``error: …`` after ALSA's lines: the line naming the device tells most."""
    lines = problem.strip().splitlines()
    if returncode == 0 and not any(line.startswith("error") for line in lines):
        return None
    named = [line for line in lines if "Unknown PCM" in line or "cannot find card" in line]
    why = (named or lines or [f"exit status {returncode}"])[-1].strip()
    return "".join(ch if ch.isprintable() else "?" for ch in why[:200])


class Speaker:
    """Says lines with espeak-ng, one at a time, the newest only (see the module).

    ``program`` is the espeak-ng to run, ``max_seconds`` a bound on any line (default: by its
    length, ``line_seconds``), ``clock`` the clock of the retries."""

    def __init__(self, *, speed: int = 160, volume: int = 100, device: str = "",
                 program: str = PROGRAM, err: TextIO | None = None, max_seconds: float | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.speed, self.volume, self.device, self.program = speed, volume, device, program
        self.err = err if err is not None else sys.stderr
        self.max_seconds, self._clock = max_seconds, clock
        self._lock = threading.Condition()
        self._waiting: _Line | None = None
        self._busy = False  # a line taken by the speaking thread, until it has ended
        self._finishing = False  # the line taken is said to its end unless a line cuts it
        self._closed = False
        self._asked = 0  # says and stops so far: a line taken before the last one is stale
        self._failing: str | None = None    # why the voice last failed, while it does
        self._retry_at = 0.0
        self._retry_after = RETRY_AFTER
        self._wake_read, self._wake_write = os.pipe()  # wakes the speaking thread's select
        os.set_blocking(self._wake_write, False)
        self._thread: threading.Thread | None = None
        self.begun = 0   # lines handed to espeak-ng (tests wait on them)
        self.spoken = 0  # lines said to the end (tests wait on it)
        self.cut = 0     # lines begun and stopped before their end (the benchmark's figures)
        self.dropped = 0  # lines replaced while they waited, never begun

    def say(self, text: str, voice: str, *, finish: bool = False, cuts: bool = False,
            speed: int | None = None, volume: int | None = None) -> None:
        """Say ``text`` with the espeak-ng ``voice`` (at ``speed`` and ``volume``, else the
        speaker's); returns at once. The line being said is stopped unless it is to
        ``finish`` and this line does not make it stale (``cuts``); then this one waits,
        replacing any line waiting. While a failed voice waits to be tried again, the line
        is not said."""
        with self._lock:
            if self._closed:
                return
            if not (self._busy and self._finishing and not cuts):
                self._asked += 1
                self._wake()
            if self._waiting is not None:
                self.dropped += 1
            if self._failing is not None and self._clock() < self._retry_at:
                self._waiting = None
                self._lock.notify_all()
                return
            self._waiting = _Line(text, voice, speed if speed is not None else self.speed,
                                  volume if volume is not None else self.volume, finish)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
                self._thread.start()
            self._lock.notify_all()

    def stop(self) -> None:
        """Silence: the line being said stops, the one waiting is dropped."""
        with self._lock:
            if self._closed:
                return
            if self._waiting is not None:
                self.dropped += 1
            self._waiting = None
            self._asked += 1
            self._wake()
            self._lock.notify_all()

    def close(self) -> None:
        """Stop speaking, end espeak-ng's process group and the speaking thread."""
        with self._lock:
            self._closed = True
            self._waiting = None
            self._wake()
            self._lock.notify_all()
            thread = self._thread
        if thread is not None:
            thread.join(timeout=GRACE + 5)
        with self._lock:
            if (thread is None or not thread.is_alive()) and self._wake_write >= 0:
                os.close(self._wake_read)
                os.close(self._wake_write)
                self._wake_read = self._wake_write = -1

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until nothing is said or waits to be (tests; the box never waits)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._waiting is None and not self._busy, timeout)

    def wait_begun(self, count: int, timeout: float | None = None) -> bool:
        """Wait until ``count`` lines were handed to espeak-ng (tests and benchmarks)."""
        with self._lock:
            return self._lock.wait_for(lambda: self.begun >= count, timeout)

    def _wake(self) -> None:
        # Under the lock: one byte is enough, a full pipe already wakes the thread.
        if self._wake_write < 0:
            return
        try:
            os.write(self._wake_write, b"!")
        except BlockingIOError:
            pass

    # --- the speaking thread ------------------------------------------------------------

    def _run(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._waiting is not None or self._closed)
                if self._closed:
                    return
                assert self._waiting is not None
                line, self._waiting = self._waiting, None
                asked, self._busy, self._finishing = self._asked, True, line.finish
                self._drain_wake()
            try:
                failure, said = self._speak(line, asked)
            except OSError as exc:  # the pipes or the process table refused: said as a failure
                failure, said = f"{self.program} could not be watched ({exc.strerror or exc})", False
            with self._lock:
                self._busy = self._finishing = False
                if failure is not None:
                    self._fail(failure)
                elif said:
                    self.spoken += 1
                    if self._failing is not None:
                        self._failing, self._retry_after = None, RETRY_AFTER
                        print("totem-companion: the voice speaks again", file=self.err)
                self._lock.notify_all()

    def _speak(self, line: _Line, asked: int) -> tuple[str | None, bool]:
        """Say one line: why it failed (or None), and whether it was said to its end (not
        when replaced meanwhile)."""
        text = line.text
        args = espeak_args(line.voice, speed=line.speed, volume=line.volume, device=self.device,
                           program=self.program)
        try:  # outside the lock: ``say`` never waits for a process to start
            process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            return f"{self.program} cannot be started ({exc.strerror or exc})", False
        with self._lock:
            self.begun += 1
            self._lock.notify_all()
        limit = self.max_seconds if self.max_seconds is not None else line_seconds(text, line.speed)
        try:
            _write_line(process, text)
            outcome, problem = self._watch(process, asked, self._clock() + limit)
        finally:  # whatever happened, nothing of the line outlives it
            returncode = self._end(process)
        if outcome == "replaced":
            with self._lock:
                self.cut += 1
            return None, False
        if outcome == "too long":
            return f"{self.program} took longer than {limit:g} s for a line", False
        failure = _failure(returncode, problem.decode("utf-8", "replace"))
        return (None, True) if failure is None else (f"{self.program} failed ({failure})", False)

    def _watch(self, process: subprocess.Popen[bytes], asked: int, deadline: float) -> tuple[str, bytes]:
        """Read its standard error (its end kept) until it exits ("done"), a newer line or
        a stop comes ("replaced") or the line takes too long ("too long")."""
        assert process.stderr is not None
        error = process.stderr.fileno()
        os.set_blocking(error, False)
        kept = bytearray()
        exited = _exit_waiter(process.pid)
        try:
            while True:
                with self._lock:
                    if self._asked != asked or self._closed:
                        return "replaced", bytes(kept)
                if _exited(process.pid):
                    # A child left on its pipes must not keep the line going: what was
                    # written so far is read, the group is ended by the caller.
                    if error >= 0:
                        _read_into(error, kept)
                    return "done", bytes(kept)
                left = deadline - self._clock()
                if left <= 0:
                    return "too long", bytes(kept)
                watched = [self._wake_read] + ([error] if error >= 0 else []) + ([exited] if exited >= 0 else [])
                ready, _, _ = select.select(watched, [], [], min(left, 0.05 if exited < 0 else left))
                if error in ready and not _read_into(error, kept):
                    error = -1  # its end of the pipe closed: only its exit is waited for
        finally:
            if exited >= 0:
                os.close(exited)

    def _end(self, process: subprocess.Popen[bytes]) -> int:
        """End the line's whole process group (SIGTERM, SIGKILL after GRACE) and reap it:
        its return code. The leader is reaped last, so its group id cannot be reused before."""
        group = process.pid
        if not _exited(group):
            _signal_group(group, signal.SIGTERM)
            exited = _exit_waiter(group)
            try:
                deadline = time.monotonic() + GRACE
                while not _exited(group) and time.monotonic() < deadline:
                    select.select([exited] if exited >= 0 else [], [], [], 0.05 if exited < 0 else GRACE)
            finally:
                if exited >= 0:
                    os.close(exited)
        _signal_group(group, signal.SIGKILL)  # what ignored SIGTERM, and any child left behind
        returncode = process.wait()
        assert process.stderr is not None
        process.stderr.close()
        return returncode

    def _fail(self, why: str) -> None:
        # Under the lock: one line when it starts failing, then tries again later, waiting
        # longer each time; the game goes on.
        if self._failing is None:
            print(f"totem-companion: the voice is silent: {why}; tried again later, the game goes on",
                  file=self.err)
        else:
            self._retry_after = min(self._retry_after * 2, MAX_RETRY_AFTER)
        self._failing, self._waiting = why, None
        self._retry_at = self._clock() + self._retry_after

    def _drain_wake(self) -> None:
        os.set_blocking(self._wake_read, False)
        try:
            while os.read(self._wake_read, 4096):
                pass
        except BlockingIOError:
            pass


def _write_line(process: subprocess.Popen[bytes], text: str) -> None:
    """Hand ``text`` to espeak-ng and close its input; never blocks (a line fits a pipe's
    buffer; one that does not read is cut)."""
    assert process.stdin is not None
    try:
        os.set_blocking(process.stdin.fileno(), False)
        os.write(process.stdin.fileno(), text.encode("utf-8")[:MAX_LINE_BYTES])
    except OSError:
        pass  # it does not read its line: its exit and standard error tell why
    finally:
        process.stdin.close()


def _exit_waiter(pid: int) -> int:
    """A descriptor readable when process ``pid`` exits (Linux's pidfd), or -1 without one."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return -1


def _exited(pid: int) -> bool:
    """Whether our child ``pid`` has exited, without reaping it (its id stays taken)."""
    try:
        found = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return found is not None


def _read_into(fd: int, kept: bytearray) -> bool:
    """Read what ``fd`` holds now, keeping the last MAX_ERROR_BYTES; False at its end."""
    try:
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                return False
            kept += chunk
            del kept[:-MAX_ERROR_BYTES]
    except BlockingIOError:
        return True


def _signal_group(group: int, signum: int) -> None:
    try:
        os.killpg(group, signum)
    except (ProcessLookupError, PermissionError):
        pass  # the group is gone already
