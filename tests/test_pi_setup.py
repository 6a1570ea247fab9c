"""The Raspberry Pi set-up of ``./setup.sh`` (hardware/pi_setup.sh) on the systems a maker
may have: Raspberry Pi OS, and plain Debian, which has no python3-lgpio, no raspi-config and
no gpio or spi groups. apt, dpkg, sudo, id, getent and usermod are stand-ins that keep
their state in files; the last test runs the real ``setup.sh`` on a fake device tree in a
private mount namespace, with a real venv, and imports lgpio from it."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PI_SETUP = ROOT / "hardware" / "pi_setup.sh"

#: Stand-ins for the system's commands. State: installed.txt (dpkg), apt-has.txt (apt's
#: archive), groups.txt ("group user user"), member.txt (the user's groups), calls.log.
STUBS = {
    "dpkg-query": 'grep -qx "${@: -1}" "$FAKE/installed.txt" && echo "install ok installed"; exit 0',
    "apt-cache": 'if grep -qx "$2" "$FAKE/apt-has.txt"; then echo "  Candidate: 1.0"; '
                 'else echo "  Candidate: (none)"; fi',
    "apt-get": 'echo "apt-get $*" >>"$FAKE/calls.log"\n'
               '[ "$1" = install ] || exit 0\n'
               'pkg=${@: -1}\n'
               'grep -qx "$pkg" "$FAKE/apt-has.txt" || { echo "E: Unable to locate package $pkg" >&2; exit 100; }\n'
               'echo "$pkg" >>"$FAKE/installed.txt"',
    "sudo": '"$@"',
    "id": 'case "$1" in -u) echo 1000 ;; -un) echo pi ;; -nG) cat "$FAKE/member.txt" ;; *) echo 1000 ;; esac',
    "getent": 'grep -q "^$2\\b" "$FAKE/groups.txt"',
    "usermod": 'echo "usermod $*" >>"$FAKE/calls.log"; echo "$(cat "$FAKE/member.txt") ${2#-aG}" '
               '| tr " " "\\n" | grep . | tr "\\n" " " >"$FAKE/member.tmp"; mv "$FAKE/member.tmp" "$FAKE/member.txt"',
    # The venv's python: lgpio imports once pip installed it.
    "venv-python": 'case "$*" in\n'
                   '  "-c import lgpio") [ -e "$FAKE/lgpio" ] ;;\n'
                   '  *"pip install"*lgpio*) echo "pip $*" >>"$FAKE/calls.log"; : >"$FAKE/lgpio" ;;\n'
                   '  *) exit 0 ;;\nesac',
}


class FakePi:
    """A Pi's system, faked in a folder: ``run(script)`` runs bash with pi_setup.sh sourced."""

    def __init__(self, folder: Path, *, apt_has=("i2c-tools", "python3-venv"), installed=(),
                 groups=("i2c", "dialout"), raspi_config=False):
        self.folder = folder
        bin_dir = folder / "bin"
        bin_dir.mkdir(parents=True)
        for name, body in STUBS.items():
            if name == "venv-python":
                continue
            self._stub(bin_dir / name, body)
        if raspi_config:
            # Everything on already: get_* answers 0 ("on"), the console off the UART.
            self._stub(bin_dir / "raspi-config", 'case "$2" in get_serial_cons) echo 1 ;; get_*) echo 0 ;; esac')
        self.venv = folder / "venv"
        self._stub(self.venv / "bin" / "python", STUBS["venv-python"])
        self.config_txt = folder / "config.txt"
        self.config_txt.write_text("dtparam=audio=on\n")
        (folder / "apt-has.txt").write_text("".join(f"{p}\n" for p in apt_has))
        (folder / "installed.txt").write_text("".join(f"{p}\n" for p in installed))
        (folder / "groups.txt").write_text("".join(f"{g} pi\n" for g in groups))
        (folder / "member.txt").write_text("pi")
        (folder / "calls.log").write_text("")

    @staticmethod
    def _stub(path: Path, body: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"#!/bin/bash\n{body}\n")
        path.chmod(0o755)

    def run(self, script: str = "pi_setup_system && pi_venv_lgpio \"$VENV\"") -> subprocess.CompletedProcess:
        """Run ``script`` after sourcing pi_setup.sh; PATH finds the stand-ins first."""
        env = {"PATH": f"{self.folder / 'bin'}:/usr/bin:/bin", "FAKE": str(self.folder),
               "VENV": str(self.venv), "PI_BOOT_CONFIGS": str(self.config_txt), "HOME": str(self.folder)}
        return subprocess.run(["bash", "-c", f'set -euo pipefail; . "{PI_SETUP}"; {script}'],
                              capture_output=True, text=True, env=env, timeout=60)

    def calls(self) -> list[str]:
        """The stand-ins' calls so far, a line each."""
        return (self.folder / "calls.log").read_text().splitlines()


