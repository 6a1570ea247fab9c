"""The settings page on the box, through the session: names spelled with the buttons and
offered by both set-ups, forgotten again; the language at once; sound off (the buzzer silent,
the LEDs still flashing); Wakanda's variant and empty-claim house rule; the settings file
kept in the data folder, written atomically, read as hostile input."""

import errno
import json
import os
import random

import pytest
from box_helpers import choose, presses_to, scan, select

from companion.errors import UserError
from companion.events import Hold, Press
from companion.games import GAMES
from companion.signals import Signal
from companion.table.app_loop import AppLoop
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.settings import (
    MAX_BYTES,
    SETTINGS_FILE,
    Settings,
    SettingsStore,
    read_settings,
    write_settings,
)
from companion.table.settings_speller import NameSpeller
from companion.ui import text

ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]
KNOWN = dict(games=tuple(GAMES), languages=("bg", "en"))


def box(tmp_path, *, names=(), language="en", seed=1):
    """A box started on the data folder ``tmp_path/data``, as the ``run`` command starts it."""
    data = tmp_path / "data"
    store, problem = SettingsStore.load(data, names=names, language=language, **KNOWN)
    return Session(data, TagRegistry(tmp_path / "tags.json"), rng=random.Random(seed),
                   settings=store, settings_problem=problem)


def stored(tmp_path):
    return json.loads((tmp_path / "data" / SETTINGS_FILE).read_text(encoding="utf-8"))


def open_settings(s):
    choose(s, "settings")
    assert s.flow.kind == "settings" and s.view.choice.title == "Settings"


def spell(s, name):
    """Spell ``name`` on the speller with up/down and OK, the shortest way round, then Done."""
    speller = s.flow.speller
    for char in name:
        target = speller.entries.index(char.upper() if char.isalpha() else char)
        step = (target - speller.selected) % len(speller.entries)
        button = "down" if step <= len(speller.entries) // 2 else "up"
        while speller.selected != target:
            s.handle(Press(button))
        assert s.handle(Press("ok")).signal is None
    s.handle(Press("up"))
    while not speller.on_done:
        s.handle(Press("up"))
    return s.handle(Press("ok"))


def add_name(s, name):
    """From the settings page: Names, New name…, spell it, back to the settings page."""
    choose(s, "names")
    choose(s, None)
    assert s.screen == "speller"
    out = spell(s, name)
    s.handle(Press("back"))
    return out


# --- the settings file ---------------------------------------------------------------------

def test_the_file_keeps_only_what_was_set_and_reads_back(tmp_path):
    path = tmp_path / SETTINGS_FILE
    settings = Settings(("Ana", "Бен"), "bg", False, {"wakanda": {"empty_claim": "never"}})
    write_settings(path, settings)
    assert json.loads(path.read_text(encoding="utf-8")) == {
        "version": 1, "names": ["Ana", "Бен"], "language": "bg", "sound": False,
        "games": {"wakanda": {"empty_claim": "never"}}}
    assert read_settings(path, **KNOWN) == settings
    write_settings(path, Settings())
    assert json.loads(path.read_text(encoding="utf-8")) == {"version": 1}
    assert not (tmp_path / (SETTINGS_FILE + ".tmp")).exists()     # renamed into place


@pytest.mark.parametrize("content,reason", [
    (b"{not json", "not JSON text"),
    (b"\xff\xfe", "not JSON text"),
    (b"[]", "expected an object"),
    (b'{"version": 2}', "expected an object"),
    (b'{"version": 1, "colour": "red"}', "unknown key 'colour'"),
    (b'{"version": 1, "names": ["Ana", ""]}', "names"),
    (b'{"version": 1, "names": ["Seventeen letters"]}', "names"),
    (b'{"version": 1, "names": ["A\\nB"]}', "names"),
    (b'{"version": 1, "language": "xx"}', "language"),
    (b'{"version": 1, "sound": "off"}', "sound"),
    (b'{"version": 1, "games": {"chess": {}}}', "games"),
    (b'{"version": 1, "games": {"wakanda": {"variant": 3}}}', "games"),
])
def test_a_damaged_file_is_one_line_naming_it(tmp_path, content, reason):
    path = tmp_path / SETTINGS_FILE
    path.write_bytes(content)
    with pytest.raises(UserError) as info:
        read_settings(path, **KNOWN)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and reason in message and "\n" not in message


