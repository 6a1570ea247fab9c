"""Updates with a way back (issue 34): whole updates between releases built from this
repository (``git archive`` of its HEAD, and copies of it changed to fail), with systemd stood
in for by ``service_double.py``: it runs the very unit ``./setup.sh service`` writes (its
guard before and after the box, the box with ``NOTIFY_SOCKET``, its time-out and its
``Restart=``), and answers whether the box said ``READY=1`` in its time, as ``systemctl
restart`` of a ``Type=notify`` unit does.

Installing a release's dependencies is the one step stood in for (``TOTEM_UPDATE_INSTALL``):
its venv takes them from this one's instead of from the network; the release's own code,
its ``doctor``, its demos and its box are its own."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import textwrap
import time
from pathlib import Path

import pytest

from companion import update, update_note
from companion.update import UpdateError, release_of

ROOT = Path(__file__).parent.parent
#: The longest an update, the box's start or a stop may take on a loaded machine.
WAIT = 240

INSTALL = textwrap.dedent(f"""
    import os, subprocess, sys, venv
    release = sys.argv[1]
    venv.create(os.path.join(release, ".venv"), with_pip=False)
    site = os.path.join(release, ".venv", "lib", f"python{{sys.version_info[0]}}.{{sys.version_info[1]}}",
                        "site-packages")
    with open(os.path.join(site, "release.pth"), "w") as pth:
        pth.write(release + "\\n" + {sysconfig.get_paths()["purelib"]!r} + "\\n")
    program = os.path.join(release, ".venv", "bin", "totem-companion")
    with open(program, "w") as launcher:
        launcher.write(f"#!/bin/sh\\nexec '{{release}}/.venv/bin/python' -m companion \\"$@\\"\\n")
    os.chmod(program, 0o755)
    # What ./setup.sh does after pip: the words compiled, the bytecode compiled.
    python = os.path.join(release, ".venv", "bin", "python")
    subprocess.run([python, "-m", "companion.catalogues"], cwd=release, check=True, capture_output=True)
    subprocess.run([python, "-m", "compileall", "-q", "companion", "hardware"], cwd=release, check=True,
                   capture_output=True)
""")

def archive_head(target: Path) -> Path:
    """This repository's HEAD as a release folder (its committed files)."""
    target.mkdir(parents=True)
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(target)], input=tar.stdout, check=True)
    return target


def unit_text(home: Path, project: Path, data: Path) -> str:
    """The unit ``./setup.sh service`` writes for a box whose releases live in ``home``."""
    from test_pi_service import a_user

    script = f'releases_home() {{ echo "{home}"; }}; . "{ROOT}/hardware/pi_service.sh"; ROOT="{project}"; ' \
             f'pi_service --print --user {a_user()} --project "{project}" --data "{data}" --no-web'
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture
def box(tmp_path):
    """A home with the release ``installed`` running as the service (adopted, as the first
    ``./setup.sh update`` does, and the unit written again), its data folder with a finished
    game, and the commands the updater runs."""
    helpers = tmp_path / "helpers"
    helpers.mkdir()
    (helpers / "install.py").write_text(INSTALL)
    home, data, state = tmp_path / "home", tmp_path / "data", tmp_path / "service"
    project = archive_head(tmp_path / "project")
    subprocess.run([sys.executable, str(helpers / "install.py"), str(project)], check=True)
    subprocess.run([str(project / ".venv" / "bin" / "totem-companion"), "demo", "--seed", "5", "--data", str(data)],
                   check=True, capture_output=True)
    update.adopt(home, project)
    state.mkdir()
    (state / "unit").write_text(unit_text(home, project, data))
    (state / "wait.txt").write_text("wait 600\n")

    class Box:
        def __init__(self):
            self.home, self.data, self.project, self.state = home, data, project, state
            self.games = sorted(p.read_bytes() for p in (data / "games").iterdir())
            self.env = {**os.environ, "TOTEM_UPDATE_INSTALL": f"{sys.executable} {helpers / 'install.py'}"}
            self.time_out(30)

        def time_out(self, seconds: float) -> None:
            """The box's time to report healthy (the unit's TimeoutStartSec)."""
            self.env["TOTEM_RESTART"] = " ".join(self.service_command("restart", seconds))

        def service_command(self, action: str, seconds: float = 30) -> list[str]:
            return [sys.executable, str(Path(__file__).parent / "service_double.py"), str(state / "unit"),
                    str(state), action, str(seconds), "--input", str(state / "wait.txt"), "--display", "text"]

        def service(self, action: str, seconds: float = 30) -> int:
            """``systemctl ACTION`` (start: the box's boot); its status."""
            return subprocess.run(self.service_command(action, seconds), timeout=WAIT).returncode

        def run(self, *args: str) -> subprocess.CompletedProcess:
            return subprocess.run([sys.executable, "-m", "companion.update", *args, "--home", str(home),
                                   "--project", str(project)], cwd=ROOT, env=self.env, capture_output=True,
                                  text=True, timeout=WAIT)

        def restarts(self) -> list[str]:
            log = state / "restarts.log"
            return log.read_text().split() if log.exists() else []

        def shown(self) -> str:
            """What the box's panel showed (``--display text``), every start."""
            log = state / "box.log"
            return log.read_text() if log.exists() else ""

        def working(self) -> None:
            """Exactly one release named by ``current``, whole (its demo plays), every release
            folder named by a link, and no game lost."""
            program = home / "current" / ".venv" / "bin" / "totem-companion"
            done = subprocess.run([str(program), "demo", "--seed", "2"], capture_output=True, timeout=WAIT,
                                  cwd=home)
            assert done.returncode == 0, done.stderr
            named = {release_of(home, link) for link in ("current", "previous", "good")}
            assert {p.name for p in (home / "releases").iterdir()} <= named
            assert not (home / update.STATE).exists()
            assert sorted(p.read_bytes() for p in (data / "games").iterdir()) == self.games

        def power_cut(self) -> None:
            """Everything stops at once: the box too."""
            pid = state / "box.pid"
            if pid.exists():
                with contextlib.suppress(OSError, ValueError):
                    os.killpg(int(pid.read_text()), signal.SIGKILL)
                pid.unlink()

    made = Box()
    yield made
    made.power_cut()