@pytest.fixture(autouse=True)
def no_real_raspi_config():
    if shutil.which("raspi-config"):
        pytest.skip("this machine has a real raspi-config, which the tests must not call")


def test_debian_without_python3_lgpio_installs_the_rest_one_by_one_and_lgpio_from_pypi(tmp_path):
    pi = FakePi(tmp_path)
    done = pi.run()
    assert done.returncode == 0, done.stderr
    calls = pi.calls()
    assert "apt-get install -y -qq i2c-tools" in calls and "apt-get install -y -qq python3-venv" in calls
    assert not any("python3-lgpio" in call for call in calls)     # not asked for: apt has none
    assert any(call.startswith("pip ") and "lgpio" in call for call in calls)
    assert "python3-lgpio is in Raspberry Pi OS's archive only" in done.stderr
    assert pi.run("pi_venv_lgpio \"$VENV\"").returncode == 0


def test_raspberry_pi_os_gets_python3_lgpio_from_apt_and_pip_is_not_needed(tmp_path):
    pi = FakePi(tmp_path, apt_has=("python3-lgpio", "i2c-tools", "python3-venv"))
    done = pi.run("pi_setup_system")
    assert done.returncode == 0, done.stderr
    assert "apt-get install -y -qq python3-lgpio" in pi.calls()
    assert "Raspberry Pi OS's archive only" not in done.stderr


def test_a_package_apt_cannot_find_does_not_stop_the_others(tmp_path):
    pi = FakePi(tmp_path, apt_has=("python3-venv",))
    done = pi.run()
    assert done.returncode == 0, done.stderr
    assert "apt-get install -y -qq python3-venv" in pi.calls()
    assert "apt-get could not install i2c-tools" in done.stderr


def test_without_python3_venv_the_set_up_stops_and_says_why(tmp_path):
    pi = FakePi(tmp_path, apt_has=("i2c-tools",))
    done = pi.run("pi_setup_system")
    assert done.returncode == 1
    assert "python3-venv is needed for the venv" in done.stderr


def test_a_second_run_changes_nothing_and_prints_nothing(tmp_path):
    pi = FakePi(tmp_path)
    assert pi.run().returncode == 0
    config = pi.config_txt.read_text()
    calls = len(pi.calls())
    again = pi.run()
    assert again.returncode == 0 and again.stderr == ""
    assert len(pi.calls()) == calls and pi.config_txt.read_text() == config


def test_the_i2c_bus_is_set_to_400_khz_once_and_other_dtparams_are_kept(tmp_path):
    pi = FakePi(tmp_path)
    pi.config_txt.write_text("dtparam=audio=on\n[pi4]\narm_boost=1\n")
    done = pi.run("pi_setup_system")
    assert "setting the I2C bus to 400 kHz" in done.stderr and "reboot needed" in done.stderr
    lines = pi.config_txt.read_text().splitlines()
    # In an [all] section: the file ended in the Pi 4's own.
    assert lines == ["dtparam=audio=on", "[pi4]", "arm_boost=1", "[all]", "dtparam=i2c_arm_baudrate=400000"]


def test_a_slower_i2c_rate_is_replaced(tmp_path):
    pi = FakePi(tmp_path)
    pi.config_txt.write_text("dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=100000\n")
    pi.run("pi_setup_system")
    assert pi.config_txt.read_text() == "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n"


def test_debian_without_gpio_and_spi_groups_says_so_once(tmp_path):
    pi = FakePi(tmp_path, groups=("i2c", "dialout"))
    first = pi.run()
    assert "this system has no gpio or spi group (Raspberry Pi OS's own)" in first.stderr
    assert "added pi to i2c dialout" in first.stderr
    assert "no gpio" not in pi.run().stderr