def test_only_a_regular_file_of_a_sensible_size_is_read(tmp_path):
    path = tmp_path / SETTINGS_FILE
    path.mkdir()
    with pytest.raises(UserError, match="cannot read the settings|not a regular file|is a folder"):
        read_settings(path, **KNOWN)
    path.rmdir()
    os.mkfifo(path)                                   # would block a plain read for ever
    with pytest.raises(UserError, match="not a regular file"):
        read_settings(path, **KNOWN)
    path.unlink()
    path.write_text('{"version": 1, "names": []}' + " " * MAX_BYTES)
    with pytest.raises(UserError, match="too big"):
        read_settings(path, **KNOWN)


def test_a_value_a_game_does_not_offer_counts_as_not_set(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / SETTINGS_FILE).write_text(
        '{"version": 1, "games": {"wakanda": {"variant": "sideways", "empty_claim": "always"}}}')
    store, problem = SettingsStore.load(tmp_path / "data", **KNOWN)
    assert problem is None
    assert store.options("wakanda", GAMES["wakanda"].table.settings) == {
        "variant": "open", "empty_claim": "always"}


# --- the page, through the session ---------------------------------------------------------

def test_the_menu_opens_the_settings_and_back_returns(tmp_path):
    s = box(tmp_path)
    assert s.view.choice.labels[-2:] == ("Settings", "Rules")
    open_settings(s)
    # Wakanda's house rules follow the box's own lines; a game added brings its own after them.
    labels = s.view.choice.labels
    assert labels[:6] == ("Names: none yet", "Language: English", "Sound: on",
                          "Hints: on", "Variant: open", "Empty claim: at end")
    assert labels[-5:] == ("Voice: off", "Voice speed: 160", "Voice volume: 100", "Phone page: off",
                           "Forget phones")
    assert s.view.footer == "▲▼ choose · OK change"
    select(s, "hints")                                # hints: for the games to come
    assert s.view.footer == "Move hints, in new games"
    select(s, ("wakanda", GAMES["wakanda"].table.settings[1]))   # the house rule, named with its game
    assert s.view.footer == "Wakanda house rule (R1)"
    out = scan(s, "eagle")
    assert out.signal is None and s.message == "Use the buttons: ▲▼, OK"
    s.handle(Hold("v1"))
    assert s.flow.kind == "settings"
    s.handle(Press("back"))
    assert s.screen == "menu" and s.view.choice.value == "wakanda"
    assert not (tmp_path / "data" / SETTINGS_FILE).exists()   # looking changes nothing


def test_a_name_spelled_with_the_buttons_is_kept_and_offered_by_both_set_ups(tmp_path):
    s = box(tmp_path)
    open_settings(s)
    out = add_name(s, "Anna-Maria")
    assert out.signal is Signal.ACCEPTED
    assert s.view.choice.labels[0] == "Names: Anna-Maria"
    assert stored(tmp_path)["names"] == ["Anna-Maria"]
    add_name(s, "Bo")
    assert stored(tmp_path)["names"] == ["Bo", "Anna-Maria"]       # the newest first
    s.handle(Press("back"))
    choose(s, "wakanda")
    assert s.view.choice.labels == ("Bo", "Anna-Maria", "Player 1", "The box")
    s.handle(Press("back"))
    choose(s, "totem-wars")
    choose(s, 2)
    assert s.view.choice.labels == ("Bo", "Anna-Maria", "Player 1", "The box")  # either game's box
    # The box restarts: the names are still there.
    assert box(tmp_path).settings.names == ("Bo", "Anna-Maria")


