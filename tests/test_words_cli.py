"""The command line's record readers speak the language asked (issue: a family's evening
without friction, item 6): ``moves RECORD --language L`` and ``hint RECORD --language L``
say every move, phase and value in L's words, game terms as each rulebook says them; the
warnings of a record that is odd but readable (a torn last line, wars kept before owners
declared) are in L too; ``--json`` keeps the records' machine English. And the long form
of every prompt (the one the voice says) writes its words out, never ``2+``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import catalogues
from companion.cli import main
from companion.words import LANGUAGES

DATA = Path(__file__).parent / "data"
WAKANDA_HEADER = ('{"game": "wakanda", "players": ["Ana", "Ben"], '
                  '"villages": ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"], "first": 0}\n')
#: Whole records at each kind of moment: (record in tests/data, lines kept) or the record's text.
MOMENTS = {
    "tw-totems": ("totem_wars_bots_declare.jsonl", 1),
    "tw-answers": ("totem_wars_bots_declare.jsonl", 4),
    "tw-starts": ("totem_wars_bots_declare.jsonl", 7),
    "tw-at-least": ("totem_wars_bots_declare.jsonl", 8),
    "tw-declare": ("totem_wars_bots_declare.jsonl", 13),
    "tw-over": ("totem_wars_bots_declare.jsonl", 26),
    "tw-deal": '{"game": "totem-wars", "players": ["Ana", "Box"], "box": {"1": "easy"}}\n'
               '{"p": 1, "deal": "indians/snake"}\n',
    "wk-action": ("wakanda_worked_example.jsonl", 2),
    "wk-draw": ("wakanda_worked_example.jsonl", 3),
    "wk-over": ("wakanda_worked_example.jsonl", 47),
    "wk-reveal": '{"game": "wakanda", "players": ["Ana", "Ben"], "villages": ["teepee", "eagle", "chief", null, '
                 'null, null], "first": 0, "variant": "hidden"}\n{"p": 0, "draw": "chief"}\n'
                 '{"p": 0, "build": "chief", "village": 1}\n{"p": 1, "draw": "teepee"}\n{"p": 1, "claim": 1}\n',
}
#: English words of these commands' lines (whole words, as written): none is French or German.
ENGLISH = ("Round", "war", "declares", "habitat of", "at least", "holds", "may", "card", "cards", "or",
           "Deal", "spot", "face down", "scanned", "each player", "seat order", "is over", "moves", "to move",
           "draw", "piece", "bag", "build", "claim", "Turn up", "reveal", "level", "chance to", "next best",
           "warning", "line", "torn", "ignored", "without", "read with", "is best", "starts", "answers", "pass",
           "eagle", "chief", "skin", "teepee", "sun", "variety", "height")


def english_words(lines: list[str]) -> list[str]:
    """The lines that hold an English word of ``ENGLISH`` (a ``--level`` value is a
    command-line value, as typed)."""
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, ENGLISH)) + r")\b")
    return [line for line in lines if pattern.search(re.sub(r"--level \S+", "", line))]


@pytest.fixture(autouse=True)
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    return tmp_path


def record(folder: Path, moment: str) -> str:
    """The record file of ``MOMENTS[moment]``."""
    found = MOMENTS[moment]
    if isinstance(found, tuple):
        name, kept = found
        text = "".join((DATA / name).read_text(encoding="utf-8").splitlines(keepends=True)[:kept])
    else:
        text = found
    path = folder / f"{moment}.jsonl"
    path.write_text(text, encoding="utf-8")
    return str(path)


def said(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[list[str], list[str]]:
    assert main(list(args)) == 0
    out = capsys.readouterr()
    return out.out.splitlines(), out.err.splitlines()


@pytest.mark.parametrize("lang", ["fr", "de"])
@pytest.mark.parametrize("moment", MOMENTS)
def test_moves_says_every_moment_of_both_games_in_the_language_asked(folders, capsys, lang, moment):
    lines, _ = said(capsys, "--language", lang, "moves", record(folders, moment))
    assert lines and english_words(lines) == []


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_moves_says_the_same_lines_in_every_language(folders, capsys, lang):
    paths = [record(folders, moment) for moment in MOMENTS]
    english, _ = said(capsys, "moves", *paths)
    lines, _ = said(capsys, "--language", lang, "moves", *paths)
    assert len(lines) == len(english) and lines != english
    assert [line for line in lines if line.startswith("==")] == [line for line in english if line.startswith("==")]


def test_the_french_moves_of_a_war_and_a_wakanda_draw(folders, capsys):
    lines, _ = said(capsys, "--language", "fr", "moves", record(folders, "tw-declare"), record(folders, "wk-draw"),
                    record(folders, "tw-answers"))
    assert lines[1] == ("Manche 3, guerre (T10): Ana annonce l'habitat du totem Crocodile (Africains) (R2): "
                        "terre ou eau (terre est le meilleur).")
    assert lines[4:6] == ["À Ben de jouer: pioche une pièce dans le sac:", "  pioche Aigle"]
    assert lines[-1] == "Manche 1: Ben répond au niveau 4 (T6); en main 2, peut poser 1 carte."


def test_moves_in_english_names_the_totem_as_players_read_it(folders, capsys):
    lines, _ = said(capsys, "moves", record(folders, "tw-declare"))
    assert lines == ["Round 3, war (T10): Ana declares the habitat of the totem Crocodile (Africans) (R2): "
                     "land or water (land is best)."]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_moves_json_stays_machine_english(folders, capsys, lang):
    paths = [record(folders, moment) for moment in MOMENTS]
    assert said(capsys, "--language", lang, "moves", "--json", *paths)[0] == said(capsys, "moves", "--json", *paths)[0]


#: Totem Wars hints need the seat's hand (the box never sees hands).
TW_HINT = ('{"game": "totem-wars", "players": ["Ana", "Ben"], "dealer": 0, "deck": "default"}\n'
           '{"totems": ["indians/snake", "africans/lion"]}\n{"p": 1, "play": ["indians/wolf"]}\n')
TW_HAND = "indians/bear,indians/eagle,aborigines/snake,eskimos/seal,africans/zebra"


def hint_args(folder: Path, game: str) -> list[str]:
    """``hint``'s arguments for a record of ``game`` where a player has a choice."""
    if game == "wakanda":
        return ["hint", record(folder, "wk-action")]
    path = folder / "answer.jsonl"
    path.write_text(TW_HINT, encoding="utf-8")
    return ["hint", str(path), "--hand", TW_HAND]


