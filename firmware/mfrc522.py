"""A small MFRC522 driver: find the ISO/IEC 14443 A tags in a reader's field.

Only what the hub needs, at register level, with the names of the NXP MFRC522 datasheet
(rev. 3.9) and of ISO/IEC 14443-3:

* SPI (datasheet 8.1.2): one exchange per chip-select low; its first byte is the address,
  ``1 a5..a0 0`` to read register ``a``, ``0 a5..a0 0`` to write it. Written bytes after
  the address all go to that register (for FIFODataReg: one after the other into the
  FIFO); when reading, each byte sent names the next register to read and the byte that
  comes back is the value of the one named before.
* :meth:`MFRC522.inventory`: first the tags the slot had at the last scan, each with
  WUPA and a SELECT of its known UID, level after level (no anticollision: these tags
  lie still most of the time, and this saves a third of their air time); then, while a tag
  answers REQA, anticollision and select through the cascade levels (4, 7 or 10 byte
  UIDs). Each tag read is sent HLTA, so that the next REQA is answered by the others
  only. A halted tag stays halted until its field has been off for about 5 ms: the
  scanner switches the field off between two scans, but on a hub of one or two readers
  it is off for less than 0.1 ms, so a tag read at the last scan may still be halted.
  WUPA (unlike REQA) wakes a halted tag too, so a known tag answers either way.

One exchange with the tags (:meth:`MFRC522._transceive`) is: Idle, clear the interrupt
bits, flush the FIFO, write the frame into the FIFO, Transceive, then the bit framing
with StartSend; sleep until the answer should be in (the frames' lengths give it, to
the bit: ISO/IEC 14443-3 fixes when a tag answers), then read ComIrqReg until the
answer is in (RxIRq), it came in broken (ErrIRq) or the timer says nobody answered
(TimerIRq); then read the FIFO. Sleeping instead of polling saves the exchanges that
only find the frame still on the air, and the part of one that overshoots its end.

Any chip that answers is taken: boards sold as RC522 carry the MFRC522 (VersionReg 91h,
92h), the FM17522 (88h) and clones answering 12h, 15h, 80h, 89h and more, all with the
same registers. Only 00h and FFh (MISO held low or high: nothing answers) are refused.
"""

import binascii

# --- registers (datasheet table 20) ----------------------------------------------------
CommandReg = 0x01
ComIrqReg = 0x04
ErrorReg = 0x06
FIFODataReg = 0x09
FIFOLevelReg = 0x0A
BitFramingReg = 0x0D
CollReg = 0x0E
ModeReg = 0x11
TxControlReg = 0x14
TxASKReg = 0x15
TModeReg = 0x2A
TPrescalerReg = 0x2B
TReloadRegH = 0x2C
TReloadRegL = 0x2D
VersionReg = 0x37

# --- commands (CommandReg, datasheet table 149) -----------------------------------------
Idle = 0x00
Transmit = 0x04
Transceive = 0x0C
SoftReset = 0x0F
PowerDown = 0x10        # CommandReg: set while the chip is (still) in soft power-down

# --- register bits ---------------------------------------------------------------------
RxIRq = 0x20
ErrIRq = 0x02
TimerIRq = 0x01
FlushBuffer = 0x80      # FIFOLevelReg
StartSend = 0x80        # BitFramingReg
BufferOvfl = 0x10       # ErrorReg
CollErr = 0x08
CRCErr = 0x04
ParityErr = 0x02
ProtocolErr = 0x01
CollPosNotValid = 0x20  # CollReg
Tx1RFEn_Tx2RFEn = 0x03  # TxControlReg: the two antenna drivers
TxControlReset = 0x80   # TxControlReg's reset value: both drivers off

#: VersionReg as read when no chip drives MISO: held low (the RP2040's pull-down, a
#: reader unpowered or unplugged) or floating high.
NO_CHIP_VERSIONS = (0x00, 0xFF)

