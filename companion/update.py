"""Updates with a way back: ``./setup.sh update`` and ``./setup.sh rollback`` (``python -m
companion.update``).

Releases live side by side in a home folder (``./setup.sh`` says which: ``TOTEM_HOME``, else
the one a release lies in, else ``totem-companion-releases`` beside the project):
``releases/NAME/`` each with its own venv, ``current`` a link to the one the service runs,
``previous`` to the one before. The first update adopts the project it is run from as the
release ``installed`` (a link to it: the project itself is never moved or changed).

An update installs the new release into ``releases/NAME`` (nothing else touched: a venv
holds its own path, so it is made where it runs), runs its self-check (``doctor`` and a
short demo of each game, on a data folder of its own), and only then switches ``current``
in one rename of a new link over the old, and restarts the service. The service reports
healthy once it is up (systemd's ``READY=1``, ``companion/notify.py``).

Until then the new release is on trial (``update.json`` says so), and the service's unit
runs the guard (``guard``, a small script the updater leaves in the home, run on the release
``good``: the last one found healthy, never the one on trial) around each of its starts:
before it (``start``: a release on trial gets one start, and one that already had it without
reporting healthy is undone), once it reports healthy (``ready``: the trial is over, the
release is ``good``) and after it stops (``stopped``: a trial that ended in a time-out or a
crash is undone at once, and systemd's ``Restart=`` starts the previous release). The guard
works the same at boot, with no updater running: a box cut off in the middle of an update
comes back on the previous release by itself, and the box says why on its next start
(``companion/update_note.py``). A release that changes the data folder's format migrates a
copy of it, the old one kept until the release is healthy (``companion/data_format.py``).

Each step is written first to ``update.json`` (fsynced): an update cut off at any moment
(a power cut, kill -9) is undone by ``recover``, which the next update or rollback runs
first, and the guard at the service's next start, so ``current`` names one whole release:
the old one, unless the new one was confirmed healthy. Disk space is checked before
anything is written. Every refusal is one line.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from companion import data_format, update_note
from companion.errors import UserError
from companion.files import read_bytes, sync_folder, write_atomically
from companion.records import JsonError, parse_json

#: The step being done, written before it is done.
STATE = "update.json"
#: The largest step file read (it holds a few names).
STATE_BYTES = 64 * 1024
RELEASES = "releases"
CURRENT = "current"
PREVIOUS = "previous"
#: The release last found healthy: the guard runs on it.
GOOD = "good"
#: The guard's script in the home (``write_guard``), which the service's unit runs.
GUARD = "guard"
GUARD_TEXT = """#!/bin/sh
# Written by ./setup.sh update (companion/update.py): the service runs it before each start
# (then "migrate"), once the box reports healthy and after each stop. It runs on the release
# last found healthy, never on the one on trial; -I: nothing from the working folder or the
# environment.
home=$(cd "$(dirname "$0")" && pwd -P)
# No update under way: nothing to guard or migrate, and no Python started at each start.
[ -e "$home/update.json" ] || exit 0
if [ "${1:-}" = migrate ]; then
    # The data folder in the format of the release that starts: its own code migrates it
    # (companion/data_format.py); a release from before formats has none to migrate.
    shift
    [ -f "$home/current/companion/data_format.py" ] || exit 0
    exec "$home/current/.venv/bin/python" -I -m companion.data_format "$@"
