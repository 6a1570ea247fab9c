"""Backups (issue 34): ``totem-companion backup`` makes one archive of the data folder while a
box plays in it, and ``restore`` puts it back only after every file is read as the box reads
it; a damaged or hostile archive is one line and changes nothing."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path

import pytest

from companion import backup, data_format
from companion.backup import MANIFEST, make_backup, write_backup
from companion.cli import main
from companion.table.data_lock import LOCK_FILE, hold_data_folder
from companion.table.journal import CURRENT, Journal

ROOT = Path(__file__).parent.parent
DATA = Path(__file__).parent / "data"
#: The longest a box in another process may take to start (a loaded machine).
START = 60.0
PHONE = "ab" * 32


def tree(folder: Path) -> dict[str, bytes]:
    """Every file below ``folder`` but the lock, by its path there: what a backup holds."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != LOCK_FILE}


def whole_tree(folder: Path) -> dict[str, bytes | None]:
    """Everything below ``folder``, folders as None: to see that nothing changed."""
    return {str(p.relative_to(folder)): None if p.is_dir() else p.read_bytes()
            for p in sorted(folder.rglob("*"))}


@pytest.fixture(scope="module")
def family_folder(tmp_path_factory) -> Path:
    """A data folder made by the box: a demo of each game (the big game's totals with it),
    a lesson under way, games kept for later and one unfinished, a deck, tags, settings and
    a paired phone."""
    data = tmp_path_factory.mktemp("family") / "data"
    for argv in (["demo", "--seed", "1"], ["demo", "--game", "totem-wars", "--seed", "2"],
                 ["tutorial", "--input", str(DATA / "lesson_wakanda_1.txt"), "--display", "none"],
                 ["run", "--input", str(DATA / "kept_games.txt"), "--display", "none"]):
        assert main([*argv, "--data", str(data)]) == 0, argv
    (data / "decks").mkdir()
    (data / "decks" / "Our deck.toml").write_bytes((DATA / "totem_wars_deck.toml").read_bytes())
    (data / "tags.json").write_text(json.dumps({"version": 1, "tags": {"04A1B2C3": "village:eagle"}}))
    (data / "settings.json").write_text(json.dumps({"version": 1, "names": ["Ana", "Бен"], "language": "bg"}))
    (data / "phones.json").write_text(json.dumps({"version": 1, "phones": [PHONE]}))
    assert {"current.jsonl", "tutorial.json", "tutorial/wakanda/current.jsonl", "big_game.json"} <= set(tree(data))
    assert any(name.endswith("-unfinished.jsonl") for name in tree(data))
    return data


