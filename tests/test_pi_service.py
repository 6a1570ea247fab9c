"""The systemd unit of ``./setup.sh service`` (hardware/pi_service.sh), as ``--print``
writes it: never root, hardened as far as GPIO, I2C and the serial port allow, paths
quoted for systemd; ``systemd-analyze verify`` checks it where systemd is installed."""

from __future__ import annotations

import grp
import os
import pwd
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from service_double import settings

ROOT = Path(__file__).parent.parent
SCRIPT = ROOT / "hardware" / "pi_service.sh"
#: Settings that would hide /dev/gpiochip*, /dev/i2c-1, /dev/serial0 or /dev/snd from the
#: service (DevicePolicy=closed is fine: DeviceAllow= lists what it keeps).
HIDING_DEVICES = ("PrivateDevices", "PrivateUsers", "ProcSubset")
#: The device classes the box uses: GPIO, the OLED's I2C, the serial ports, the sound cards.
DEVICES = ["char-gpiochip rw", "char-i2c rw", "char-ttyS rw", "char-ttyAMA rw", "char-ttyACM rw", "char-ttyUSB rw",
           "char-alsa rw"]
#: The most ``systemd-analyze security --offline`` may score the unit (issue 22: 4.6 before).
EXPOSURE = 2.0


def a_user() -> str:
    """A user who is not root: the one running the tests, else one of the system's."""
    me = pwd.getpwuid(os.geteuid())
    if me.pw_uid != 0:
        return me.pw_name
    users = sorted((entry.pw_uid, entry.pw_name) for entry in pwd.getpwall()
                   if 0 < entry.pw_uid < 60000)
    if not users:
        pytest.skip("no user but root on this system")
    return users[0][1]


def service(*args: str, sudo_user: str | None = None) -> subprocess.CompletedProcess:
    """Run the service script as a program, SUDO_USER as given (unset by default)."""
    env = {key: value for key, value in os.environ.items() if key != "SUDO_USER"}
    if sudo_user is not None:
        env["SUDO_USER"] = sudo_user
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, env=env,
                          timeout=60)


def project(folder: Path) -> Path:
    """A project folder with an installed companion (a stand-in program, and this Python
    to read the configuration and settings with)."""
    program = folder / ".venv" / "bin" / "totem-companion"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    python = program.parent / "python"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    return folder


def verified_exposure(unit: Path) -> float:
    """``systemd-analyze verify`` passes on the unit file ``unit``; its overall exposure level
    by ``systemd-analyze security --offline``."""
    verify = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0, verify.stderr
    scored = subprocess.run(["systemd-analyze", "security", "--offline=true", str(unit)], capture_output=True,
                            text=True, timeout=60)
    found = re.search(r"Overall exposure level for totem-companion\.service: (\d+\.\d)", scored.stdout)
    assert found, scored.stdout[-500:] + scored.stderr
    return float(found.group(1))