fi
python="$home/good/.venv/bin/python"
[ -x "$python" ] || python="$home/current/.venv/bin/python"
exec "$python" -I -m companion.update guard "$@" --home "$home"
"""
#: What ends a trial in a stop (systemd's ``$SERVICE_RESULT``) -> why, for the note.
STOPPED_BECAUSE = {"timeout": "timeout", "watchdog": "timeout"}
#: Room kept free beyond the new release's own size (the box's games, logs, a backup).
MARGIN = 64 * 1024 * 1024
#: The service's unit (hardware/pi_service.sh).
UNIT = "/etc/systemd/system/totem-companion.service"
#: The self-check's time, each command.
CHECK_SECONDS = 300
#: What never goes into a release copied from a folder.
NOT_COPIED = (".venv", ".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
              "totem_companion.egg-info")


class UpdateError(Exception):
    """An update or a rollback refused or undone: one line for the maker."""


def say(line: str) -> None:
    """A step, on standard output at once (a cut-off update shows where it was)."""
    print(line, flush=True)


def _write_state(home: Path, state: dict[str, Any] | None) -> None:
    """Write (None: remove) the step under way, durably, before it is done."""
    path = home / STATE
    if state is None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        sync_folder(home)
    else:
        write_atomically(path, json.dumps(state))


def _read_state(home: Path) -> dict[str, Any] | None:
    """The step under way; None when there is none; ``{"step": "unknown"}`` for a file that
    is not one (cut short, not a regular file, too big)."""
    try:
        data = read_bytes(home / STATE, "the update's step", STATE_BYTES, missing_ok=True)
        doc = parse_json(data.decode("utf-8")) if data is not None else None
    except (UserError, JsonError, UnicodeDecodeError):
        return {"step": "unknown"}
    return doc if doc is None or isinstance(doc, dict) else {"step": "unknown"}


def release_of(home: Path, link: str = CURRENT) -> str | None:
    """The release ``current`` (or ``previous``) names; None when there is none."""
    try:
        return Path(os.readlink(home / link)).name
    except OSError:
        return None


def _point(home: Path, link: str, release: str | None) -> None:
    """Make ``link`` name ``releases/release`` in one rename (None: remove it)."""
    if release is None:
        with contextlib.suppress(FileNotFoundError):
            (home / link).unlink()
    else:
        new = home / f".{link}.new"
        with contextlib.suppress(FileNotFoundError):
            new.unlink()
        os.symlink(Path(RELEASES) / release, new)
        os.replace(new, home / link)
    sync_folder(home)


def _remove_release(home: Path, name: str) -> None:
    """Remove a release folder that no link names (read-only files included)."""
    path = home / RELEASES / name
    if path.is_symlink():  # an adopted project: only the link is the release's
        path.unlink()
        return
    if not path.exists():
        return
    for folder, dirs, _ in os.walk(path):
        for name_ in dirs:
            with contextlib.suppress(OSError):
                os.chmod(Path(folder) / name_, 0o755)
    with contextlib.suppress(OSError):
        os.chmod(path, 0o755)
    shutil.rmtree(path, ignore_errors=True)


def recover(home: Path, *, restart_service: bool = True, data: Path | None = None) -> str | None:
    """Undo an update cut off before it was confirmed: ``current`` back on the release it
    left, a partial release removed (with ``data``, the data folder back in its format and
    the note left); with ``restart_service``, the service restarted when ``current`` moved.
    What was done, in a line; None when nothing was."""
    state = _read_state(home)
    if state is None:
        return None
    old, new = state.get("from"), state.get("to")
    moved = isinstance(old, str) and release_of(home) != old and (home / RELEASES / old).is_dir()
    if state.get("step") == "trial":
        _undo(home, state, "timeout", data)
    else:
        if moved:
            _point(home, CURRENT, old)
        if isinstance(new, str) and new not in _named(home):
            _remove_release(home, new)
        _write_state(home, None)
    if moved and restart_service:  # the service may run the release the update was cut off in
        restart(home)
    return f"an update to {new} was cut off: {release_of(home)} runs, as before it"


def _named(home: Path) -> set[str | None]:
    """The releases a link names."""
    return {release_of(home, link) for link in (CURRENT, PREVIOUS, GOOD)}


def _tidy(home: Path) -> None:
    """Remove the releases no link names (one the guard undid, which the service could not
    remove: its code is read-only to it)."""
    named = _named(home)
    with contextlib.suppress(FileNotFoundError):
        for release in (home / RELEASES).iterdir():
            if release.name not in named and not release.name.startswith("."):
                _remove_release(home, release.name)


def _confirm(home: Path, new: str) -> None:
    """The release on trial reported healthy: it is the good one, the trial is over."""
    _point(home, GOOD, new)
    _write_state(home, None)


def _undo(home: Path, state: dict[str, Any], why: str = "timeout", data: Path | None = None) -> str:
    """Undo the trial ``state`` names: ``current`` and ``previous`` as they were before it,
    the data folder back in its old format, the release removed where this process may, and
    with ``data`` the note for the box's next start (``why``). What was done, in a line."""
    old, new, back = state.get("from"), state.get("to"), state.get("back")
    if isinstance(old, str) and (home / RELEASES / old).is_dir():
        _point(home, CURRENT, old)
        _point(home, PREVIOUS, back if isinstance(back, str) and (home / RELEASES / back).is_dir() else None)
    if data is not None:
        data_format.restore(data)
        update_note.leave(data, why)
    if isinstance(new, str) and new not in _named(home):
        with contextlib.suppress(OSError):  # the service sees the releases read-only: the next update tidies
            _remove_release(home, new)
    _write_state(home, None)
    return f"{new} did not come up healthy: back on {old}"


