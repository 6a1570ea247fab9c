"""A stand-in for MicroPython's ``machine`` module: a Pico with MFRC522 readers on SPI.

The firmware's tests put this module in ``sys.modules["machine"]`` and :func:`use` a
:class:`Bench`: the chips on the bus (one per chip-select pin), the tags in their fields
and a simulated clock. ``Pin`` and ``SPI`` are what the firmware builds; through them it
talks to :class:`FakeMFRC522` chips that behave, register by register, as the MFRC522
datasheet says, around tags (:class:`FakeTag`) that follow the ISO/IEC 14443-3 type A
states (idle, ready, active, halt). Written from the datasheet and the standard, not
from the firmware: the two meet only at the registers and on the air.

Time is simulated so that a scan's duration can be estimated (see firmware/README.md):
every SPI exchange costs ``CALL_US`` (MicroPython calling ``cs(0)``, ``spi.write``,
``cs(1)``) plus its bits at the bus speed; every frame on the air costs its bits at
106 kbit/s, and a frame nobody answers costs the chip's timer period.
"""

from __future__ import annotations

#: What one SPI exchange costs in MicroPython on a Pico (RP2040 at 125 MHz) besides its
#: bits on the wire: the driver's method call, two pin writes and the ``spi`` call. An
#: assumption, on the slow side; firmware/README.md says how to measure it on a Pico.
CALL_US = 40.0
#: The carrier, and one bit on the air at 106 kbit/s (128 carrier cycles).
FC = 13.56e6
ETU_US = 128 / FC * 1e6
#: The tag answers this long after the end of the reader's frame (ISO/IEC 14443-3, FDT
#: for a frame ending with a 1: 1236 / fc).
FDT_US = 1236 / FC * 1e6

# Registers and bits, by their datasheet names (the emulator's own copy).
CommandReg, ComIrqReg, ErrorReg, FIFODataReg, FIFOLevelReg = 0x01, 0x04, 0x06, 0x09, 0x0A
ControlReg, BitFramingReg, CollReg, TxControlReg = 0x0C, 0x0D, 0x0E, 0x14
TModeReg, TPrescalerReg, TReloadRegH, TReloadRegL, VersionReg = 0x2A, 0x2B, 0x2C, 0x2D, 0x37
RESET_VALUES = {CommandReg: 0x20, ComIrqReg: 0x14, ControlReg: 0x10, CollReg: 0xA0,
                0x11: 0x3F, TxControlReg: 0x80, 0x26: 0x48}
IDLE, TRANSMIT, TRANSCEIVE, SOFT_RESET = 0x00, 0x04, 0x0C, 0x0F
TX_IRQ, RX_IRQ, IDLE_IRQ, ERR_IRQ, TIMER_IRQ = 0x40, 0x20, 0x10, 0x02, 0x01
BUFFER_OVFL, COLL_ERR, PARITY_ERR = 0x10, 0x08, 0x02
POWER_DOWN = 0x10       # CommandReg: set while the chip is (still) coming out of a reset
FIFO_SIZE = 64

REQA, WUPA, HLTA = 0x26, 0x52, 0x50
SELECT_CODES = (0x93, 0x95, 0x97)


def crc_a(data: bytes) -> bytes:
    """CRC_A (ISO/IEC 14443-3 annex B) bit by bit: the CRC-16 of polynomial x^16 + x^12 +
    x^5 + 1, reflected, preset 6363h; low byte first."""
    crc = 0x6363
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return bytes([crc & 0xFF, crc >> 8])


def to_bits(data: bytes, count: int | None = None) -> list[int]:
    """The bits of ``data`` in the order they go on the air (each byte's bit 0 first)."""
    bits = [(byte >> i) & 1 for byte in data for i in range(8)]
    return bits if count is None else bits[:count]