def test_the_unit_runs_the_companion_as_the_user_with_only_the_data_folder_writable(tmp_path):
    user = a_user()
    home = project(tmp_path / "my totem")
    data = tmp_path / "totem data"
    done = service("--print", "--user", user, "--project", str(home), "--data", str(data), "--web")
    assert done.returncode == 0, done.stderr
    unit = settings(done.stdout)
    assert unit["User"] == [user]
    # Quoted: a folder with a space is one path (systemd.service(5), "Command lines").
    assert unit["ExecStart"] == [f'"{home}/.venv/bin/totem-companion" run --data "{data}"']
    assert unit["ReadWritePaths"] == [f'"{data}"']
    for name, value in (("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("ProtectHome", "read-only"),
                        ("PrivateTmp", "yes"), ("ProtectKernelTunables", "yes"), ("ProtectKernelModules", "yes"),
                        ("ProtectControlGroups", "yes"), ("RestrictSUIDSGID", "yes"), ("LockPersonality", "yes"),
                        ("CapabilityBoundingSet", "")):
        assert unit[name] == [value], name
    assert not set(HIDING_DEVICES) & set(unit)
    assert unit["DevicePolicy"] == ["closed"] and unit["DeviceAllow"] == DEVICES
    # The phone page (off by default) serves the local network only; nothing else goes out.
    assert unit["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"] and unit["IPAddressDeny"] == ["any"]
    assert "PrivateNetwork" not in unit and "0.0.0.0/0" not in unit["IPAddressAllow"][0]
    # Descriptors bounded (the page keeps its connections under half of them).
    assert unit["LimitNOFILE"] == ["1024"]
    for name, value in (("SystemCallArchitectures", "native"), ("ProtectKernelLogs", "yes"),
                        ("ProtectHostname", "yes"), ("ProtectProc", "invisible"), ("PrivateMounts", "yes"),
                        ("UMask", "0077"), ("RemoveIPC", "yes")):
        assert unit[name] == [value], name
    assert unit["SystemCallFilter"] == ["@system-service", "~@privileged"]
    # The device groups this system has (systemd refuses a unit naming one it lacks).
    existing = {group.gr_name for group in grp.getgrall()}
    assert unit["SupplementaryGroups"][0].split() == [g for g in ("gpio", "i2c", "dialout", "audio")
                                                      if g in existing]
    # lgpio makes its pipes in the working folder: a writable one of the service's own.
    assert unit["RuntimeDirectory"] == ["totem-companion"]
    assert unit["WorkingDirectory"] == ["%t/totem-companion"]
    # Not After=multi-user.target: with WantedBy= it, that is an ordering cycle.
    assert "After" not in unit and unit["WantedBy"] == ["multi-user.target"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_accepts_the_unit_of_a_project_in_an_odd_folder(tmp_path):
    # Spaces, "$" and "%" mean something to systemd; quoted and doubled, the path is found.
    home = project(tmp_path / "the $HOME of %h totem ü")
    data = tmp_path / "data $USER %i"
    done = service("--print", "--user", a_user(), "--project", str(home), "--data", str(data))
    assert done.returncode == 0, done.stderr
    assert f'"{tmp_path}/data $$USER %%i"' in done.stdout
    path = tmp_path / "totem-companion.service"
    path.write_text(done.stdout)
    verify = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True,
                            timeout=60, cwd=tmp_path)
    assert verify.returncode == 0, verify.stderr
    assert "not executable" not in verify.stderr and "special characters" not in verify.stderr


def test_the_data_folder_is_the_one_the_companion_uses_for_that_user(tmp_path):
    user = a_user()
    done = service("--print", "--user", user, "--project", str(ROOT))
    assert done.returncode == 0, done.stderr
    home = pwd.getpwnam(user).pw_dir
    assert settings(done.stdout)["ReadWritePaths"] == [f'"{home}/.local/share/totem-companion"']


@pytest.mark.parametrize("how", ["--user root", "SUDO_USER=root", "a root shell"])
def test_a_root_service_is_refused_in_one_line(tmp_path, how):
    args = ["--print", "--project", str(project(tmp_path)), "--data", str(tmp_path / "data")]
    if how == "--user root":
        done = service(*args, "--user", "root")
    else:
        if os.geteuid() != 0:
            pytest.skip("only a root shell can run it as root")
        done = service(*args, sudo_user="root" if how.startswith("SUDO") else None)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "run ./setup.sh service as the user who plays" in done.stderr and "--user NAME" in done.stderr


def test_the_user_who_called_sudo_runs_the_service(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("SUDO_USER only counts when the script runs as root")
    user = a_user()
    done = service("--print", "--project", str(project(tmp_path)), "--data", str(tmp_path / "data"),
                   sudo_user=user)
    assert done.returncode == 0, done.stderr
    assert settings(done.stdout)["User"] == [user]


@pytest.mark.parametrize("bad", ['it"s', "it's", "back\\slash", "new\nline", "tab\there"])
def test_a_path_systemd_cannot_hold_is_refused_in_one_line(tmp_path, bad):
    home = project(tmp_path / bad)
    done = service("--print", "--user", a_user(), "--project", str(home), "--data", str(tmp_path / "data"))
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "cannot go into a systemd unit" in done.stderr


@pytest.mark.parametrize("args, status, words", [
    (["--print", "--user", "no-such-user-here"], 1, "no user no-such-user-here "),
    (["--print", "--user"], 2, "--user needs a value"),
    (["--frobnicate"], 2, "unknown option --frobnicate"),
])
def test_bad_options_are_one_line(args, status, words):
    done = service(*args)
    assert done.returncode == status and done.stderr.count("\n") == 1 and words in done.stderr


def security_offline_works() -> bool:
    """Whether this systemd has ``systemd-analyze security --offline`` (systemd 250 on)."""
    if shutil.which("systemd-analyze") is None:
        return False
    done = subprocess.run(["systemd-analyze", "security", "--help"], capture_output=True, text=True, timeout=60)
    return "--offline" in done.stdout


@pytest.mark.parametrize("how, web", [
    ("--web", True), ("--no-web", False),
    ('{"version": 1, "web": true}', True), ('{"version": 1, "web": false}', False),
])
def test_with_the_page_off_no_internet_socket_is_allowed(tmp_path, how, web):
    """The page on (``--web``, or the box's Settings): Internet sockets to and from the local
    network; off (``--no-web``, or Settings): Unix sockets only."""
    data = tmp_path / "data"
    args = ["--print", "--user", a_user(), "--project", str(project(tmp_path / "project")), "--data", str(data)]
    if how.startswith("--"):
        args.append(how)
    else:
        data.mkdir()
        (data / "settings.json").write_text(how)
    done = service(*args)
    assert done.returncode == 0, done.stderr
    unit = settings(done.stdout)
    assert unit["LimitNOFILE"] == ["1024"] and unit["IPAddressDeny"] == ["any"]
    if web:
        assert unit["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"] and "IPAddressAllow" in unit
    else:
        assert unit["RestrictAddressFamilies"] == ["AF_UNIX"] and "IPAddressAllow" not in unit


def test_settings_that_cannot_be_read_leave_the_page_as_the_configuration_says(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text("[" * 5000)
    done = service("--print", "--user", a_user(), "--project", str(project(tmp_path / "project")),
                   "--data", str(data))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not security_offline_works(),
                    reason="systemd-analyze security --offline is not here (systemd 250 or later needed)")
@pytest.mark.parametrize("web", ["--web", "--no-web"])
def test_the_unit_passes_verify_and_scores_low_in_security_offline(tmp_path, web):
    home = project(tmp_path / "project")
    done = service("--print", "--user", a_user(), "--project", str(home), "--data", str(tmp_path / "data"), web)
    assert done.returncode == 0, done.stderr
    path = tmp_path / "totem-companion.service"
    path.write_text(done.stdout)
    exposure = verified_exposure(path)
    print(f"\n[reliability] systemd-analyze security --offline: {exposure} (user {a_user()}, {web})", end="")
    assert exposure <= EXPOSURE