def changed_release(tmp_path: Path, name: str, path: str, old: str, new: str) -> Path:
    """A copy of this repository's HEAD with ``old`` replaced by ``new`` in ``path``."""
    release = archive_head(tmp_path / name)
    file = release / path
    text = file.read_text()
    assert old in text
    file.write_text(text.replace(old, new, 1))
    return release


def test_a_good_update_switches_and_restarts_on_the_new_release(box):
    done = box.run("update", "--from", str(ROOT), "--to", "HEAD")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "updated from installed to HEAD; ./setup.sh rollback goes back"
    assert release_of(box.home) == "HEAD" and release_of(box.home, "previous") == "installed"
    assert release_of(box.home, "good") == "HEAD"
    assert box.restarts() == ["releases/HEAD"]
    box.working()
    back = box.run("rollback")
    assert back.returncode == 0 and back.stdout.strip() == "back on installed (from HEAD)"
    assert box.restarts() == ["releases/HEAD", "releases/installed"]
    assert release_of(box.home, "good") == "installed"
    box.working()


#: The first line of the demo's body, which a broken release makes stop at once.
DEMO_RUN = '    """Play one demo game; prints the turns and the result, writes ``--record`` if asked."""\n'


def test_a_release_whose_self_check_fails_never_switches(box, tmp_path):
    broken = changed_release(tmp_path, "broken", "companion/commands/demo.py",
                             DEMO_RUN, DEMO_RUN + "    raise SystemExit(3)\n")
    done = box.run("update", "--from", str(broken))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "the new release failed its check (demo)" in done.stderr
    assert "installed runs, as before" in done.stderr
    assert release_of(box.home) == "installed" and box.restarts() == []
    assert [p.name for p in (box.home / "releases").iterdir()] == ["installed"]
    box.working()


#: A release that starts but never says READY=1, and one that stops before it does.
NOTIFY = '    address = os.environ.get("NOTIFY_SOCKET")\n'
SILENT = ("companion/notify.py", NOTIFY, "    address = None  # never healthy\n")
CRASHING = ("companion/notify.py", NOTIFY, "    raise SystemExit(4)\n")


@pytest.mark.parametrize("how, shown", [(SILENT, "Update too slow: undone"), (CRASHING, "Update failed: undone")])
def test_a_release_that_never_reports_healthy_is_rolled_back_by_itself(box, tmp_path, how, shown):
    bad = changed_release(tmp_path, "bad", *how)
    # Its time shorter than a good start's: the box's start takes a fraction of a second here.
    box.time_out(8)
    done = box.run("update", "--from", str(bad))
    assert done.returncode == 1
    assert done.stderr.strip() == "setup: bad did not come up healthy: back on installed"
    # The guard undid it after its stop; the service's Restart= started the previous release.
    assert release_of(box.home) == "installed" and release_of(box.home, "good") == "installed"
    assert box.restarts() == ["releases/bad", "releases/installed"]
    # The previous release says why on its panel, once: the note is taken.
    assert f"frame 1: {shown} |" in box.shown()
    assert not (box.data / update_note.NOTE).exists()
    box.working()


