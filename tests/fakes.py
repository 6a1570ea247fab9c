"""Stand-ins for the physical world, shared by the hardware tests (one home for each).

Import them as ``from fakes import FakeClock``: pytest puts ``tests/`` on ``sys.path`` (it
has a ``conftest.py`` and no ``__init__.py``), which is also how ``box_helpers`` is found.

* :class:`FakeClock` — a ``time.monotonic`` that only moves when told to;
* :class:`CountingBus` — an smbus-like I2C bus for luma.oled, counting what is written;
* :class:`FakePN532` — the device side of a PN532 in HSU mode, answering host frames;
* :class:`LoopPort` — a pyserial-like port whose far end is a :class:`FakePN532`;
* :class:`Plug` — a serial device at a fixed path (a pty) to unplug and plug back.

gpiozero's pins are not faked here: gpiozero's own ``MockFactory`` is (``pin_factory``
fixture in ``conftest.py``).
"""

from __future__ import annotations

import errno
import os
import threading

import serial
from PIL import Image

from companion.ui.canvas import frame_words
from hardware.pn532 import ACK, HOST_TO_PN532, NACK, PN532_TO_HOST, FrameParser, build_frame

#: The most bytes one SMBus block write carries (smbus2 refuses more with ValueError).
I2C_BLOCK_MAX = 32


class FakeClock:
    """A clock for code that takes ``clock=time.monotonic``: ``clock()`` reads it.

    It starts at ``start`` (not 0, so code cannot mistake "no time yet" for a time) and
    moves only by :meth:`advance` or by setting ``now``.
    """

    def __init__(self, start: float = 100.0):
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass."""
        self.now += seconds


class CountingBus:
    """An smbus-like I2C bus with one device (the OLED) at ``address``, for luma.oled.

    Every block write is counted in ``sent`` (bytes) and, unless ``keep_writes`` is False
    (benchmarks, long games), kept in ``writes`` as ``(control byte, list of bytes)`` for
    :meth:`take`. Like a real bus, a write to an address nobody answers at, or while
    ``error`` is set to an errno, raises ``OSError``; a block over 32 bytes is a
    ``ValueError`` as in smbus2.
    """

    def __init__(self, *, address: int = 0x3C, keep_writes: bool = True):
        self.address = address
        self.keep_writes = keep_writes
        self.sent = 0
        self.writes: list[tuple[int, list[int]]] = []
        self.error: int | None = None

    def write_i2c_block_data(self, address: int, control: int, data: list[int]) -> None:
        """What luma's ``i2c`` interface calls for every command and data block."""
        if len(data) > I2C_BLOCK_MAX:
            raise ValueError(f"Data length cannot exceed {I2C_BLOCK_MAX} bytes")
        if self.error is not None:
            raise OSError(self.error, "bus error")
        if address != self.address:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.sent += len(data)
        if self.keep_writes:
            self.writes.append((control, list(data)))

    def take(self) -> list[tuple[int, list[int]]]:
        """The writes since the last ``take()``, forgotten by the bus."""
        writes, self.writes = self.writes, []
        return writes


class FakePN532:
    """The device side of a PN532 in HSU mode, answering like one with firmware 1.6.

    :meth:`receive` takes what the host wrote and returns the device's reply (ACK and
    answer frames). ``tag`` is the UID (hex) in the field or None; ``silent`` never
    answers; ``corrupt`` answers that many times with a bad checksum; ``nack`` refuses
    that many commands. ``commands`` lists the command codes received, in order.
    """

    def __init__(self, tag: str | None = None):
        self.tag = tag
        self.awake = False
        self.silent = False
        self.corrupt = 0
        self.nack = 0
        self.commands: list[int] = []
        self.retries_setting: bytes | None = None
        self._parser = FrameParser(tfi=HOST_TO_PN532)

    def receive(self, data: bytes) -> bytes:
        """The reply to the bytes the host wrote (empty when there is nothing to say)."""
        if b"\x55\x55" in data:
            self.awake = True
        out = b""
        for frame in self._parser.feed(data):
            if frame.kind != "data" or not self.awake or self.silent:
                continue
            self.commands.append(frame.data[0])
            if self.nack:
                self.nack -= 1
                out += NACK
                continue
            answer = build_frame(self.answer(frame.data), tfi=PN532_TO_HOST)
            if self.corrupt:
                self.corrupt -= 1
                answer = answer[:-2] + bytes([answer[-2] ^ 0x01]) + answer[-1:]
            out += ACK + answer
        return out

    def answer(self, data: bytes) -> bytes:
        """The answer's data (code + 1, then the values) to the command ``data``."""
        code, params = data[0], data[1:]
        if code == 0x02:
            return bytes([0x03, 0x32, 0x01, 0x06, 0x07])
        if code == 0x32 and params[:1] == b"\x05":
            self.retries_setting = params[1:]
        if code == 0x4A:
            assert params == bytes([1, 0x00])
            if self.tag is None:
                return b"\x4b\x00"
            uid = bytes.fromhex(self.tag)
            return bytes([0x4B, 1, 1, 0x00, 0x44, 0x00, len(uid)]) + uid
        return bytes([code + 1])


