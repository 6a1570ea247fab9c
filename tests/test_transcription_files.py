"""The files of a deck transcription (T1a): the deck name given on the command line and the
deck in progress read back at a resume — whatever they hold, one line, never a hang."""

import os
import subprocess
import sys

import pytest

from companion.errors import UserError
from companion.events import Press, Tag, TagGone
from companion.games.totem_wars import default_deck
from companion.games.totem_wars.deck_transcription import DeckTranscription, deck_text
from companion.table.registry import TagRegistry

DECK = default_deck()


def transcription(tmp_path, name="ours"):
    return DeckTranscription(tmp_path, name, TagRegistry(tmp_path / "tags.json"))


def part(tmp_path, content):
    """The deck in progress of the transcription "ours": ``content`` is its text or bytes."""
    path = tmp_path / "decks" / "ours.toml.part"
    path.parent.mkdir(exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


def test_a_resume_reads_back_the_cards_kept(tmp_path):
    t = transcription(tmp_path)
    for n in range(1, 4):
        t.handle(Tag(f"C{n:09X}"))
        t.handle(TagGone(f"C{n:09X}"))
        t.handle(Press("ok"))
    assert transcription(tmp_path).cards == list(DECK.cards[:3])


@pytest.mark.parametrize("content", [
    b"\xff\xfe[indians]\n",                                     # not UTF-8
    "[indians]\nsnake = 0x" + "F" * 5000,                       # a habitat list that is a number
    "[indians]\nsnake = " + "9" * 5000,                         # past Python's 4,300 digits
    "[indians]\nsnake = " + "[" * 5000 + "]" * 5000,            # nested thousands deep
    "[indians]\nsnake = \"land\"",
    "[indians]\nsnake = [\"land\", \"land\"]",
    "[indians]\nsnake = [\"sky\"]",
    "[indians]\nsnake = []",
    "[indians]\n\"sn/ake\" = [\"land\"]",
    "[indians]\n\" \" = [\"land\"]",
    "[vikings]\nsnake = [\"land\"]",
    "indians = 3",
    "[indians]\n" + "".join(f"a{n} = [\"land\"]\n" for n in range(14)),   # 14 cards of a tribe
    deck_text(DECK.cards),                                      # a whole deck is never a part
    "# padding\n" * 120_000,                                    # over 1 MB
])
def test_a_damaged_deck_in_progress_is_one_line(tmp_path, content):
    path = part(tmp_path, content)
    with pytest.raises(UserError) as info:
        transcription(tmp_path)
    assert str(info.value) in (f"{path}: the deck in progress is damaged; remove it to start again",
                               f"{path}: a deck in progress is too big (over 1 MB)")


def test_a_deck_in_progress_that_is_a_folder_is_one_line(tmp_path):
    (tmp_path / "decks" / "ours.toml.part").mkdir(parents=True)
    with pytest.raises(UserError, match="is a folder, not a deck in progress$"):
        transcription(tmp_path)


@pytest.mark.parametrize("name", ["", "../x", ".hidden", "a/b", "a\0b", "a\nb", "a\ud800", "a b",
                                  "x" * 41, "\x1b[2J"])
def test_a_deck_name_is_letters_digits_dash_or_underscore(tmp_path, name):
    with pytest.raises(UserError, match="cannot name a deck file") as info:
        transcription(tmp_path, name)
    assert str(info.value).isprintable() and len(str(info.value)) < 200


@pytest.mark.parametrize("name", ["ours", "my-deck_2", "колода", "x" * 40])
def test_good_deck_names(tmp_path, name):
    assert transcription(tmp_path, name).path.name == f"{name}.toml"


def test_a_pipe_as_the_deck_in_progress_is_one_line_never_a_hang(tmp_path):
    # Through the command line: read as a file is, a pipe would block the test forever.
    (tmp_path / "decks").mkdir()
    os.mkfifo(tmp_path / "decks" / "ours.toml.part")
    script = tmp_path / "none.txt"
    script.write_text("")
    result = subprocess.run([sys.executable, "-m", "companion", "enroll", "--game", "totem-wars",
                             "--transcribe", "ours", "--data", str(tmp_path), "--display", "none",
                             "--input", str(script)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr.endswith("ours.toml.part: a deck in progress: not a regular file\n")
    assert result.stderr.count("\n") == 1
