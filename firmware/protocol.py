"""The reader hub's line protocol, hub side (shared/DESIGN.md, "Reader hub protocol").

Every line is ``<seq> <verb> [args] *<hh>`` and a newline. ``seq`` counts 0-9999 and
wraps; ``hh`` is the XOR of every byte before `` *``, as two upper-case hex digits (as in
NMEA). The hub sends ``hello``, ``on``, ``off``, ``state``, ``err`` and ``pong``; the
host sends ``hello?``, ``state?`` and ``ping``, framed the same way.

    >>> frame(3, "state?")
    '3 state? *5B\\n'
    >>> parse(b"3 state? *5B")
    (3, 'state?', [])
"""

SEQ_MODULO = 10000
#: The longest line the hub keeps from the host; its requests are a few words, so a
#: longer line is noise and is dropped whole.
MAX_HOST_LINE = 64
_HEX_DIGITS = "0123456789ABCDEF"
#: What :meth:`LineReader.feed` returns when no line is complete: one list, never changed.
NO_LINES = []


def checksum(text):
    """The XOR of the bytes of ``text`` (ASCII)."""
    value = 0
    for byte in text.encode():
        value ^= byte
    return value


def frame(seq, body):
    """The line (with its newline) that carries ``body`` — a verb and its arguments."""
    text = f"{seq} {body}"
    return f"{text} *{checksum(text):02X}\n"


def parse(raw):
    """``(seq, verb, args)`` of one line (bytes, without the newline), or None when it is
    not a well-formed line with a good checksum."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    for byte in raw:
        if byte < 0x20 or byte > 0x7E:
            return None
    line = raw.decode()
    cut = line.rfind(" *")
    if cut < 0 or len(line) != cut + 4:
        return None
    digits = line[cut + 2:]
    if digits[0] not in _HEX_DIGITS or digits[1] not in _HEX_DIGITS:
        return None
    text = line[:cut]
    if int(digits, 16) != checksum(text):
        return None
    words = text.split()
    # One space between words, nothing around them: a line has one spelling.
    if len(words) < 2 or " ".join(words) != text or not words[0].isdigit():
        return None
    seq = int(words[0])
    if seq >= SEQ_MODULO:
        return None
    return seq, words[1], words[2:]


def parse_resync(raw):
    """``parse(raw)``, or else the line that ends ``raw`` after some leftover bytes: what
    came before a line without its newline (a host cut off mid-line, mpremote's
    ``\\r\\x03\\r\\x01``) must not eat the request after it. The checksum tells the
    line from the leftovers."""
    request = parse(raw)
    start = 1
    while request is None and start < len(raw):
        # A line starts with its sequence number: try every digit.
        if 0x30 <= raw[start] <= 0x39:
            request = parse(raw[start:])
        start += 1
    return request


class LineReader:
    """Splits the bytes from the host into lines; a line grown past ``limit`` is dropped."""

    def __init__(self, limit=MAX_HOST_LINE):
        self.limit = limit
        self._line = bytearray()
        self._too_long = False

    def feed(self, data):
        """The complete lines in ``data`` (bytes, without their newlines); ``NO_LINES``
        (nothing allocated) when there is none."""
        lines = None
        for byte in data:
            if byte == 0x0A:
                if not self._too_long:
                    if lines is None:
                        lines = []
                    lines.append(bytes(self._line))
                self._line = bytearray()
                self._too_long = False
            elif len(self._line) < self.limit:
                self._line.append(byte)
            else:
                self._too_long = True
        return NO_LINES if lines is None else lines
