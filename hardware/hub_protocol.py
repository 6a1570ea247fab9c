"""The reader hub's line protocol, host side: lines, and the board as the host knows it.

A line is ``<seq> <verb> [args] *<hh>`` (shared/DESIGN.md, "Reader hub protocol"; the
hub's side is firmware/protocol.py): ``seq`` counts 0-9999 and wraps, ``hh`` is the XOR
of the bytes before `` *`` in two upper-case hex digits.

    >>> encode(1, "state?")
    b'1 state? *59\\n'
    >>> decode(b"1 on 3 04A1B2C3D4E5F6 *27")
    HubLine(seq=1, verb='on', args=('3', '04A1B2C3D4E5F6'))

:class:`HubLink` keeps the host's picture of the board — the tags on each slot, the
slots whose reader does not answer — and turns the hub's lines into input events:
``Tag(uid, "slot3")`` / ``TagGone(uid, "slot3")`` (``pad`` for slot 0),
``ReaderState("slot3", False)`` for a reader of the hub that stopped answering and
``ReaderState("hub", …)`` for the hub itself. It has no port and no thread:
:mod:`hardware.hub_reader` feeds it the bytes read and asks it, on its clock, what to
send (``state?`` after a gap in the numbering, ``ping`` after 2 s of silence) and whether
the hub still answers.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from companion.events import DEFAULT_READER, Event, ReaderState, Tag, TagGone

SEQ_MODULO = 10000
#: The longest line kept: a ``state`` line of 16 slots with 8 tags of 10-byte UIDs each
#: stays well under it. Anything longer is noise and is dropped whole.
MAX_LINE = 4096
#: Slots a hub may have (shared/DESIGN.md: up to 16).
MAX_SLOTS = 16
#: Tags a slot may hold at once (the firmware's ``MAX_TAGS``): a line that would put more
#: on it is bad, so a hub gone wrong cannot make each new tag cost more than the last.
MAX_TAGS = 8
#: The reader name of the hub as a whole, in ``ReaderState`` events.
HUB = "hub"
#: A ping goes out after this long without a line from the hub...
PING_AFTER = 2.0
#: ... and an answer is due within this long (to a ping, ``hello?`` or ``state?``).
ANSWER_WITHIN = 1.0
_HEX = frozenset("0123456789ABCDEF")


def checksum(text: bytes) -> int:
    """The XOR of the bytes of ``text``."""
    value = 0
    for byte in text:
        value ^= byte
    return value


def encode(seq: int, body: str) -> bytes:
    """The line (with its newline) carrying ``body`` with sequence number ``seq``."""
    text = f"{seq} {body}".encode("ascii")
    return text + b" *%02X\n" % checksum(text)


class BadLine(ValueError):
    """A line that is not a well-formed protocol line with a good checksum."""


@dataclass(frozen=True)
class HubLine:
    """One good line: its sequence number, verb and arguments."""

    seq: int
    verb: str
    args: tuple[str, ...]


def decode(raw: bytes) -> HubLine:
    """The line in ``raw`` (without its newline; a carriage return is allowed); BadLine
    with a short reason when it is not a good one."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if any(byte < 0x20 or byte > 0x7E for byte in raw):
        raise BadLine("not printable ASCII")
    line = raw.decode("ascii")
    text, star, digits = line.rpartition(" *")
    if not star or len(digits) != 2 or not set(digits) <= _HEX:
        raise BadLine("no checksum")
    if int(digits, 16) != checksum(text.encode("ascii")):
        raise BadLine("wrong checksum")
    words = text.split(" ")
    if len(words) < 2 or "" in words or not words[0].isdigit() or int(words[0]) >= SEQ_MODULO:
        raise BadLine("not <seq> <verb> [args]")
    return HubLine(int(words[0]), words[1], tuple(words[2:]))


