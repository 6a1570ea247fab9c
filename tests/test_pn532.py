"""The PN532 in HSU mode: frames, checksums, ACKs, wake-up, polling; against a fake PN532."""

import pytest
from fakes import FakePN532, LoopPort
from hypothesis import given
from hypothesis import strategies as st

from hardware.pn532 import (
    ACK,
    NACK,
    PN532,
    PN532_TO_HOST,
    WAKE_UP,
    Firmware,
    Frame,
    FrameParser,
    PN532Error,
    build_frame,
)


def reader(tag=None, **kwargs):
    device = FakePN532(tag)
    port = LoopPort(device)
    return PN532(port, timeout=kwargs.pop("timeout", 0.1), **kwargs), device, port


# --- frames -------------------------------------------------------------------------------

def test_frame_layout_and_checksums():
    frame = build_frame(b"\x02")
    assert frame == bytes([0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00])
    assert (frame[3] + frame[4]) & 0xFF == 0
    assert (sum(frame[5:7]) + frame[7]) & 0xFF == 0


def test_frame_builder_refuses_empty_and_oversized_data():
    with pytest.raises(ValueError):
        build_frame(b"")
    with pytest.raises(ValueError):
        build_frame(bytes(255))


def test_parser_reads_ack_nack_error_and_data():
    answer = build_frame(b"\x03\x32\x01\x06\x07", tfi=PN532_TO_HOST)
    error = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
    frames = FrameParser().feed(ACK + answer + NACK + error)
    assert frames == [Frame("ack"), Frame("data", b"\x03\x32\x01\x06\x07"), Frame("nack"),
                      Frame("error")]


def test_parser_waits_for_the_rest_of_a_frame():
    parser = FrameParser()
    answer = build_frame(b"\x4b\x00", tfi=PN532_TO_HOST)
    assert parser.feed(answer[:6]) == []
    assert parser.feed(answer[6:]) == [Frame("data", b"\x4b\x00")]


@pytest.mark.parametrize("broken", [
    lambda f: f[:7] + bytes([f[7] ^ 0xFF]) + f[8:],     # bad data checksum
    lambda f: f[:4] + bytes([f[4] ^ 0x10]) + f[5:],     # bad length checksum
    lambda f: f[:5] + b"\xd4" + f[6:],                  # wrong direction
])
def test_parser_drops_broken_frames(broken):
    frame = build_frame(b"\x15", tfi=PN532_TO_HOST)
    assert FrameParser().feed(broken(frame)) == []


def test_a_false_start_code_does_not_hide_a_good_frame():
    good = build_frame(b"\x15", tfi=PN532_TO_HOST)
    assert FrameParser().feed(b"\x00\xff\x05\xfb\xd5\x01" + good) == [Frame("data", b"\x15")]


datas = st.binary(min_size=1, max_size=20)


@given(st.binary(max_size=300), st.integers(min_value=1, max_value=30))
def test_random_bytes_never_raise(data, chunk):
    parser = FrameParser()
    for i in range(0, len(data), chunk):
        for frame in parser.feed(data[i:i + chunk]):
            assert frame.kind in ("ack", "nack", "error", "data")


# Noise without D5 cannot begin a frame that swallows a real one (a data frame needs it).
noise = st.binary(max_size=30).map(lambda b: b.replace(b"\xd5", b""))


@given(st.lists(st.tuples(noise, datas), max_size=6), noise, st.integers(min_value=1, max_value=20))
def test_every_good_frame_inside_noise_is_found(parts, tail, chunk):
    stream = b"".join(n + build_frame(d, tfi=PN532_TO_HOST) for n, d in parts) + tail
    parser = FrameParser()
    found = []
    for i in range(0, len(stream), chunk):
        found += [f.data for f in parser.feed(stream[i:i + chunk]) if f.kind == "data"]
    expected = iter(found)
    assert all(any(d == f for f in expected) for _, d in parts)


# --- the reader against the fake PN532 -----------------------------------------------------

def test_wake_up_sends_the_preamble_and_configures():
    pn, device, port = reader()
    pn.wake()
    assert port.written.startswith(WAKE_UP)
    assert device.commands == [0x14, 0x32]
    assert device.retries_setting == bytes([0xFF, 0x01, 0x01])


def test_firmware_version():
    pn, device, _ = reader()
    pn.wake()
    firmware = pn.firmware_version()
    assert firmware == Firmware(ic=0x32, version=1, revision=6, support=7)
    assert str(firmware) == "PN532 firmware 1.6"


def test_read_uid_with_and_without_a_tag():
    pn, device, _ = reader(tag="04a1b2c3d4e5f6")
    pn.wake()
    assert pn.read_uid() == "04A1B2C3D4E5F6"
    device.tag = "DEADBEEF"
    assert pn.read_uid() == "DEADBEEF"
    device.tag = None
    assert pn.read_uid() is None


def test_a_bad_checksum_is_retried():
    pn, device, port = reader(tag="DEADBEEF")
    pn.wake()
    device.corrupt = 2
    assert pn.read_uid() == "DEADBEEF"
    assert device.commands[-3:] == [0x4A, 0x4A, 0x4A]
    assert ACK in port.written          # the host aborted the failed attempts


def test_a_nack_is_retried():
    pn, device, _ = reader()
    pn.wake()
    device.nack = 1
    assert pn.firmware_version().ic == 0x32


def test_firmware_version_alone_wakes_the_pn532_up():
    pn, device, port = reader()
    assert pn.firmware_version().version == 1
    assert port.written.startswith(WAKE_UP)
    assert port.written.count(b"\x55") == 2    # once only
    pn.firmware_version()
    assert port.written.count(b"\x55") == 2


def test_no_answer_gives_up_after_the_retries():
    pn, device, _ = reader(timeout=0.03, retries=2)
    device.silent = True
    with pytest.raises(PN532Error, match=r"command 0x02: no ACK after 2 tries"):
        pn.firmware_version()


def test_answers_always_broken_give_up():
    pn, device, _ = reader(timeout=0.03, retries=3)
    pn.wake()
    device.corrupt = 10
    with pytest.raises(PN532Error, match="answer timed out after 3 tries"):
        pn.read_uid()


def test_silent_device_on_wake():
    pn, device, _ = reader(timeout=0.02, retries=1)
    device.silent = True
    with pytest.raises(PN532Error):
        pn.wake()


def test_the_port_timeout_is_made_short():
    pn, _, port = reader(timeout=0.5)
    assert port.timeout <= 0.01
