"""``doctor`` on the voice (hardware/checks.py): espeak-ng, the voice of the configured
language, an audio output to speak on; nothing checked with the voice off."""

from __future__ import annotations

from companion.config import Config
from hardware.checks import check_all, check_voice

FR_VOICES = " 5  fr-fr           --/M      French_(France)    roa/fr               (fr 5)\n"


def outputs(tmp_path, *names):
    (tmp_path / "snd").mkdir()
    for name in names:
        (tmp_path / "snd" / name).touch()
    return tmp_path


def test_the_voice_off_is_not_checked(tmp_path):
    assert check_voice(Config(), which=lambda _: None, dev=tmp_path) is None
    assert [r.part for r in check_all(Config(display="none", reader="none", buttons="none"), dev=tmp_path)] \
        == ["display", "reader", "buttons"]


def test_espeak_its_french_voice_and_the_usb_card_are_fine(tmp_path):
    config = Config(voice="prompts", language="fr", voice_device="plughw:1,0")
    report = check_voice(config, which=lambda _: "/usr/bin/espeak-ng", voices=lambda *_: FR_VOICES,
                         dev=outputs(tmp_path, "pcmC0D0p", "pcmC1D0p", "pcmC1D0c"))
    assert report.ok and report.spec == "prompts, French, on plughw:1,0"
    assert [f.text for f in report.findings] == [
        "espeak-ng at /usr/bin/espeak-ng", "the French voice (fr-fr) is there", "audio output on card 1: pcmC1D0p"]


def test_no_espeak_says_how_to_install_it(tmp_path):
    report = check_voice(Config(voice="everything"), which=lambda _: None, dev=tmp_path)
    assert not report.ok and report.findings[0].text == "espeak-ng is not installed"
    assert "sudo apt install espeak-ng" in report.findings[0].fix


def test_no_bulgarian_voice_and_no_output_are_two_problems_with_their_fixes(tmp_path):
    report = check_voice(Config(voice="prompts", language="bg"), which=lambda _: "/usr/bin/espeak-ng",
                         voices=lambda *_: "Pty Language Age/Gender VoiceName\n", dev=outputs(tmp_path, "pcmC0D0c"))
    problems = [(f.text, f.fix) for f in report.findings if not f.ok]
    assert problems[0] == ("no Bulgarian voice (bg)", "sudo apt install espeak-ng-data")
    assert problems[1][0] == "no audio output on this system" and "aplay -l" in problems[1][1]


def test_a_device_on_a_card_that_is_not_there_is_a_problem(tmp_path):
    report = check_voice(Config(voice="prompts", voice_device="hw:2"), which=lambda _: "/usr/bin/espeak-ng",
                         voices=lambda *_: " 2  en-gb  --/M  English\n", dev=outputs(tmp_path, "pcmC0D0p"))
    assert [f.text for f in report.findings if not f.ok] == ["no audio output on card 2"]
