"""The command-line contract: help, usage errors, one-line errors, exit statuses."""

import os
import subprocess
import sys

import pytest

from companion.cli import main
from companion.errors import UsageError, UserError


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


def one_line_error(capsys) -> str:
    """The command's error: exactly one printable line on stderr."""
    err = capsys.readouterr().err
    assert err.endswith("\n") and err.count("\n") == 1, err[:300]
    assert err[:-1].isprintable()
    return err[:-1]


@pytest.mark.parametrize("argv", [
    ["listen", "--input", "FIFO"],
    ["listen", "--input", "/dev/zero"],
    ["doctor", "--display", "none", "--config", "FIFO"],
    ["doctor", "--display", "none", "--config", "/dev/urandom"],
])
def test_a_pipe_or_a_device_is_one_line_never_a_hang(tmp_path, argv):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    argv = [str(fifo) if arg == "FIFO" else arg for arg in argv]
    result = subprocess.run([sys.executable, "-m", "companion", *argv], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr.endswith(": not a regular file\n") and result.stderr.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ["listen"],
    ["run", "--display", "none", "--buttons", "none", "--reader", "none"],
    ["enroll", "--game", "wakanda", "--display", "none"],
])
def test_a_wait_past_an_hour_is_refused_before_anything_starts(tmp_path, capsys, argv):
    script = tmp_path / "script.txt"
    script.write_text("press ok\nwait 1e10\npress ok\n")
    assert main([*argv, "--input", str(script), "--data", str(tmp_path / "data")]) == 1
    assert one_line_error(capsys) == (f"totem-companion {argv[0]}: {script}: line 2: "
                                      f"'wait' is at most 3600 seconds (an hour), got 1e+10")


def test_a_10_mb_script_line_is_a_short_error(tmp_path, capsys):
    script = tmp_path / "script.txt"
    script.write_bytes(b"press ok\n" + b"\0" * 10 * 1024 * 1024 + b"x y z\n")
    assert main(["listen", "--input", str(script)]) == 1
    assert one_line_error(capsys) == f"totem-companion listen: {script}: an input script is too big (over 1 MB)"
    script.write_bytes(b"press ok\n" + b"\0" * 1000 * 1000 + b"x y z\n")  # under 1 MB
    assert main(["listen", "--input", str(script)]) == 1
    error = one_line_error(capsys)
    assert error.startswith(f"totem-companion listen: {script}: line 2: unprintable characters in '\\x00")
    assert len(error) < 500


@pytest.mark.parametrize("argv, status, says", [
    (["listen", "--input", "/tmp/a\0b"], 1, r"'/tmp/a\x00b': a file name cannot hold a NUL byte"),
    (["listen", "--input", "/tmp/a\ud800b"], 1, r"'/tmp/a\ud800b': not a valid file name"),
    (["doctor", "--config", "/tmp/a\0b"], 1, r"--config: '/tmp/a\x00b': a file name cannot hold"),
    (["doctor", "--config", "/tmp/a\udfffb"], 1, r"--config: '/tmp/a\udfffb': not a valid file name"),
    (["demo", "--data", "/tmp/a\0b"], 2, r"--data: '/tmp/a\x00b': a file name cannot hold"),
    (["demo", "--data", "/tmp/a\ud800b"], 2, r"--data: '/tmp/a\ud800b': not a valid file name"),
    (["demo", "--display", "png:/tmp/a\0b"], 2, r"--display: '/tmp/a\x00b': a file name cannot hold"),
    (["demo", "--display", "png:a\ud800"], 2, r"--display: 'a\ud800': not a valid file name"),
])
def test_a_path_no_file_can_have_is_one_line(capsys, argv, status, says):
    assert main(argv) == status
    assert says in one_line_error(capsys)


def test_a_config_data_folder_no_file_can_have_is_one_line(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text('[data]\ndir = "/tmp/a\\u0000b"\n')
    assert main(["demo", "--config", str(config), "--display", "none"]) == 1
    assert one_line_error(capsys) == (f"totem-companion demo: {config}: data.dir: '/tmp/a\\x00b': "
                                      f"a file name cannot hold a NUL byte")


def test_a_file_name_with_a_newline_stays_on_one_line(tmp_path, capsys):
    missing = tmp_path / "my\nconfig.toml"
    assert main(["doctor", "--config", str(missing)]) == 1
    assert one_line_error(capsys).endswith(r"my\nconfig.toml': no such configuration file")


@pytest.mark.parametrize("error, status", [(UserError, 1), (UsageError, 2)])
def test_every_error_line_is_one_bounded_line(mocker, capsys, error, status):
    # Whatever a message quotes — a whole input line, a file name, terminal codes — the
    # command line prints one short line.
    mocker.patch("companion.commands.doctor.run",
                 side_effect=error("bad\ninput \x1b[2J\0" + "x" * 10_000_000))
    assert main(["doctor"]) == status
    line = one_line_error(capsys)
    assert line.startswith(r"totem-companion doctor: bad\ninput \x1b[2J\x00xxx")
    assert line.endswith("…") and len(line) <= 700
