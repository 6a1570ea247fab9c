"""The voice really speaks every language (issue 24): the lines a ``run --input`` game says
are rendered to WAV by espeak-ng (``-w``, the speaker's own command line) in each of the
eight languages, and sox measures each: long enough, and not silence. ``./setup.sh test``
installs espeak-ng and sox where apt is at hand; without them the test is skipped."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.cli import main
from companion.ui import text
from companion.voice.lines import voice_of
from hardware.speaker import espeak_args

DATA = Path(__file__).parent / "data"
MISSING = [tool for tool in ("espeak-ng", "sox") if shutil.which(tool) is None]
pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"{' and '.join(MISSING)} not installed: the voice's "
                                "WAV test needs them (./setup.sh test installs them where apt is at hand)")


class Recorder:
    """Stands for the speaker: keeps what the box says."""

    lines: list[tuple[str, str]] = []

    def __init__(self, **_):
        pass

    def say(self, words: str, voice: str, **how: object) -> None:
        Recorder.lines.append((words, voice))

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


def spoken_lines(tmp_path, mocker, monkeypatch, lang: str) -> list[tuple[str, str]]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    mocker.patch("hardware.speaker.Speaker", Recorder)
    Recorder.lines = []
    assert main(["run", "--input", str(DATA / "first_game_wakanda.txt"), "--display", "none",
                 "--data", str(tmp_path / "data"), "--language", lang, "--voice", "prompts"]) == 0
    return Recorder.lines


def measured(wav: Path) -> tuple[float, float]:
    """(seconds, RMS amplitude) of a WAV file, as sox's ``stat`` says them."""
    done = subprocess.run(["sox", str(wav), "-n", "stat"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    found = re.findall(r"^(Length \(seconds\)|RMS\s+amplitude):\s+([\d.]+)", done.stderr, re.MULTILINE)
    figures = {" ".join(key.split()): float(value) for key, value in found}
    return figures["Length (seconds)"], figures["RMS amplitude"]


@pytest.mark.parametrize("lang", text.languages())
def test_the_lines_of_a_game_are_speech_in_every_language(tmp_path, mocker, monkeypatch, lang):
    lines = spoken_lines(tmp_path, mocker, monkeypatch, lang)
    assert len(lines) > 10
    voices = {voice for _, voice in lines}
    assert voices == {voice_of(lang)}
    words = " ".join(line for line, _ in lines[:4])      # a prompt, a draw, a refusal with its rule
    wav = tmp_path / f"{lang}.wav"
    done = subprocess.run(espeak_args(voices.pop(), wav=str(wav)), input=words.encode("utf-8"),
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    seconds, rms = measured(wav)
    # About 2.5 words a second at 160 a minute: the lines last seconds, and they are not silence.
    assert seconds > len(words.split()) / 6, (seconds, words)
    assert rms > 0.01, (rms, words)
