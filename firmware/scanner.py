"""The slot scanner: one reader per slot, read in turn, with arrive/leave debounce.

Slot 0 is the scan pad, slots 1-6 the villages. A full scan reads every slot whose reader
answers, one after the other; each slot's field is on only around its own reading, so
that the tags of a slot start every scan unpowered and un-halted (the reader's inventory
halts each tag it reads). While one slot is read the next one's field is already on: its
tags get the 5 ms ISO/IEC 14443-3 gives them to wake up without the scan waiting for it.
At most two fields are on at once, and only one of them sends.

A tag read once is "on"; it is "off" once it has been missing for ``MISSES_FOR_OFF``
scans in a row, so one failed read does not lift a piece off the board. A reader that
stops answering is reported once (``err``), forgets its tags (the hub cannot know
whether they left) and is set up again every ``RETRY_SCANS`` scans; the others go on.
"""

from mfrc522 import ReaderError

#: A tag read once is on until it has been missing for this many scans in a row.
MISSES_FOR_OFF = 2
#: A reader that stopped answering is set up again every this many scans.
RETRY_SCANS = 20
#: The most tags read on one slot in one scan (a pole of pieces on a village).
MAX_TAGS = 8
#: ISO/IEC 14443-3: a tag accepts a request within 5 ms of entering an unmodulated field;
#: the reader gives it at least 5.1 ms.
POWER_UP_US = 5100


class Slot:
    """One slot: its number, its reader, the tags on it and, when it failed, why."""

    def __init__(self, number, reader):
        self.number = number
        self.reader = reader
        self.tags = []          # [uid, scans missed in a row], in order of arrival
        self.failure = None     # why the reader does not answer, or None
        self.retry_in = 0       # scans until the next set-up of a failed reader


class Scanner:
    """Reads the slots' readers (``MFRC522`` objects, slot 0 first).

    ``clock`` gives ``ticks_us()``, ``ticks_diff(a, b)`` and ``sleep_us(n)``: MicroPython's
    ``time`` module on the Pico.
    """

    def __init__(self, readers, clock):
        self.slots = [Slot(number, reader) for number, reader in enumerate(readers)]
        self.clock = clock

    def start(self):
        """Set every reader up; the ``err`` events of those that do not answer."""
        events = []
        for slot in self.slots:
            events += self._set_up(slot)
        return events

    def scan(self):
        """Read every answering slot once; the events: ``("on", slot, uid)``,
        ``("off", slot, uid)``, ``("err", slot, reason)``, in that order per slot."""
        events = []
        for slot in self.slots:
            if slot.failure is not None:
                slot.retry_in -= 1
                if slot.retry_in <= 0:
                    events += self._set_up(slot)
        ready = [slot for slot in self.slots if slot.failure is None]
        if ready:
            ready[0].reader.field_on()
        powered_at = self.clock.ticks_us()
        for index, slot in enumerate(ready):
            if index + 1 < len(ready):
                ready[index + 1].reader.field_on()    # wakes its tags while this one is read
            next_powered_at = self.clock.ticks_us()
            waited = self.clock.ticks_diff(next_powered_at, powered_at)
            if waited < POWER_UP_US:
                self.clock.sleep_us(POWER_UP_US - waited)
            try:
                found = slot.reader.inventory(MAX_TAGS, [tag[0] for tag in slot.tags])
                slot.reader.field_off()
            except ReaderError as exc:
                events += self._failed(slot, str(exc))
            else:
                events += self._debounce(slot, found)
            powered_at = next_powered_at
        return events

    def state(self):
        """``(slot, uid or None)`` for every tag on every answering slot (None: empty)."""
        entries = []
        for slot in self.slots:
            if slot.failure is None:
                entries += [(slot.number, tag[0]) for tag in slot.tags] or [(slot.number, None)]
        return entries

    def failures(self):
        """``(slot, reason)`` for every slot whose reader does not answer."""
        return [(slot.number, slot.failure) for slot in self.slots if slot.failure is not None]

    def _set_up(self, slot):
        try:
            slot.reader.init()
        except ReaderError as exc:
            return self._failed(slot, str(exc))
        slot.failure = None
        return []

    def _failed(self, slot, reason):
        """The reader stopped answering: report it once, forget its tags, retry later."""
        slot.reader.field_off()     # in case it still hears: one field fewer in the air
        slot.tags = []
        slot.retry_in = RETRY_SCANS
        already = slot.failure is not None
        slot.failure = reason
        return [] if already else [("err", slot.number, reason)]

    def _debounce(self, slot, found):
        events = []
        for uid in found:
            tag = _find(slot.tags, uid)
            if tag is None:
                slot.tags.append([uid, 0])
                events.append(("on", slot.number, uid))
            else:
                tag[1] = 0
        for tag in list(slot.tags):
            if tag[0] not in found:
                tag[1] += 1
                if tag[1] >= MISSES_FOR_OFF:
                    slot.tags.remove(tag)
                    events.append(("off", slot.number, tag[0]))
        return events


def _find(tags, uid):
    for tag in tags:
        if tag[0] == uid:
            return tag
    return None
