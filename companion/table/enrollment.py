"""Enrolling tags: the walk through the items, one scan each, as a plain state machine.

The player is asked for one item at a time ("Scan Chief piece 2 of 2") and scans its tag.
Buttons: ``back`` or ``up`` go to the previous item, ``down`` skips to the next, holding
``ok`` finishes early. A tag enrolled as another item is moved only once asked: OK moves
it, Back keeps it where it is. Every new binding is saved before it is confirmed, so a scan
that was confirmed is never lost, even if the box is switched off the moment after.

>>> import tempfile
>>> from companion.events import Tag
>>> from companion.table.items import EnrollmentStep
>>> from companion.table.registry import TagRegistry
>>> registry = TagRegistry(tempfile.mkdtemp() + "/tags.json")
>>> walk = Enrollment([EnrollmentStep("eagle"), EnrollmentStep("chief", 1, 2)], registry)
>>> walk.handle(Tag("0A1B2C3D4E")).note
'0A1B2C3D4E enrolled as Eagle piece'
>>> walk.current.prompt
'Scan Chief piece 1 of 2'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.contract import EnrollmentStep
from companion.events import Event, Hold, Press, ReaderState, Tag, TagGone
from companion.table.items import is_item, label
from companion.table.registry import TagRegistry
from companion.table.tag_tracker import TagTracker, normalise_uid

#: What the buttons do, for the hint shown after a press that means nothing here.
BUTTON_HELP = "back: previous, down: skip, hold ok: finish"


@dataclass(frozen=True)
class Feedback:
    """What one input event did: a line for the player, if any, and whether the step changed."""

    note: str | None = None
    step_changed: bool = False


class Enrollment:
    """The walk through ``steps``, binding scanned UIDs in ``registry``; the registry is
    saved after every change, before the change is reported. ``button_help`` is the hint
    after a press that means nothing here (in the simulator, it names the keys)."""

    def __init__(self, steps: Sequence[EnrollmentStep], registry: TagRegistry, *,
                 button_help: str = BUTTON_HELP):
        if not steps:
            raise ValueError("nothing to enroll")
        self.steps = list(steps)
        self.registry = registry
        self.button_help = button_help
        self.index = 0
        self.finished = False
        self._tracker = TagTracker()
        # UID → index of the step it was scanned for during this walk.
        self._scanned: dict[str, int] = {}
        # UID → what its first scan of this walk did: "enrolled", "moved" or "already".
        self._outcomes: dict[str, str] = {}
        # A UID enrolled as another item (UID, item): move it? Asked until the next event.
        self._asking: tuple[str, str] | None = None
        self._moved = 0  # tags moved from another item during this walk

    @property
    def current(self) -> EnrollmentStep | None:
        """The step waiting for a scan; ``None`` once the walk is over."""
        return None if self.finished else self.steps[self.index]

    @property
    def question(self) -> tuple[str, str] | None:
        """While a tag enrolled as another item waits for OK (move) or Back (keep), what it
        is and where it would go, a line each (``0A1B2C3D4E: Eagle piece``, ``to Chief piece
        1 of 2?``); None otherwise."""
        if self._asking is None or self.finished:
            return None
        uid, previous = self._asking
        return f"{uid}: {label(previous)}", f"to {self.steps[self.index].description}?"

    @property
    def position(self) -> str:
        """Where the walk stands, e.g. ``"3/35"``."""
        return f"{self.index + 1}/{len(self.steps)}"

    def handle(self, event: Event) -> Feedback:
        """Apply one input event (``Tag``, ``TagGone``, ``Press``, ``Hold``, ``ReaderState``)."""
        if self.finished:
            return Feedback()
        if self._asking is not None and not isinstance(event, (TagGone, ReaderState)):
            (asked, previous), self._asking = self._asking, None
            if event == Press("ok"):
                return self._move(asked, previous)
            if event == Press("back"):
                return Feedback(f"{asked} kept as {label(previous)}: "
                                f"scan another {self.steps[self.index].label}")
        if isinstance(event, Tag):
            return self._tag(event.uid, event.reader)
        if isinstance(event, TagGone):
            uid = normalise_uid(event.uid)
            if uid is not None:
                self._tracker.leave(uid, event.reader)
            return Feedback()
        if isinstance(event, Press):
            return self._press(event.button)
        if isinstance(event, Hold) and event.button == "ok":
            self.finish()
            return Feedback(step_changed=True)
        if isinstance(event, ReaderState):
            if event.connected:
                return Feedback(f"reader {event.reader} connected")
            self._tracker.reader_lost(event.reader)
            return Feedback(f"reader {event.reader} disconnected: scans wait until it is back")
        return Feedback(self.button_help)

    def _press(self, button: str) -> Feedback:
        if button in ("back", "up"):
            if self.index == 0:
                return Feedback("this is the first item")
            self.index -= 1
            return Feedback(step_changed=True)
        if button == "down":
            self._advance()
            return Feedback(step_changed=True)
        return Feedback(self.button_help)

    def _tag(self, token: str, reader: str) -> Feedback:
        uid = normalise_uid(token)
        if uid is None:
            what = "an item name" if is_item(token.lower()) else "not a tag UID"
            return Feedback(f"'{token}' is {what}, not a tag to enroll: ignored")
        if not self._tracker.arrive(uid, reader):
            return Feedback()  # the reader reports a tag again while it lies there
        step = self.steps[self.index]
        earlier = self._scanned.get(uid)
        previous = self.registry.item_for(uid)
        if earlier is not None and earlier != self.index and previous == step.item:
            return Feedback(f"{uid} was scanned as {self.steps[earlier].description}: "
                            f"scan another {step.label}")
        if previous is not None and previous != step.item:
            # Read twice by mistake, or a tag of another item: moving it unasked would leave
            # that item with no tag.
            self._asking = (uid, previous)
            return Feedback(f"{uid} is enrolled as {label(previous)}: "
                            f"OK moves it to {step.description}, back keeps it")
        if previous == step.item:
            outcome, note = "already", f"{uid} already enrolled as {step.label}"
        else:
            self.registry.bind_and_save(uid, step.item)
            outcome, note = "enrolled", f"{uid} enrolled as {step.description}"
        return self._done(uid, outcome, note)

    def _move(self, uid: str, previous: str) -> Feedback:
        """OK to the question: the tag ``uid`` moves from ``previous`` to the current step's
        item."""
        step = self.steps[self.index]
        self.registry.bind_and_save(uid, step.item)
        self._moved += 1
        note = f"{uid} moved from {label(previous)} to {step.description}"
        return self._done(uid, "moved", note)

    def _done(self, uid: str, outcome: str, note: str) -> Feedback:
        """The current step has its tag ``uid``: counted, and on to the next step."""
        self._outcomes.setdefault(uid, outcome)
        self._scanned[uid] = self.index
        self._advance()
        return Feedback(note, step_changed=True)

    def _advance(self) -> None:
        if self.index + 1 == len(self.steps):
            self.finish()
        else:
            self.index += 1

    def finish(self) -> None:
        """End the walk (all done, finished early, or the input ended)."""
        self.finished = True

    def summary(self) -> str:
        """One line on what the walk did, e.g. ``"12 enrolled, 1 moved, 0 already enrolled; …"``:
        the tags new to the registry, the moves (a tag enrolled in this walk, then moved,
        counts in both) and the tags found already enrolled as their item."""
        missing = len(self.steps) - len(set(self._scanned.values()))
        counts = {kind: list(self._outcomes.values()).count(kind) for kind in ("enrolled", "already")}
        line = (f"{counts['enrolled']} enrolled, {self._moved} moved, "
                f"{counts['already']} already enrolled")
        return line + (f"; {missing} of {len(self.steps)} items not scanned" if missing else "")
