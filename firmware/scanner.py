"""The slot scanner: one reader per slot, read in turn, with arrive/leave debounce.

Slot 0 is the scan pad, slots 1-6 the villages. A scan reads every slot whose reader
answers, one after the other, the pad first; on a crowded board, where a scan takes more
than 100 ms, it reads the pad again whenever it would otherwise not be read for
``PAD_EVERY_US``: the pad is where pieces are shown one by one, and the box answers
them at once. The hub tells each reading's events as soon as it is done.

Each slot's field is on only around its own reading, so the hub never has more than two
fields on at once (the power budget). While one slot is read the next one's field is
already on: its tags get the 5 ms ISO/IEC 14443-3 gives them to wake up without the scan
waiting for it. On a crowded board the pad is read in the middle of a long village,
between two of its tags: the pad's field goes on at the village's start, and once the
pad is read the next village's, so every wake-up still overlaps a reading (reading the
pad between two villages instead left the next village 4 ms of its wake-up to wait, six
times a scan). When that village is the last, the next scan's first village is woken
instead and the next scan begins there, with the pad read when it is due.

A tag read is halted (HLTA) so that the next request finds the others; the reader wakes
the known ones with WUPA, so a tag still halted from the last reading (a field off for
less than the 5 ms that resets it: a hub of one or two readers) answers.

A tag read once is "on"; it is "off" once its slot has been read ``MISSES_FOR_OFF`` times
in a row without it, so one failed read does not lift a piece off the board. A reader
that stops answering is reported once (``err``), forgets its tags (the hub cannot know
whether they left) and is set up again every ``RETRY_SCANS`` scans; the others go on.

In the steady state (no tag coming or going) a scan allocates nothing: the collector
never has to run between the scans.
"""

from mfrc522 import ReaderError, hex_uid

#: A tag read once is on until its slot has been read this many times in a row without it.
MISSES_FOR_OFF = 2
#: A reader that stopped answering is set up again every this many scans.
RETRY_SCANS = 20
#: The most tags read on one slot in one scan (a pole of pieces on a village).
MAX_TAGS = 8
#: ISO/IEC 14443-3: a tag accepts a request within 5 ms of entering an unmodulated field;
#: the reader gives it at least 5.1 ms.
POWER_UP_US = 5100
#: ISO/IEC 14443-3: a field off for 5 ms resets the tags in it (a halted tag forgets it
#: was). Waited once after readers are set up, so that tags left halted by a hub that
#: restarted while its readers kept their power are found again.
FIELD_RESET_US = 5100
#: A scan reads the pad again, in the middle of a village or between two, when it would
#: otherwise not have been read for this long: on a crowded board a piece laid on the
#: pad shows within 50 ms, and one laid on a village within a scan.
PAD_EVERY_US = 15000
#: When the pad is read around a village (:meth:`Scanner._plan`).
NO_PAD = 0
PAD_INSIDE = 1
PAD_AFTER = 2
#: What :meth:`Scanner.scan` returns when nothing changed: one list, never changed.
NO_EVENTS = []


class Slot:
    """One slot: its number, its reader, the tags on it and, when it failed, why.

    The tags are kept in three lists, in order of arrival: their UIDs as bytes (what the
    reader selects), as hex (what the protocol says) and, in ``misses``, how many
    readings in a row have missed each. ``seen`` is the reader's answer for each.
    """

    def __init__(self, number, reader):
        self.number = number
        self.reader = reader
        self.uids = []
        self.hexes = []
        self.misses = bytearray(MAX_TAGS)
        self.seen = bytearray(MAX_TAGS)
        self.failure = None     # why the reader does not answer, or None
        self.retry_in = 0       # scans until the next set-up of a failed reader
        self.took_us = 0        # how long its last reading took

    def forget(self):
        """Forget every tag (the reader failed: nobody knows whether they left)."""
        self.uids = []
        self.hexes = []