def test_the_speller_capitalises_deletes_and_refuses_what_is_no_name(tmp_path):
    s = box(tmp_path)
    open_settings(s)
    choose(s, "names")
    choose(s, None)
    speller = s.flow.speller
    assert s.view.cell == "A" and s.view.wheel[-1] == "Done"
    s.handle(Press("up")); s.handle(Press("up"))      # Done, then the hyphen
    out = s.handle(Press("ok"))
    assert out.signal is Signal.REFUSED and s.view.note == "Start with a letter"
    s.handle(Press("up"))                             # the space: refused as well
    assert s.handle(Press("ok")).signal is Signal.REFUSED and speller.name == ""
    s.handle(Press("up")); s.handle(Press("ok"))      # Z
    assert s.view.wheel[0] == "a"                     # small letters after the first
    s.handle(Press("down")); s.handle(Press("ok"))    # a space
    assert s.view.wheel[0] == "A"                     # a capital again after a space
    s.handle(Press("back"))                           # back deletes the space
    assert speller.name == "Z" and s.view.cell == " "
    for _ in range(3):
        s.handle(Press("down"))                       # the hyphen, Done, round to a
    for _ in range(20):
        s.handle(Press("ok"))
    assert speller.name == "Z" + "a" * 15             # the 17th letter is refused
    assert s.view.note == "16 letters at most" and s.view.refused
    for _ in range(16):
        s.handle(Press("back"))
    assert speller.name == "" and s.screen == "speller"
    while not speller.on_done:
        s.handle(Press("down"))
    out = s.handle(Press("ok"))
    assert out.signal is Signal.REFUSED and s.view.note == "Spell a name first"
    s.handle(Press("back"))                           # Back with no letter: leaves, keeps nothing
    assert s.view.choice.title == "Names" and s.view.choice.labels == ("New name…",)
    assert not (tmp_path / "data" / SETTINGS_FILE).exists()


def test_a_spelled_name_loses_spaces_at_its_end():
    speller = NameSpeller()
    for char in "Ana ":
        speller.selected = speller.entries.index(char.upper())
        assert speller.add() is None
    assert speller.name == "Ana " and speller.done() == "Ana"


def test_a_name_is_forgotten_after_a_question(tmp_path):
    s = box(tmp_path, names=("Ana", "Ben"))
    open_settings(s)
    assert s.view.choice.labels[0] == "Names: Ana, Ben"
    choose(s, "names")
    choose(s, "Ana")
    assert s.screen == "confirm" and s.view.question == "Forget Ana?"
    s.handle(Press("back"))                           # no: kept
    assert s.view.choice.labels == ("New name…", "Ana", "Ben")
    choose(s, "Ana")
    out = s.handle(Press("ok"))
    assert out.signal is Signal.ACCEPTED and s.view.footer == "Ana forgotten"
    assert s.view.choice.labels == ("New name…", "Ben")
    assert stored(tmp_path)["names"] == ["Ben"]
    s.handle(Press("back")); s.handle(Press("back"))
    choose(s, "wakanda")
    assert s.view.choice.labels == ("Ben", "Player 1", "The box")


