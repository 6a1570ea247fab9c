"""The speaker (hardware/speaker.py): espeak-ng on a thread of its own, the newest line only;
``say`` never waits; a speaker that cannot speak says so once and stays silent. espeak-ng
is replaced by a fake process that speaks until told to finish or stopped."""

from __future__ import annotations

import io
import threading

from hardware.speaker import Speaker, espeak_args


class FakeEspeak:
    """Stands for ``subprocess.Popen``: each process 'speaks' until the test calls
    ``finish()``, ending with -15 when it was told to ``terminate()`` meanwhile; the calls
    and the lines are kept."""

    def __init__(self, returncode: int = 0, problem: bytes = b""):
        self.processes: list[FakeProcess] = []
        self.started = threading.Semaphore(0)
        self.returncode, self.problem = returncode, problem

    def __call__(self, args, **_):
        process = FakeProcess(args, self.returncode, self.problem)
        self.processes.append(process)
        self.started.release()
        return process

    def next(self) -> FakeProcess:
        assert self.started.acquire(timeout=10), "espeak-ng was not started"
        return self.processes[-1]


class FakeProcess:
    def __init__(self, args, returncode, problem):
        self.args, self.text = args, None
        self._done = threading.Event()
        self._code, self._problem = returncode, problem
        self.returncode: int | None = None
        self.terminated = False

    def poll(self):
        return self.returncode

    def terminate(self):
        self._code, self.terminated = -15, True

    def finish(self):
        self._done.set()

    def communicate(self, data):
        self.text = data.decode("utf-8")
        assert self._done.wait(timeout=10)
        self.returncode = self._code
        return b"", self._problem


def test_the_command_line_says_the_voice_speed_volume_and_device():
    assert espeak_args("fr-fr", speed=140, volume=80, device="plughw:1,0") == \
        ["espeak-ng", "-v", "fr-fr", "-s", "140", "-a", "80", "-d", "plughw:1,0", "--stdin"]
    assert espeak_args("bg", wav="/tmp/x.wav")[-3:] == ["-w", "/tmp/x.wav", "--stdin"]
    assert "-d" not in espeak_args("en-gb")


def test_a_line_is_said_on_the_speakers_thread_and_say_returns_at_once():
    fake = FakeEspeak()
    speaker = Speaker(speed=150, volume=90, popen=fake)
    speaker.say("Ana: draw and scan", "en-gb")        # returns while the line is being said
    process = fake.next()
    assert process.args[:7] == ["espeak-ng", "-v", "en-gb", "-s", "150", "-a", "90"]
    process.finish()
    assert speaker.wait_idle(timeout=10)
    assert process.text == "Ana: draw and scan" and speaker.spoken == 1
    speaker.close()


def test_a_new_line_stops_the_stale_one_and_only_the_newest_waiting_is_said():
    fake = FakeEspeak()
    speaker = Speaker(popen=fake)
    speaker.say("first prompt", "en-gb")
    first = fake.next()
    speaker.say("second prompt", "en-gb")             # the first is told to stop at once
    speaker.say("third prompt", "en-gb")              # the second never starts
    assert first.terminated
    first.finish()
    last = fake.next()
    last.finish()
    assert speaker.wait_idle(timeout=10)
    assert [p.text for p in fake.processes] == ["first prompt", "third prompt"]
    assert first.returncode == -15 and speaker.spoken == 1
    speaker.close()


def test_stop_silences_and_close_ends_the_thread():
    fake = FakeEspeak()
    speaker = Speaker(popen=fake)
    speaker.say("a long rule", "de")
    process = fake.next()
    speaker.stop()
    assert process.terminated
    process.finish()
    assert speaker.wait_idle(timeout=10) and process.returncode == -15
    speaker.close()
    speaker.say("after the end", "de")                # said to nobody: no process, no error
    assert len(fake.processes) == 1
    assert speaker._thread is not None and not speaker._thread.is_alive()


def test_no_espeak_is_one_line_and_then_silence():
    err = io.StringIO()

    def missing(args, **_):
        raise FileNotFoundError(2, "No such file or directory")

    speaker = Speaker(popen=missing, err=err)
    speaker.say("hello", "en-gb")
    assert speaker.wait_idle(timeout=10)
    speaker.say("hello again", "en-gb")
    speaker.close()
    assert err.getvalue() == ("totem-companion: the voice is silent: espeak-ng cannot be started "
                              "(No such file or directory); the game goes on\n")


def test_a_device_espeak_refuses_is_one_line_with_its_reason():
    err = io.StringIO()
    fake = FakeEspeak(returncode=1, problem=b"ALSA lib pcm.c: Unknown PCM plughw:9\n")
    speaker = Speaker(device="plughw:9", popen=fake, err=err)
    speaker.say("hello", "en-gb")
    fake.next().finish()
    assert speaker.wait_idle(timeout=10)
    speaker.close()
    assert "espeak-ng failed (ALSA lib pcm.c: Unknown PCM plughw:9)" in err.getvalue()
    assert err.getvalue().count("\n") == 1


def test_espeak_that_cannot_open_the_device_exits_0_and_is_still_one_line():
    err = io.StringIO()
    problem = (b"ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM nosuchdev\n"
               b"error: No such file or directory\n")
    fake = FakeEspeak(returncode=0, problem=problem)
    speaker = Speaker(device="nosuchdev", popen=fake, err=err)
    speaker.say("hello", "en-gb")
    fake.next().finish()
    assert speaker.wait_idle(timeout=10)
    speaker.say("never said", "en-gb")
    speaker.close()
    assert err.getvalue() == ("totem-companion: the voice is silent: espeak-ng failed (ALSA lib "
                              "pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM nosuchdev); the game goes on\n")
    assert len(fake.processes) == 1 and speaker.spoken == 0
