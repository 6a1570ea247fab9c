"""Enrolling tags: the walk through the items, and the ``enroll`` command end to end."""

from __future__ import annotations

import pytest

from companion.errors import UserError
from companion.events import Hold, Press, ReaderState, Tag, TagGone
from companion.games.totem_wars.items import enrollment_steps as card_enrollment_steps
from companion.games.wakanda.items import enrollment_steps as wakanda_enrollment_steps
from companion.table.enrollment import BUTTON_HELP, Enrollment
from companion.table.registry import TagRegistry


def uid(n: int) -> str:
    return f"{n:010X}"


@pytest.fixture
def registry(tmp_path):
    return TagRegistry.load(tmp_path / "tags.json")


def saved(registry) -> dict[str, str]:
    return TagRegistry.load(registry.path).items()


def scan(walk, n, reader="pad"):
    """A tag put on the reader and taken off again."""
    feedback = walk.handle(Tag(uid(n), reader))
    walk.handle(TagGone(uid(n), reader))
    return feedback


def test_a_whole_wakanda_walk(registry):
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    prompts = []
    for n in range(35):
        prompts.append(walk.current.prompt)
        assert scan(walk, n).step_changed
    assert walk.finished and walk.current is None
    assert prompts[:3] == ["Scan an Eagle piece", "Scan Chief piece 1 of 2", "Scan Chief piece 2 of 2"]
    assert prompts[-1] == "Scan Crests headdress 3 of 3"
    tags = saved(registry)
    assert len(tags) == 35
    assert [tags[uid(n)] for n in (0, 1, 2, 21, 28, 29, 34)] == [
        "eagle", "chief", "chief", "village:eagle", "village:sun", "wings", "crests"]
    assert walk.summary() == "35 enrolled, 0 moved, 0 already enrolled"


def test_every_binding_is_saved_before_it_is_reported(registry):
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    for n in range(4):
        feedback = scan(walk, n)
        assert uid(n) in saved(registry), feedback.note


def test_the_notes_say_what_happened(registry):
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    assert scan(walk, 1).note == "0000000001 enrolled as Eagle piece"
    assert scan(walk, 2).note == "0000000002 enrolled as Chief piece 1 of 2"


def test_a_tag_already_enrolled_for_this_item_is_reported(registry):
    registry.bind(uid(7), "chief")
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    scan(walk, 1)
    feedback = scan(walk, 7)
    assert feedback.note == "0000000007 already enrolled as Chief piece"
    assert walk.current.prompt == "Scan Chief piece 2 of 2"
    assert walk.summary().startswith("1 enrolled, 0 moved, 1 already enrolled")


def test_a_tag_enrolled_for_something_else_is_moved_once_asked(registry):
    registry.bind(uid(7), "village:sun")
    registry.save()
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    asked = scan(walk, 7)
    assert asked.note == ("0000000007 is enrolled as Village tile: Sun: OK moves it to Eagle piece, "
                          "back keeps it")
    assert not asked.step_changed and saved(registry)[uid(7)] == "village:sun"
    moved = walk.handle(Press("ok"))
    assert moved.note == "0000000007 moved from Village tile: Sun to Eagle piece" and moved.step_changed
    assert saved(registry)[uid(7)] == "eagle"
    assert walk.summary().startswith("0 enrolled, 1 moved, 0 already enrolled")


def test_back_keeps_a_tag_where_it_is_and_the_step_waits(registry):
    registry.bind(uid(7), "indians/snake")
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    assert "is enrolled as Snake card (Indians)" in scan(walk, 7).note
    assert walk.handle(Press("back")).note == "0000000007 kept as Snake card (Indians): scan another Eagle piece"
    assert registry.item_for(uid(7)) == "indians/snake" and walk.current.prompt == "Scan an Eagle piece"
    assert walk.summary().startswith("0 enrolled, 0 moved")


def test_another_tag_or_button_drops_the_question(registry):
    registry.bind(uid(7), "sun")
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    scan(walk, 7)
    assert scan(walk, 1).note == "0000000001 enrolled as Eagle piece"   # another tag: for this step
    scan(walk, 7)
    walk.handle(Press("down"))                                          # skipped: nothing moved
    assert walk.current.prompt == "Scan Chief piece 2 of 2" and registry.item_for(uid(7)) == "sun"


