"""The RDM6300 frame decoder: good frames, noise, bad checksums, torn frames."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.rdm6300 import Rdm6300Decoder, checksum, frame

GOOD = "0A1B2C3D4E"


def test_a_frame_gives_its_uid():
    data = frame(GOOD)
    assert data[0] == 0x02 and data[-1] == 0x03 and len(data) == 14
    assert data[11:13] == f"{0x0A ^ 0x1B ^ 0x2C ^ 0x3D ^ 0x4E:02X}".encode()
    assert Rdm6300Decoder().feed(data) == [GOOD]


def test_a_real_card_number():
    # A card printed "0011938684" (0x00B62B7C) with version byte 0x62.
    raw = b"\x02" + b"6200B62B7C" + f"{checksum('6200B62B7C'):02X}".encode() + b"\x03"
    assert Rdm6300Decoder().feed(raw) == ["6200B62B7C"]


def test_lower_case_digits_give_an_upper_case_uid():
    raw = frame(GOOD).lower()
    assert Rdm6300Decoder().feed(raw) == [GOOD]


def test_frames_split_across_reads_and_repeated():
    decoder = Rdm6300Decoder()
    data = frame(GOOD) * 3
    found = []
    for i in range(0, len(data), 5):
        found += decoder.feed(data[i:i + 5])
    assert found == [GOOD] * 3


@pytest.mark.parametrize("bad", [
    frame(GOOD)[:12] + b"00" + b"\x03",                     # wrong checksum
    frame(GOOD)[:-1] + b"\x04",                             # wrong end byte
    frame(GOOD)[:5] + b"Z" + frame(GOOD)[6:],               # not a hex digit
    frame(GOOD)[:9],                                        # torn
    b"\x03" + frame(GOOD)[1:],                              # no start byte
])
def test_bad_frames_are_dropped(bad):
    assert Rdm6300Decoder().feed(bad) == []


def test_a_torn_frame_does_not_hide_the_next_one():
    decoder = Rdm6300Decoder()
    assert decoder.feed(frame(GOOD)[:7] + frame("1122334455")) == ["1122334455"]


def test_frame_builder_refuses_a_short_uid():
    with pytest.raises(ValueError):
        frame("ABCD")


uids = st.binary(min_size=5, max_size=5).map(lambda b: b.hex().upper())


@given(st.binary(max_size=400), st.integers(min_value=1, max_value=20))
def test_random_bytes_never_raise(data, chunk):
    decoder = Rdm6300Decoder()
    for i in range(0, len(data), chunk):
        for uid in decoder.feed(data[i:i + chunk]):
            assert len(uid) == 10 and uid == uid.upper()


@given(st.lists(st.tuples(st.binary(max_size=30), uids), max_size=8), st.binary(max_size=30),
       st.integers(min_value=1, max_value=16))
def test_every_good_frame_inside_noise_is_found(parts, tail, chunk):
    data = b"".join(noise + frame(uid) for noise, uid in parts) + tail
    decoder = Rdm6300Decoder()
    found = []
    for i in range(0, len(data), chunk):
        found += decoder.feed(data[i:i + chunk])
    expected = iter(found)
    # Every frame is found, in order (noise may happen to hold a good frame too).
    assert all(any(uid == f for f in expected) for _, uid in parts)


@given(st.lists(st.tuples(st.binary(max_size=30).map(lambda b: b.replace(b"\x02", b"")), uids),
                max_size=8))
def test_noise_without_start_bytes_adds_nothing(parts):
    data = b"".join(noise + frame(uid) for noise, uid in parts)
    assert Rdm6300Decoder().feed(data) == [uid for _, uid in parts]