def test_the_language_changes_at_once_and_after_a_restart(tmp_path):
    s = box(tmp_path)
    open_settings(s)
    choose(s, "language")                             # OK: the list of languages, the one spoken chosen
    assert s.view.choice.title == "Language" and s.view.choice.value == "en"
    assert s.view.choice.labels == tuple(text.t("language.name", lang) for lang in text.languages())
    assert s.view.footer == "▲▼ choose · OK"
    choose(s, "fr")                                   # one press down, OK: French at once
    assert s.language == "fr" and text.language() == "en"   # the session's, not the program's
    assert s.view.choice.title == text.t("settings.title", "fr") != "Settings"
    assert s.view.choice.value == "language"
    assert s.view.choice.labels[1] == text.t("settings.language", "fr", name=text.t("language.name", "fr"))
    assert stored(tmp_path) == {"version": 1, "language": "fr"}
    s.handle(Press("ok"))                             # the list again, in French, French chosen
    assert s.view.choice.title == "Langue" and s.view.choice.value == "fr"
    s.handle(Press("up"))                             # ▲▲ from French: English, then round to
    s.handle(Press("up"))                             # the last language: two presses, not seven
    assert s.view.choice.value == text.languages()[-1]
    choose(s, "bg")
    assert s.language == "bg"
    assert s.view.choice.title == "Настройки" and s.view.choice.value == "language"
    assert s.view.choice.labels[1] == "Език: Български"
    s.handle(Press("back"))
    assert s.view.choice.labels[0] == "Нова: Wakanda"
    assert stored(tmp_path) == {"version": 1, "language": "bg"}
    again = box(tmp_path)                             # the box starts again…
    assert again.language == "bg"
    assert again.view.choice.labels[0] == "Нова: Wakanda"   # …and the settings give Bulgarian


def test_back_on_the_list_of_languages_keeps_the_one_spoken(tmp_path):
    s = box(tmp_path)
    open_settings(s)
    choose(s, "language")
    s.handle(Press("down"))
    s.handle(Press("back"))
    assert s.language == "en" and s.view.choice.title == "Settings" and s.view.choice.value == "language"
    assert not (tmp_path / "data" / SETTINGS_FILE).exists() or stored(tmp_path).get("language") is None


def test_the_configuration_gives_the_defaults_the_file_does_not_hold(tmp_path):
    s = box(tmp_path, names=("Ana", "Ben"), language="bg")
    assert s.language == "bg" and s.settings.names == ("Ana", "Ben")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / SETTINGS_FILE).write_text('{"version": 1, "names": ["Cleo"]}')
    s = box(tmp_path, names=("Ana", "Ben"), language="bg")
    assert s.language == "bg" and s.settings.names == ("Cleo",)


def test_names_of_a_game_that_starts_come_first_next_time(tmp_path):
    s = box(tmp_path, names=("Ana", "Ben", "Cleo"))
    choose(s, "wakanda")
    choose(s, "Cleo")
    choose(s, "Player 2")                             # a seat nobody named
    choose(s, "open")
    for village in ROW:
        scan(s, f"village:{village}")
    choose(s, 0)
    assert s.screen == "board"
    assert stored(tmp_path)["names"] == ["Cleo", "Ana", "Ben"]


def test_wakanda_variant_and_empty_claim_come_from_the_settings(tmp_path):
    s = box(tmp_path)
    open_settings(s)
    variant, empty_claim = s.view.choice.values[4:6]
    choose(s, variant)
    assert s.view.choice.labels[4] == "Variant: hidden"
    choose(s, empty_claim)
    assert s.view.choice.labels[5] == "Empty claim: never"
    assert stored(tmp_path)["games"] == {"wakanda": {"variant": "hidden", "empty_claim": "never"}}
    s.handle(Press("back"))
    choose(s, "wakanda")
    assert s.flow.current == "variant" and s.view.choice.value == "hidden"   # offered first
    s.handle(Press("ok"))
    for village in ROW[:3]:
        scan(s, f"village:{village}")
    choose(s, 0)
    assert s.game.variant == "hidden" and s.game.empty_claim == "never"
    header = json.loads((tmp_path / "data" / "current.jsonl").read_text().splitlines()[0])
    assert header["variant"] == "hidden" and header["empty_claim"] == "never"   # R1 recorded


