"""systemd stood in for, for the updates' tests: runs a unit written by ``./setup.sh service``
(``hardware/pi_service.sh``) as systemd would for ``systemctl restart|start|stop``.

A start runs each ``ExecStartPre=``, then ``ExecStart=`` (with the extra arguments given,
for a box without hardware) with ``NOTIFY_SOCKET`` set, waits for ``READY=1`` at most the
time given (the unit's ``TimeoutStartSec=``), then runs ``ExecStartPost=``. A start that
fails (a step that fails without ``-``, the box ending or not ready in time: it is killed)
runs ``ExecStopPost=`` with ``$SERVICE_RESULT`` (``exit-code``, ``signal``, ``timeout``)
and, the unit saying ``Restart=on-failure``, is started again (at most twice). A stop sends
SIGTERM, waits, and runs ``ExecStopPost=`` with ``success``. The status is 0 when the first
start came up ready (``systemctl restart`` waits for that), 1 otherwise.

``python tests/service_double.py UNIT STATE restart|start|stop SECONDS [BOX ARGS...]``: the box's
process id, the release each start ran (``restarts.log``) and the box's output
(``box.log``) are kept in the folder STATE.
"""

from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


def settings(unit: str) -> dict[str, list[str]]:
    """The unit's settings: name -> values, in order."""
    found: dict[str, list[str]] = {}
    for line in unit.splitlines():
        name, sep, value = line.partition("=")
        if sep and not line.startswith(("#", "[")):
            found.setdefault(name, []).append(value)
    return found


def command(value: str) -> tuple[list[str], bool]:
    """An Exec line's words (specifiers and variables unescaped) and whether its failure is
    ignored (``-``)."""
    words = [w.replace("%%", "%").replace("$$", "$") for w in shlex.split(value)]
    ignored = words[0].startswith("-")
    words[0] = words[0].lstrip("-")
    return words, ignored


class Service:
    def __init__(self, unit: Path, state: Path, seconds: float, box_args: list[str]) -> None:
        self.unit = settings(unit.read_text())
        self.state, self.seconds, self.box_args = state, seconds, box_args
        self.run_dir = state / "run"
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.pid_file = state / "box.pid"

    def _step(self, key: str, result: str | None = None) -> bool:
        env = dict(os.environ)
        if result is not None:
            env["SERVICE_RESULT"] = result
        for value in self.unit.get(key, []):
            words, ignored = command(value)
            with open(self.state / "steps.log", "a") as log:
                log.write(f"{key} {' '.join(words[1:])}\n")
                log.flush()
                done = subprocess.run(words, cwd=self.run_dir, env=env, stdout=log, stderr=log)
            if done.returncode != 0 and not ignored:
                return False
        return True

    def _alive(self) -> int | None:
        try:
            pid = int(self.pid_file.read_text())
            os.kill(pid, 0)
        except (OSError, ValueError):
            return None
        return pid

    def stop(self) -> None:
        pid = self._alive()
        if pid is None:
            return
        os.killpg(pid, signal.SIGTERM)
        deadline = time.monotonic() + 60
        while self._alive() is not None and time.monotonic() < deadline:
            time.sleep(0.02)
        self.pid_file.unlink()
        self._step("ExecStopPost", "success")

    def start_once(self) -> bool:
        if not self._step("ExecStartPre"):
            self._step("ExecStopPost", "exit-code")
            return False
        words, _ = command(self.unit["ExecStart"][0])
        current = Path(words[0]).parents[2]
        with open(self.state / "restarts.log", "a") as log:
            log.write(os.readlink(current) + "\n")
        address = str(self.state / "notify.sock")
        if os.path.exists(address):
            os.unlink(address)
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.bind(address)
            sock.settimeout(0.05)
            with open(self.state / "box.log", "a") as log:
                box = subprocess.Popen([*words, *self.box_args], env={**os.environ, "NOTIFY_SOCKET": address},
                                       cwd=self.run_dir, start_new_session=True, stdout=log, stderr=log)
            self.pid_file.write_text(str(box.pid))
            deadline = time.monotonic() + self.seconds
            result = "timeout"
            while time.monotonic() < deadline:
                try:
                    if sock.recv(64) == b"READY=1":
                        self._step("ExecStartPost")
                        return True
                except TimeoutError:
                    pass
                status = box.poll()
                if status is not None:
                    result = "signal" if status < 0 else "exit-code"
                    break
        if box.poll() is None:
            os.killpg(box.pid, signal.SIGKILL)
            box.wait()
        self.pid_file.unlink()
        self._step("ExecStopPost", result)
        return False

    def start(self) -> bool:
        ready = self.start_once()
        again = 0
        while not ready and self.unit.get("Restart") == ["on-failure"] and again < 2:
            again += 1
            if self.start_once():
                break
        return ready


def main() -> int:
    unit, state, action, seconds, *box_args = sys.argv[1:]
    service = Service(Path(unit), Path(state), float(seconds), box_args)
    if action in ("restart", "stop"):
        service.stop()
    if action in ("restart", "start"):
        return 0 if service.start() else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
