"""Transcribing a physical Totem Wars deck that differs from the default list (T1a).

The maker scans the cards one by one. For each, the companion proposes an identity — the
card its tag is enrolled for, else the next card of the default list not transcribed yet —
with its habitats; OK keeps it, ▲▼ change it step by step (tribe, animal, habitats, in the
order printed: R2 offers the first listed first when both are as good), Back drops the
scan. Each kept card binds the tag to the card in the registry and is saved before it is
confirmed (the registry, and the deck so far in ``decks/NAME.toml.part``), so switching
off loses nothing: the walk resumes where it stopped. After the 52nd card the checked deck
is written to ``DATA/decks/NAME.toml``, where the Totem Wars set-up offers it.

Animals are chosen from the names of the default deck (the buttons cannot type); a deck with
other animals is written as a file by hand (docs/decks.md).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from companion.contract import Tags
from companion.errors import UserError
from companion.events import Hold, Press, Tag, TagGone
from companion.files import SMALL_BYTES, read_bytes, shown, shown_path, write_atomically
from companion.games.totem_wars import TRIBES, Card, Deck, default_deck
from companion.games.totem_wars.card_picker import animal_label, tribe_label
from companion.games.totem_wars.deck import CARDS_PER_TRIBE, DECKS_FOLDER, deck_from_toml
from companion.games.totem_wars.words import card_label, t
from companion.table.choice import Choice, step_of
from companion.table.tag_tracker import TagTracker, normalise_uid
from companion.ui.screens import menu_screen, message_screen

#: Every habitat list a card may carry (T1), in the order printed (R2 breaks ties with it).
HABITAT_CHOICES = (("water",), ("land",), ("air",), ("water", "land"), ("land", "water"),
                   ("water", "air"), ("air", "water"), ("land", "air"), ("air", "land"))
DECK_SIZE = CARDS_PER_TRIBE * len(TRIBES)
#: The longest name a transcribed deck may have (it names a file and a set-up choice).
NAME_CHARS = 40


def habitats_label(habitats: Iterable[str]) -> str:
    """A card's habitats as players read them, the first first: ``water + land``."""
    return " + ".join(t(f"habitat.{h}") for h in habitats)


@dataclass(frozen=True)
class Step:
    """What one event did: a line for the maker (``refused`` when nothing changed)."""

    note: str | None = None
    refused: bool = False


def deck_text(cards: Collection[Card]) -> str:
    """A deck file's text: a table per tribe, ``"animal" = ["habitat", …]`` lines."""
    lines = ["# Totem Wars deck transcribed at the table (rules/totem-wars.md T1a)"]
    for tribe in TRIBES:
        lines += ["", f"[{tribe}]"]
        for card in cards:
            if card.tribe == tribe:
                habitats = ", ".join(f'"{h}"' for h in card.habitats)
                lines.append(f'"{card.animal}" = [{habitats}]')
    return "\n".join(lines) + "\n"


def _write(path: Path, text: str) -> None:
    """Write ``text`` atomically (temporary file, fsync, rename)."""
    try:
        write_atomically(path, text)
    except OSError as exc:
        raise UserError(f"cannot save the deck {shown_path(path)}: {exc.strerror}") from None


def _read_part(path: Path) -> list[Card]:
    """The cards of a transcription in progress (``[]`` when there is none), as ``_keep``
    wrote them; anything else there is a ``UserError`` saying to remove the file."""
    data = read_bytes(path, "a deck in progress", SMALL_BYTES, missing_ok=True)
    if data is None:
        return []
    damaged = UserError(f"{shown_path(path)}: the deck in progress is damaged; remove it to start again")
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # ValueError: bad TOML, huge numbers
        raise damaged from None
    cards: list[Card] = []
    for tribe, animals in doc.items():
        if tribe not in TRIBES or not isinstance(animals, dict) or len(animals) > CARDS_PER_TRIBE:
            raise damaged
        for animal, habitats in animals.items():
            if (not animal.strip() or "/" in animal or not isinstance(habitats, list)
                    or tuple(habitats) not in HABITAT_CHOICES):
                raise damaged
            cards.append(Card(tribe, animal, tuple(habitats)))
    if len(cards) >= DECK_SIZE:  # a whole deck is written as NAME.toml, never as a part
        raise damaged
    return cards


