"""The slot scanner: one reader per slot, read in turn, with arrive/leave debounce.

Slot 0 is the scan pad, slots 1-6 the villages. A scan reads every slot whose reader
answers, one after the other, the pad first; on a crowded board, where a scan takes more
than 100 ms, it reads the pad again between two villages whenever it has not been read
for ``PAD_EVERY_US``: the pad is where pieces are shown one by one, and the box answers
them at once. The hub tells each reading's events as soon as it is done.

Each slot's field is on only around its own reading, so the hub never has more than two
fields on at once (the power budget). While one slot is read the next one's field is
already on: its tags get the 5 ms ISO/IEC 14443-3 gives them to wake up without the scan
waiting for it. A tag read is halted (HLTA) so that the next request finds the others;
the reader wakes the known ones with WUPA, so a tag still halted from the last reading
(a field off for less than the 5 ms that resets it: a hub of one or two readers) answers.

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
#: A scan reads the pad again, between two villages, once it has not been read for this
#: long: on a crowded board a piece laid on the pad shows within 50 ms, and one laid on a
#: village within a scan.
PAD_EVERY_US = 15000
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
        self._pad_read_at = 0   # when the pad was last read
        self._pad_warm_at = None    # when the pad's field went on for the next scan, if it did

    def start(self):
        """Set every reader up; the events: ``("chip", slot, version)`` for each that
        answers, ``("err", slot, reason)`` for each that does not."""
        events = []
        for slot in self.slots:
            events += self._set_up(slot)
        self.clock.sleep_us(FIELD_RESET_US)
        return events

    def scan(self, report=None):
        """Read every answering slot once, the pad again between the villages when it has
        not been read for ``PAD_EVERY_US``; the events: ``("on", slot, uid)``, ``("off",
        slot, uid)``, ``("err", slot, reason)``, in that order per slot (``NO_EVENTS``
        when there is none). With ``report``, each reading's events go to
        ``report(events)`` as soon as it is done instead, and are not returned: a piece
        laid on the pad is told before the villages after it are read."""
        events = None
        back = False
        for slot in self.slots:
            if slot.failure is not None:
                slot.retry_in -= 1
                if slot.retry_in <= 0:
                    if not slot.number:
                        self._pad_warm_at = None    # its set-up switches the field off
                    events = _more(events, self._set_up(slot))
                    back = back or slot.failure is None
        if back:
            self.clock.sleep_us(FIELD_RESET_US)      # a reader is back: let its tags reset
        if report is not None and events is not None:
            report(events)
            events = None
        clock = self.clock
        slot = self._following(None, 0)
        warm, self._pad_warm_at = self._pad_warm_at, None
        if slot is not None and (slot.number or warm is None):
            slot.reader.field_on()
            warm = clock.ticks_us()
        powered_at = warm
        self._pad_read_at = clock.ticks_us()
        village = 0                 # the last village read
        while slot is not None:
            if slot.number:
                village = slot.number
            # The next slot's field goes on now, to wake its tags during this reading; at
            # the end of the scan, the pad's, for the next scan.
            following = self._following(slot, village)
            if following is not None:
                following.reader.field_on()
            elif slot.number and self.slots[0].failure is None:
                self.slots[0].reader.field_on()
                self._pad_warm_at = clock.ticks_us()
            next_powered_at = clock.ticks_us()
            waited = clock.ticks_diff(next_powered_at, powered_at)
            if waited < POWER_UP_US:
                clock.sleep_us(POWER_UP_US - waited)
            began = clock.ticks_us()
            found = self._read(slot)
            done = clock.ticks_us()
            slot.took_us = clock.ticks_diff(done, began)
            if not slot.number:
                self._pad_read_at = done
            if report is not None and found is not None:
                report(found)
            else:
                events = _more(events, found)
            powered_at = next_powered_at
            slot = following
        return NO_EVENTS if events is None else events

    def _following(self, slot, village):
        """The answering slot to read after ``slot`` (None: the first of the scan), the
        villages up to ``village`` being read: the pad first; then each village in turn,
        the pad again before one when it is due; None at the end."""
        slots = self.slots
        pad = slots[0] if slots[0].failure is None else None
        if slot is None and pad is not None:
            return pad
        following = None
        for number in range(village + 1, len(slots)):
            if slots[number].failure is None:
                following = slots[number]
                break
        if following is None or pad is None or slot is pad:
            return following
        # The pad is due if, by the time this village is read, it will not have been
        # read for PAD_EVERY_US (this village taking as long as it did the last time).
        since = self.clock.ticks_diff(self.clock.ticks_us(), self._pad_read_at)
        return pad if since + slot.took_us >= PAD_EVERY_US else following

    def _read(self, slot):
        """Read ``slot`` once: its events, or None."""
        try:
            new = slot.reader.find(slot.uids, slot.seen, MAX_TAGS)
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