def test_a_box_cut_off_while_its_new_release_starts_comes_back_on_the_old_one_at_boot(box, tmp_path):
    silent = changed_release(tmp_path, "silent", *SILENT)
    box.time_out(WAIT)
    updating = subprocess.Popen([sys.executable, "-m", "companion.update", "update", "--from", str(silent),
                                 "--home", str(box.home), "--project", str(box.project)],
                                cwd=ROOT, env=box.env, stdout=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + WAIT
    while box.restarts() != ["releases/silent"] and updating.poll() is None and time.monotonic() < deadline:
        with contextlib.suppress(subprocess.TimeoutExpired):
            updating.wait(0.05)
    assert box.restarts() == ["releases/silent"]
    os.killpg(updating.pid, signal.SIGKILL)   # the power goes while the new release starts
    box.power_cut()
    updating.wait(WAIT)
    assert release_of(box.home) == "silent"
    assert box.service("start") == 0          # the boot: no updater, the service alone
    assert release_of(box.home) == "installed"
    assert box.restarts() == ["releases/silent", "releases/installed"]
    assert "frame 1: Update too slow: undone |" in box.shown()
    box.working()


@pytest.mark.parametrize("step", ["installing", "checking", "switching", "restarting"])
def test_an_update_killed_at_any_step_leaves_one_working_release_and_every_game(box, step):
    updating = subprocess.Popen([sys.executable, "-m", "companion.update", "update", "--from", str(ROOT),
                                 "--to", "HEAD", "--home", str(box.home), "--project", str(box.project)],
                                cwd=ROOT, env=box.env, stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert updating.stdout is not None
    for line in updating.stdout:
        if line.startswith(step):
            os.killpg(updating.pid, signal.SIGKILL)  # a power cut: the updater and what it runs
            break
    updating.wait(WAIT)
    box.power_cut()
    assert updating.returncode == -signal.SIGKILL
    assert release_of(box.home) in ("installed", "HEAD")
    # The service's next start (the boot) undoes it, unless the new release was found healthy.
    assert box.service("start") == 0
    assert release_of(box.home) in (("installed", "HEAD") if step == "restarting" else ("installed",))
    box.working()
    # And the next update starts from a tidy home.
    assert box.run("recover").returncode == 0
    assert release_of(box.home) in ("installed", "HEAD")


def test_a_full_disk_is_refused_before_anything_is_touched(box, mocker):
    assert box.run("update", "--from", str(ROOT), "--to", "HEAD").returncode == 0
    before = sorted(str(p) for p in box.home.rglob("*") if "releases/HEAD/" not in str(p))
    usage = mocker.patch.object(update.shutil, "disk_usage")
    usage.return_value.free = 10 * 2**20
    with pytest.raises(UpdateError, match=r"not enough room for the update: 10 MB free, \d+ MB needed; "
                                          "nothing was changed"):
        update.update(box.home, str(ROOT), "HEAD~1")
    assert sorted(str(p) for p in box.home.rglob("*") if "releases/HEAD/" not in str(p)) == before
    assert release_of(box.home) == "HEAD"


def test_an_update_is_refused_in_one_line_without_a_source_or_from_a_folder_that_is_no_release(box, tmp_path):
    done = box.run("update")
    assert done.returncode == 1
    assert done.stderr == "setup: update needs --from DIR|URL (a project folder, a bundle or a git URL)\n"
    (tmp_path / "empty").mkdir()
    done = box.run("update", "--from", str(tmp_path / "empty"))
    assert done.returncode == 1 and "not a release of the companion" in done.stderr
    assert box.run("rollback").stderr == "setup: no previous release to go back to\n"
    box.working()


def test_the_box_tells_the_service_manager_it_is_up_and_never_fails_for_it(tmp_path, monkeypatch):
    import socket

    from companion.notify import notify_ready

    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert not notify_ready()                       # not under systemd: nothing sent
    address = str(tmp_path / "notify.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as manager:
        manager.bind(address)
        monkeypatch.setenv("NOTIFY_SOCKET", address)
        assert notify_ready()
        assert manager.recv(64) == b"READY=1"
    assert not notify_ready()                       # the manager gone: the box plays on
    monkeypatch.setenv("NOTIFY_SOCKET", "relative/path")
    assert not notify_ready()


def test_the_service_runs_the_current_link_once_releases_live_side_by_side(tmp_path):
    from test_pi_service import a_user, project, settings

    home = tmp_path / "home"
    installed = project(tmp_path / "totem-companion")
    data = tmp_path / "data"
    script = f'releases_home() {{ echo "{home}"; }}; . "{ROOT}/hardware/pi_service.sh"; ROOT="{installed}"; ' \
             f'pi_service --print --user {a_user()} --project "{installed}" --data "{data}"'

    def exec_start() -> list[str]:
        done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        unit = settings(done.stdout)
        assert unit["Type"] == ["notify"] and unit["NotifyAccess"] == ["main"]
        return unit["ExecStart"]

    assert exec_start() == [f'"{installed}/.venv/bin/totem-companion" run --data "{data}"']
    update.adopt(home, installed)   # the first update
    assert exec_start() == [f'"{home}/current/.venv/bin/totem-companion" run --data "{data}"']


def test_a_bundle_installs_from_its_own_wheels_only(tmp_path, monkeypatch):
    release = tmp_path / "release"
    (release / "wheels").mkdir(parents=True)
    seen = tmp_path / "env.json"
    monkeypatch.setenv("TOTEM_UPDATE_INSTALL", f"{sys.executable} -c \"import json, os, sys; "
                       f"json.dump(dict(os.environ), open({str(seen)!r}, 'w'))\"")
    update.install(release)
    env = json.loads(seen.read_text())
    assert env["PIP_NO_INDEX"] == "1" and env["PIP_FIND_LINKS"] == str(release / "wheels")


def format_two_release(tmp_path: Path, name: str, *also: tuple[str, str, str]) -> Path:
    """A copy of this repository's HEAD whose data format is 2: format 2 has an index of
    the finished games (and ``also``'s changes)."""
    release = changed_release(tmp_path, name, "companion/data_format.py", "\nFORMAT = 1\n", "\nFORMAT = 2\n")
    file = release / "companion" / "data_format.py"
    file.write_text(file.read_text().replace(
        "MIGRATIONS: dict[int, Callable[[Path], None]] = {}\n",
        "MIGRATIONS: dict[int, Callable[[Path], None]] = {1: lambda folder: (folder / 'index.txt').write_text(\n"
        "    '\\n'.join(sorted(p.name for p in (folder / 'games').iterdir())))}\n", 1))
    for path, old, new in also:
        changed = release / path
        assert old in changed.read_text()
        changed.write_text(changed.read_text().replace(old, new, 1))
    return release


def box_files(data: Path) -> dict[str, bytes]:
    """The box's files in its data folder (not its lock nor the migrations' own folder)."""
    return {str(p.relative_to(data)): p.read_bytes() for p in sorted(data.rglob("*"))
            if p.is_file() and p.relative_to(data).parts[0] not in (".lock", ".formats")}


def test_a_release_that_changes_the_data_format_migrates_a_copy_and_drops_the_old_once_healthy(box, tmp_path):
    before = box_files(box.data)
    done = box.run("update", "--from", str(format_two_release(tmp_path, "two")))
    assert done.returncode == 0, done.stderr
    after = box_files(box.data)
    games = sorted(p.name for p in (box.data / "games").iterdir())
    assert after == {**before, "format.json": b'{"format": 2}', "index.txt": "\n".join(games).encode()}
    assert list((box.data / ".formats").iterdir()) == []   # healthy: the old files went
    box.working()
    # Back past a change of format: refused, the data and the release as they are.
    back = box.run("rollback")
    assert back.returncode == 1 and back.stderr == (
        "setup: installed keeps the data in an older format than two: no going back past a change of format; "
        "nothing was changed\n")
    assert release_of(box.home) == "two" and box_files(box.data) == after


def test_a_release_that_changes_the_data_format_and_never_reports_healthy_leaves_the_data_as_it_was(box, tmp_path):
    before = box_files(box.data)
    box.time_out(8)
    done = box.run("update", "--from", str(format_two_release(tmp_path, "two", SILENT)))
    assert done.returncode == 1 and "two did not come up healthy: back on installed" in done.stderr
    assert release_of(box.home) == "installed"
    assert box_files(box.data) == before
    assert "frame 1: Update too slow: undone |" in box.shown()
    box.working()


def test_the_unit_with_the_guard_passes_verify_and_scores_low_in_security_offline(box):
    from test_pi_service import EXPOSURE, verified_exposure

    unit = box.state / "totem-companion.service"
    unit.write_text((box.state / "unit").read_text())
    text = unit.read_text()
    assert f'ExecStartPre=-"{box.home}/guard" start --data "{box.data}"' in text
    assert f'ReadWritePaths="{box.home}"' in text and f'ReadOnlyPaths=-"{box.home}/releases"' in text
    if shutil.which("systemd-analyze") is None:
        pytest.skip("no systemd-analyze")
    assert verified_exposure(unit) <= EXPOSURE