def guard(home: Path, event: str, data: Path | None = None, result: str = "") -> str | None:
    """What the service's unit runs around the box (module docstring): ``event`` is
    ``start`` (before a start), ``ready`` (the box reported healthy) or ``stopped`` (after
    a stop, ``result`` being systemd's ``$SERVICE_RESULT``). What was done, in a line; None
    when nothing was."""
    state = _read_state(home)
    if state is None:
        return None
    if state.get("step") != "trial" or release_of(home) != state.get("to"):
        # An update cut off before its switch, or an undo cut off: the service starts the old one.
        return recover(home, restart_service=False, data=data) if event == "start" else None
    starts = state.get("starts")
    tried = isinstance(starts, int) and starts > 0
    if event == "start":
        if tried:  # its start came and went without a word of health (a power cut, a hang)
            return _undo(home, state, "timeout", data)
        _write_state(home, {**state, "starts": 1})
        return f"{state.get('to')} starts on trial"
    if not tried:  # the stop of the release before it, in the update's restart
        return None
    if event == "ready":
        if data is not None:
            data_format.drop_kept(data)
        _confirm(home, str(state.get("to")))
        return f"{state.get('to')} is healthy"
    if event == "stopped" and result not in ("", "success"):
        return _undo(home, state, STOPPED_BECAUSE.get(result, "failed"), data)
    return None


def write_guard(home: Path) -> None:
    """Leave (or refresh) the guard's script in the home."""
    path = home / GUARD
    if path.is_file() and not path.is_symlink() and path.read_text() == GUARD_TEXT:
        return
    write_atomically(path, GUARD_TEXT)
    os.chmod(path, 0o755)


def _size(path: Path) -> int:
    total = 0
    for folder, _, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(Path(folder) / name).st_size
    return total


def check_space(home: Path, needed: int) -> None:
    """``UpdateError`` unless ``home``'s disk has ``needed`` bytes and the margin free."""
    free = shutil.disk_usage(home).free
    if free < needed + MARGIN:
        raise UpdateError(f"not enough room for the update: {free // 2**20} MB free, "
                          f"{(needed + MARGIN) // 2**20} MB needed; nothing was changed")


def _copy_source(source: str, version: str | None, target: Path) -> None:
    """The project of ``source`` (a folder, a git repository or URL; ``version`` a tag or
    commit of it) copied into ``target``."""
    if "://" in source or source.startswith("git@"):
        with tempfile.TemporaryDirectory() as clone:
            _run(["git", "clone", "--quiet", source, clone], "cannot fetch the release")
            _copy_source(clone, version, target)
        return
    folder = Path(source)
    if not (folder / "setup.sh").is_file() or not (folder / "companion").is_dir():
        raise UpdateError(f"{source}: not a release of the companion (no setup.sh and companion/)")
    if version is not None:
        target.mkdir(parents=True)
        archive = subprocess.run(["git", "-C", str(folder), "archive", "--format=tar", version],
                                 capture_output=True)
        if archive.returncode != 0:
            raise UpdateError(f"{source}: no version {version} there")
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    else:
        shutil.copytree(folder, target, symlinks=True, ignore=shutil.ignore_patterns(*NOT_COPIED))