def test_the_same_tag_read_for_the_next_item_is_asked_and_counted(registry):
    """A tag read twice by mistake: once for the eagle, again for the first chief."""
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    scan(walk, 1)
    assert scan(walk, 1).note == ("0000000001 is enrolled as Eagle piece: OK moves it to Chief piece 1 of 2, "
                                  "back keeps it")
    walk.handle(Press("ok"))
    walk.finish()
    assert walk.summary() == "1 enrolled, 1 moved, 0 already enrolled; 34 of 35 items not scanned"


def test_a_repeated_read_is_ignored(registry):
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    walk.handle(Tag(uid(1)))
    for _ in range(3):
        assert walk.handle(Tag(uid(1))).note is None
    assert walk.current.prompt == "Scan Chief piece 1 of 2"
    assert registry.item_for(uid(1)) == "eagle"


def test_the_same_piece_twice_asks_for_another(registry):
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    scan(walk, 0)
    scan(walk, 1)
    feedback = scan(walk, 1)
    assert feedback.note == "0000000001 was scanned as Chief piece 1 of 2: scan another Chief piece"
    assert not feedback.step_changed
    assert walk.current.prompt == "Scan Chief piece 2 of 2"


def test_back_and_up_go_to_the_previous_item(registry):
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    assert walk.handle(Press("back")).note == "this is the first item"
    scan(walk, 0)
    scan(walk, 1)
    assert walk.handle(Press("back")).step_changed
    assert walk.current.prompt == "Scan Chief piece 1 of 2"
    walk.handle(Press("up"))
    assert walk.current.prompt == "Scan an Eagle piece"
    # Scanning the same tag again for the same item is fine and moves on.
    assert scan(walk, 0).note == "0000000000 already enrolled as Eagle piece"
    assert walk.current.prompt == "Scan Chief piece 1 of 2"
    assert walk.summary().startswith("2 enrolled, 0 moved, 0 already enrolled")


def test_down_skips_and_the_summary_counts_what_was_not_scanned(registry):
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    walk.handle(Press("down"))
    assert walk.current.prompt == "Scan Chief piece 1 of 2"
    scan(walk, 1)
    walk.handle(Hold("ok"))
    assert walk.finished
    assert walk.summary() == "1 enrolled, 0 moved, 0 already enrolled; 34 of 35 items not scanned"


def test_skipping_past_the_last_item_finishes(registry):
    walk = Enrollment(card_enrollment_steps(["indians/snake", "africans/lion"]), registry)
    walk.handle(Press("down"))
    assert walk.position == "2/2"
    walk.handle(Press("down"))
    assert walk.finished
    assert walk.handle(Tag(uid(1))) == walk.handle(Press("back"))
    assert len(registry) == 0


def test_item_names_and_noise_are_not_tags(registry):
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    note = walk.handle(Tag("village:sun")).note
    assert note == "'village:sun' is an item name, not a tag to enroll: ignored"
    assert walk.handle(Tag("x!")).note == "'x!' is not a tag UID, not a tag to enroll: ignored"
    assert walk.current.prompt == "Scan an Eagle piece"
    assert len(registry) == 0


def test_buttons_that_mean_nothing_here_get_a_hint(registry):
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    for event in (Press("v3"), Press("ok"), Hold("back")):
        feedback = walk.handle(event)
        assert "hold ok: finish" in feedback.note and not feedback.step_changed


def test_an_unplugged_reader_forgets_its_tags(registry):
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    walk.handle(Tag(uid(0), "pad"))
    walk.handle(Press("back"))
    assert "disconnected" in walk.handle(ReaderState("pad", False)).note
    assert walk.handle(ReaderState("pad", True)).note == "reader pad connected"
    # Back on a fresh reader, the same tag is a new scan.
    walk.handle(Press("up"))
    assert walk.handle(Tag(uid(0), "pad")).note == "0000000000 already enrolled as Eagle piece"


