"""Keyboard input: the pure key decoder, and the terminal part on a pty."""

import os
import queue
import re
import termios
import threading
import time

import pytest

from companion.errors import UserError
from companion.events import Hold, Press, Tag, TagGone
from companion.ui import text
from companion.words import LANGUAGES
from hardware.keyboard_input import KEY_NAMES, KeyboardInput, KeyDecoder, KeyHelp, Quit, key_help

WAIT = 3


def keys(text, decoder=None):
    decoder = decoder or KeyDecoder()
    return decoder.feed(text) + decoder.flush()


@pytest.mark.parametrize("text, expected", [
    ("1", [Press("v1")]), ("6", [Press("v6")]),
    ("!", [Hold("v1")]), ("@", [Hold("v2")]), ("#", [Hold("v3")]),
    ("$", [Hold("v4")]), ("%", [Hold("v5")]), ("^", [Hold("v6")]),
    ("?", [Hold("up")]),
    ("w", [Press("up")]), ("W", [Press("up")]), ("\x1b[A", [Press("up")]), ("\x1bOA", [Press("up")]),
    ("s", [Press("down")]), ("\x1b[B", [Press("down")]), ("\x1bOB", [Press("down")]),
    ("\r", [Press("ok")]), ("\n", [Press("ok")]), (" ", [Press("ok")]), ("o", [Press("ok")]),
    ("O", [Hold("ok")]),
    ("\x7f", [Press("back")]), ("\b", [Press("back")]), ("b", [Press("back")]),
    ("B", [Hold("back")]),
    ("\x1b", [Press("back")]),
    ("h", [Press("hint")]), ("u", [Press("undo")]),
    ("q", [Quit()]), ("\x03", [Quit()]),
    ("7", []), ("x", []), ("\x1b[C", []), ("\x1b[3~", []), ("\x1b[1;5A", []), ("é", []),
])
def test_key_map(text, expected):
    assert keys(text) == expected


def test_many_keys_in_one_piece():
    assert keys("12\x1b[Aw!\r") == [Press("v1"), Press("v2"), Press("up"), Press("up"),
                                    Hold("v1"), Press("ok")]


def test_an_arrow_split_across_pieces():
    decoder = KeyDecoder()
    assert decoder.feed("1\x1b") == [Press("v1")]
    assert decoder.waiting
    assert decoder.feed("[") == []
    assert decoder.feed("B") == [Press("down")]
    assert not decoder.waiting


def test_esc_followed_by_a_key():
    assert keys("\x1bb") == [Press("back"), Press("back")]


def test_scan_an_item_name():
    decoder = KeyDecoder()
    assert decoder.feed("/") == []
    assert decoder.scan == ""
    assert decoder.feed("villagx\x7fe:sun") == []
    assert decoder.scan == "village:sun"
    assert decoder.feed("\r") == [Tag("village:sun", "pad")]
    assert decoder.scan is None
    assert decoder.feed("1") == [Press("v1")]


def test_scan_keys_are_text_not_buttons():
    decoder = KeyDecoder()
    assert decoder.feed("/quail 1 b\x1b[A\r") == [Tag("quail1b", "pad")]


def test_scan_a_uid_is_upper_case_and_on_the_given_reader():
    assert keys("/04a1b2c3d4\n", KeyDecoder(reader="slot3")) == [Tag("04A1B2C3D4", "slot3")]


def test_esc_cancels_a_scan_and_empty_scans_give_nothing():
    decoder = KeyDecoder()
    assert keys("/eagle\x1b", decoder) == []
    assert decoder.scan is None
    assert keys("/\r") == []


def test_ctrl_c_quits_even_while_scanning():
    assert keys("/eag\x03") == [Quit()]


def test_scan_length_is_bounded():
    decoder = KeyDecoder()
    decoder.feed("/" + "a" * 100)
    assert len(decoder.scan) == 40


def test_the_keys_named_in_hints_do_what_they_are_named_for():
    typed = {"Enter": "\r", "Shift+O": "O", "b": "b", "w": "w", "s": "s"}
    for event, name in KEY_NAMES.items():
        assert keys(typed[name]) == [event], name


def test_the_scan_line_keeps_capitals_for_uids_and_names():
    decoder = KeyDecoder()
    assert decoder.feed("/BOB\r") == [Tag("BOB", "pad")]   # typed text, not holds


def test_key_help_fits_the_terminal():
    assert len(key_help("en")) <= 78  # with the footer margin, fits an 80-column terminal
    for word in ("1-6", "hold", "ok", "back", "undo", "scan", "quit"):
        assert word in key_help("en")


#: The keys the help names, as typed: the same in every language.
KEYS = ("1-6", "o/Enter", "b", "Shift", "u", "h", "q")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_key_help_names_the_keys_in_the_words_of_each_language(lang):
    line = key_help(lang)
    assert len(line) <= 78, line
    # Each key as a word of its own ("b back", "(Shift: hold)", "Shift=tenir").
    assert all(re.search(rf"(^|[\s(]){re.escape(key)}($|[\s=:])", line) for key in KEYS), line
    assert line.startswith("1-6 ") and ("w/s" in line or ("w▲" in line and "s▼" in line)) and " /" in line
    if lang != "en":
        assert line != key_help("en")


