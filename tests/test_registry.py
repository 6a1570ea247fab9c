"""The tag registry: UID → item, saved atomically, copied between boxes as one file."""

from __future__ import annotations

import json
import os

import pytest

from companion.errors import UserError
from companion.table.registry import TagRegistry
from companion.table.tag_tracker import normalise_uid


def test_a_missing_file_is_an_empty_registry(tmp_path):
    registry = TagRegistry.load(tmp_path / "tags.json")
    assert len(registry) == 0
    assert registry.item_for("0A1B2C3D4E") is None


def test_bind_save_and_load_back(tmp_path):
    path = tmp_path / "data" / "tags.json"
    registry = TagRegistry.load(path)
    assert registry.bind("0a1b2c3d4e", "eagle") is None
    registry.bind("0A1B2C3D4F", "village:sun")
    registry.save()
    assert json.loads(path.read_text()) == {
        "version": 1, "tags": {"0A1B2C3D4E": "eagle", "0A1B2C3D4F": "village:sun"}}
    again = TagRegistry.load(path)
    assert again.item_for("0a1b2c3d4e") == "eagle"
    assert again.items() == registry.items()


def test_binding_a_uid_again_moves_it(tmp_path):
    registry = TagRegistry(tmp_path / "tags.json")
    registry.bind("11223344", "chief")
    assert registry.bind("11223344", "skin") == "chief"
    assert registry.item_for("11223344") == "skin"
    assert "chief" not in registry.items().values()


def test_an_item_with_several_tags(tmp_path):
    registry = TagRegistry(tmp_path / "tags.json")
    for uid in ("CC000002", "cc000001", "CC000003"):
        registry.bind(uid, "chief")
    registry.bind("DD000001", "sun")
    chiefs = sorted(uid for uid, item in registry.items().items() if item == "chief")
    assert chiefs == ["CC000001", "CC000002", "CC000003"]


def test_unbind(tmp_path):
    registry = TagRegistry(tmp_path / "tags.json")
    registry.bind("11223344", "wings")
    assert registry.unbind("11223344") == "wings"
    assert registry.unbind("11223344") is None
    assert registry.item_for("11223344") is None


@pytest.mark.parametrize("uid, item", [("eagle", "eagle"), ("12 34", "sun"), ("1234567", "sun"),
                                       ("11223344", "dragon"), ("11223344", "village:castle")])
def test_bind_refuses_what_is_not_a_uid_or_an_item(tmp_path, uid, item):
    registry = TagRegistry(tmp_path / "tags.json")
    with pytest.raises(ValueError):
        registry.bind(uid, item)
    assert len(registry) == 0


def test_resolve(tmp_path):
    registry = TagRegistry(tmp_path / "tags.json")
    registry.bind("0A1B2C3D4E", "eagle")
    assert registry.resolve("0a1b2c3d4e") == "eagle"
    assert registry.resolve("village:sun") == "village:sun"
    assert registry.resolve("Wings") == "wings"
    assert registry.resolve("indians/snake") == "indians/snake"
    assert registry.resolve("FFFFFFFFFF") is None
    assert registry.resolve("dragon") is None


def test_normalise_uid():
    assert normalise_uid("0a1b2c3d") == "0A1B2C3D"
    assert normalise_uid("eagle") is None
    assert normalise_uid("village:sun") is None
    assert normalise_uid("abc") is None


@pytest.mark.parametrize("content, message", [
    ("{not json", "damaged"),
    ("[]", "not a tag registry"),
    ('{"version": 1}', "not a tag registry"),
    ('{"version": 2, "tags": {}}', "version 2 is not supported"),
    ('{"version": 1, "tags": {"eagle": "eagle"}}', "bad entry"),
    ('{"version": 1, "tags": {"0A1B2C3D4E": "dragon"}}', "bad entry"),
    ('{"version": 1, "tags": {"0A1B2C3D4E": 7}}', "bad entry"),
])
def test_a_corrupt_file_is_one_clear_error_naming_it(tmp_path, content, message):
    path = tmp_path / "tags.json"
    path.write_text(content)
    with pytest.raises(UserError, match=message) as info:
        TagRegistry.load(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_a_file_that_is_not_text_is_one_clear_error(tmp_path):
    path = tmp_path / "tags.json"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(UserError, match=r"damaged \(not UTF-8 text\)"):
        TagRegistry.load(path)


def test_save_is_atomic_and_fsynced(tmp_path, mocker):
    path = tmp_path / "tags.json"
    registry = TagRegistry(path)
    registry.bind("11223344", "eagle")
    registry.save()
    synced = []
    real_fsync = os.fsync

    def look_then_sync(fd):
        # Whatever happens at this point, the registry file itself is the old or the new one.
        synced.append(json.loads(path.read_text())["tags"])
        real_fsync(fd)

    fsync = mocker.patch.object(os, "fsync", side_effect=look_then_sync)
    rename = mocker.spy(os, "replace")
    registry.bind("55667788", "sun")
    registry.save()
    # The new text is fsynced under a temporary name, renamed over the file, then the folder
    # entry is fsynced.
    # (Inside the folder's descriptor: no link on the way is followed.)
    assert rename.call_count == 1 and rename.call_args.args == ("tags.json.tmp", "tags.json")
    assert fsync.call_count == 2
    assert synced == [{"11223344": "eagle"}, {"11223344": "eagle", "55667788": "sun"}]
    assert [p.name for p in tmp_path.iterdir()] == ["tags.json"]


def test_save_into_a_folder_that_cannot_be_written(tmp_path):
    blocked = tmp_path / "data"
    blocked.write_text("a file where the folder should be")
    registry = TagRegistry(blocked / "tags.json")
    registry.bind("11223344", "eagle")
    with pytest.raises(UserError, match="cannot save the tag registry"):
        registry.save()


def test_a_copied_file_works_on_another_box(tmp_path):
    here = TagRegistry(tmp_path / "box1" / "tags.json")
    here.bind("0A1B2C3D4E", "crests")
    here.save()
    there = tmp_path / "box2" / "tags.json"
    there.parent.mkdir()
    there.write_bytes(here.path.read_bytes())
    assert TagRegistry.load(there).resolve("0A1B2C3D4E") == "crests"