def test_a_failed_save_is_reported_and_not_kept(tmp_path):
    blocked = tmp_path / "data"
    blocked.write_text("a file where the folder should be")
    registry = TagRegistry(blocked / "tags.json")
    registry.bind(uid(5), "sun")
    walk = Enrollment(wakanda_enrollment_steps(), registry)
    with pytest.raises(UserError, match="cannot save the tag registry"):
        walk.handle(Tag(uid(1)))
    assert "is enrolled as Sun piece" in walk.handle(Tag(uid(5), "slot1")).note
    with pytest.raises(UserError):
        walk.handle(Press("ok"))
    assert registry.items() == {uid(5): "sun"}
    assert walk.current.prompt == "Scan an Eagle piece"


def test_totem_wars_cards_one_by_one(registry):
    walk = Enrollment(card_enrollment_steps(["indians/snake", "africans/lion"]), registry)
    assert walk.current.prompt == "Scan a Snake card (Indians)"
    scan(walk, 1)
    assert scan(walk, 2).note == "0000000002 enrolled as Lion card (Africans)"
    assert walk.finished
    assert saved(registry) == {uid(1): "indians/snake", uid(2): "africans/lion"}


def test_nothing_to_enroll():
    with pytest.raises(ValueError):
        Enrollment([], TagRegistry("tags.json"))


# --- the command, end to end, driven by an input script -------------------------------------

@pytest.fixture
def enroll(tmp_path, capsys):
    """Run ``totem-companion enroll`` on a script; returns (status, stdout, stderr)."""
    from companion.cli import main

    config = tmp_path / "config.toml"
    config.write_text("")

    def run(script: str, *options: str, display: str = "none"):
        path = tmp_path / "script.txt"
        path.write_text(script)
        status = main(["enroll", "--config", str(config), "--data", str(tmp_path / "data"),
                       "--display", display, "--input", str(path), *options])
        out, err = capsys.readouterr()
        return status, out, err

    return run


def test_enroll_command_binds_the_scanned_tags(enroll, tmp_path):
    status, out, err = enroll("tag 0a1b2c3d4e\ngone 0a1b2c3d4e\ntag 0A1B2C3D4F\ntag eagle\n"
                              "press back\npress down\ntag 0A1B2C3D50\nhold ok\ntag 0A1B2C3D51\n")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[1:4] == ["[1/35] Scan an Eagle piece", "  0A1B2C3D4E enrolled as Eagle piece",
                          "[2/35] Scan Chief piece 1 of 2"]
    assert "  'eagle' is an item name, not a tag to enroll: ignored" in lines
    assert lines[-1] == "3 enrolled, 0 moved, 0 already enrolled; 32 of 35 items not scanned"
    assert TagRegistry.load(tmp_path / "data" / "tags.json").items() == {
        "0A1B2C3D4E": "eagle", "0A1B2C3D4F": "chief", "0A1B2C3D50": "chief"}


def test_enroll_command_asks_before_moving_a_tag_read_twice(enroll, tmp_path):
    status, out, err = enroll("tag 0A1B2C3D4E\ngone 0A1B2C3D4E\ntag 0A1B2C3D4E\npress ok\nhold ok\n")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[1:7] == [
        "[1/35] Scan an Eagle piece", "  0A1B2C3D4E enrolled as Eagle piece",
        "[2/35] Scan Chief piece 1 of 2",
        "  0A1B2C3D4E is enrolled as Eagle piece: OK moves it to Chief piece 1 of 2, back keeps it",
        "  0A1B2C3D4E moved from Eagle piece to Chief piece 1 of 2", "[3/35] Scan Chief piece 2 of 2"]
    assert lines[-1] == "1 enrolled, 1 moved, 0 already enrolled; 34 of 35 items not scanned"
    assert TagRegistry.load(tmp_path / "data" / "tags.json").items() == {"0A1B2C3D4E": "chief"}


def test_enroll_command_shows_the_question_on_the_display(enroll, tmp_path):
    status, out, _ = enroll("tag 0A1B2C3D4E\ngone 0A1B2C3D4E\ntag 0A1B2C3D4E\npress back\nhold ok\n",
                            display="text")
    frames = [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("frame ")]
    assert status == 0
    assert "Move this tag? | 0A1B2C3D4E: Eagle | piece | to Chief piece 1 of | 2? | OK: move, back: keep" in frames
    assert frames[-1].startswith("Enroll: done | 1 enrolled, 0 moved")
    assert TagRegistry.load(tmp_path / "data" / "tags.json").items() == {"0A1B2C3D4E": "eagle"}