def test_without_raspi_config_the_by_hand_line_is_said_once(tmp_path):
    pi = FakePi(tmp_path)
    assert "raspi-config not found" in pi.run().stderr
    assert "raspi-config not found" not in pi.run().stderr


def test_raspberry_pi_os_all_set_says_nothing(tmp_path):
    pi = FakePi(tmp_path, apt_has=("python3-lgpio", "i2c-tools", "python3-venv"),
                installed=("python3-lgpio", "i2c-tools", "python3-venv"),
                groups=("gpio", "i2c", "spi", "dialout"), raspi_config=True)
    (tmp_path / "member.txt").write_text("pi gpio i2c spi dialout")
    (tmp_path / "lgpio").touch()      # seen through the system site-packages
    pi.config_txt.write_text("dtparam=i2c_arm_baudrate=400000\n")
    done = pi.run()
    assert done.returncode == 0 and done.stderr == ""
    assert pi.calls() == []


# --- the whole ./setup.sh on a fake Pi -------------------------------------------------------

def _can_unshare() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs none /sys/firmware"],
                           capture_output=True, timeout=30)
    return probe.returncode == 0


@pytest.mark.skipif(sys.platform != "linux" or not _can_unshare(),
                    reason="needs a private mount namespace (unshare -rm) to fake the device tree")
def test_setup_sh_on_a_pi_without_python3_lgpio_completes_and_the_venv_imports_lgpio(tmp_path):
    # A project of setup.sh, pi_setup.sh and a word compiler that does nothing; its venv is
    # real and up to date (the stamp), so only the Pi steps and lgpio remain to do.
    project = tmp_path / "project"
    (project / "hardware").mkdir(parents=True)
    (project / "companion").mkdir()
    shutil.copy(ROOT / "setup.sh", project / "setup.sh")
    shutil.copy(PI_SETUP, project / "hardware" / "pi_setup.sh")
    (project / "companion" / "__init__.py").write_text("")
    (project / "companion" / "catalogues.py").write_text("")
    (project / "pyproject.toml").write_text("[project]\nname = 'stand-in'\n")
    venv = project / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    # The stamp as setup.sh makes it: the pyproject and the editable mode it installs with.
    mode = re.search(r"^EDITABLE_MODE=(\S+)$", (ROOT / "setup.sh").read_text(), re.M)
    assert mode is not None
    stamped = (project / "pyproject.toml").read_bytes() + f"editable_mode={mode[1]}\n".encode()
    (venv / ".installed").write_text(hashlib.sha256(stamped).hexdigest() + "\n")
    if subprocess.run([str(venv / "bin" / "python"), "-c", "import lgpio"], capture_output=True).returncode == 0:
        pytest.skip("lgpio is among this system's packages: nothing for setup.sh to install")
    pi = FakePi(tmp_path / "system")
    # The stand-ins on PATH; the boot configuration a file of the test's, never the machine's.
    env = {**os.environ, "PATH": f"{pi.folder / 'bin'}:{os.environ['PATH']}", "FAKE": str(pi.folder),
           "PI_BOOT_CONFIGS": str(pi.config_txt)}
    fake_tree = ("mount -t tmpfs none /sys/firmware && mkdir -p /sys/firmware/devicetree/base && "
                 "printf 'Raspberry Pi Zero 2 W Rev 1.0\\0' >/sys/firmware/devicetree/base/model && "
                 'exec bash "$0"')
    done = subprocess.run(["unshare", "-rm", "sh", "-c", fake_tree, str(project / "setup.sh")],
                          capture_output=True, text=True, env=env, timeout=600)
    if "pip could not install lgpio" in done.stderr:
        pytest.skip(f"PyPI is out of reach here: {done.stderr.strip().splitlines()[-1]}")
    assert done.returncode == 0, done.stderr
    assert "python3-lgpio is in Raspberry Pi OS's archive only" in done.stderr
    assert "installing lgpio (the GPIO library) from PyPI" in done.stderr
    assert "setup: ready" in done.stderr
    imported = subprocess.run([str(venv / "bin" / "python"), "-c", "import lgpio; print(lgpio.__file__)"],
                              capture_output=True, text=True, timeout=60)
    assert imported.returncode == 0, imported.stderr
    assert str(venv) in imported.stdout
