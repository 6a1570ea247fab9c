"""The firmware's MFRC522 driver against the emulated chip and tags (tests/fake_machine.py)."""

import fake_machine
import pytest
from fake_machine import FakeTag
from firmware_bench import mfrc522, scanner
from hypothesis import given, settings
from hypothesis import strategies as st

MFRC522, ReaderError, crc_a = mfrc522.MFRC522, mfrc522.ReaderError, mfrc522.crc_a
POWER_UP_US = scanner.POWER_UP_US

CS = 17


@pytest.fixture
def bench():
    bench = fake_machine.Bench((CS,))
    fake_machine.use(bench)
    return bench


@pytest.fixture
def reader(bench):
    spi = fake_machine.SPI(0, baudrate=2_000_000)
    reader = MFRC522(spi, fake_machine.Pin(CS, fake_machine.Pin.OUT, value=1), bench.clock)
    reader.init()
    return reader


def powered(reader, bench):
    """Field on, and the 5.1 ms the tags are given to wake up."""
    reader.field_on()
    bench.clock.sleep_us(POWER_UP_US)


def test_crc_a_of_hlta_is_the_standard_one():
    assert crc_a(b"\x50\x00") == b"\x57\xcd"        # HLTA is 50 00 57 CD on the air


@given(st.binary(max_size=20))
def test_the_firmware_crc_agrees_with_the_bitwise_one(data):
    assert crc_a(data) == fake_machine.crc_a(data)


def test_init_sets_the_timer_ask_and_leaves_the_field_off(bench, reader):
    chip = bench.chip(0)
    assert chip._timer_us() == pytest.approx(200.0)
    assert chip.regs[0x15] == 0x40 and chip.regs[0x0E] & 0x80 == 0
    assert not chip.field_on


def test_a_reader_that_does_not_answer(bench):
    bench.chip(0).fail()
    reader = MFRC522(fake_machine.SPI(0), fake_machine.Pin(CS, fake_machine.Pin.OUT, value=1), bench.clock)
    with pytest.raises(ReaderError, match=r"^no answer \(VersionReg 00\)$"):
        reader.init()


def test_a_chip_that_never_ends_an_exchange(bench, reader, mocker):
    powered(reader, bench)
    # Answers its version, then never raises an interrupt bit.
    mocker.patch.object(bench.chip(0), "read", side_effect=lambda reg: 0x92 if reg == 0x37 else 0)
    with pytest.raises(ReaderError, match="never finished an exchange"):
        reader.inventory(8)


@pytest.mark.parametrize("uid", ["DEADBEEF", "04A1B2C3D4E5F6", "0411223344556677889A"])
def test_one_tag_of_each_uid_size(bench, reader, uid):
    tag = FakeTag(uid)
    bench.chip(0).put(tag)
    powered(reader, bench)
    assert reader.inventory(8) == [uid]
    assert tag.state == "halt"


def test_the_steps_for_a_seven_byte_uid(bench, reader):
    bench.chip(0).put(FakeTag("04A1B2C3D4E5F6"))
    powered(reader, bench)
    reader.inventory(8)
    assert bench.chip(0).exchanges == ["REQA", "ANTICOLLISION", "SELECT", "ANTICOLLISION", "SELECT",
                                       "HLTA", "REQA"]


def test_tags_not_yet_awake_are_not_seen(bench, reader):
    bench.chip(0).put(FakeTag("04A1B2C3D4E5F6"))
    reader.field_on()
    bench.clock.sleep_us(1000)          # ISO/IEC 14443-3 gives a tag 5 ms
    assert reader.inventory(8) == []


def test_an_empty_field(bench, reader):
    powered(reader, bench)
    assert reader.inventory(8) == []
    assert bench.chip(0).exchanges == ["REQA"]


def test_two_tags_that_differ_in_their_last_bit(bench, reader):
    uids = ["04A1B2C3D4E5F6", "04A1B2C3D4E5F7"]
    for uid in uids:
        bench.chip(0).put(FakeTag(uid))
    powered(reader, bench)
    assert sorted(reader.inventory(8)) == uids


def test_no_more_tags_than_the_limit(bench, reader):
    for n in range(5):
        bench.chip(0).put(FakeTag(f"04A1B2C3D4E5{n:02X}"))
    powered(reader, bench)
    assert len(reader.inventory(3)) == 3


class Garbled(FakeTag):
    """A tag whose SELECT answers arrive with a broken CRC (a bad antenna, a torn sticker)."""

    def _select(self, data, level):
        answer = super()._select(data, level)
        if answer is not None:
            answer[-1] ^= 1
        return answer


def test_a_garbled_tag_does_not_hide_a_good_one(bench, reader):
    bench.chip(0).put(Garbled("04FFFFFFFFFFFF"))     # wins every collision: all 1s
    bench.chip(0).put(FakeTag("04A1B2C3D4E5F6"))
    powered(reader, bench)
    assert reader.inventory(8) == ["04A1B2C3D4E5F6"]


def similar_uids():
    """Sets of 2-8 UIDs (4, 7 or 10 bytes) that share long prefixes: each one the first
    with a few bits flipped, so that collisions fall anywhere, in any cascade level."""
    def flipped(base, flips):
        uid = bytearray(base)
        for bit in flips:
            uid[bit // 8 % len(uid)] ^= 1 << (bit % 8)
        return bytes(uid)

    def family(base):
        bits = st.lists(st.integers(0, len(base) * 8 - 1), min_size=1, max_size=3)
        return st.lists(bits.map(lambda flips: flipped(base, flips)), min_size=1, max_size=7).map(
            lambda others: {base, *others})

    base = st.sampled_from([4, 7, 10]).flatmap(lambda size: st.binary(min_size=size, max_size=size))
    # A 4-byte UID may not begin with the cascade tag 88h (ISO/IEC 14443-3).
    return base.flatmap(family).map(lambda uids: {uid for uid in uids if uid[0] != 0x88 or len(uid) > 4})


@settings(max_examples=60, deadline=None)
@given(similar_uids())
def test_every_tag_in_the_field_is_read_once(uids):
    bench = fake_machine.Bench((CS,))
    fake_machine.use(bench)
    cs = fake_machine.Pin(CS, fake_machine.Pin.OUT, value=1)
    reader = MFRC522(fake_machine.SPI(0, baudrate=2_000_000), cs, bench.clock)
    reader.init()
    tags = [FakeTag(uid.hex()) for uid in uids]
    for tag in tags:
        bench.chip(0).put(tag)
    powered(reader, bench)
    found = reader.inventory(8)
    assert sorted(found) == sorted(tag.hex for tag in tags)
    assert all(tag.state == "halt" for tag in tags)
