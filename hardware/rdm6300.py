"""The RDM6300 125 kHz reader's serial frames (9600 baud), decoded from raw bytes.

A frame is 14 bytes: ``0x02``, ten ASCII hex digits (the tag's five bytes: a version
byte and the 32-bit card number), two hex digits of checksum (the XOR of those five
bytes), ``0x03``. The reader repeats the frame while the tag stays on it; turning the
repeats into one ``tag`` and a later ``gone`` is the reader source's job.

    >>> Rdm6300Decoder().feed(frame("0A1B2C3D4E"))
    ['0A1B2C3D4E']
"""

from __future__ import annotations

from functools import reduce

STX, ETX = 0x02, 0x03
FRAME_LENGTH = 14
BAUDRATE = 9600
_HEX = frozenset(b"0123456789ABCDEFabcdef")


def checksum(uid: str) -> int:
    """The XOR of the five bytes the ten hex digits of ``uid`` encode."""
    return reduce(lambda a, b: a ^ b, bytes.fromhex(uid), 0)


def frame(uid: str) -> bytes:
    """The frame an RDM6300 sends for ``uid`` (ten hex digits); for tests and tools."""
    if len(uid) != 10:
        raise ValueError("an RDM6300 UID has ten hex digits")
    return bytes([STX]) + f"{uid.upper()}{checksum(uid):02X}".encode("ascii") + bytes([ETX])


class Rdm6300Decoder:
    """Feed it the bytes as they arrive; it returns the UIDs of the good frames.

    Noise, frames with a bad checksum and frames cut short are dropped. A start byte
    always begins a new frame, so a torn frame never hides the good one that follows.
    """

    def __init__(self) -> None:
        self._frame: bytearray | None = None   # bytes after STX, or None between frames

    def feed(self, data: bytes) -> list[str]:
        """Decode ``data``; the UIDs (ten upper-case hex digits) of the frames it completed."""
        uids = []
        for byte in data:
            if byte == STX:
                self._frame = bytearray()
            elif self._frame is None:
                continue
            elif len(self._frame) < FRAME_LENGTH - 2:
                if byte in _HEX:
                    self._frame.append(byte)
                else:
                    self._frame = None
            else:
                body, self._frame = self._frame.decode("ascii").upper(), None
                if byte == ETX and int(body[10:], 16) == checksum(body[:10]):
                    uids.append(body[:10])
        return uids