def from_bits(bits: list[int], offset: int = 0) -> bytes:
    """Bytes holding ``bits`` from bit ``offset`` of the first byte on (the rest 0)."""
    out = bytearray((offset + len(bits) + 7) // 8)
    for index, bit in enumerate(bits, offset):
        out[index >> 3] |= bit << (index & 7)
    return bytes(out)


def air_us(bits: int) -> float:
    """How long a frame of ``bits`` data bits takes: start, a parity bit per byte, end."""
    return (1 + bits + bits // 8 + 1) * ETU_US


class SimClock:
    """Simulated time in microseconds, with the ``time`` functions the firmware uses."""

    def __init__(self) -> None:
        self.now_us = 0.0

    def ticks_us(self) -> int:
        """The time, in whole microseconds."""
        return int(self.now_us)

    @staticmethod
    def ticks_diff(later: int, earlier: int) -> int:
        """``later - earlier`` (MicroPython's wraps; these never do)."""
        return later - earlier

    def sleep_us(self, us: int) -> None:
        """Let ``us`` microseconds pass."""
        self.now_us += us


# --- tags ------------------------------------------------------------------------------------

class FakeTag:
    """An ISO/IEC 14443 A tag (an NTAG sticker: 7-byte UID, final SAK 00 by default).

    ``reset_us``: how long its field must be off before it forgets being halted (its
    chip runs on the charge left in it meanwhile; ISO/IEC 14443-3 allows 5 ms).
    """

    def __init__(self, uid: str, *, sak: int = 0x00, power_up_us: float = 5000.0, reset_us: float = 5000.0):
        self.uid = bytes.fromhex(uid)
        assert len(self.uid) in (4, 7, 10)
        self.sak = sak
        self.power_up_us = power_up_us
        self.reset_us = reset_us
        self.state = "off"          # off, idle, ready, active, halt
        self.star = False           # woken from halt: an error sends it back there
        self.level = 0              # cascade level being resolved while ready
        self.powered_since = 0.0
        self.halted_at_off: float | None = None     # when its field went off while it was halted
        self.heard: list[str] = []  # what it was sent, by name, for the tests

    @property
    def hex(self) -> str:
        """The UID as the hub reports it."""
        return self.uid.hex().upper()

    def levels(self) -> list[bytes]:
        """The cascade levels: four bytes (a cascade tag 88h first when more follow) and BCC."""
        parts = {4: [self.uid], 7: [b"\x88" + self.uid[:3], self.uid[3:]],
                 10: [b"\x88" + self.uid[:3], b"\x88" + self.uid[3:6], self.uid[6:]]}[len(self.uid)]
        return [part + bytes([part[0] ^ part[1] ^ part[2] ^ part[3]]) for part in parts]

    def power(self, on: bool, now: float) -> None:
        """The field it lies in went on or off: a short break leaves a halted tag halted."""
        if on and self.state == "off":
            if self.halted_at_off is not None and now - self.halted_at_off < self.reset_us:
                self.state = "halt"
            else:
                self.state, self.star, self.powered_since = "idle", False, now
            self.halted_at_off = None
        elif not on and self.state != "off":
            self.halted_at_off = now if self.state == "halt" else None
            self.state = "off"

    def lift(self) -> None:
        """Taken out of the field for good: no charge left when it comes back."""
        self.state, self.halted_at_off = "off", None

    def receive(self, bits: list[int], now: float) -> list[int] | None:
        """The tag's answer (bits) to a frame of ``bits``, or None when it keeps quiet."""
        if self.state == "off" or now - self.powered_since < self.power_up_us:
            return None
        data = from_bits(bits)
        if len(bits) == 7:
            return self._request(data[0])
        if len(bits) < 16:
            return self._other()
        code, nvb = data[0], data[1]
        if code == HLTA and len(bits) == 32 and nvb == 0 and crc_a(data[:2]) == data[2:]:
            self.heard.append("HLTA")
            if self.state == "active":
                self.state = "halt"
                return None
            return self._other()
        if code in SELECT_CODES and self.state == "ready" and SELECT_CODES.index(code) == self.level:
            level = self.levels()[self.level]
            if nvb == 0x70:
                return self._select(data, level)
            known = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F)
            if not 0 <= known <= 40 or len(bits) != 16 + known:
                return self._other()
            self.heard.append(f"ANTICOLLISION {self.level + 1}")
            mine = to_bits(level)
            # A tag whose level does not begin with the bits sent keeps quiet, still ready.
            return mine[known:] if bits[16:] == mine[:known] else None
        return self._other()

    def _request(self, command: int) -> list[int] | None:
        if (command == REQA and self.state == "idle") or (command == WUPA and self.state in ("idle", "halt")):
            self.heard.append("REQA" if command == REQA else "WUPA")
            self.star = self.state == "halt"
            self.state, self.level = "ready", 0
            size = {4: 0x00, 7: 0x40, 10: 0x80}[len(self.uid)]
            return to_bits(bytes([size | 0x04, 0x00]))      # ATQA: UID size, bit frame anticollision
        return self._other()

    def _select(self, data: bytes, level: bytes) -> list[int] | None:
        if len(data) != 9 or crc_a(data[:7]) != data[7:] or data[2:7] != level:
            return self._other()            # another tag's select, or a broken one
        self.heard.append(f"SELECT {self.level + 1}")
        if self.level + 1 < len(self.levels()):
            self.level += 1
            sak = 0x04                      # the UID goes on at the next level
        else:
            self.state = "active"
            sak = self.sak
        return to_bits(bytes([sak]) + crc_a(bytes([sak])))

    def _other(self) -> None:
        """Anything unexpected sends a ready or active tag back to idle (halt if woken
        from there); an idle or halted tag ignores it."""
        if self.state in ("ready", "active"):
            self.state = "halt" if self.star else "idle"
        return None


# --- the reader chip -----------------------------------------------------------------------------

class FakeMFRC522:
    """An MFRC522's SPI interface, registers, FIFO, timer and antenna, with ``tags``
    in its field. ``alive`` False: it no longer answers (MISO reads 0, as the RP2040's
    pull-down leaves it)."""

    def __init__(self, clock: SimClock, version: int = 0x92, reset_us: float = 0.0):
        self.clock = clock
        self.version = version
        self.reset_us = reset_us    # how long a soft reset keeps it busy (PowerDown set)
        self.wedged = False         # takes no soft reset any more: only RST or power helps
        self.garble = 0             # this many answers to come end with ErrIRq alone
        self.alive = True
        self._busy_until = 0.0
        self.tags: list[FakeTag] = []
        self.exchanges: list[str] = []      # what each frame sent was, for the tests
        self._reset()
        self._address: int | None = None
        self._read_next: int | None = None

    def _reset(self) -> None:
        self.regs = dict(RESET_VALUES)
        self.fifo: list[int] = []
        self._pending: tuple[float, dict] | None = None
        self._field(False)

    # --- the air -----------------------------------------------------------------------------

    @property
    def field_on(self) -> bool:
        """Whether the antenna drivers are on."""
        return self.alive and bool(self.regs[TxControlReg] & 0x03)

    def fail(self) -> None:
        """The reader stops answering (a loose wire, no power): its field is gone too."""
        self.alive = False
        self._field(False)

    def mend(self) -> None:
        """The reader is back, as after power-up."""
        self.alive = True
        self._reset()

    def hard_reset(self) -> None:
        """Its RST pin went low: it starts again as at power-up, wedged or not."""
        self.wedged = False
        self._busy_until = 0.0
        self._reset()

    def put(self, tag: FakeTag) -> None:
        """A tag comes into the field (powered at once when the field is on)."""
        self.tags.append(tag)
        tag.power(self.field_on, self.clock.now_us)

    def take(self, tag: FakeTag) -> None:
        """A tag leaves the field."""
        self.tags.remove(tag)
        tag.lift()

    def _field(self, on: bool) -> None:
        for tag in self.tags:
            tag.power(on, self.clock.now_us)

    def _timer_us(self) -> float:
        prescaler = ((self.regs.get(TModeReg, 0) & 0x0F) << 8) | self.regs.get(TPrescalerReg, 0)
        reload = (self.regs.get(TReloadRegH, 0) << 8) | self.regs.get(TReloadRegL, 0)
        return (2 * prescaler + 1) * (reload + 1) / FC * 1e6

    def _send(self, transceive: bool) -> None:
        """The FIFO goes on the air; with ``transceive``, the answer comes back into it."""
        framing = self.regs.get(BitFramingReg, 0)
        last_bits, align = framing & 0x07, (framing >> 4) & 0x07
        data, self.fifo = bytes(self.fifo), []
        bits = to_bits(data, len(data) * 8 - (8 - last_bits if last_bits else 0))
        now = self.clock.now_us
        self.exchanges.append(_name(data, len(bits)))
        answers = []
        for tag in self.tags if self.field_on else []:
            answer = tag.receive(bits, now)
            if answer is not None:
                answers.append(answer)
        sent_at = now + air_us(len(bits))
        self.regs[ErrorReg] = 0
        if not transceive:
            self._pending = (sent_at, {"irq": TX_IRQ | IDLE_IRQ, "idle": True})
        elif not answers:
            self._pending = (sent_at + self._timer_us(), {"irq": TIMER_IRQ})
        else:
            if self.garble:
                # A frame that came in broken: the chip flags the error and never RxIRq.
                self.garble -= 1
                self._pending = (sent_at + FDT_US + air_us(16), {"irq": ERR_IRQ, "error": PARITY_ERR})
                return
            received, collided = _combine(answers)
            outcome = {"irq": RX_IRQ, "fifo": from_bits(received, align),
                       "last_bits": (align + len(received)) % 8}
            if collided is not None:
                position = align + collided + 1
                outcome.update(irq=RX_IRQ | ERR_IRQ, error=COLL_ERR,
                               coll=(position & 0x1F) if position <= 32 else 0x20)
            self._pending = (sent_at + FDT_US + air_us(len(received)), outcome)

    def _settle(self) -> None:
        """Whatever was on the air and has ended by now shows in the registers."""
        if self._pending is None or self.clock.now_us < self._pending[0]:
            return
        outcome = self._pending[1]
        self._pending = None
        self.regs[ComIrqReg] |= outcome["irq"]
        self.fifo = list(outcome.get("fifo", b""))
        self.regs[ErrorReg] = outcome.get("error", 0)
        self.regs[ControlReg] = 0x10 | outcome.get("last_bits", 0)
        if "coll" in outcome:
            self.regs[CollReg] = (self.regs[CollReg] & 0x80) | outcome["coll"]
        if outcome.get("idle"):
            self.regs[CommandReg] &= 0xF0

    # --- registers ----------------------------------------------------------------------------

    def read(self, register: int) -> int:
        """The value read from ``register`` (the FIFO gives its next byte)."""
        self._settle()
        if register == CommandReg and self._busy():
            return self.regs[CommandReg] | POWER_DOWN
        if register == VersionReg:
            return self.version
        if register == FIFODataReg:
            return self.fifo.pop(0) if self.fifo else 0
        if register == FIFOLevelReg:
            return len(self.fifo)
        return self.regs.get(register, 0)

    def write(self, register: int, value: int) -> None:
        """Write ``value`` to ``register``, with what the datasheet says it does."""
        self._settle()
        if self._busy():
            return                  # still resetting: it takes no writes
        if register == CommandReg:
            command = value & 0x0F
            self.regs[CommandReg] = value & 0x30 | command
            if command == SOFT_RESET:
                self._reset()
                self._busy_until = float("inf") if self.wedged else self.clock.now_us + self.reset_us
            elif command == IDLE:
                self._pending = None
            elif command == TRANSMIT:
                self._send(transceive=False)
        elif register == ComIrqReg:
            bits = value & 0x7F
            self.regs[ComIrqReg] = self.regs[ComIrqReg] | bits if value & 0x80 else self.regs[ComIrqReg] & ~bits
        elif register == FIFOLevelReg:
            if value & 0x80:
                self.fifo = []
        elif register == FIFODataReg:
            if len(self.fifo) < FIFO_SIZE:
                self.fifo.append(value)
            else:
                self.regs[ErrorReg] |= BUFFER_OVFL
        elif register == BitFramingReg:
            self.regs[BitFramingReg] = value & 0x7F
            if value & 0x80 and self.regs[CommandReg] & 0x0F == TRANSCEIVE:
                self._send(transceive=True)
        elif register == TxControlReg:
            was = self.field_on
            self.regs[TxControlReg] = value
            if self.field_on != was:
                self._field(self.field_on)
        else:
            self.regs[register] = value

    def _busy(self) -> bool:
        return self.clock.now_us < self._busy_until

    # --- SPI ------------------------------------------------------------------------------

    def select(self) -> None:
        """Chip select went low: the next byte is an address."""
        self._address = None

    def byte(self, mosi: int) -> int:
        """One byte each way on the bus while selected."""
        if not self.alive:
            return 0x00
        if self._address is None:
            self._address = mosi
            self._read_next = (mosi >> 1) & 0x3F if mosi & 0x80 else None
            return 0x00
        if self._read_next is not None:
            # Each byte sent while reading names the next register; out comes the last one.
            value, self._read_next = self.read(self._read_next), (mosi >> 1) & 0x3F
            return value
        self.write((self._address >> 1) & 0x3F, mosi)
        return 0x00


def _combine(answers: list[list[int]]) -> tuple[list[int], int | None]:
    """What the reader hears when several tags answer at once: the bits they agree on,
    0s from the first bit where they differ on, and where that was (None if nowhere)."""
    length = max(len(answer) for answer in answers)
    for index in range(length):
        if len({answer[index] if index < len(answer) else None for answer in answers}) > 1:
            return answers[0][:index] + [0] * (length - index), index
    return answers[0], None


def _name(data: bytes, bits: int) -> str:
    """A short name for a frame the reader sends (for the tests' counts)."""
    if bits == 7:
        return {REQA: "REQA", WUPA: "WUPA"}.get(data[0], "short")
    if data[:1] == bytes([HLTA]):
        return "HLTA"
    if data[:1] and data[0] in SELECT_CODES:
        return "SELECT" if len(data) > 1 and data[1] == 0x70 else "ANTICOLLISION"
    return "other"


# --- the Pico -----------------------------------------------------------------------------------

class Bench:
    """A Pico with an MFRC522 on each of ``cs_pins``, all on one SPI bus.

    ``transfers`` counts SPI exchanges (chip select low, bytes, chip select high) and
    ``bytes`` the bytes clocked; ``clock`` is the simulated time they took.
    """

    def __init__(self, cs_pins: tuple[int, ...], rst_pin: int | None = None):
        self.clock = SimClock()
        self.cs_pins = cs_pins
        self.rst_pin = rst_pin      # wired to every chip's RST
        self.chips = {pin: FakeMFRC522(self.clock) for pin in cs_pins}
        self.pins: dict[int, Pin] = {}
        self.spi: SPI | None = None
        self.transfers = 0
        self.bytes = 0

    def chip(self, slot: int) -> FakeMFRC522:
        """The reader of ``slot`` (the one on the slot's chip-select pin)."""
        return self.chips[self.cs_pins[slot]]

    def selected(self) -> FakeMFRC522 | None:
        """The chip whose select is low; two at once would garble the bus."""
        low = [chip for pin, chip in self.chips.items() if pin in self.pins and self.pins[pin].level == 0]
        assert len(low) <= 1, "two chips selected at once"
        return low[0] if low else None

    def clock_byte(self, mosi: int) -> int:
        """One byte on the bus: its time, and the selected chip's answer."""
        assert self.spi is not None
        self.bytes += 1
        self.clock.now_us += 8 / self.spi.baudrate * 1e6
        chip = self.selected()
        return chip.byte(mosi) if chip is not None else 0x00


_bench: Bench | None = None


def use(bench: Bench) -> None:
    """Make ``bench`` the hardware that ``Pin`` and ``SPI`` reach."""
    global _bench
    _bench = bench


def _current() -> Bench:
    assert _bench is not None, "fake_machine.use(Bench(...)) first"
    return _bench


class Pin:
    """``machine.Pin``: levels only. A chip-select pin going low starts an SPI exchange."""

    IN, OUT = 0, 1
    PULL_UP, PULL_DOWN = 1, 2

    def __init__(self, pin_id: int, mode: int = -1, pull: int = -1, *, value: int | None = None):
        self.id = pin_id
        self.mode = mode
        self.level = 1 if value is None else value
        _current().pins[pin_id] = self

    def value(self, level: int | None = None) -> int | None:
        """Read the level, or set it."""
        if level is None:
            return self.level
        bench = _current()
        if self.level and not level and self.id == bench.rst_pin:
            for chip in bench.chips.values():
                chip.hard_reset()
        if self.level and not level and self.id in bench.chips:
            bench.transfers += 1
            bench.clock.now_us += CALL_US
            bench.chips[self.id].select()
        self.level = 1 if level else 0
        return None

    __call__ = value


class SPI:
    """``machine.SPI``: bytes out, bytes in, to whichever chip is selected."""

    def __init__(self, bus: int, baudrate: int = 1000000, polarity: int = 0, phase: int = 0, **pins):
        assert (polarity, phase) == (0, 0), "the MFRC522 speaks SPI mode 0"
        self.bus, self.baudrate, self.pins = bus, baudrate, pins
        _current().spi = self

    def write(self, data: bytes) -> None:
        """Send ``data``; what comes back is dropped."""
        for byte in data:
            _current().clock_byte(byte)

    def write_readinto(self, out: bytes, into: bytearray) -> None:
        """Send ``out`` and keep what comes back, byte for byte, in ``into``."""
        for index, byte in enumerate(out):
            into[index] = _current().clock_byte(byte)