def _run(argv: list[str], what: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    try:
        done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=CHECK_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UpdateError(f"{what}: {exc}") from None
    if done.returncode != 0:
        last = (done.stderr.strip() or done.stdout.strip() or f"exit status {done.returncode}").splitlines()[-1]
        raise UpdateError(f"{what}: {last}")


def install(release: Path) -> None:
    """Install the release in its folder: its own ``./setup.sh`` (its venv, its bytecode),
    offline from its ``wheels/`` when it is a bundle. ``TOTEM_UPDATE_INSTALL`` replaces the
    command (a computer without the network, the tests)."""
    env = dict(os.environ)
    if (release / "wheels").is_dir():
        env.update(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(release / "wheels"))
    command = os.environ.get("TOTEM_UPDATE_INSTALL")
    argv = shlex.split(command) + [str(release)] if command else ["./setup.sh", "install"]
    _run(argv, "the new release did not install", cwd=release, env=env)


def self_check(release: Path) -> None:
    """The release's ``doctor`` (no hardware named: its configuration and libraries) and a
    short demo of each game on a data folder of its own; ``UpdateError`` when either fails."""
    program = str(release / ".venv" / "bin" / "totem-companion")
    with tempfile.TemporaryDirectory() as data:
        checks = (["doctor", "--display", "none", "--reader", "none", "--buttons", "none"],
                  ["demo", "--seed", "1", "--data", data],
                  ["demo", "--game", "totem-wars", "--seed", "1", "--data", data])
        for check in checks:
            # In the release's folder: a program started elsewhere may find another
            # release's code in its working folder first.
            _run([program, *check], f"the new release failed its check ({check[0]})", cwd=release)


def restart(home: Path) -> bool:
    """Restart the service on ``current``; True when it came up healthy in its time
    (``systemctl restart`` of a ``Type=notify`` unit waits for that; ``TOTEM_RESTART``
    replaces the command), or when no service is installed."""
    command = os.environ.get("TOTEM_RESTART")
    if command is None:
        if not Path(UNIT).is_file():
            return True  # no service here (a computer): the next ./setup.sh run starts the new release
        command = ("" if os.geteuid() == 0 else "sudo ") + "systemctl restart totem-companion"
    try:
        return subprocess.run(shlex.split(command), timeout=CHECK_SECONDS + 60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


#: The name of the project adopted by the first update.
ADOPTED = "installed"


def adopt(home: Path, project: Path) -> str:
    """Make the project the first update is run from the release ``installed`` (a link to
    it) and ``current``; its name."""
    (home / RELEASES).mkdir(parents=True, exist_ok=True)
    link = home / RELEASES / ADOPTED
    if not link.is_symlink():
        os.symlink(project.resolve(), link)
    _point(home, CURRENT, ADOPTED)
    if release_of(home, GOOD) is None:
        _point(home, GOOD, ADOPTED)
    write_guard(home)
    return ADOPTED


def update(home: Path, source: str, version: str | None = None, project: Path | None = None) -> str:
    """Install, check and switch to the release of ``source`` (module docstring); what was
    done, in a line. ``UpdateError`` when refused or undone (the old release runs)."""
    home.mkdir(parents=True, exist_ok=True)
    if (done := recover(home)) is not None:
        say(done)
    old = release_of(home)
    if old is None:
        if project is None:
            raise UpdateError(f"{home}: no current release")
        old = adopt(home, project)
    _tidy(home)
    write_guard(home)
    name = version or _name_of(source)
    if name == old:
        raise UpdateError(f"{name} is the release running already")
    needed = _size(home / RELEASES / old)
    check_space(home, needed)
    _write_state(home, {"step": "install", "from": old, "to": name})
    release = home / RELEASES / name
    if name not in _named(home):
        _remove_release(home, name)
    say(f"installing {name}")
    try:
        # Installed where it will run: a venv holds its own path. Until the switch, the
        # state file marks it as one to remove when the update is cut off.
        if not release.is_dir():
            _copy_source(source, version, release)
            install(release)
            sync_folder(home / RELEASES)
        say(f"checking {name}")
        self_check(home / RELEASES / name)
    except UpdateError as exc:
        recover(home)
        raise UpdateError(f"{exc}; {old} runs, as before") from None
    # On trial from here until it reports healthy: the guard undoes it otherwise.
    _write_state(home, {"step": "trial", "from": old, "to": name, "back": release_of(home, PREVIOUS),
                        "starts": 0})
    say(f"switching to {name}")
    _point(home, PREVIOUS, old)
    _point(home, CURRENT, name)
    say(f"restarting on {name}")
    if restart(home):
        _confirm(home, name)
        return f"updated from {old} to {name}; ./setup.sh rollback goes back"
    state = _read_state(home)
    if state is not None and state.get("step") == "trial":
        # No guard undid it (a unit from before the guard): undone here, restarted on the old.
        _undo(home, state)
        restart(home)
    raise UpdateError(f"{name} did not come up healthy: back on {old}")


def rollback(home: Path) -> str:
    """Go back to the previous release by hand; what was done, in a line."""
    if (done := recover(home)) is not None:
        return done
    old, back = release_of(home), release_of(home, PREVIOUS)
    if back is None or not (home / RELEASES / back).is_dir():
        raise UpdateError("no previous release to go back to")
    if old is not None and _format_of(home / RELEASES / old) > _format_of(home / RELEASES / back):
        # The data folder is in the newer format since the update was found healthy.
        raise UpdateError(f"{back} keeps the data in an older format than {old}: no going back "
                          "past a change of format; nothing was changed")
    _write_state(home, {"step": "rollback", "from": old, "to": back})
    _point(home, CURRENT, back)
    _point(home, PREVIOUS, old)
    _point(home, GOOD, back)
    _write_state(home, None)
    if not restart(home):
        raise UpdateError(f"back on {back}, but the service did not come up healthy")
    return f"back on {back} (from {old})"


def _format_of(release: Path) -> int:
    """The data format a release keeps (``FORMAT`` in its ``companion/data_format.py``; 1
    for a release from before formats)."""
    try:
        text = read_bytes(release / "companion" / "data_format.py", "a release's data format", 256 * 1024,
                          missing_ok=True)
    except UserError:
        return 1
    found = re.search(rb"^FORMAT = (\d+)$", text or b"", re.MULTILINE)
    return int(found.group(1)) if found else 1


def _name_of(source: str) -> str:
    """A release's name: its git description, else its folder's name."""
    if "://" not in source:
        described = subprocess.run(["git", "-C", source, "describe", "--tags", "--always", "--dirty"],
                                   capture_output=True, text=True)
        if described.returncode == 0 and described.stdout.strip():
            return described.stdout.strip()
        return Path(source).resolve().name
    return source.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")


def main(argv: list[str] | None = None) -> int:
    """``python -m companion.update update|rollback|recover|adopt|guard EVENT``: the exit
    status."""
    parser = argparse.ArgumentParser(prog="./setup.sh")
    parser.add_argument("command", choices=("update", "rollback", "recover", "adopt", "guard"))
    parser.add_argument("event", nargs="?", choices=("start", "ready", "stopped"),
                        help="guard: the service's moment (its unit's ExecStartPre, ExecStartPost, ExecStopPost)")
    parser.add_argument("--data", help="guard: the box's data folder")
    parser.add_argument("--home", required=True, help="the releases' home")
    parser.add_argument("--project", help="the project run from (adopted by a first update)")
    parser.add_argument("--from", dest="source", help="a project folder, a bundle or a git URL")
    parser.add_argument("--to", dest="version", help="a tag or commit of a git source")
    args = parser.parse_args(argv)
    home = Path(args.home)
    try:
        if args.command == "update":
            if not args.source:
                raise UpdateError("update needs --from DIR|URL (a project folder, a bundle or a git URL)")
            say(update(home, args.source, args.version, Path(args.project) if args.project else None))
        elif args.command == "rollback":
            say(rollback(home))
        elif args.command == "guard":
            if args.event is None:
                raise UpdateError("guard needs start, ready or stopped")
            done = guard(home, args.event, Path(args.data) if args.data else None,
                         os.environ.get("SERVICE_RESULT", ""))
            if done:
                say(done)
        elif args.command == "adopt":
            if not args.project:
                raise UpdateError("adopt needs --project DIR")
            if release_of(home) is None:
                say(f"{adopt(home, Path(args.project))} is the current release")
            write_guard(home)
        else:
            done = recover(home)
            if done:
                say(done)
    except (UpdateError, OSError) as exc:
        print(f"setup: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