def decode_resync(raw: bytes) -> tuple[HubLine, bool]:
    """The line in ``raw``, and whether leftover bytes came before it: a line cut off
    (the port opened mid-line, a hub restarted mid-line) runs into the next one, which
    must not be lost with it. The checksum tells a line from what came before it, so
    the longest tail of ``raw`` that is a good line is taken. BadLine when none is."""
    try:
        return decode(raw), False
    except BadLine as exc:
        bad = exc
    # Every line starts with the digits of its sequence number; try each such tail,
    # but only those whose XOR before " *" matches (worked out from the right at once).
    cut = raw.rfind(b" *")
    if cut < 1 or len(raw) - cut not in (4, 5):
        raise bad
    try:
        wanted = int(raw[cut + 2:cut + 4], 16)
    except ValueError:
        raise bad from None
    xor = 0
    tails = []
    for start in range(cut - 1, 0, -1):
        xor ^= raw[start]
        if xor == wanted and 0x30 <= raw[start] <= 0x39:
            tails.append(start)
    for start in reversed(tails):
        try:
            return decode(raw[start:]), True
        except BadLine:
            continue
    raise bad


def chip_words(version: int) -> str:
    """What a reader chip is, from its VersionReg: ``MFRC522 2.0``, ``MFRC522 clone``."""
    names = {0x90: "MFRC522 0.0", 0x91: "MFRC522 1.0", 0x92: "MFRC522 2.0", 0x88: "FM17522"}
    return names.get(version, "MFRC522 clone")


def hello_info(line: HubLine) -> tuple[str, int] | None:
    """``(version, slots)`` of ``hello totem-hub <version> slots=<n>``; None if it is not one."""
    if line.verb != "hello" or len(line.args) != 3 or line.args[0] != "totem-hub":
        return None
    name, equals, count = line.args[2].partition("=")
    if name != "slots" or not equals or not count.isdigit() or not 0 < int(count) <= MAX_SLOTS:
        return None
    return line.args[1], int(count)


def reader_name(slot: int) -> str:
    """The reader name of a slot in events: ``pad`` for 0, ``slot3`` for 3."""
    return DEFAULT_READER if slot == 0 else f"slot{slot}"


class LineSplitter:
    """Cuts the bytes from the hub into lines; a line longer than ``limit`` is dropped."""

    def __init__(self, limit: int = MAX_LINE):
        self.limit = limit
        self._partial = bytearray()
        self._too_long = False

    def feed(self, data: bytes) -> tuple[list[bytes], int]:
        """The complete lines in ``data`` and the number of lines dropped as too long."""
        lines, dropped = [], 0
        *complete, rest = (bytes(self._partial) + data).split(b"\n")
        for line in complete:
            if self._too_long or len(line) > self.limit:
                dropped += 1
            else:
                lines.append(line)
            self._too_long = False
        self._too_long = self._too_long or len(rest) > self.limit
        # A line grown too long is dropped at its end; meanwhile only its tail is kept.
        self._partial = bytearray(rest[-self.limit:] if self._too_long else rest)
        return lines, dropped

    def clear(self) -> None:
        """Forget a partial line (the port was closed and opened again)."""
        self._partial.clear()
        self._too_long = False


