"""Which machine the companion runs on."""

from __future__ import annotations

from pathlib import Path

MODEL_PATH = Path("/proc/device-tree/model")


def is_raspberry_pi(model_path: Path = MODEL_PATH) -> bool:
    """True on a Raspberry Pi, told by the device tree model (as ``setup.sh`` does)."""
    try:
        model = model_path.read_bytes()
    except OSError:
        return False
    return b"Raspberry Pi" in model
