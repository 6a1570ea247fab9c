"""The PN532 13.56 MHz NFC reader in HSU (UART) mode, 115200 baud.

Every exchange is a command frame from the host, an ACK frame from the PN532, then its
answer frame. A normal information frame is::

    00 00 FF  LEN LCS  TFI PD0 … PDn  DCS  00
    preamble, start code; LEN = bytes of TFI + PD, LEN + LCS = 0 (mod 256);
    TFI = D4 host to PN532, D5 PN532 to host; TFI + PD + DCS = 0 (mod 256); postamble

ACK is ``00 00 FF 00 FF 00``, NACK ``00 00 FF FF 00 00``, and an application error
``00 00 FF 01 FF 7F 81 00``. The answer's first data byte is the command code plus one.

:class:`PN532` works over any pyserial-like object (``read``, ``write``, ``in_waiting``,
``timeout``, ``reset_input_buffer``): ``wake()``, then ``read_uid()`` to poll for tags;
``firmware_version()`` works on its own (the first command always wakes the PN532 up).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

BAUDRATE = 115200
HOST_TO_PN532 = 0xD4
PN532_TO_HOST = 0xD5
ERROR_TFI = 0x7F
ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
#: HSU wake-up: a long preamble the PN532 sees as activity before the first command.
WAKE_UP = b"\x55\x55" + b"\x00" * 14

GET_FIRMWARE_VERSION = 0x02
SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A
#: RFConfiguration item 5: MxRtyATR, MxRtyPSL, MxRtyPassiveActivation.
MAX_RETRIES_ITEM = 0x05
#: InListPassiveTarget baud rate / modulation: 106 kbps type A (MIFARE, NTAG stickers).
TYPE_A_106K = 0x00


class PN532Error(OSError):
    """The PN532 did not answer properly, even after retries (treated like a lost port)."""


def build_frame(data: bytes, tfi: int = HOST_TO_PN532) -> bytes:
    """A normal information frame carrying ``data`` (command code and parameters)."""
    if not 0 < len(data) < 255:
        raise ValueError("a PN532 frame carries 1 to 254 data bytes")
    length = len(data) + 1
    dcs = -(tfi + sum(data)) & 0xFF
    return bytes([0x00, 0x00, 0xFF, length, -length & 0xFF, tfi, *data, dcs, 0x00])


@dataclass(frozen=True)
class Frame:
    """One frame read from the line: ``kind`` is ack, nack, error or data."""

    kind: str
    data: bytes = b""    # for data frames: the bytes after TFI, before DCS


class FrameParser:
    """Feed it bytes as they arrive; it returns the complete frames with good checksums.

    Noise and broken frames are skipped: a start code that leads to a bad length or
    checksum is dropped one byte at a time, so a good frame hidden behind it is found.
    ``tfi`` is the direction accepted for data frames (the host reads ``D5``).
    """

    def __init__(self, tfi: int = PN532_TO_HOST):
        self.tfi = tfi
        self._buffer = bytearray()

    def reset(self) -> None:
        """Forget any partial frame (before a new command)."""
        self._buffer.clear()

    def feed(self, data: bytes) -> list[Frame]:
        """Add ``data``; the frames it completed, in order."""
        self._buffer += data
        frames: list[Frame] = []
        buf = self._buffer
        while True:
            start = buf.find(b"\x00\xff")
            if start < 0:
                # Keep a last 00: it may be the first half of a start code.
                del buf[:len(buf) - 1 if buf.endswith(b"\x00") else len(buf)]
                return frames
            del buf[:start]
            outcome = self._parse_at_start(buf)
            if outcome is None:
                return frames           # wait for more bytes
            frame, used = outcome
            if frame is None:
                del buf[:1]             # not a frame after all: look further on
            else:
                frames.append(frame)
                del buf[:used]

    def _parse_at_start(self, buf: bytearray) -> tuple[Frame | None, int] | None:
        """Parse the frame at ``buf[0:2] == 00 FF``: None if incomplete, (None, 0) if bad."""
        if len(buf) < 4:
            return None
        length, lcs = buf[2], buf[3]
        if (length, lcs) == (0x00, 0xFF):
            return Frame("ack"), 4
        if (length, lcs) == (0xFF, 0x00):
            return Frame("nack"), 4
        if length == 0 or (length + lcs) & 0xFF:
            return None, 0
        if len(buf) < 5:
            return None
        tfi = buf[4]
        if tfi != self.tfi and not (tfi == ERROR_TFI and length == 1):
            return None, 0
        if len(buf) < 5 + length:
            return None
        body = buf[4:4 + length]
        if (sum(body) + buf[4 + length]) & 0xFF:
            return None, 0
        if tfi == ERROR_TFI:
            return Frame("error"), 5 + length
        return Frame("data", bytes(body[1:])), 5 + length


@dataclass(frozen=True)
class Firmware:
    """The answer to GetFirmwareVersion: IC (0x32 for a PN532), version, revision, support."""

    ic: int
    version: int
    revision: int
    support: int

    def __str__(self) -> str:
        return f"PN5{self.ic:02X} firmware {self.version}.{self.revision}"


class PN532:
    """A PN532 on a serial port in HSU mode.

    Each command is tried up to ``retries`` times (no ACK, NACK, an error frame, a bad
    checksum, or no answer within ``timeout`` seconds); then ``PN532Error``. The port's
    read timeout is set short so that no wait is longer than ``timeout``.
    """

    def __init__(self, port: Any, *, timeout: float = 0.2, retries: int = 3,
                 passive_retries: int = 1, clock: Callable[[], float] = time.monotonic) -> None:
        self.port = port
        self.timeout = timeout
        self.retries = retries
        self.passive_retries = passive_retries
        self.clock = clock
        self._parser = FrameParser()
        self._woken = False
        port.timeout = min(0.01, timeout)

    def wake(self) -> None:
        """Set the PN532 up for reading tags (SAM normal mode, bounded polls); call first."""
        # Normal mode, virtual card timeout 20 x 50 ms, IRQ pin in use.
        self.command(SAM_CONFIGURATION, b"\x01\x14\x01")
        # Few activation retries, so a poll without a tag comes back at once.
        self.command(RF_CONFIGURATION,
                     bytes([MAX_RETRIES_ITEM, 0xFF, 0x01, self.passive_retries]))

    def firmware_version(self) -> Firmware:
        """The chip and firmware version; proves the PN532 is there and answering."""
        answer = self.command(GET_FIRMWARE_VERSION)
        if len(answer) != 4:
            raise PN532Error(f"unexpected firmware answer {answer.hex(' ')}")
        return Firmware(*answer)

    def read_uid(self) -> str | None:
        """Poll once for a type A tag: its UID as upper-case hex, or None when there is none."""
        answer = self.command(IN_LIST_PASSIVE_TARGET, bytes([1, TYPE_A_106K]))
        # NbTg, Tg, SENS_RES (2), SEL_RES, NFCID length, NFCID…
        if len(answer) < 6 or answer[0] == 0:
            return None
        uid = answer[6:6 + answer[5]]
        if answer[5] == 0 or len(uid) != answer[5]:
            return None     # a garbled answer: the next poll will see the tag again
        return uid.hex().upper()

    def command(self, code: int, params: bytes = b"") -> bytes:
        """Send a command; the answer's data after its code (``code + 1``)."""
        request = build_frame(bytes([code]) + params)
        if not self._woken:
            # The first command of all goes after the HSU wake-up preamble.
            self.port.write(WAKE_UP)
            self._woken = True
        problem = "no answer"
        for attempt in range(self.retries):
            if attempt:
                # An ACK from the host aborts whatever the PN532 is still busy with.
                self.port.write(ACK)
            self.port.reset_input_buffer()
            self._parser.reset()
            self.port.write(request)
            outcome = self._exchange(code)
            if isinstance(outcome, bytes):
                return outcome
            problem = outcome
        raise PN532Error(f"PN532 command 0x{code:02X}: {problem} after {self.retries} tries")

    def _exchange(self, code: int) -> bytes | str:
        """The answer's data, or a word on what went wrong."""
        deadline = self.clock() + self.timeout
        acked = False
        while self.clock() < deadline:
            for frame in self._parser.feed(self.port.read(self.port.in_waiting or 1)):
                if frame.kind == "ack":
                    acked = True
                elif frame.kind == "nack":
                    return "refused (NACK)"
                elif frame.kind == "error":
                    return "error frame"
                elif acked and frame.data[:1] == bytes([code + 1]):
                    return frame.data[1:]
        return "answer timed out" if acked else "no ACK"
