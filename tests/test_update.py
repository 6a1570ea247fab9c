"""Updates with a way back (issue 34): whole updates between releases built from this
repository (``git archive`` of its HEAD, and copies of it changed to fail), with systemd stood
in for by a small supervisor: it restarts the box on ``current`` and answers whether the box
said ``READY=1`` in its time, as ``systemctl restart`` of a ``Type=notify`` unit does.

Installing a release's dependencies is the one step stood in for (``TOTEM_UPDATE_INSTALL``):
its venv takes them from this one's instead of from the network; the release's own code,
its ``doctor``, its demos and its box are its own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

from companion import update
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

SUPERVISOR = textwrap.dedent("""
    # systemctl restart of a Type=notify unit: stop the box, start it on `current`, wait for
    # READY=1; status 0 when it came, 1 (the box stopped) when not in time.
    import os, signal, socket, subprocess, sys, time
    home, data, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    pid_file = os.path.join(home, "box.pid")
    try:
        os.kill(int(open(pid_file).read()), signal.SIGTERM)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            os.kill(int(open(pid_file).read()), 0)
            time.sleep(0.02)
    except (OSError, ValueError):
        pass
    with open(os.path.join(home, "restarts.log"), "a") as log:
        log.write(os.readlink(os.path.join(home, "current")) + "\\n")
    address = os.path.join(home, "notify.sock")
    if os.path.exists(address):
        os.unlink(address)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    script = os.path.join(home, "wait.txt")
    open(script, "w").write("wait 600\\n")
    box = subprocess.Popen([os.path.join(home, "current", ".venv", "bin", "totem-companion"), "run",
                            "--input", script, "--display", "none", "--data", data],
                           env={**os.environ, "NOTIFY_SOCKET": address}, start_new_session=True, cwd=home,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    open(pid_file, "w").write(str(box.pid))
    sock.settimeout(seconds)
    try:
        ready = sock.recv(64) == b"READY=1"
    except socket.timeout:
        ready = False
    if not ready:
        box.kill()
    sys.exit(0 if ready else 1)
""")


def archive_head(target: Path) -> Path:
    """This repository's HEAD as a release folder (its committed files)."""
    target.mkdir(parents=True)
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(target)], input=tar.stdout, check=True)
    return target


@pytest.fixture
def box(tmp_path):
    """A home with the release ``installed`` running (adopted by the first update), its
    data folder with a finished game, and the commands the updater runs."""
    helpers = tmp_path / "helpers"
    helpers.mkdir()
    (helpers / "install.py").write_text(INSTALL)
    (helpers / "supervisor.py").write_text(SUPERVISOR)
    home, data = tmp_path / "home", tmp_path / "data"
    project = archive_head(tmp_path / "project")
    subprocess.run([sys.executable, str(helpers / "install.py"), str(project)], check=True)
    subprocess.run([str(project / ".venv" / "bin" / "totem-companion"), "demo", "--seed", "5", "--data", str(data)],
                   check=True, capture_output=True)
    env = {**os.environ, "TOTEM_UPDATE_INSTALL": f"{sys.executable} {helpers / 'install.py'}",
           "TOTEM_RESTART": f"{sys.executable} {helpers / 'supervisor.py'} {home} {data} 30"}

    class Box:
        def __init__(self):
            self.home, self.data, self.project, self.env = home, data, project, env
            self.games = sorted(p.read_bytes() for p in (data / "games").iterdir())

        def run(self, *args: str) -> subprocess.CompletedProcess:
            return subprocess.run([sys.executable, "-m", "companion.update", *args, "--home", str(home),
                                   "--project", str(project)], cwd=ROOT, env=env, capture_output=True,
                                  text=True, timeout=WAIT)

        def restarts(self) -> list[str]:
            log = home / "restarts.log"
            return log.read_text().split() if log.exists() else []

        def working(self) -> None:
            """Exactly one release named by ``current``, whole (its demo plays), and no game lost."""
            program = home / "current" / ".venv" / "bin" / "totem-companion"
            done = subprocess.run([str(program), "demo", "--seed", "2"], capture_output=True, timeout=WAIT,
                                  cwd=home)
            assert done.returncode == 0, done.stderr
            assert not list((home / "releases").glob("*.partial"))
            assert not (home / update.STATE).exists()
            assert sorted(p.read_bytes() for p in (data / "games").iterdir()) == self.games

    made = Box()
    yield made
    pid = home / "box.pid"
    if pid.exists():
        try:
            os.killpg(int(pid.read_text()), signal.SIGKILL)
        except OSError:
            pass


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
    assert box.restarts() == ["releases/HEAD"]
    box.working()
    back = box.run("rollback")
    assert back.returncode == 0 and back.stdout.strip() == "back on installed (from HEAD)"
    assert box.restarts() == ["releases/HEAD", "releases/installed"]
    box.working()


def test_a_release_whose_self_check_fails_never_switches(box, tmp_path):
    broken = changed_release(tmp_path, "broken", "companion/commands/demo.py",
                             "def run(args) -> int:\n", "def run(args) -> int:\n    raise SystemExit(3)\n")
    done = box.run("update", "--from", str(broken))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "the new release failed its check (demo)" in done.stderr
    assert "installed runs, as before" in done.stderr
    assert release_of(box.home) == "installed" and box.restarts() == []
    assert [p.name for p in (box.home / "releases").iterdir()] == ["installed"]
    box.working()


def test_a_release_that_never_reports_healthy_is_rolled_back_by_itself(box, tmp_path):
    silent = changed_release(tmp_path, "silent", "companion/notify.py",
                             '    address = os.environ.get("NOTIFY_SOCKET")\n',
                             '    address = None  # never healthy\n')
    # Its time shorter than a good start's: the box's start takes a fraction of a second here.
    box.env["TOTEM_RESTART"] = box.env["TOTEM_RESTART"].rsplit(" ", 1)[0] + " 8"
    done = box.run("update", "--from", str(silent))
    assert done.returncode == 1
    assert done.stderr.strip() == "setup: silent did not come up healthy: back on installed"
    assert release_of(box.home) == "installed"
    assert box.restarts() == ["releases/silent", "releases/installed"]
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
    assert updating.returncode == -signal.SIGKILL
    assert release_of(box.home) in ("installed", "HEAD")
    # The next start of the updater (an update, a rollback, the service's start) undoes it.
    done = box.run("recover")
    assert done.returncode == 0, done.stderr
    assert release_of(box.home) == "installed"
    assert sorted(p.name for p in (box.home / "releases").iterdir()) == ["installed"]
    box.working()


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
