"""The command-line contract: help, usage errors, one-line errors, exit statuses."""

import subprocess
import sys

import pytest

from companion.cli import main


def test_help_lists_the_commands(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for command in ("sim", "demo", "score", "moves", "replay", "listen", "doctor", "enroll"):
        assert command in out


def test_bad_usage_exits_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["score"])
    assert exit_info.value.code == 2
    assert "RECORD" in capsys.readouterr().err


def test_missing_record_is_one_line_and_exit_1(tmp_path, capsys):
    missing = tmp_path / "nothing.jsonl"
    assert main(["score", str(missing)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"{missing}: no such file"


@pytest.mark.parametrize("game", ['"chess"', '["wakanda"]', '{}', 'null'])
def test_record_of_an_unknown_game(tmp_path, capsys, game):
    record = tmp_path / "chess.jsonl"
    record.write_text(f'{{"game": {game}}}\n')
    assert main(["moves", str(record)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{record}: line 1: the header must name the game")
    assert "\n" not in err


def test_python_dash_m_is_the_same_program():
    result = subprocess.run([sys.executable, "-m", "companion", "--version"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert result.stdout.startswith("totem-companion ")


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_an_empty_record_says_so(tmp_path, capsys, text):
    record = tmp_path / "empty.jsonl"
    record.write_text(text)
    assert main(["score", str(record)]) == 1
    assert capsys.readouterr().err.strip() == f"{record}: line 1: the record is empty (line 1 must be the header)"