class Scanner:
    """Reads the slots' readers (``MFRC522`` objects, slot 0 first).

    ``clock`` gives ``ticks_us()``, ``ticks_diff(a, b)`` and ``sleep_us(n)``: MicroPython's
    ``time`` module on the Pico.
    """

    def __init__(self, readers, clock):
        self.slots = [Slot(number, reader) for number, reader in enumerate(readers)]
        self.clock = clock
        self._pad_read_at = 0       # when the pad was last read
        self._warm = None           # the slot whose field is on for its coming reading
        self._warm_at = 0           # since when
        self._pad_plan = NO_PAD     # when the pad is read around the village being read
        self._pad_spent = 0         # how long the pad's reading took in the village being read
        self._after_pad = None      # the slot whose field goes on once the pad is read
        self._report = None         # where each reading's events go (None: into _events)
        self._events = None
        # Made once: a bound method made at every reading would be garbage.
        self._between = self._pad_between

    def start(self):
        """Set every reader up; the events: ``("chip", slot, version)`` for each that
        answers, ``("err", slot, reason)`` for each that does not."""
        events = []
        for slot in self.slots:
            events += self._set_up(slot)
        self.clock.sleep_us(FIELD_RESET_US)
        return events

    def scan(self, report=None):
        """Read every answering slot once, the pad again in the middle of a village when it
        is due; the events: ``("on", slot, uid)``, ``("off", slot, uid)``, ``("err", slot,
        reason)``, in that order per slot (``NO_EVENTS`` when there is none). With
        ``report``, each reading's events go to ``report(events)`` as soon as it is done
        instead, and are not returned: a piece laid on the pad is told before the villages
        after it are read."""
        events = None
        back = False
        for slot in self.slots:
            if slot.failure is not None:
                slot.retry_in -= 1
                if slot.retry_in <= 0:
                    if slot is self._warm:
                        self._warm = None       # its set-up switches the field off
                    events = _more(events, self._set_up(slot))
                    back = back or slot.failure is None
        if back:
            self.clock.sleep_us(FIELD_RESET_US)      # a reader is back: let its tags reset
        if report is not None and events is not None:
            report(events)
            events = None
        self._report, self._events = report, events
        clock = self.clock
        pad = self.slots[0] if self.slots[0].failure is None else None
        first = self._village_after(0)
        if self._warm is not None and self._warm is first and pad is not None:
            # The last scan read the pad in its last village and woke this one's tags:
            # the scan begins here, and reads the pad when it is due.
            slot = first
        else:
            slot = pad if pad is not None else first
        if slot is not None and slot is not self._warm:
            self._warm_up(slot)
        while slot is not None:
            following = self._village_after(slot.number)
            # While this slot is read, the next one's field is on to wake its tags; at the
            # end of the scan, the pad's, for the next scan. On a crowded board the pad's,
            # when it is due: it is read between two of this village's tags, and the next
            # village's field goes on then (two fields at most).
            others = slot is not pad and pad is not None and pad.failure is None
            self._pad_plan = self._plan(slot, following is None) if others else NO_PAD
            powered_at = self._warm_at
            if self._pad_plan != NO_PAD:
                # After the last village, the next scan's first (unless it is this one).
                self._after_pad = following if following is not None or first is slot else first
                self._warm_up(pad)
            elif following is not None:
                self._warm_up(following)
            elif others:
                self._warm_up(pad)
            else:
                self._warm = None
            self._wait_warm(powered_at)
            began = clock.ticks_us()
            self._pad_spent = 0
            self._tell(self._read(slot, self._between))
            done = clock.ticks_us()
            # The village's own time, without the pad's read in the middle of it.
            slot.took_us = clock.ticks_diff(done, began) - self._pad_spent
            if slot is pad:
                self._pad_read_at = done
            if self._pad_plan != NO_PAD:
                # Due after this village, or the village ended before the pad was read:
                # the pad now, the next village's tags waking meanwhile (this village's
                # field is off: two fields still). After the last village, the pad's
                # field stays on for the next scan.
                self._wait_warm(self._warm_at)
                self._after_pad = None
                if following is not None:
                    self._warm_up(following)
                self._read_pad()
            slot = following
        events, self._events, self._report = self._events, None, None
        return NO_EVENTS if events is None else events

    def _village_after(self, number):
        """The first answering village after slot ``number``, or None."""
        slots = self.slots
        for later in range(number + 1, len(slots)):
            if slots[later].failure is None:
                return slots[later]
        return None

    def _plan(self, village, last):
        """When to read the pad around ``village`` (taking as long as it did the last
        time; ``last``: the scan's last village): ``NO_PAD`` if it is not due before the
        village ends; ``PAD_INSIDE``, between two of its tags, if the village is long
        enough for both the pad's wake-up and the next village's (in the last village:
        the first one's, where the next scan then begins); else ``PAD_AFTER`` it, but
        never after the last village: the next scan begins with the pad."""
        since = self.clock.ticks_diff(self.clock.ticks_us(), self._pad_read_at)
        if since + village.took_us < PAD_EVERY_US:
            return NO_PAD
        if village.took_us >= 2 * POWER_UP_US + self.slots[0].took_us:
            return PAD_INSIDE
        return NO_PAD if last else PAD_AFTER

    def _warm_up(self, slot):
        """Switch ``slot``'s field on for its coming reading."""
        slot.reader.field_on()
        self._warm, self._warm_at = slot, self.clock.ticks_us()

    def _wait_warm(self, since):
        """Wait until a field on since ``since`` has been on for ``POWER_UP_US``."""
        waited = self.clock.ticks_diff(self.clock.ticks_us(), since)
        if waited < POWER_UP_US:
            self.clock.sleep_us(POWER_UP_US - waited)

    def _pad_between(self):
        """Between two tags of a village: read the pad if it is due there and its tags
        are awake."""
        if self._pad_plan != PAD_INSIDE:
            return
        clock = self.clock
        if clock.ticks_diff(clock.ticks_us(), self._warm_at) >= POWER_UP_US:
            self._read_pad()

    def _read_pad(self):
        """Read the pad in the middle of a scan, then switch the next village's field on
        (the pad's again at the end of a scan)."""
        self._pad_plan = NO_PAD
        clock = self.clock
        pad = self.slots[0]
        began = clock.ticks_us()
        self._tell(self._read(pad))
        self._pad_read_at = clock.ticks_us()
        pad.took_us = clock.ticks_diff(self._pad_read_at, began)
        self._pad_spent += pad.took_us
        following = self._after_pad
        self._after_pad = None
        if following is not None:
            self._warm_up(following)
        elif self._warm is pad:
            # The end of the scan: the pad's tags wake again for the next one.
            if pad.failure is None:
                self._warm_up(pad)
            else:
                self._warm = None

    def _tell(self, found):
        """Pass one reading's events on (to ``report``, or into the scan's events)."""
        if found is None:
            return
        if self._report is not None:
            self._report(found)
        else:
            self._events = _more(self._events, found)

    def _read(self, slot, between=None):
        """Read ``slot`` once: its events, or None. ``between`` is called between two
        of its tags."""
        try:
            new = slot.reader.find(slot.uids, slot.seen, MAX_TAGS, between)
            slot.reader.field_off()
        except ReaderError as exc:
            return self._failed(slot, str(exc))
        return self._debounce(slot, new)

    def state(self):
        """``(slot, uid or None)`` for every tag on every answering slot (None: empty)."""
        entries = []
        for slot in self.slots:
            if slot.failure is None:
                entries += [(slot.number, uid) for uid in slot.hexes] or [(slot.number, None)]
        return entries

    def chips(self):
        """``(slot, VersionReg)`` for every slot whose reader answers."""
        return [(slot.number, slot.reader.version) for slot in self.slots if slot.failure is None]

    def failures(self):
        """``(slot, reason)`` for every slot whose reader does not answer."""
        return [(slot.number, slot.failure) for slot in self.slots if slot.failure is not None]

    def _set_up(self, slot):
        try:
            slot.reader.init()
        except ReaderError as exc:
            return self._failed(slot, str(exc))
        slot.failure = None
        return [("chip", slot.number, f"{slot.reader.version:02X}")]

    def _failed(self, slot, reason):
        """The reader stopped answering: report it once, forget its tags, retry later."""
        slot.reader.field_off()     # in case it still hears: one field fewer in the air
        slot.forget()
        slot.retry_in = RETRY_SCANS
        already = slot.failure is not None
        slot.failure = reason
        return None if already else [("err", slot.number, reason)]

    def _debounce(self, slot, new):
        """The events of one reading: ``new`` UIDs (bytes, or None) came; the known ones
        not ``seen`` missed once more. Allocates nothing when nothing changed."""
        events = None
        index = 0
        while index < len(slot.uids):
            if slot.seen[index]:
                slot.misses[index] = 0
            elif slot.misses[index] + 1 >= MISSES_FOR_OFF:
                events = _more(events, [("off", slot.number, slot.hexes[index])])
                _drop(slot, index)
                continue
            else:
                slot.misses[index] += 1
            index += 1
        for uid in new or ():
            if uid in slot.uids:
                slot.misses[slot.uids.index(uid)] = 0   # a known tag missed by name, found anew
            elif len(slot.uids) < MAX_TAGS:
                slot.misses[len(slot.uids)] = 0
                slot.uids.append(uid)
                slot.hexes.append(hex_uid(uid))
                events = _more(events, [("on", slot.number, slot.hexes[-1])])
        return events


def _drop(slot, index):
    """Forget the tag at ``index`` of ``slot``."""
    slot.uids.pop(index)
    slot.hexes.pop(index)
    for later in range(index, MAX_TAGS - 1):
        slot.misses[later] = slot.misses[later + 1]
        slot.seen[later] = slot.seen[later + 1]


def _more(events, more):
    """``events`` with ``more`` after them (either may be None)."""
    if more is None:
        return events
    if events is None:
        return more
    events += more
    return events