def test_the_default_house_rule_is_not_written_in_the_record(tmp_path):
    s = box(tmp_path)
    choose(s, "wakanda")
    s.handle(Press("ok"))
    for village in ROW:
        scan(s, f"village:{village}")
    choose(s, 0)
    header = json.loads((tmp_path / "data" / "current.jsonl").read_text().splitlines()[0])
    assert "empty_claim" not in header and s.game.empty_claim == "when_stuck"


# --- files that fail us --------------------------------------------------------------------

def test_a_damaged_file_is_said_on_the_menu_and_the_defaults_hold(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / SETTINGS_FILE).write_text('{"version": 1, "language": "bg", "names": 7}')
    header = {"game": "wakanda", "players": ["Ana", "Ben"], "villages": ROW, "first": 0}
    (data / "current.jsonl").write_text(json.dumps(header) + "\n")
    s = box(tmp_path, names=("Ana", "Ben"))
    assert s.message == "Damaged settings ignored"
    assert s.language == "en" and s.settings.names == ("Ana", "Ben")
    assert s.view.choice.values[0] == "resume"        # the game is never touched
    s.handle(Press("ok"))
    assert s.screen == "board" and s.message == "Game resumed: turn 1, Ana to play"
    # The next change writes a sound file over the damaged one.
    s.handle(Hold("back")); s.handle(Press("ok"))
    open_settings(s)
    choose(s, "sound")
    assert stored(tmp_path) == {"version": 1, "sound": False}


def test_a_read_only_data_folder_keeps_the_change_until_the_box_stops(tmp_path, mocker):
    s = box(tmp_path)
    open_settings(s)
    mocker.patch("companion.table.settings.write_atomically",
                 side_effect=OSError(errno.EROFS, os.strerror(errno.EROFS)))
    choose(s, "language")
    out = s.handle(Press("down"))
    out = s.handle(Press("ok"))                       # the language: French, from its list
    assert out.signal is Signal.ACCEPTED and s.language == "fr"
    assert s.view.footer == text.t("settings.not_saved", "fr") != "Not kept after a restart"
    choose(s, "names")
    choose(s, None)
    spell(s, "Ana")
    assert s.view.choice.labels == (text.t("settings.new_name", "fr"), "Ana")   # offered until the box stops
    assert s.view.footer == text.t("settings.not_saved", "fr")
    assert not (tmp_path / "data" / SETTINGS_FILE).exists()
    assert box(tmp_path).settings.names == ()           # nothing was kept