class DeckTranscription:
    """The walk through a physical deck, card by card, into ``DATA/decks/NAME.toml``."""

    def __init__(self, data_dir: str | os.PathLike[str], name: str, registry: Tags,
                 reference: Deck | None = None) -> None:
        if not 0 < len(name) <= NAME_CHARS or not all(c.isalnum() or c in "-_" for c in name):
            raise UserError(f"{shown(name)} cannot name a deck file: use up to {NAME_CHARS} "
                            f"letters, digits, - or _")
        folder = Path(data_dir) / DECKS_FOLDER
        self.path = folder / f"{name}.toml"
        self.part = folder / f"{name}.toml.part"
        self.registry = registry
        self.reference = reference or default_deck()
        self.animals = tuple(sorted({c.animal for c in self.reference}))
        self.cards: list[Card] = _read_part(self.part)
        self.tracker = TagTracker()
        self.uid: str | None = None
        self.proposal: Card | None = None
        self.stage = "scan"  # scan, confirm, tribe, animal, habitats, done
        self.choice: Choice | None = None

    @property
    def finished(self) -> bool:
        """Whether the whole deck is transcribed and written."""
        return self.stage == "done"

    def quit_note(self) -> str:
        """What becomes of the walk when the maker quits before the end: the cards kept so
        far stay in the ``.part`` file (none kept: nothing was written), and the same
        ``--transcribe NAME`` goes on from there."""
        name = self.path.name.removesuffix(".toml")
        if not self.cards:
            return t("deck.quit_empty", name=name)
        return t("deck.quit", n=len(self.cards), of=DECK_SIZE, part=shown_path(self.part), name=name)

    def handle(self, event: object) -> Step:
        """Take one event: a ``Tag``/``TagGone`` scan, a ``Press``, ``Hold("ok")`` to stop."""
        if self.finished:
            return Step()
        if isinstance(event, TagGone):
            self.tracker.leave(event.uid, event.reader)
            return Step()
        if isinstance(event, Tag):
            if not self.tracker.arrive(event.uid, event.reader):
                return Step()  # a repeated read of the card still on the reader
            return self._scan(event.uid)
        if isinstance(event, Hold) and event.button == "ok":
            self.stage = "done"
            return Step(t("deck.stopped", n=len(self.cards), of=DECK_SIZE))
        if isinstance(event, Press):
            return self._press(event.button)
        return Step()

    def _scan(self, token: str) -> Step:
        uid = normalise_uid(token)
        if uid is None:
            return Step(t("deck.not_tag", token=token), True)
        if self.stage != "scan":
            return Step(t("deck.this_first"), True)  # one footer line
        known = self.registry.item_for(uid)
        done = {c.name for c in self.cards}
        if known in done:
            return Step(t("deck.known", uid=uid, name=known), True)
        by_name: dict[str | None, Card] = {c.name: c for c in self.reference}  # known: None for a new tag
        proposal = by_name.get(known) or next((c for c in self.reference if c.name not in done),
                                              self.reference.cards[0])
        self.uid, self.proposal, self.stage = uid, proposal, "confirm"
        return Step()

    def _press(self, button: str) -> Step:
        stage = self.stage
        if stage == "scan":
            return Step(t("deck.scan_n", n=len(self.cards) + 1, of=DECK_SIZE))
        p = self.proposal
        assert p is not None, "past the scan, a card is always proposed"
        if stage == "confirm":
            if button == "ok":
                return self._keep(p)
            if button == "back":
                self.stage, self.uid = "scan", None
                return Step(t("deck.dropped"))
            if step_of(button):
                self._open("tribe")
            return Step()
        choice = self.choice
        assert choice is not None, "past the confirmation, a list is always open"
        if step_of(button):
            self.choice = choice.moved(step_of(button))
            return Step()
        if button == "back":
            previous = {"tribe": "confirm", "animal": "tribe", "habitats": "animal"}[stage]
            if previous == "confirm":
                self.stage = previous
            else:  # the list of that step again, not the one left: OK must choose from it
                self._open(previous)
            return Step()
        if button != "ok":
            return Step()
        if stage == "tribe":
            self.proposal = Card(choice.value, p.animal, p.habitats)
            self._open("animal")
            return Step()
        if stage == "animal":
            self.proposal = Card(p.tribe, choice.value, p.habitats)
            self._open("habitats")
            return Step()
        return self._keep(Card(p.tribe, p.animal, choice.value))

    def _open(self, stage: str) -> None:
        """Show the list of ``stage`` (tribe, animal, habitats), the proposal's entry chosen."""
        p = self.proposal
        assert p is not None, "a list is opened for the card proposed"
        if stage == "tribe":
            labels = tuple(map(tribe_label, TRIBES))
            choice = Choice(t("deck.tribe"), labels, TRIBES).select(p.tribe)
        elif stage == "animal":
            labels = tuple(animal_label(Card("", a, ())) for a in self.animals)
            choice = Choice(t("deck.animal"), labels, self.animals).select(p.animal)
        else:
            labels = tuple(map(habitats_label, HABITAT_CHOICES))
            choice = Choice(t("deck.habitats"), labels, HABITAT_CHOICES).select(p.habitats)
        self.stage, self.choice = stage, choice

    def _keep(self, card: Card) -> Step:
        if any(c.name == card.name for c in self.cards):
            self.stage = "confirm"
            self.proposal = card
            return Step(t("deck.twice", card=card_label(card)), True)
        if sum(c.tribe == card.tribe for c in self.cards) == CARDS_PER_TRIBE:
            self.stage = "confirm"
            self.proposal = card
            return Step(t("deck.tribe_full", tribe=tribe_label(card.tribe), n=CARDS_PER_TRIBE),
                        True)
        cards = self.cards + [card]
        if len(cards) == DECK_SIZE:
            text = deck_text(cards)
            deck_from_toml(text, str(self.path))  # the whole deck checked before it is written
            _write(self.path, text)
        else:
            _write(self.part, deck_text(cards))
        assert self.uid is not None, "a card is kept for the tag scanned"
        self.registry.bind_and_save(self.uid, card.name)
        self.cards = cards
        self.stage, self.uid, self.proposal = ("done" if len(cards) == DECK_SIZE else "scan"), None, None
        if self.finished:
            self.part.unlink(missing_ok=True)
            return Step(t("deck.written", file=self.path.name, n=DECK_SIZE))
        return Step(t("deck.kept", card=card_label(card), n=len(cards), of=DECK_SIZE))

    def frame(self, note: str | None = None) -> Image.Image:
        """The picture of the walk now, with ``note`` (the last step's line) at the bottom."""
        title = t("deck.title", n=min(len(self.cards) + 1, DECK_SIZE), of=DECK_SIZE)
        choice, p = self.choice, self.proposal
        if self.stage in ("tribe", "animal", "habitats") and choice is not None:
            return menu_screen(f"{title} {choice.title}", list(choice.labels),
                               choice.selected, footer=note or t("picker.footer"))
        if self.stage == "confirm" and p is not None:
            return message_screen(title, [card_label(p), habitats_label(p.habitats)],
                                  footer=note or t("deck.keep_footer"))
        if self.finished:
            return message_screen(t("deck.done_title"),
                                  [note or t("deck.cards_kept", n=len(self.cards))])
        return message_screen(title, [t("deck.scan_next")], footer=note)