@pytest.fixture
def playing_box():
    """``start(data)``: ``run --input`` in another process, resuming the game of ``data`` and
    holding the folder; killed after the test."""
    boxes: list[subprocess.Popen] = []

    def start(data: Path, script: Path) -> subprocess.Popen:
        box = subprocess.Popen([sys.executable, "-m", "companion", "run", "--input", str(script),
                                "--display", "none", "--data", str(data)], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        boxes.append(box)
        deadline = time.monotonic() + START
        # The box writes its process id into the lock file once it holds the folder.
        lock = data / LOCK_FILE
        while not lock.is_file() or lock.read_text().strip() != str(box.pid):
            assert box.poll() is None and time.monotonic() < deadline, "the box did not start"
            time.sleep(0.02)
        return box

    yield start
    for box in boxes:
        box.kill()
        box.wait(START)


def only_archive(folder: Path) -> Path:
    (archive,) = folder.glob("totem-backup-*.tar.gz")
    return archive


def test_a_backup_taken_while_a_box_plays_restores_every_file(family_folder, playing_box, tmp_path, capsys):
    script = tmp_path / "live.txt"
    script.write_text("wait 600\n")
    box = playing_box(family_folder, script)
    expected = tree(family_folder)
    assert main(["backup", "--data", str(family_folder), "--to", str(tmp_path / "backups")]) == 0
    out = capsys.readouterr().out
    assert f"a backup of {len(expected)} files" in out
    assert box.poll() is None  # the box played on meanwhile
    restored = tmp_path / "restored"
    assert main(["restore", str(only_archive(tmp_path / "backups")), "--data", str(restored)]) == 0
    assert tree(restored) == expected
    assert capsys.readouterr().out.strip() == f"restored {len(expected)} files into {restored}"


def test_backups_while_a_box_plays_hold_each_game_once_and_restore(tmp_path, playing_box):
    data = tmp_path / "data"
    assert main(["demo", "--seed", "3", "--data", str(data)]) == 0
    events = [line for line in (DATA / "first_game_wakanda.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    script = tmp_path / "slow.txt"
    script.write_text("".join(f"{event}\nwait 0.02\n" for event in events))
    box = playing_box(data, script)
    restored: list[str] = []
    while box.poll() is None or not restored:
        archive = tmp_path / "backup.tar.gz"
        with open(archive, "wb") as out:
            write_backup(data, out)
        into = tmp_path / f"restored-{len(restored)}"
        backup.restore_backup(archive, into)  # every record in it replayed by its game
        assert len(list((into / "games").glob("*.jsonl"))) == 1  # the demo's, once
        restored.append((into / CURRENT).read_text() if (into / CURRENT).exists() else "")
    assert box.wait(START) == 0
    final = (data / CURRENT).read_text()
    assert all(final.startswith(text) for text in restored)
    print(f"\n{len(restored)} backups while the box played, "
          f"{len(set(restored))} different moments of its game")


def test_restoring_over_a_folder_keeps_what_it_held_aside(family_folder, tmp_path, capsys):
    make_backup(family_folder, tmp_path / "backups")
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    (data / "games" / "mine.jsonl").write_text("kept\n")
    assert main(["restore", str(only_archive(tmp_path / "backups")), "--data", str(data)]) == 0
    (aside,) = data.glob("before-restore-*")
    assert (aside / "games" / "mine.jsonl").read_text() == "kept\n"
    assert {k: v for k, v in tree(data).items() if not k.startswith(aside.name)} == tree(family_folder)
    assert f"kept in {aside}" in capsys.readouterr().out


def test_restore_is_refused_while_a_box_plays_in_the_folder(family_folder, playing_box, tmp_path, capsys):
    make_backup(family_folder, tmp_path / "backups")
    data = tmp_path / "data"
    data.mkdir()
    script = tmp_path / "live.txt"
    script.write_text("wait 600\n")
    playing_box(data, script)
    before = whole_tree(data)
    assert main(["restore", str(only_archive(tmp_path / "backups")), "--data", str(data)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "in use by another box" in err
    assert whole_tree(data) == before


def archive_of(tmp_path: Path, data: Path) -> tarfile.TarFile:
    path = tmp_path / "b.tar.gz"
    with open(path, "wb") as out:
        write_backup(data, out)
    return tarfile.open(path)


def test_a_journal_being_written_is_taken_up_to_its_last_complete_line(tmp_path):
    lines = (DATA / "wakanda_worked_example.jsonl").read_text().splitlines(keepends=True)
    data = tmp_path / "data"
    data.mkdir()
    (data / CURRENT).write_text("".join(lines[:5]) + lines[5][:20])  # a line being written
    member = archive_of(tmp_path, data).extractfile(f"data/{CURRENT}")
    assert member is not None and member.read().decode() == "".join(lines[:5])


@pytest.mark.parametrize("begun", ["", '{"game": "wakanda", "play'])
def test_a_journal_whose_header_is_not_yet_whole_is_left_out_and_the_backup_restores(tmp_path, begun):
    """A game caught as it begins (its journal empty, or its header being written) has
    nothing confirmed: the backup leaves the journal out, so restoring it is not refused."""
    data = tmp_path / "data"
    data.mkdir()
    (data / CURRENT).write_text(begun)
    (data / "settings.json").write_text('{"version": 1, "language": "fr"}')
    assert f"data/{CURRENT}" not in archive_of(tmp_path, data).getnames()
    made = make_backup(data, tmp_path / "out")
    backup.restore_backup(made.path, tmp_path / "restored")
    assert not (tmp_path / "restored" / CURRENT).exists()
    assert (tmp_path / "restored" / "settings.json").read_text() == '{"version": 1, "language": "fr"}'


def test_backups_while_each_line_goes_in_hold_a_prefix_of_the_game(tmp_path):
    lines = [json.loads(line) for line in (DATA / "wakanda_worked_example.jsonl").read_text().splitlines()]
    data = tmp_path / "data"
    text = "".join(json.dumps(line, ensure_ascii=False, separators=(", ", ": ")) + "\n" for line in lines)
    playing = threading.Event()

    def play() -> None:
        with hold_data_folder(data):
            journal = Journal.start(data, lines[0])
            playing.set()
            for line in lines[1:]:
                journal.append(line)
            journal.close()

    player = threading.Thread(target=play)
    player.start()
    assert playing.wait(START)
    taken = set()
    while player.is_alive() or not taken:
        member = archive_of(tmp_path, data).extractfile(f"data/{CURRENT}")
        assert member is not None
        got = member.read().decode()
        assert got.endswith("\n") and text.startswith(got)
        taken.add(got.count("\n"))
    player.join()
    print(f"\n{len(taken)} different moments of the game taken")


def test_a_game_finished_while_the_folder_is_read_is_in_the_backup_once(tmp_path, mocker):
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    (data / CURRENT).write_bytes((DATA / "wakanda_worked_example.jsonl").read_bytes())
    read = backup._read_file
    finished = []

    def finish_first(folder, rel, where):
        if not finished:  # the box finishes the game while the backup reads the folder
            (data / CURRENT).rename(data / "games" / "20260101-000000-wakanda.jsonl")
            finished.append(rel)
        return read(folder, rel, where)

    mocker.patch.object(backup, "_read_file", side_effect=finish_first)
    names = archive_of(tmp_path, data).getnames()
    assert names == ["data/games/20260101-000000-wakanda.jsonl", MANIFEST]


def test_a_backup_inside_the_data_folder_is_refused(family_folder, capsys):
    before = whole_tree(family_folder)
    assert main(["backup", "--data", str(family_folder), "--to", str(family_folder / "backups")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "inside the data folder" in err
    assert whole_tree(family_folder) == before


# --- damaged and hostile archives --------------------------------------------------------------

def hostile(path: Path, members: list[tuple[tarfile.TarInfo, bytes]]) -> Path:
    """An archive of ``members`` and a manifest of their right sums."""
    files = {info.name.removeprefix("data/"): hashlib.sha256(data).hexdigest()
             for info, data in members if info.isreg()}
    doc = json.dumps({"version": 1, "files": files}).encode()
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            info.size = len(data) if info.isreg() else 0
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
        manifest_info = tarfile.TarInfo(MANIFEST)
        manifest_info.size = len(doc)
        tar.addfile(manifest_info, io.BytesIO(doc))
    return path


def member(name: str, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    return info


RECORD = (DATA / "wakanda_worked_example.jsonl").read_bytes()
HOSTILE = {
    "a path out of the folder": ([(member("data/../escaped.jsonl"), RECORD)], "not a file of the data folder"),
    "an absolute path": ([(member("/tmp/escaped.jsonl"), RECORD)], "not a file of the data folder"),
    "a file outside data/": ([(member("escaped.jsonl"), RECORD)], "not a file of the data folder"),
    "a hidden file": ([(member("data/.lock"), b"1\n")], "not a file of the data folder"),
    "a link": ([(member("data/games/x.jsonl", tarfile.SYMTYPE, "/etc/passwd"), b"")], "is a link"),
    "a hard link": ([(member("data/x.jsonl", tarfile.LNKTYPE, "/etc/passwd"), b"")], "is a link"),
    "a device": ([(member("data/x", tarfile.CHRTYPE), b"")], "a special file"),
    "a folder": ([(member("data/games", tarfile.DIRTYPE), b"")], "is a folder"),
    "a file twice": ([(member("data/a.jsonl"), RECORD), (member("data/a.jsonl"), RECORD)], "in it twice"),
    "a file over a folder": ([(member("data/games"), b"x"), (member("data/games/a.jsonl"), RECORD)],
                             "inside a file"),
    "a huge member": ([(member("data/big.bin"), bytes(17 * 2**20))], "over 16 MB"),
    "a record the engine refuses": ([(member("data/games/20260101-000000-wakanda.jsonl"),
                                      RECORD.replace(b'"village": 1', b'"village": 99', 1))], "games/2026"),
    "damaged settings": ([(member("data/settings.json"), b'{"version": 1, "names": 7}')], "settings.json"),
    "a damaged deck": ([(member("data/decks/d.toml"), b"[nobody]\n")], "d.toml"),
    "a stranger's phones": ([(member("data/phones.json"), b'{"version": 1, "phones": ["x"]}')], "phones.json"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_archive_is_refused_in_one_line_and_changes_nothing(case, family_folder, tmp_path, capsys):
    members, said = HOSTILE[case]
    data = tmp_path / "data"
    make_backup(family_folder, tmp_path / "good")
    assert main(["restore", str(only_archive(tmp_path / "good")), "--data", str(data)]) == 0
    capsys.readouterr()
    before = whole_tree(data)
    archive = hostile(tmp_path / "hostile.tar.gz", members)
    assert main(["restore", str(archive), "--data", str(data)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err, err
    assert whole_tree(data) == before
    assert not (tmp_path / "escaped.jsonl").exists()


def damaged(path: Path, good: Path, how: str) -> Path:
    raw = good.read_bytes()
    if how == "cut short":
        path.write_bytes(raw[: len(raw) // 2])
    elif how == "not gzip":
        path.write_bytes(b"PK\x03\x04" + raw)
    elif how == "a byte changed":
        unpacked = bytearray(gzip.decompress(raw))
        at = unpacked.index(b'"players"')  # a record's header: the manifest's checksum differs
        unpacked[at + 1] = ord("P")
        path.write_bytes(gzip.compress(bytes(unpacked)))
    elif how == "no manifest":
        with tarfile.open(good) as src, tarfile.open(path, "w:gz") as out:
            for info in src.getmembers():
                if info.name != MANIFEST:
                    out.addfile(info, src.extractfile(info))
    elif how == "a folder":
        path.mkdir()
    elif how == "a pipe":
        os.mkfifo(path)
    return path


@pytest.mark.parametrize("how", ["cut short", "not gzip", "a byte changed", "no manifest", "a folder", "a pipe"])
def test_a_damaged_archive_is_refused_in_one_line_and_changes_nothing(how, family_folder, tmp_path, capsys):
    data = tmp_path / "data"
    make_backup(family_folder, tmp_path / "good")
    good = only_archive(tmp_path / "good")
    assert main(["restore", str(good), "--data", str(data)]) == 0
    capsys.readouterr()
    before = whole_tree(data)
    assert main(["restore", str(damaged(tmp_path / "damaged.tar.gz", good, how)), "--data", str(data)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("totem-companion restore: "), err
    assert whole_tree(data) == before


def test_too_many_members_or_too_much_unpacked_is_refused(tmp_path, mocker, capsys):
    mocker.patch.object(backup, "MAX_FILES", 3)
    archive = hostile(tmp_path / "many.tar.gz", [(member(f"data/{n}.txt"), b"") for n in range(4)])
    assert main(["restore", str(archive), "--data", str(tmp_path / "data")]) == 1
    assert "more than 3 files" in capsys.readouterr().err
    mocker.patch.object(backup, "MAX_TOTAL_BYTES", 2**20)
    bomb = hostile(tmp_path / "bomb.tar.gz", [(member(f"data/{n}.txt"), bytes(600_000)) for n in range(2)])
    assert main(["restore", str(bomb), "--data", str(tmp_path / "data")]) == 1
    assert "over 1 MB unpacked" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / "data").iterdir()] == [LOCK_FILE]


# --- from a paired phone --------------------------------------------------------------------

def test_a_paired_phone_downloads_a_backup_and_no_one_else(family_folder, tmp_path):
    import asyncio

    from aiohttp.test_utils import TestClient, TestServer

    from companion.pairing import Pairing
    from companion.web import server

    got: dict[str, bytes] = {}

    async def check() -> None:
        put: list = []
        app = server.make_app(server.Hub(), pairing=Pairing(), put=put.append, data_dir=family_folder)
        client = TestClient(TestServer(app, host="127.0.0.1"))
        await client.start_server()
        try:
            refused = await client.get("/backup")
            assert refused.status == 403 and (await refused.json()) == {"error": "not paired"}
            assert (await client.post("/pair/ask", json={})).status == 202
            assert (await client.post("/pair", json={"code": put[0].code})).status == 200
            response = await client.get("/backup")
            assert response.status == 200 and response.content_type == "application/gzip"
            assert "attachment; filename=\"totem-backup-" in response.headers["Content-Disposition"]
            assert "default-src 'none'" in response.headers["Content-Security-Policy"]
            got["archive"] = await response.read()
        finally:
            await client.close()

    asyncio.run(check())
    archive = tmp_path / "phone.tar.gz"
    archive.write_bytes(got["archive"])
    backup.restore_backup(archive, tmp_path / "restored")
    restored = tree(tmp_path / "restored")
    # The phone paired meanwhile is in the backup too.
    assert {k: v for k, v in restored.items() if k != "phones.json"} == {
        k: v for k, v in tree(family_folder).items() if k != "phones.json"}


def test_what_the_box_set_aside_as_damaged_is_kept_and_links_are_left_out(tmp_path, capsys):
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    (data / "games" / "20260101-000000-wakanda-damaged.jsonl").write_bytes(b'{"game": "wakanda"\n\0\0')
    (data / "games" / "20260101-000000-current-pipe-damaged").write_bytes(b"")
    (data / "settings.json.tmp").write_text("a write cut off")
    (data / "elsewhere.jsonl").symlink_to("/etc/passwd")
    assert main(["backup", "--data", str(data), "--to", str(tmp_path / "b")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "left out: 'elsewhere.jsonl' (a link or a special file)"
    assert out[1].endswith(f"a backup of 2 files of {data}")
    assert main(["restore", str(only_archive(tmp_path / "b")), "--data", str(tmp_path / "restored")]) == 0
    assert tree(tmp_path / "restored") == {k: v for k, v in tree(data).items()
                                           if k not in ("settings.json.tmp", "elsewhere.jsonl")}


def test_a_backup_holds_the_data_format_but_not_the_old_files_an_update_keeps(tmp_path, capsys):
    data = tmp_path / "data"
    (data / ".formats" / "kept-1").mkdir(parents=True)
    (data / ".formats" / "kept-1" / "settings.json").write_text("{}")
    (data / "format.json").write_text('{"format": 1}')
    assert main(["backup", "--data", str(data), "--to", str(tmp_path / "b")]) == 0
    assert main(["restore", str(only_archive(tmp_path / "b")), "--data", str(tmp_path / "restored")]) == 0
    assert tree(tmp_path / "restored") == {"format.json": b'{"format": 1}'}
    capsys.readouterr()
    # A backup from a release with a newer data format: refused, nothing changed.
    (data / "format.json").write_text('{"format": 9}')
    assert main(["backup", "--data", str(data), "--to", str(tmp_path / "c")]) == 0
    capsys.readouterr()
    assert main(["restore", str(only_archive(tmp_path / "c")), "--data", str(tmp_path / "other")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "format.json: the data is in format 9, newer than this release's (1)" in err
    assert tree(tmp_path / "other") == {}


def test_a_backup_of_an_older_data_format_is_brought_forward_as_it_is_restored(tmp_path, mocker, capsys):
    data = tmp_path / "data"
    (data / "games").mkdir(parents=True)
    (data / "games" / "a.txt").write_text("kept")
    assert main(["backup", "--data", str(data), "--to", str(tmp_path / "b")]) == 0
    mocker.patch.object(data_format, "FORMAT", 2)
    mocker.patch.dict(data_format.MIGRATIONS, {1: lambda folder: (folder / "index.txt").write_text("a.txt")})
    assert main(["restore", str(only_archive(tmp_path / "b")), "--data", str(tmp_path / "restored")]) == 0
    assert tree(tmp_path / "restored") == {"games/a.txt": b"kept", "index.txt": b"a.txt",
                                           "format.json": b'{"format": 2}'}