class LoopPort:
    """A pyserial-like port whose far end is ``device`` (a :class:`FakePN532`).

    Writes go to the device at once; its replies are read back through pyserial's
    ``loop://``. ``written`` keeps every byte the host wrote.
    """

    def __init__(self, device: FakePN532):
        self.device = device
        self.loop = serial.serial_for_url("loop://", timeout=0.01)
        self.written = b""

    def write(self, data: bytes) -> int:
        """Send ``data`` to the device; its reply becomes readable."""
        self.written += data
        answer = self.device.receive(data)
        if answer:
            self.loop.write(answer)
        return len(data)

    def read(self, size: int = 1) -> bytes:
        """Up to ``size`` bytes of the device's replies (waits at most ``timeout``)."""
        return self.loop.read(size)

    @property
    def in_waiting(self) -> int:
        """Bytes ready to read."""
        return self.loop.in_waiting

    @property
    def timeout(self) -> float | None:
        """The read timeout, in seconds."""
        return self.loop.timeout

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        self.loop.timeout = value

    def reset_input_buffer(self) -> None:
        """Drop the replies not read yet."""
        self.loop.reset_input_buffer()

    def close(self) -> None:
        """Close the port."""
        self.loop.close()


class Plug:
    """A serial device at a fixed path: a symlink to a pty we can unplug and plug back.

    Unplugging removes the link as well as the pty, as udev removes the device node: a
    link left to ``/dev/pts/N`` would "reconnect" as soon as anything (another test, another
    process) opens a new pty that gets the same number. ``master`` is the device's end
    (None while unplugged).
    """

    def __init__(self, path: str):
        self.path = path
        self.master: int | None = None
        self.plug()

    def plug(self) -> None:
        """Plug the device in: a new pty appears at ``path``."""
        self.master, self._slave = os.openpty()
        tmp = f"{self.path}.new"
        os.symlink(os.ttyname(self._slave), tmp)
        os.replace(tmp, self.path)

    def unplug(self) -> None:
        """Pull the device out: its path and its pty are gone."""
        assert self.master is not None
        os.unlink(self.path)
        os.close(self.master)
        os.close(self._slave)
        self.master = None

    def write(self, data: bytes) -> None:
        """The device sends ``data``."""
        assert self.master is not None
        os.write(self.master, data)

    def close(self) -> None:
        """Unplug, if plugged in."""
        if self.master is not None:
            self.unplug()


class WordsDisplay:
    """A display that keeps each frame's words; ``wait_for`` a line to be shown (or gone),
    ``ever`` counts the frames that said it. ``wait`` bounds every wait, in seconds."""

    def __init__(self, wait: float = 30.0) -> None:
        self.shown: list[list[str]] = []
        self.changed = threading.Condition()
        self.wait = wait

    def show(self, image: Image.Image) -> int:
        with self.changed:
            self.shown.append(frame_words(image))
            self.changed.notify_all()
        return 1

    def close(self) -> None:
        pass

    def wait_for(self, line: str, present: bool = True) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: bool(self.shown) and (line in self.shown[-1]) == present,
                                         self.wait), (line, self.shown[-1:])

    def ever(self, line: str) -> int:
        """How many frames said ``line``."""
        with self.changed:
            return sum(line in frame for frame in self.shown)