@pytest.mark.parametrize("lang", ["fr", "de"])
@pytest.mark.parametrize("game", ["wakanda", "totem-wars"])
def test_hint_says_the_move_its_reason_and_the_next_best_in_the_language_asked(folders, capsys, lang, game):
    lines, _ = said(capsys, "--language", lang, *hint_args(folders, game))
    english, _ = said(capsys, *hint_args(folders, game))
    assert len(lines) == len(english) > 2 and english_words(lines) == []


def test_the_french_hint_of_a_wakanda_build(folders, capsys):
    lines, _ = said(capsys, "--language", "fr", *hint_args(folders, "wakanda"))
    assert lines[1].startswith("--level strong: chance de gagner ") and lines[1].endswith("%; autres coups:")
    assert [line for line in lines[2:] if not re.fullmatch(r"  (pose \S+ au village \d|coiffe village \d) +\d+%",
                                                            line)] == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["wakanda", "totem-wars"])
def test_hint_json_stays_machine_english(folders, capsys, lang, game):
    assert said(capsys, "--language", lang, *hint_args(folders, game), "--json")[0] == \
        said(capsys, *hint_args(folders, game), "--json")[0]


TORN = WAKANDA_HEADER + '{"p": 0, "draw": "chief"}\n{"p": 0, "build": "chi'


@pytest.mark.parametrize("command", ["moves", "score", "hint"])
def test_a_torn_last_line_is_said_in_the_language_asked(folders, capsys, command):
    path = folders / "torn.jsonl"
    path.write_text(TORN, encoding="utf-8")
    _, err = said(capsys, "--language", "fr", command, str(path))
    assert err == [f"{path}: attention: ligne 3: dernière ligne coupée, ignorée (une écriture interrompue)"]
    _, err = said(capsys, command, str(path))
    assert err == [f"{path}: warning: line 3: torn last line ignored (an interrupted write)"]


@pytest.mark.parametrize("lang", ["fr", "de"])
@pytest.mark.parametrize("command", ["moves", "score", "replay"])
def test_wars_kept_before_declarations_are_said_in_the_language_asked(folders, capsys, lang, command):
    path = str(DATA / "totem_wars_before_declarations.jsonl")
    args = [command, path] + (["--out", str(folders / "frames"), "--data", str(folders / "d")]
                              if command == "replay" else [])
    _, err = said(capsys, "--language", lang, *args)
    assert len(err) == 1 and english_words(err) == [] and "(R2)" in err[0]


def test_wars_kept_before_declarations_in_english(capsys):
    _, err = said(capsys, "moves", str(DATA / "totem_wars_before_declarations.jsonl"))
    assert err[0].endswith(": warning: line 5: 2 wars without the habitat declarations of two-habitat totems "
                           "(a record kept before owners declared): read with the habitat of the most war "
                           "points, the first listed on a tie (R2)")


def long_prompts() -> list[tuple[str, str, str]]:
    """Every translation of each prompt that has a short form (``KEY.short``): the long
    form, which the voice says whole — ``(language, key, text)``."""
    found = []
    for po in catalogues.po_files():
        entries = catalogues.read_entries(po)
        shorts = {entry.key.removesuffix(".short") for entry in entries if entry.key.endswith(".short")}
        found += [(po.parent.parent.name, entry.key, text) for entry in entries if entry.key in shorts
                  for text, _ in entry.strings.values()]
    return found


def test_the_long_prompts_write_out_or_more():
    prompts = long_prompts()
    # Every language whose catalogues are in the tree (a language added at run time has its own).
    assert {lang for lang, _, _ in prompts} == {po.parent.parent.name for po in catalogues.po_files()}
    assert len(prompts) > 100
    assert [(lang, key, text) for lang, key, text in prompts if re.search(r"(\d|\})\+", text)] == []