def test_a_game_starts_even_when_its_names_cannot_be_kept(tmp_path, mocker):
    s = box(tmp_path, names=("Ana", "Ben"))
    mocker.patch("companion.table.settings.write_atomically",
                 side_effect=OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    choose(s, "wakanda")
    choose(s, "Ben")
    choose(s, "Ana")
    s.handle(Press("ok"))
    for village in ROW:
        scan(s, f"village:{village}")
    choose(s, 0)
    assert s.screen == "board" and s.message == "Not kept after a restart"
    assert s.settings.names == ("Ben", "Ana")


# --- sound ---------------------------------------------------------------------------------

class Feedback:
    def __init__(self):
        self.played = []

    def play(self, signal, *, sound=True):
        self.played.append((signal, sound))

    def close(self):
        pass


class Display:
    def show(self, image):
        return 0

    def close(self):
        pass


def test_sound_off_reaches_the_feedback_at_once(tmp_path):
    s = box(tmp_path)
    feedback = Feedback()
    loop = AppLoop(s, Display(), feedback)
    for _ in range(presses_to(s, "settings")):          # Settings, after New and Learn
        loop.deliver(Press("down"))
    loop.deliver(Press("ok"))
    for _ in range(presses_to(s, "sound")):
        loop.deliver(Press("down"))
    loop.deliver(Press("ok"))                           # Sound: off — the change itself is silent
    loop.deliver(Press("ok"))                           # Sound: on — and its tick is heard
    assert feedback.played == [(Signal.ACCEPTED, False), (Signal.ACCEPTED, True)]
    assert stored(tmp_path) == {"version": 1}


def test_sound_off_silences_the_buzzer_and_the_leds_still_flash(pin_factory):
    from test_feedback import played

    from hardware.feedback import Feedback as Hardware

    feedback = Hardware(18, {"green": 12, "red": 16}, pin_factory=pin_factory)
    feedback.play(Signal.REFUSED, sound=False)
    assert played(pin_factory, 18, 16) == [[False], [False, True, False, True, False]]
    feedback.close()


# --- the voice's speed and volume (issue 32) -----------------------------------------------------

def test_the_voice_speed_and_volume_turn_on_ok_from_the_configurations_and_are_kept(tmp_path):
    data = tmp_path / "data"
    store, _ = SettingsStore.load(data, voice_speed=150, voice_volume=100, **KNOWN)
    s = Session(data, TagRegistry(tmp_path / "tags.json"), settings=store)
    open_settings(s)
    labels = s.view.choice.labels
    assert "Voice speed: 150" in labels and "Voice volume: 100" in labels  # the configuration's
    choose(s, "voice_speed")
    assert "Voice speed: 160" in s.view.choice.labels and s.view.footer == "Words a minute"
    for _ in range(5):                                    # 180, 210, 250, then round: 120, 140
        choose(s, "voice_speed")
    choose(s, "voice_volume")
    assert (store.voice_speed, store.voice_volume) == (140, 150)
    assert s.view.footer == "100: normal loudness"
    saved = json.loads((data / SETTINGS_FILE).read_text())
    assert (saved["voice_speed"], saved["voice_volume"]) == (140, 150)
    again, problem = SettingsStore.load(data, voice_speed=150, **KNOWN)
    assert problem is None and (again.voice_speed, again.voice_volume) == (140, 150)


@pytest.mark.parametrize("doc, says", [
    ('"voice_speed": 20', "voice_speed: a whole number from 80 to 450"),
    ('"voice_speed": "fast"', "voice_speed: a whole number from 80 to 450"),
    ('"voice_volume": true', "voice_volume: a whole number from 0 to 200"),
    ('"voice_volume": 1e400', "not JSON text"),
])
def test_a_voice_speed_or_volume_the_file_cannot_hold_is_damage(tmp_path, doc, says):
    (tmp_path / SETTINGS_FILE).write_text(f'{{"version": 1, {doc}}}')
    store, problem = SettingsStore.load(tmp_path, voice_speed=170, voice_volume=90, **KNOWN)
    assert (store.voice_speed, store.voice_volume) == (170, 90)
    assert problem is not None and says in problem and "\n" not in problem


def test_a_phone_sets_the_voice_speed_and_volume_checked_and_applied_by_the_table(tmp_path):
    from companion.events import PhoneSetting
    from companion.table.setting_offers import form, setting_of

    assert setting_of({"key": "voice_speed", "value": "210"}) == PhoneSetting("voice_speed", "210")
    for bad in ("79", "451", "2e2", "", "١٢٠", "0160", 160, None):
        assert setting_of({"key": "voice_speed", "value": bad}) is None, bad
    assert setting_of({"key": "voice_volume", "value": "150", "game": "wakanda"}) is None
    data = tmp_path / "data"
    store, _ = SettingsStore.load(data, voice_speed=150, **KNOWN)
    speeds = next(entry for entry in form(store) if entry["key"] == "voice_speed")
    assert speeds["value"] == "150" and ["150", "Voice speed: 150"] in speeds["choices"]  # its own offered
    s = Session(data, TagRegistry(tmp_path / "tags.json"), settings=store)
    s.handle(PhoneSetting("voice_volume", "50"))
    assert store.voice_volume == 50 and json.loads((data / SETTINGS_FILE).read_text())["voice_volume"] == 50
    assert s.flow.note == "Tel: Voice volume: 50"