# --- ISO/IEC 14443-3 type A --------------------------------------------------------------
REQA = 0x26             # a short frame of 7 bits: idle tags answer
WUPA = 0x52             # the same, and halted tags answer too
HLTA = 0x50
SELECT_CODES = (0x93, 0x95, 0x97)   # SEL of cascade levels 1, 2, 3
NVB_SELECT = 0x70       # 7 whole bytes: SEL, NVB, 4 UID bytes and BCC
CASCADE_TAG = 0x88      # first byte of a level that is not the UID's last
SAK_MORE = 0x04         # SAK: the UID is not complete, go on with the next level

# --- how an exchange ended ---------------------------------------------------------------
ANSWERED = 0
NO_ANSWER = 1
COLLISION = 2
GARBLED = 3

#: ComIrqReg reads while waiting for an exchange to end. The timer ends every exchange
#: within 0.5 ms after the frame is sent; a few milliseconds of polls without any end
#: means the chip is not running.
MAX_POLLS = 200
#: How long a reset may take. The datasheet (8.8.2) gives the crystal's start-up time
#: plus 37.74 us and no upper bound; a chip coming out of soft power-down takes a few
#: milliseconds. 50 ms is generous (as the widely used Arduino library waits).
RESET_TIMEOUT_US = 50000
#: The pause between two looks at CommandReg while the chip resets.
RESET_POLL_US = 500
#: How long RST is held low for a hard reset (the datasheet asks for 100 ns).
RST_LOW_US = 100

# --- time on the air (ISO/IEC 14443-3 at 106 kbit/s), in whole microseconds ---------------
#: One bit on the air: 128 carrier cycles at 13.56 MHz, in nanoseconds.
ETU_NS = 9440
#: From the end of the reader's frame to the start of the tag's answer (FDT, 1236 / fc).
FDT_US = 92
#: The chip's timer period (see :meth:`MFRC522.init`): 8 ticks of 339 / 13.56 MHz.
TIMER_US = 200
#: What an exchange is waited for beyond the air time the driver works out: the chip's
#: own delays, and a rounding.
AIR_MARGIN_US = 10
#: Register reads timed at set-up to learn what one SPI exchange costs.
CALIBRATION_READS = 4


class ReaderError(Exception):
    """The reader does not answer as an MFRC522 does (unplugged, unpowered, broken)."""