def test_enroll_command_shows_the_prompts_on_the_display(enroll, tmp_path):
    frames = tmp_path / "frames"
    status, _, _ = enroll("tag 0A1B2C3D4E\n", display=f"png:{frames}")
    assert status == 0
    assert len(list(frames.glob("frame-*.png"))) == 3  # first prompt, after the scan, summary


def test_enroll_command_for_totem_wars_walks_the_deck(enroll, tmp_path):
    status, out, _ = enroll("tag 0A1B2C3D4E\n", "--game", "totem-wars")
    assert status == 0
    assert "[1/52] Scan an Eagle card (Indians)" in out
    assert TagRegistry.load(tmp_path / "data" / "tags.json").items() == {"0A1B2C3D4E": "indians/eagle"}


def test_enroll_command_with_a_deck_file(enroll, tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_text("\n".join(f"[{tribe}]\n" + "\n".join(f'a{n} = ["land"]' for n in range(13))
                              for tribe in ("aborigines", "africans", "eskimos", "indians")) + "\n")
    status, out, _ = enroll("", "--game", "totem-wars", "--deck", str(deck))
    assert status == 0
    assert "[1/52] Scan an A0 card (Aborigines)" in out


def test_enroll_command_transcribes_a_physical_deck(enroll, tmp_path):
    from companion.games.totem_wars import default_deck, load_deck
    # Each card scanned and its proposed identity kept: the default list, card by card.
    script = "".join(f"tag {0x0A00000000 + n:010X}\ngone {0x0A00000000 + n:010X}\npress ok\n"
                     for n in range(52))
    status, out, err = enroll(script, "--game", "totem-wars", "--transcribe", "club")
    assert (status, err) == (0, "")
    assert "Deck written: club.toml, 52 cards" in out
    written = load_deck(tmp_path / "data" / "decks" / "club.toml")
    assert sorted(c.name for c in written) == sorted(c.name for c in default_deck())
    assert len(TagRegistry.load(tmp_path / "data" / "tags.json").items()) == 52


def test_enroll_command_transcription_stops_and_goes_on_later(enroll, tmp_path):
    first = "tag 0A00000001\ngone 0A00000001\npress ok\nhold ok\n"
    status, out, _ = enroll(first, "--game", "totem-wars", "--transcribe", "club")
    assert status == 0 and "Stopped at 1/52" in out
    status, out, _ = enroll("tag 0A00000002\ngone 0A00000002\npress ok\n",
                            "--game", "totem-wars", "--transcribe", "club")
    assert status == 0 and "(2/52)" in out
    # Quit before the end (q, or the script's end): the last line says where the cards are kept.
    part = tmp_path / "data" / "decks" / "club.toml.part"
    assert out.splitlines()[-1] == (f"Quit at 2/52: the cards so far are kept in {part}; "
                                    "enroll --transcribe club goes on from there")
    assert part.exists()


def test_enroll_command_transcription_quit_before_the_first_card_says_nothing_was_written(enroll, tmp_path):
    status, out, _ = enroll("", "--game", "totem-wars", "--transcribe", "club")
    assert status == 0 and out.splitlines()[-1] == (
        "Quit before the first card: nothing was written; enroll --transcribe club begins again")
    assert not (tmp_path / "data" / "decks" / "club.toml.part").exists()


@pytest.mark.parametrize("options, status, message", [
    (("--deck", "deck.toml"), 2, "--deck is for --game totem-wars"),
    (("--transcribe", "club"), 2, "--transcribe is for --game totem-wars"),
    (("--game", "totem-wars", "--deck", "/nonexistent/deck.toml"), 1, "no such deck file"),
])
def test_enroll_command_bad_options(enroll, options, status, message):
    code, _, err = enroll("", *options)
    assert code == status
    assert message in err and len(err.splitlines()) == 1


def test_enroll_command_with_a_damaged_registry(enroll, tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "tags.json").write_text("{broken")
    status, _, err = enroll("tag 0A1B2C3D4E\n")
    assert status == 1
    assert "tags.json: the tag registry is damaged" in err and len(err.splitlines()) == 1
    assert (tmp_path / "data" / "tags.json").read_text() == "{broken"


def test_enroll_command_with_a_bad_script_line(enroll, tmp_path):
    status, out, err = enroll("tag 0A1B2C3D4E\nscan eagle\n")
    assert status == 1 and out == ""
    assert "line 2: unknown event 'scan'" in err and len(err.splitlines()) == 1
    # The script is checked before anything is enrolled.
    assert not (tmp_path / "data" / "tags.json").exists()


def test_enroll_command_needs_a_reader(tmp_path, capsys):
    from companion.cli import main

    config = tmp_path / "config.toml"
    config.write_text("")
    status = main(["enroll", "--config", str(config), "--data", str(tmp_path), "--display", "none",
                   "--reader", "none"])
    _, err = capsys.readouterr()
    assert status == 1 and "needs a tag reader" in err


def test_enroll_command_with_the_hardware_inputs(tmp_path, capsys, monkeypatch):
    """Events from the configured sources, on their own thread, until the player quits."""
    import threading

    import hardware.inputs
    from companion.cli import main

    class Pad:
        def __init__(self, on_quit):
            self.on_quit, self.closed = on_quit, False

        def start(self, put):
            def play():
                for event in (Tag("0A1B2C3D4E"), TagGone("0A1B2C3D4E"), Tag("0A1B2C3D4F")):
                    put(event)
                self.on_quit()
            threading.Thread(target=play).start()

        def close(self):
            self.closed = True

    opened = []

    def open_inputs(config, *, on_quit=None, **_):
        assert config.reader == "rdm6300:/dev/ttyUSB0"
        opened.append(Pad(on_quit))
        return opened

    monkeypatch.setattr(hardware.inputs, "open_inputs", open_inputs)
    config = tmp_path / "config.toml"
    config.write_text("")
    status = main(["enroll", "--config", str(config), "--data", str(tmp_path), "--display", "none",
                   "--reader", "rdm6300:/dev/ttyUSB0", "--buttons", "none"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    assert out.splitlines()[-1].startswith("2 enrolled")
    assert opened[0].closed
    assert TagRegistry.load(tmp_path / "tags.json").items() == {"0A1B2C3D4E": "eagle",
                                                                 "0A1B2C3D4F": "chief"}


def test_enroll_command_with_a_data_folder_that_cannot_be_written(enroll, tmp_path):
    (tmp_path / "data").write_text("a file where the folder should be")
    status, _, err = enroll("tag 0A1B2C3D4E\n")
    assert status == 1
    assert "is not a folder" in err and len(err.splitlines()) == 1


class _Frames:
    """A display keeping the words of every frame."""

    def __init__(self):
        self.words = []

    def show(self, image):
        from companion.ui.canvas import frame_words
        self.words.append(frame_words(image))
        return 1

    def close(self):
        pass


@pytest.mark.parametrize("buttons, hint", [("keyboard", "Shift+O: finish"), ("none", "Shift+O: finish"),
                                           ("gpio", "hold OK: finish")])
def test_the_finish_hint_names_the_simulators_key_when_the_keyboard_is_the_buttons(
        tmp_path, capsys, monkeypatch, buttons, hint):
    import hardware.displays
    import hardware.inputs
    from companion.cli import main

    class Keys:
        def start(self, put):
            put(Press("u"))     # means nothing here: the hint names the keys
            put(Hold("ok"))

        def close(self):
            pass

    frames = _Frames()
    monkeypatch.setattr(hardware.displays, "open_display", lambda config: frames)
    monkeypatch.setattr(hardware.inputs, "open_inputs", lambda config, **_: [Keys()])
    config = tmp_path / "config.toml"
    config.write_text("")
    assert main(["enroll", "--config", str(config), "--data", str(tmp_path), "--buttons", buttons,
                 "--reader", "keyboard"]) == 0
    assert frames.words[0][-1] == hint
    out = capsys.readouterr().out
    keys = BUTTON_HELP if buttons == "gpio" else "b: previous, s: skip, Shift+O: finish"
    assert out.splitlines()[0].endswith(f"({keys})") and f"  {keys}" in out
