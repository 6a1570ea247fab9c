"""Which machine the companion runs on, and what its devices allow: why the GPIO cannot be
used (the real reason, with its fix) and how fast the I2C bus runs."""

from __future__ import annotations

import grp
import importlib.util
import os
import pwd
from pathlib import Path

MODEL_PATH = Path("/proc/device-tree/model")

FIX_LGPIO = ("install the GPIO library: ./setup.sh (python3-lgpio on Raspberry Pi OS, lgpio from "
             "PyPI into the venv elsewhere)")
FIX_GPIO_LOGIN = ("log out and in again (or reboot): a login keeps the groups it started with, and "
                  "the gpio group was added since")
# Debian gives /dev/gpiochip* to root alone; Raspberry Pi OS has a gpio group and this rule.
FIX_GPIO_RULE = ("give the chip a group: sudo groupadd -f gpio; echo 'SUBSYSTEM==\"gpio\", "
                 "KERNEL==\"gpiochip*\", GROUP=\"gpio\", MODE=\"0660\"' | sudo tee "
                 "/etc/udev/rules.d/60-gpiochip.rules; sudo usermod -aG gpio $USER; then reboot")
FIX_GPIO_CHIP = ("on a Raspberry Pi, ls /dev/gpiochip* lists the GPIO chips (update the system if "
                 "there is none); on another computer use --buttons keyboard")
FIX_GPIO_BUSY = "stop the other program using the GPIO (another totem-companion?), then try again"
#: Where the kernel tells an I2C bus's clock: the device tree's clock-frequency (4 bytes, big-endian).
I2C_RATE = "class/i2c-adapter/i2c-{port}/of_node/clock-frequency"
FAST_I2C = 400_000
FIX_I2C_RATE = ("for the faster 400 kHz add dtparam=i2c_arm_baudrate=400000 to "
                "/boot/firmware/config.txt and reboot (./setup.sh does it)")


def is_raspberry_pi(model_path: Path = MODEL_PATH) -> bool:
    """True on a Raspberry Pi, told by the device tree model (as ``setup.sh`` does)."""
    try:
        model = model_path.read_bytes()
    except OSError:
        return False
    return b"Raspberry Pi" in model


def gpio_problem(reason: str = "", dev: Path = Path("/dev")) -> tuple[str, str]:
    """Why no GPIO pin factory loads, and its fix: ``(what, fix)``, one line each.

    ``reason`` is what the library said (lgpio's "'can not open gpiochip'"), quoted in the
    text; the cause is told from the machine, since lgpio says the same for a missing chip,
    a chip of root's only, and a group joined since this login began.
    """
    said = f" ({reason})" if reason else ""
    if importlib.util.find_spec("lgpio") is None:
        return f"the GPIO library lgpio is not installed{said}", FIX_LGPIO
    chip = dev / "gpiochip0"
    try:
        info = chip.stat()
    except OSError:
        return f"no GPIO chip {chip}{said}", FIX_GPIO_CHIP
    if os.access(chip, os.R_OK | os.W_OK):
        return f"lgpio cannot use {chip}, though it may{said}", FIX_GPIO_BUSY
    group = _group_name(info.st_gid)
    if info.st_gid == 0 or group is None:
        return (f"{chip} is root's only: this system has no gpio group for it (Raspberry Pi OS "
                f"has one){said}"), FIX_GPIO_RULE
    if _listed_in(info.st_gid):
        return (f"no permission to use {chip} yet: you are in its group {group}, but not this "
                f"login{said}"), FIX_GPIO_LOGIN
    return (f"no permission to use {chip} (group {group}){said}",
            f"add yourself to the {group} group: sudo usermod -aG {group} $USER, then log out and in")


def _group_name(gid: int) -> str | None:
    try:
        return grp.getgrgid(gid).gr_name
    except KeyError:
        return None


def _listed_in(gid: int) -> bool:
    """True when the group database lists this user in ``gid`` (which this process may lack,
    its groups being those of the login)."""
    try:
        user = pwd.getpwuid(os.getuid())
        return user.pw_gid == gid or user.pw_name in grp.getgrgid(gid).gr_mem
    except KeyError:
        return False


def i2c_rate(port: int, sys_root: Path = Path("/sys")) -> int | None:
    """The I2C bus's clock in Hz as the device tree sets it; None when the kernel does not say."""
    try:
        raw = (sys_root / I2C_RATE.format(port=port)).read_bytes()
    except OSError:
        return None
    return int.from_bytes(raw[:4], "big") if len(raw) >= 4 else None