def crc_a(data):
    """The two CRC_A bytes of ``data`` (ISO/IEC 14443-3 annex B), low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return bytes([crc & 0xFF, crc >> 8])


def air_us(bits):
    """How long a frame of ``bits`` data bits is on the air: start, a parity bit per whole
    byte, end (integers only: a float is an allocation on the Pico)."""
    return ((2 + bits + bits // 8) * ETU_NS + 999) // 1000


def hex_uid(uid):
    """A UID as upper-case hex digits, as the protocol carries it."""
    return "".join(f"{byte:02X}" for byte in uid)


def hard_reset(rst, clock):
    """Pull the RST line ``rst`` (a ``machine.Pin``) low and let it go: every chip on it
    restarts as at power-up, even one wedged so that it no longer takes a soft reset.
    Waits out the chips' start-up; ``clock`` is MicroPython's ``time``."""
    rst(0)
    clock.sleep_us(RST_LOW_US)
    rst(1)
    clock.sleep_us(RESET_TIMEOUT_US)


class MFRC522:
    """One MFRC522 on an SPI bus (``machine.SPI``), selected by its own ``cs`` pin.

    ``clock`` gives ``ticks_us()``, ``ticks_diff(a, b)`` and ``sleep_us(n)`` (MicroPython's
    ``time``): the waits of a reset and of frames on the air. ``version`` is the chip's
    VersionReg once it answered; ``exchange_us`` what one SPI exchange with it was timed
    to cost at set-up (firmware/README.md assumes 40 us).
    """

    def __init__(self, spi, cs, clock):
        self.spi = spi
        self.cs = cs
        self.clock = clock
        self.version = None
        # Every buffer of an exchange is allocated once, here: the scan loop makes a
        # thousand exchanges a second, and garbage would make the collector run.
        self._out = bytearray(2)        # a register's address and value
        self._in = bytearray(2)
        # The frame to send, after FIFODataReg's address: SEL, NVB, four bytes, BCC, CRC.
        self._frame = bytearray(10)
        self._frame[0] = (FIFODataReg << 1) & 0x7E
        frame = memoryview(self._frame)
        self._frame_views = [frame[:1 + length] for length in range(10)]
        # FIFOLevelReg, then up to five FIFO bytes, in one exchange.
        self._answer = bytearray(7)
        answer = memoryview(self._answer)
        fifo = 0x80 | ((FIFODataReg << 1) & 0x7E)
        out = bytearray([0x80 | ((FIFOLevelReg << 1) & 0x7E)] + [fifo] * 5 + [0])
        self._answer_out = [memoryview(bytearray(out[:1 + count] + b"\x00")) for count in range(6)]
        self._answer_in = [answer[:2 + count] for count in range(6)]
        self._rx = bytearray(5)         # the answer
        self._rx_count = 0
        self._collision = 0             # where the answer collided (CollReg's CollPos)
        self._command = -1              # the command the chip runs now, as far as known
        self._fifo_empty = False        # whether the FIFO is known to be empty: no flush
        self.exchange_us = 0

    # --- the chip ------------------------------------------------------------------------

    def init(self):
        """Reset the chip and set it up for type A tags; ReaderError if it does not answer."""
        self._command = -1
        self._fifo_empty = False
        self._write(CommandReg, SoftReset)
        self._wait_reset()
        self._command = Idle
        self.check()
        # An exchange's end is known from the frames' lengths: the driver sleeps through
        # the air time and reads ComIrqReg once as the answer ends, instead of polling it
        # all along. It needs what one register read costs here.
        started = self.clock.ticks_us()
        for _ in range(CALIBRATION_READS):
            self._read(VersionReg)
        self.exchange_us = self.clock.ticks_diff(self.clock.ticks_us(), started) // CALIBRATION_READS
        # The timer starts when a frame has been sent (TAuto) and ticks at
        # 13.56 MHz / (2 * 169 + 1) = 40 kHz; 8 ticks: a tag that has not begun to
        # answer 0.2 ms after the frame is not there. The anticollision and select
        # answers start 91 us after the frame (ISO/IEC 14443-3, FDT), and the timer stops
        # at the fifth bit of an answer (datasheet, TModeReg), 0.14 ms after the frame.
        self._write(TModeReg, 0x80)
        self._write(TPrescalerReg, 169)
        self._write(TReloadRegH, 0)
        self._write(TReloadRegL, 7)
        self._write(TxASKReg, 0x40)     # 100 % ASK modulation, as type A asks
        self._write(ModeReg, 0x3D)      # CRC preset 6363h, the transmitter waits for the field
        self._write(CollReg, 0x00)      # ValuesAfterColl off: bits after a collision read 0
        self.field_off()

    def _wait_reset(self):
        """Wait, with pauses, until the chip is out of its reset (PowerDown clear)."""
        started = self.clock.ticks_us()
        while self._read(CommandReg) & PowerDown:
            if self.clock.ticks_diff(self.clock.ticks_us(), started) >= RESET_TIMEOUT_US:
                raise ReaderError("stuck in reset")
            self.clock.sleep_us(RESET_POLL_US)

    def check(self):
        """ReaderError unless a chip answers (any VersionReg but 00h and FFh)."""
        version = self._read(VersionReg)
        if version in NO_CHIP_VERSIONS:
            raise ReaderError(f"no answer (VersionReg {version:02X})")
        self.version = version

    def field_on(self):
        """Switch the antenna's field on: the tags on the reader get power."""
        self._write(TxControlReg, TxControlReset | Tx1RFEn_Tx2RFEn)

    def field_off(self):
        """Switch the field off: the tags lose power (and, after about 5 ms, forget
        being halted)."""
        self._write(TxControlReg, TxControlReset)

    # --- the tags ------------------------------------------------------------------------

    def inventory(self, limit, known=()):
        """The UIDs (hex) of up to ``limit`` tags in the field, powered for at least 5 ms.

        ``known`` are UIDs (hex) likely to be there: they are looked for first, by
        name. A round that goes wrong (a tag answering garbled) costs one of the
        ``limit`` rounds; that tag is read again at the next scan. (The scanner calls
        :meth:`find`, which allocates nothing for tags that lie still.)
        """
        known = [binascii.unhexlify(uid) for uid in known[:limit]]
        seen = bytearray(len(known))
        new = self.find(known, seen, limit)
        return [hex_uid(uid) for uid, found in zip(known, seen) if found] + [hex_uid(uid) for uid in new or ()]

    def find(self, known, seen, limit, between=None):
        """Look for the tags of ``known`` (UIDs as bytes), then for up to ``limit`` tags in
        all: ``seen[i]`` is set to 1 when ``known[i]`` answered, to 0 when not; the UIDs
        (bytes) of the new tags, or None when there is none (nothing is allocated).

        ``between()``, if given, is called after each tag read (and halted): the scanner
        reads another reader then. The tags here keep their state meanwhile (a halted
        tag stays halted while its field is on)."""
        self.check()
        found = 0
        count = len(known)
        for index in range(count):
            seen[index] = 0
        for index in range(count):
            if found >= limit:
                return None
            # WUPA: the tag may still be halted from the last scan (a short field-off).
            if not self._request(WUPA):
                return None         # nobody at all answers: the others are gone too
            if self._select_known(known[index]):
                seen[index] = 1
                found += 1
                self._halt()
                if between is not None:
                    between()
        new = None
        while found < limit:
            # REQA: the tags halted in this scan keep quiet, only new ones answer.
            if not self._request(REQA):
                break
            found += 1              # a round, even one that goes wrong
            # One answer, or several colliding: either way a tag is there to select.
            uid = self._select()
            if uid is not None:
                if new is None:
                    new = []
                new.append(uid)
                self._halt()
                if between is not None:
                    between()
        return new

    def _request(self, command):
        """REQA or WUPA: True when a tag (or several, colliding) answered, even garbled.
        The answer (ATQA) itself is not needed: the FIFO is flushed before the next."""
        frame = self._frame
        frame[1] = command
        self._start(1, 7)
        # A WUPA is for a known tag, likely there: its ATQA is waited for. A REQA usually
        # finds nobody: the timer is.
        wait = FDT_US + ATQA_US if command == WUPA else TIMER_US
        return bool(self._end(RxIRq | ErrIRq | TimerIRq, REQUEST_US + wait) & (RxIRq | ErrIRq))

    def _select_known(self, uid):
        """SELECT the tag with ``uid`` (bytes), level after level: True when it answered.
        A 4-byte UID is one level; 7 and 10 bytes are three bytes a level after a cascade
        tag, then four at the last."""
        levels = (len(uid) - 1) // 3       # 4 -> 1, 7 -> 2, 10 -> 3
        for level in range(levels):
            last = level == levels - 1
            frame = self._frame
            # Byte by byte: MicroPython builds a tuple for an assignment of four at once.
            if last:
                start = len(uid) - 4
                frame[3] = uid[start]
                start += 1
            else:
                start = 3 * level
                frame[3] = CASCADE_TAG
            frame[4] = uid[start]
            frame[5] = uid[start + 1]
            frame[6] = uid[start + 2]
            sak = self._select_level(SELECT_CODES[level])
            if sak < 0 or bool(sak & SAK_MORE) == last:
                return False
        return True

    def _select(self):
        """Anticollision and select, level after level: the selected tag's UID, or None."""
        uid = bytearray()
        for code in SELECT_CODES:
            part = self._anticollision(code)
            if part is None:
                return None
            frame = self._frame
            for index in range(4):
                frame[3 + index] = part[index]
            sak = self._select_level(code)
            if sak < 0:
                return None
            if not sak & SAK_MORE:
                return bytes(uid + part)
            if part[0] != CASCADE_TAG:
                return None
            uid += part[1:]
        return None

    def _anticollision(self, code):
        """The four UID bytes of one cascade level of one of the tags answering, or None.

        Each round sends the bits known so far; the tags that match answer with the rest.
        When they disagree, CollReg gives the first bit where they did: keep the bits
        before it, take the 1 branch there, and ask again.
        """
        level = bytearray(5)      # the level's four UID bytes and BCC, as far as known
        known = 0                 # how many of its bits are known
        while known < 40:
            whole, bits = known >> 3, known & 7
            sent = whole + (1 if bits else 0)
            frame = self._frame
            frame[1], frame[2] = code, ((2 + whole) << 4) | bits
            for index in range(sent):
                frame[3 + index] = level[index]
            # The answer goes on where the request stopped: its first bit lands at bit
            # ``bits`` of the first byte in the FIFO (RxAlign).
            status = self._transceive(2 + sent, (bits << 4) | bits, 5 - whole, 40 - known)
            data, length = self._rx, self._rx_count
            if status == NO_ANSWER or status == GARBLED or not length or length > 5 - whole:
                return None
            ours = (1 << bits) - 1
            level[whole] = (level[whole] & ours) | (data[0] & ~ours & 0xFF)
            for index in range(1, length):
                level[whole + index] = data[index]
            if status == ANSWERED:
                if whole + length != 5 or level[0] ^ level[1] ^ level[2] ^ level[3] != level[4]:
                    return None
                return bytes(level[:4])
            # CollPos counts the bits in the FIFO from its first byte's bit 0, the RxAlign
            # bits included (as NXP's reader library reads it): it is a position within
            # the level counted from byte ``whole``.
            collided = whole * 8 + self._collision - 1
            if collided < known or collided >= 32:
                return None
            byte, bit = collided >> 3, collided & 7
            level[byte] = (level[byte] & ((1 << bit) - 1)) | (1 << bit)
            for index in range(byte + 1, 5):
                level[index] = 0
            known = collided + 1
        return None

    def _select_level(self, code):
        """SELECT the tag whose level is in the frame's bytes 3-6: its SAK, or -1."""
        frame = self._frame
        frame[1], frame[2] = code, NVB_SELECT
        frame[7] = frame[3] ^ frame[4] ^ frame[5] ^ frame[6]
        crc = _crc(frame, 1, 8)
        frame[8], frame[9] = crc & 0xFF, crc >> 8
        status = self._transceive(9, 0, 3, 24)
        rx = self._rx
        if status != ANSWERED or self._rx_count != 3 or _crc(rx, 0, 1) != rx[1] | (rx[2] << 8):
            return -1
        return rx[0]

    def _halt(self):
        """HLTA to the selected tag: it keeps quiet until its field goes off.

        A halted tag does not answer, so the frame is only sent (Transmit), not awaited.
        Transmit ends by itself (CommandReg goes back to Idle): that is what is read, once
        the frame's air time is over, so ComIrqReg need not be cleared for it.
        """
        frame = self._frame
        frame[1] = HLTA
        frame[2] = 0
        frame[3] = HLTA_CRC & 0xFF
        frame[4] = HLTA_CRC >> 8
        self._start(4, 0, Transmit)
        wait = HLTA_US + AIR_MARGIN_US - self.exchange_us
        if wait > 0:
            self.clock.sleep_us(wait)
        for _ in range(MAX_POLLS):
            if self._read(CommandReg) & 0x0F == Idle:
                self._command = Idle
                self._fifo_empty = True     # the frame left the FIFO, nothing came in
                return
        self._command = -1
        raise ReaderError("the chip never finished an exchange")

    # --- one exchange ----------------------------------------------------------------------

    def _transceive(self, length, framing, expected, answer_bits):
        """Send the frame's first ``length`` bytes with bit framing ``framing`` (RxAlign,
        TxLastBits) and take the answer, up to ``expected`` bytes, into ``_rx``
        (``_rx_count`` of them): the status; on a collision, its position in
        ``_collision``. ``answer_bits``: how long the answer expected is."""
        self._start(length, framing)
        sent = length * 8 - (8 - (framing & 7) if framing & 7 else 0)
        # A frame that came in broken may end with ErrIRq alone, without RxIRq.
        irq = self._end(RxIRq | ErrIRq | TimerIRq, air_us(sent) + FDT_US + air_us(answer_bits))
        self._rx_count = 0
        if not irq & (RxIRq | ErrIRq):
            return NO_ANSWER
        error = self._read(ErrorReg) if irq & ErrIRq else 0
        if not irq & RxIRq:
            return GARBLED
        self._read_answer(expected)
        if error & CollErr:
            collision = self._read(CollReg)
            if collision & CollPosNotValid:
                return GARBLED
            self._collision = (collision & 0x1F) or 32
            return COLLISION
        if error & (BufferOvfl | CRCErr | ParityErr | ProtocolErr):
            return GARBLED
        return ANSWERED

    def _start(self, length, framing, command=Transceive):
        """Load the frame's first ``length`` bytes into the FIFO and send them.

        Transceive sends whenever StartSend is set and stays on (datasheet 10.3.1.8): after
        an answer came in, the chip is ready for the next frame as it is. Only after a
        frame nobody answered (the receiver may still be listening), an error or another
        command is it set Idle and Transceive again: that saves two exchanges a frame.
        """
        if self._command != Idle and (self._command != Transceive or command != Transceive):
            self._write(CommandReg, Idle)          # stop whatever the chip was doing
            self._command = Idle
        if command == Transceive:                  # (a Transmit's end is read in CommandReg)
            self._write(ComIrqReg, 0x7F)           # Set1 = 0: the 1s clear every request bit
        if not self._fifo_empty:                   # an answer not read, or not all of it
            self._write(FIFOLevelReg, FlushBuffer)
        self._fifo_empty = False
        self._write_fifo(length)
        if command == Transceive:
            if self._command != Transceive:
                self._write(CommandReg, Transceive)
            # Transceive waits for StartSend: bit framing and start go in one write.
            self._write(BitFramingReg, framing | StartSend)
        else:
            self._write(BitFramingReg, framing)
            self._write(CommandReg, command)
        self._command = command

    def _end(self, mask, air):
        """Poll ComIrqReg until one of the ``mask`` bits is set; its value. ``air``: when
        the exchange should end (microseconds after its frame was started): the first
        read is timed to come then. An exchange that did not end with an answer leaves
        the chip to be set Idle first next time."""
        wait = air + AIR_MARGIN_US - self.exchange_us
        if wait > 0:
            self.clock.sleep_us(wait)
        for _ in range(MAX_POLLS):
            irq = self._read(ComIrqReg)
            if irq & mask:
                if not irq & RxIRq:
                    self._command = -1
                    self._fifo_empty = False
                return irq
        self._command = -1
        raise ReaderError("the chip never finished an exchange")

    # --- SPI -------------------------------------------------------------------------------

    def _write(self, register, value):
        """Write the byte ``value`` to ``register``: one SPI exchange."""
        out = self._out
        out[0] = (register << 1) & 0x7E
        out[1] = value
        self.cs(0)
        try:
            self.spi.write(out)
        finally:
            self.cs(1)

    def _write_fifo(self, length):
        """Write the frame's first ``length`` bytes into the FIFO: one SPI exchange."""
        self.cs(0)
        try:
            self.spi.write(self._frame_views[length])
        finally:
            self.cs(1)

    def _read(self, register):
        """The value of ``register``: one SPI exchange."""
        out = self._out
        out[0] = 0x80 | ((register << 1) & 0x7E)
        out[1] = 0
        self.cs(0)
        try:
            self.spi.write_readinto(out, self._in)
        finally:
            self.cs(1)
        return self._in[1]

    def _read_answer(self, expected):
        """FIFOLevelReg and the ``expected`` bytes of the answer, in one SPI exchange: each
        byte sent names the next register to read. ``_rx`` gets what the FIFO held (up to
        ``expected`` bytes), ``_rx_count`` how many; more than expected is left in the
        FIFO (flushed before the next frame) and counts as ``expected + 1``."""
        self.cs(0)
        try:
            self.spi.write_readinto(self._answer_out[expected], self._answer_in[expected])
        finally:
            self.cs(1)
        got = self._answer[1] & 0x7F
        self._rx_count = got if got <= expected else expected + 1
        self._fifo_empty = got <= expected
        rx, answer = self._rx, self._answer
        for index in range(min(got, expected)):
            rx[index] = answer[2 + index]


def _crc(data, start, end):
    """CRC_A of ``data[start:end]`` as a number (its low byte goes first on the air)."""
    crc = 0x6363
    for index in range(start, end):
        byte = data[index] ^ (crc & 0xFF)
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = (crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)
    return crc


HLTA_CRC = _crc(bytes([HLTA, 0]), 0, 2)
#: The air times of the frames whose length is fixed: a request (7 bits), its ATQA (two
#: bytes), an HLTA (four bytes).
REQUEST_US = air_us(7)
ATQA_US = air_us(16)
HLTA_US = air_us(32)