class HubLink:
    """The host's side of the conversation with one hub, over one connection or several.

    Between connections the picture of the board is kept: when the hub answers again,
    its ``state`` is compared with it and only the differences become events, so a piece
    that stayed on its village across an unplugged cable is not lifted and put back.
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic,
                 ping_after: float = PING_AFTER, answer_within: float = ANSWER_WITHIN):
        self.clock = clock
        self.ping_after = ping_after
        self.answer_within = answer_within
        self.version: str | None = None
        self.slots = 0
        #: Counts: lines dropped (bad checksum, malformed, too long), gaps in the numbering,
        #: hub restarts seen (a hello nobody asked for), connections after the first, and
        #: states received (after the first, the picture is the hub's).
        self.states = 0
        self.bad_lines = 0
        self.gaps = 0
        self.restarts = 0
        self.reconnects = 0
        #: The picture: slot -> UIDs on it (in order of arrival), and slot -> why its reader
        #: does not answer.
        self.board: dict[int, list[str]] = {}
        self.silent: dict[int, str] = {}
        #: Slot -> the VersionReg of its reader's chip, as the hub's ``chip`` lines say.
        self.chips: dict[int, int] = {}
        #: False once the hub has not answered in time: the connection is to be dropped.
        self.alive = False
        self._splitter = LineSplitter()
        self._outbox: list[str] = []
        self._host_seq = 0
        self._next_seq: int | None = None
        self._heard_at = 0.0
        self._waiting_since: float | None = None    # a request out, no line heard since
        self._state_asked: float | None = None      # a state? out, its answer not come yet
        self._last_state_ask = 0.0

    # --- the connection ------------------------------------------------------------------

    def connected(self, hello: HubLine) -> list[Event]:
        """A connection is up and the hub said ``hello``: ask for the state of the board."""
        if self.version is not None:
            self.reconnects += 1
        self.alive = True
        self._splitter.clear()
        self._heard_at = self.clock()
        self._waiting_since = None
        self._hello(hello)
        return [ReaderState(HUB, True)]

    def lost(self) -> list[Event]:
        """The connection went down, or the hub stopped answering; the picture is kept."""
        self.alive = False
        self._waiting_since = self._state_asked = None
        self._outbox.clear()
        return [ReaderState(HUB, False)]

    def greeting(self) -> bytes:
        """The ``hello?`` that opens a connection, framed. A newline goes first: it ends
        whatever partial line the hub may hold (mpremote's ``\\r\\x03\\r\\x01`` when
        ``./setup.sh flash`` found the hub running, a host cut off mid-line), so that it
        does not swallow the ``hello?`` (a hub of firmware 1.0 has no resync of its own)."""
        return b"\n" + self._frame("hello?")

    def chip_lines(self) -> list[str]:
        """One line per reader chip the hub reported: ``slot 3: MFRC522 clone, version 0x89``."""
        return [f"slot {slot}: {chip_words(version)}, version 0x{version:02X}"
                for slot, version in sorted(self.chips.items())]

    def take_outbox(self) -> bytes:
        """The requests to send now, framed, each with the host's next sequence number."""
        out = b"".join(self._frame(body) for body in self._outbox)
        self._outbox.clear()
        return out

    def _frame(self, body: str) -> bytes:
        line = encode(self._host_seq, body)
        self._host_seq = (self._host_seq + 1) % SEQ_MODULO
        return line

    def poll(self) -> None:
        """Time passed: ping a hub gone quiet, ask again for a state that did not come,
        and set ``alive`` False when nothing at all came back in time."""
        now = self.clock()
        if not self.alive:
            return
        if self._waiting_since is not None and now >= self._waiting_since + self.answer_within:
            self.alive = False
        elif self._state_asked is not None and now >= self._state_asked + self.answer_within:
            self._ask_state()           # the hub talks, but its state went missing
        elif self.silent and now >= self._last_state_ask + self.ping_after:
            self._ask_state()           # a reader is down: when it is back shows in a state
        elif self._waiting_since is None and now >= self._heard_at + self.ping_after:
            self._ask("ping")

    def deadline(self) -> float:
        """When :meth:`poll` next has something to do."""
        if self._waiting_since is not None:
            times = [self._waiting_since + self.answer_within]
        else:
            times = [self._heard_at + self.ping_after]
        if self._state_asked is not None:
            times.append(self._state_asked + self.answer_within)
        if self.silent:
            times.append(self._last_state_ask + self.ping_after)
        return min(times)

    def _ask(self, body: str) -> None:
        self._outbox.append(body)
        if self._waiting_since is None:
            self._waiting_since = self.clock()

    def _ask_state(self) -> None:
        self._state_asked = self._last_state_ask = self.clock()
        self._ask("state?")

    # --- lines from the hub ----------------------------------------------------------------

    def feed(self, data: bytes) -> list[Event]:
        """The events the bytes ``data`` from the hub complete."""
        lines, dropped = self._splitter.feed(data)
        self.bad_lines += dropped
        events: list[Event] = []
        for raw in lines:
            try:
                line, after_noise = decode_resync(raw)
                if after_noise and line.verb != "hello" and self._next_seq not in (None, line.seq):
                    # A tail found after leftover bytes must carry the number due: else it
                    # may be a damaged line whose changed byte the dropped digits of its own
                    # number cancel in the XOR (a tag no hub sent). The next line's gap
                    # asks for the state.
                    raise BadLine("a line found after noise, out of sequence")
                self.bad_lines += after_noise       # the leftover before it was noise
                events += self.receive(line)
            except BadLine:
                self.bad_lines += 1
        return events

    def receive(self, line: HubLine) -> list[Event]:
        """The events one good line brings; BadLine when its words make no sense."""
        self._heard_at = self.clock()
        self._waiting_since = None
        if line.verb == "hello":
            if hello_info(line) is None:
                raise BadLine("not a totem-hub hello")
            self.restarts += 1          # it started again on its own, its numbering too
            self._hello(line)
            return []
        if self._next_seq is not None and line.seq != self._next_seq:
            self.gaps += 1              # a line went missing: the state will tell what it said
            if self._state_asked is None:
                self._ask_state()
        self._next_seq = (line.seq + 1) % SEQ_MODULO
        if line.verb in ("on", "off"):
            if len(line.args) != 2:
                raise BadLine(f"{line.verb} takes a slot and a UID")
            return self._tag(line.verb, self._slot(line.args[0]), _uid(line.args[1]))
        if line.verb == "state":
            return self._state(line.args)
        if line.verb == "err":
            if len(line.args) < 2:
                raise BadLine("err takes a slot and a reason")
            return self._reader_lost(self._slot(line.args[0]), " ".join(line.args[1:]))
        if line.verb == "chip":
            self._chip(line.args)
        return []       # pong, or a verb of a newer hub: nothing to do

    # --- what the lines mean -----------------------------------------------------------------

    def _hello(self, line: HubLine) -> None:
        """The hub introduced itself: its numbering starts again; ask for the state."""
        info = hello_info(line)
        if info is not None:
            self.version, self.slots = info
        self._next_seq = (line.seq + 1) % SEQ_MODULO
        self._ask_state()

    def _chip(self, args: tuple[str, ...]) -> None:
        """``chip <slot> <VersionReg>``: which chip a slot's reader has."""
        if len(args) != 2 or len(args[1]) != 2 or not set(args[1]) <= _HEX:
            raise BadLine("chip takes a slot and a VersionReg")
        self.chips[self._slot(args[0])] = int(args[1], 16)

    def _slot(self, word: str) -> int:
        if not word.isdigit() or int(word) >= (self.slots or MAX_SLOTS):
            raise BadLine(f"not a slot of this hub: {word[:8]}")
        return int(word)

    def _tag(self, verb: str, slot: int, uid: str) -> list[Event]:
        on_slot = self.board.setdefault(slot, [])
        if verb == "on" and uid not in on_slot and len(on_slot) >= MAX_TAGS:
            raise BadLine(f"more than {MAX_TAGS} tags on slot {slot}")
        events = self._reader_back(slot)
        if verb == "on" and uid not in on_slot:
            on_slot.append(uid)
            events.append(Tag(uid, reader_name(slot)))
        elif verb == "off" and uid in on_slot:
            on_slot.remove(uid)
            events.append(TagGone(uid, reader_name(slot)))
        return events

    def _state(self, entries: tuple[str, ...]) -> list[Event]:
        """Compare the hub's state with the picture: the differences become events. A slot
        left out of it has a reader that does not answer."""
        listed: dict[int, list[str]] = {}
        for entry in entries:
            number, colon, uid = entry.partition(":")
            if not colon:
                raise BadLine("a state entry is <slot>:<UID or ->")
            tags = listed.setdefault(self._slot(number), [])
            if uid != "-":
                tags.append(_uid(uid))
                if len(tags) > MAX_TAGS:
                    raise BadLine(f"more than {MAX_TAGS} tags on slot {number}")
        self._state_asked = None
        self.states += 1
        events: list[Event] = []
        for slot in range(self.slots):
            if slot not in listed:
                events += self._reader_lost(slot, self.silent.get(slot, "left out of the hub's state"))
                continue
            events += self._reader_back(slot)
            now, before = list(dict.fromkeys(listed[slot])), self.board.get(slot, [])
            events += [TagGone(uid, reader_name(slot)) for uid in before if uid not in now]
            events += [Tag(uid, reader_name(slot)) for uid in now if uid not in before]
            self.board[slot] = now
        return events

    def _reader_lost(self, slot: int, reason: str) -> list[Event]:
        """A slot's reader stopped answering: its tags are forgotten, not reported gone
        (nobody knows whether they left); the session forgets them too."""
        already = slot in self.silent
        self.silent[slot] = reason
        self.board.pop(slot, None)
        return [] if already else [ReaderState(reader_name(slot), False)]

    def _reader_back(self, slot: int) -> list[Event]:
        if self.silent.pop(slot, None) is None:
            return []
        return [ReaderState(reader_name(slot), True)]


def _uid(word: str) -> str:
    """``word`` when it is a UID: 4 to 10 bytes in upper-case hex."""
    if not (8 <= len(word) <= 20 and len(word) % 2 == 0 and set(word) <= _HEX):
        raise BadLine(f"not a UID: {word[:24]}")
    return word
