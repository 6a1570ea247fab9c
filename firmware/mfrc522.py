"""A small MFRC522 driver: find the ISO/IEC 14443 A tags in a reader's field.

Only what the hub needs, at register level, with the names of the NXP MFRC522 datasheet
(rev. 3.9) and of ISO/IEC 14443-3:

* SPI (datasheet 8.1.2): one exchange per chip-select low; its first byte is the address,
  ``1 a5..a0 0`` to read register ``a``, ``0 a5..a0 0`` to write it. Written bytes after
  the address all go to that register (for FIFODataReg: one after the other into the
  FIFO); when reading, each byte sent names the next register to read and the byte that
  comes back is the value of the one named before.
* :meth:`MFRC522.inventory`: first the tags the slot had at the last scan, each with
  REQA and a SELECT of its known UID, level after level (no anticollision: these tags
  lie still most of the time, and this saves a third of their air time); then, while a tag
  answers REQA, anticollision and select through the cascade levels (4, 7 or 10 byte
  UIDs). Each tag read is sent HLTA, so that the next REQA is answered by the others
  only. A halted tag stays halted until it loses power: the scanner switches the field
  off between two scans, so that every scan starts afresh.

One exchange with the tags (:meth:`MFRC522._transceive`) is: Idle, clear the interrupt
bits, flush the FIFO, write the frame into the FIFO, Transceive, then the bit framing
with StartSend; poll ComIrqReg until the answer is in (RxIRq) or the timer says nobody
answered (TimerIRq); then read the FIFO.
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
IdleIRq = 0x10
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

#: VersionReg of the chips that speak this register set: MFRC522 0.0, 1.0, 2.0, the
#: FM17522 found on many boards, and a common clone.
KNOWN_VERSIONS = (0x90, 0x91, 0x92, 0x88, 0x12)

# --- ISO/IEC 14443-3 type A --------------------------------------------------------------
REQA = 0x26             # a short frame of 7 bits
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
#: Reads of CommandReg while the chip comes out of a soft reset.
MAX_RESET_POLLS = 50


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


def hex_uid(uid):
    """A UID as upper-case hex digits, as the protocol carries it."""
    return "".join(f"{byte:02X}" for byte in uid)


class MFRC522:
    """One MFRC522 on an SPI bus (``machine.SPI``), selected by its own ``cs`` pin."""

    def __init__(self, spi, cs):
        self.spi = spi
        self.cs = cs

    # --- the chip ------------------------------------------------------------------------

    def init(self):
        """Reset the chip and set it up for type A tags; ReaderError if it does not answer."""
        self._write(CommandReg, SoftReset)
        for _ in range(MAX_RESET_POLLS):
            if not self._read(CommandReg) & PowerDown:
                break
        else:
            raise ReaderError("stuck in reset")
        self.check()
        # The timer starts when a frame has been sent (TAuto) and ticks at
        # 13.56 MHz / (2 * 169 + 1) = 40 kHz; 20 ticks: a tag that has not begun to
        # answer 0.5 ms after the frame is not there (they answer within 0.1 ms).
        self._write(TModeReg, 0x80)
        self._write(TPrescalerReg, 169)
        self._write(TReloadRegH, 0)
        self._write(TReloadRegL, 19)
        self._write(TxASKReg, 0x40)     # 100 % ASK modulation, as type A asks
        self._write(ModeReg, 0x3D)      # CRC preset 6363h, the transmitter waits for the field
        self._write(CollReg, 0x00)      # ValuesAfterColl off: bits after a collision read 0
        self.field_off()

    def check(self):
        """ReaderError unless the chip answers with a known VersionReg."""
        version = self._read(VersionReg)
        if version not in KNOWN_VERSIONS:
            raise ReaderError(f"no answer (VersionReg {version:02X})")

    def field_on(self):
        """Switch the antenna's field on: the tags on the reader get power."""
        self._write(TxControlReg, TxControlReset | Tx1RFEn_Tx2RFEn)

    def field_off(self):
        """Switch the field off: the tags lose power (and forget being halted)."""
        self._write(TxControlReg, TxControlReset)

    # --- the tags ------------------------------------------------------------------------

    def inventory(self, limit, known=()):
        """The UIDs (hex) of up to ``limit`` tags in the field, powered for at least 5 ms.

        ``known`` are UIDs (hex) likely to be there: they are looked for first, by
        name. A round that goes wrong (a tag answering garbled) costs one of the
        ``limit`` rounds; that tag is read again at the next scan.
        """
        self.check()
        uids = []
        for uid in known[:limit]:
            if not self._request():
                return uids         # nobody at all answers: the others are gone too
            if self._select_known(binascii.unhexlify(uid)):
                uids.append(uid)
                self._halt()
        for _ in range(limit - len(uids)):
            if not self._request():
                break
            # One answer, or several colliding: either way a tag is there to select.
            uid = self._select()
            if uid is not None:
                uids.append(hex_uid(uid))
                self._halt()
        return uids

    def _request(self):
        """REQA: True when a tag (or several, colliding) answered."""
        self._start(Transceive, bytes([REQA]), 7)
        return bool(self._wait(RxIRq | TimerIRq) & RxIRq)

    def _select_known(self, uid):
        """SELECT the tag with ``uid`` (bytes), level after level: True when it answered."""
        if len(uid) == 4:
            parts = [uid]
        else:   # 7 or 10 bytes: three bytes a level after a cascade tag, four at the last
            parts = [bytes([CASCADE_TAG]) + uid[start:start + 3] for start in range(0, len(uid) - 4, 3)]
            parts.append(uid[-4:])
        for index, part in enumerate(parts):
            sak = self._select_level(SELECT_CODES[index], part)
            last = index == len(parts) - 1
            if sak is None or bool(sak & SAK_MORE) == last:
                return False
        return True

    def _select(self):
        """Anticollision and select, level after level: the selected tag's UID, or None."""
        uid = bytearray()
        for code in SELECT_CODES:
            part = self._anticollision(code)
            if part is None:
                return None
            sak = self._select_level(code, part)
            if sak is None:
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
            request = bytes([code, ((2 + whole) << 4) | bits]) + bytes(level[:sent])
            # The answer goes on where the request stopped: its first bit lands at bit
            # ``bits`` of the first byte in the FIFO (RxAlign).
            status, data, position = self._transceive(request, tx_last_bits=bits, rx_align=bits)
            if status == NO_ANSWER or status == GARBLED or not data or len(data) > 5 - whole:
                return None
            ours = (1 << bits) - 1
            level[whole] = (level[whole] & ours) | (data[0] & ~ours & 0xFF)
            for index in range(1, len(data)):
                level[whole + index] = data[index]
            if status == ANSWERED:
                if whole + len(data) != 5 or level[0] ^ level[1] ^ level[2] ^ level[3] != level[4]:
                    return None
                return bytes(level[:4])
            # CollPos counts the bits in the FIFO from its first byte's bit 0, the RxAlign
            # bits included (as NXP's reader library reads it): it is a position within
            # the level counted from byte ``whole``.
            collided = whole * 8 + position - 1
            if collided < known or collided >= 32:
                return None
            byte, bit = collided >> 3, collided & 7
            level[byte] = (level[byte] & ((1 << bit) - 1)) | (1 << bit)
            for index in range(byte + 1, 5):
                level[index] = 0
            known = collided + 1
        return None

    def _select_level(self, code, part):
        """SELECT the tag whose level is ``part``: its SAK, or None."""
        request = bytes([code, NVB_SELECT]) + part + bytes([part[0] ^ part[1] ^ part[2] ^ part[3]])
        status, data, _ = self._transceive(request + crc_a(request))
        if status != ANSWERED or len(data) != 3 or crc_a(data[:1]) != data[1:]:
            return None
        return data[0]

    def _halt(self):
        """HLTA to the selected tag: it keeps quiet until its field goes off.

        A halted tag does not answer, so the frame is only sent (Transmit), not awaited.
        """
        request = bytes([HLTA, 0])
        self._start(Transmit, request + crc_a(request), 0)
        self._wait(IdleIRq)

    # --- one exchange ----------------------------------------------------------------------

    def _transceive(self, request, tx_last_bits=0, rx_align=0):
        """Send ``request`` (its last byte cut to ``tx_last_bits`` bits when not 0) and take
        the answer: ``(status, data, collision position)``."""
        self._start(Transceive, request, (rx_align << 4) | tx_last_bits)
        irq = self._wait(RxIRq | TimerIRq)
        if not irq & RxIRq:
            return NO_ANSWER, b"", 0
        error = self._read(ErrorReg) if irq & ErrIRq else 0
        count = self._read(FIFOLevelReg) & 0x7F
        data = self._read_fifo(count) if count else b""
        if error & CollErr:
            collision = self._read(CollReg)
            if collision & CollPosNotValid:
                return GARBLED, data, 0
            return COLLISION, data, (collision & 0x1F) or 32
        if error & (BufferOvfl | CRCErr | ParityErr | ProtocolErr):
            return GARBLED, data, 0
        return ANSWERED, data, 0

    def _start(self, command, request, framing):
        """Load ``request`` into the FIFO and start ``command`` with it."""
        self._write(CommandReg, Idle)              # stop whatever the chip was doing
        self._write(ComIrqReg, 0x7F)               # Set1 = 0: the 1s clear every request bit
        self._write(FIFOLevelReg, FlushBuffer)
        self._write(FIFODataReg, request)
        if command == Transceive:
            # Transceive waits for StartSend: bit framing and start go in one write.
            self._write(CommandReg, Transceive)
            self._write(BitFramingReg, framing | StartSend)
        else:
            self._write(BitFramingReg, framing)
            self._write(CommandReg, command)

    def _wait(self, mask):
        """Poll ComIrqReg until one of the ``mask`` bits is set; its value."""
        for _ in range(MAX_POLLS):
            irq = self._read(ComIrqReg)
            if irq & mask:
                return irq
        raise ReaderError("the chip never finished an exchange")

    # --- SPI -------------------------------------------------------------------------------

    def _write(self, register, value):
        """Write ``value`` (a byte, or bytes for the FIFO) to ``register``: one SPI exchange."""
        data = bytes([value]) if isinstance(value, int) else value
        self.cs(0)
        try:
            self.spi.write(bytes([(register << 1) & 0x7E]) + data)
        finally:
            self.cs(1)

    def _read(self, register):
        """The value of ``register``: one SPI exchange."""
        return self._read_many(register, 1)[0]

    def _read_fifo(self, count):
        """``count`` bytes out of the FIFO, in one SPI exchange."""
        return self._read_many(FIFODataReg, min(count, 64))

    def _read_many(self, register, count):
        address = 0x80 | ((register << 1) & 0x7E)
        out = bytearray([address] * count + [0])
        into = bytearray(count + 1)
        self.cs(0)
        try:
            self.spi.write_readinto(out, into)
        finally:
            self.cs(1)
        return bytes(into[1:])