class _Box:
    """A session as the key help sees it: its language."""

    def __init__(self, language: str):
        self.language = language


class _Display:
    """A terminal display as the key help sees it: its footer and its language."""

    def __init__(self, shown: list[str]):
        self.set_footer, self.language = shown.append, "en"


def test_the_key_help_speaks_the_box_s_language_and_follows_settings():
    shown: list[str] = []
    box, display = _Box("fr"), _Display(shown)
    keys = KeyHelp(display, box)
    assert shown == [key_help("fr")] and display.language == "fr"
    keys.echo("eag")
    keys.echo(None)
    assert shown[1:] == [text.t("sim.scan_typed", "fr", typed="eag"), key_help("fr")]
    keys.seen(box, None)                      # a frame in the same language: nothing to say
    assert len(shown) == 3
    box.language = "bg"                       # the Settings page turned the language
    keys.seen(box, None)
    assert shown[-1] == key_help("bg") and "назад" in shown[-1] and display.language == "bg"
    keys.close()


# --- on a pty -------------------------------------------------------------------------

class Terminal:
    def __init__(self):
        self.master, self.slave = os.openpty()
        self.before = termios.tcgetattr(self.slave)

    def type(self, text):
        os.write(self.master, text.encode())

    def close(self):
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def terminal():
    t = Terminal()
    yield t
    t.close()


def test_keys_on_a_terminal_and_its_mode_restored(terminal):
    quits, echoes = threading.Event(), queue.Queue()
    source = KeyboardInput(terminal.slave, on_quit=quits.set, echo=echoes.put,
                           gone_after=0.05)
    q = queue.Queue()
    source.start(q.put)
    try:
        mode = termios.tcgetattr(terminal.slave)
        assert not mode[3] & (termios.ICANON | termios.ECHO | termios.ISIG)
        terminal.type("3")
        assert q.get(timeout=WAIT) == Press("v3")
        terminal.type("\x1b")            # a lone Esc: back, once nothing follows
        assert q.get(timeout=WAIT) == Press("back")
        terminal.type("\x1b[A#")
        assert [q.get(timeout=WAIT), q.get(timeout=WAIT)] == [Press("up"), Hold("v3")]
        terminal.type("/")
        assert echoes.get(timeout=WAIT) == ""
        terminal.type("eagle")
        assert echoes.get(timeout=WAIT) == "eagle"
        terminal.type("\r")
        assert q.get(timeout=WAIT) == Tag("eagle", "pad")
        assert echoes.get(timeout=WAIT) is None
        assert q.get(timeout=WAIT) == TagGone("eagle", "pad")
        terminal.type("\x03")
        assert quits.wait(WAIT)
    finally:
        source.close()
    assert termios.tcgetattr(terminal.slave) == terminal.before


def test_a_new_scan_takes_the_previous_tag_away_first(terminal):
    source = KeyboardInput(terminal.slave, on_quit=lambda: None, gone_after=5)
    q = queue.Queue()
    source.start(q.put)
    try:
        terminal.type("/eagle\r")
        assert q.get(timeout=WAIT) == Tag("eagle", "pad")
        terminal.type("/wings\r")
        assert [q.get(timeout=WAIT), q.get(timeout=WAIT)] == [TagGone("eagle", "pad"),
                                                            Tag("wings", "pad")]
    finally:
        source.close()


def test_q_calls_on_quit(terminal):
    quits = threading.Event()
    source = KeyboardInput(terminal.slave, on_quit=quits.set)
    source.start(lambda event: None)
    try:
        terminal.type("q")
        assert quits.wait(WAIT)
    finally:
        source.close()


def test_terminal_restored_when_reading_fails(terminal, mocker):
    failed = threading.Event()

    def put(event):
        failed.set()
        raise RuntimeError("the queue is broken")

    source = KeyboardInput(terminal.slave, on_quit=lambda: None)
    # The failing thread's exception goes to threading.excepthook: caught here, not printed.
    excepthook = mocker.patch.object(threading, "excepthook")
    try:
        source.start(put)
        terminal.type("1")
        assert failed.wait(WAIT)
        deadline = time.monotonic() + WAIT
        # Given back by the failing thread itself, before anyone calls close().
        while termios.tcgetattr(terminal.slave) != terminal.before:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        while not excepthook.called and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        source.close()
    excepthook.assert_called_once()
    assert isinstance(excepthook.call_args.args[0].exc_value, RuntimeError)


def test_terminal_hang_up_quits(terminal):
    quits = threading.Event()
    source = KeyboardInput(terminal.slave, on_quit=quits.set)
    source.start(lambda event: None)
    try:
        os.close(terminal.master)
        assert quits.wait(WAIT)
    finally:
        source.close()


def test_not_a_terminal_is_one_line():
    read_end, write_end = os.pipe()
    try:
        with pytest.raises(UserError, match="keyboard input needs a terminal"):
            KeyboardInput(read_end).start(lambda event: None)
    finally:
        os.close(read_end)
        os.close(write_end)
