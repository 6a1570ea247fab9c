"""Totem Wars cards and decks (rules T1, T1a): the deck is data, checked when it is loaded.

>>> deck = default_deck()
>>> len(deck), deck.card("indians/snake")
(52, Card(tribe='indians', animal='snake', habitats=('land',)))
>>> deck.card("africans/flamingo").habitats
('water', 'air')
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from companion.errors import UserError
from companion.files import SMALL_BYTES, read_bytes, shown, shown_path

#: The four tribes (T1), in the order the companion lists them.
TRIBES: tuple[str, ...] = ("aborigines", "africans", "eskimos", "indians")
#: The three habitats (T1, T10).
HABITATS: tuple[str, ...] = ("water", "land", "air")
CARDS_PER_TRIBE = 13
#: The folder of deck files inside the data folder; a deck's name is its file name there
#: without ``.toml``.
DECKS_FOLDER = "decks"
#: The longest animal name, and the longest deck name a record may give.
ANIMAL_CHARS = 40
NAME_CHARS = 100


class DeckError(UserError):
    """A deck that breaks T1a; the message is one line naming the offending entry."""


@dataclass(frozen=True, order=True)
class Card:
    """One card: its tribe, its animal and one or two habitats, in the order printed on the
    card (R2 offers the first listed first when both are as good)."""

    tribe: str
    animal: str
    habitats: tuple[str, ...]

    @property
    def name(self) -> str:
        """``tribe/animal``, the card's name in records, tags and messages."""
        return f"{self.tribe}/{self.animal}"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Deck:
    """The 52 cards of a game, in file order; look a card up by name with ``card``."""

    cards: tuple[Card, ...]
    _by_name: dict[str, Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Frozen, so the name index is set once here.
        object.__setattr__(self, "_by_name", {c.name: c for c in self.cards})

    def card(self, name: str) -> Card:
        """The card called ``name``; ``KeyError`` when the deck has none."""
        return self._by_name[name]

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and self._by_name.get(card.name) == card

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def to_list(self) -> list[dict[str, object]]:
        """The deck as card objects, the form a record header may hold."""
        return [{"tribe": c.tribe, "animal": c.animal, "habitats": list(c.habitats)} for c in self.cards]


def _card(where: str, tribe: object, animal: object, habitats: object) -> Card:
    """One checked card; ``where`` names the entry in error messages."""
    if not isinstance(tribe, str) or tribe not in TRIBES:
        raise DeckError(f"{where}: unknown tribe {shown(tribe)} (known: {', '.join(TRIBES)}) (T1a)")
    if (not isinstance(animal, str) or not animal.strip() or "/" in animal or animal != animal.strip()
            or not animal.isprintable() or len(animal) > ANIMAL_CHARS):
        raise DeckError(f"{where}: the animal must be a name without '/' or outer spaces, printable, "
                        f"of at most {ANIMAL_CHARS} characters, got {shown(animal)} (T1a)")
    name = f"{tribe}/{animal}"
    # From here on the card has a name: say it, after the file or list entry it comes from.
    where = where if where.endswith(name) else f"{where}: {name}"
    if not isinstance(habitats, (list, tuple)) or not 1 <= len(habitats) <= 2:
        raise DeckError(f"{where}: a card has 1 or 2 habitats, as a list like [\"water\", \"land\"] (T1a)")
    for habitat in habitats:
        if not isinstance(habitat, str) or habitat not in HABITATS:
            raise DeckError(f"{where}: unknown habitat {shown(habitat)} (known: {', '.join(HABITATS)}) (T1a)")
    if len(set(habitats)) != len(habitats):
        raise DeckError(f"{where}: habitat {shown(habitats[0])} is listed twice (T1a)")
    return Card(tribe, animal, tuple(habitats))


def _check(cards: list[Card], source: str) -> Deck:
    """A deck from checked cards, once the whole deck follows T1a."""
    seen: set[str] = set()
    for card in cards:
        if card.name in seen:
            raise DeckError(f"{source}: card {card.name} appears twice (T1a)")
        seen.add(card.name)
    for tribe in TRIBES:
        count = sum(1 for c in cards if c.tribe == tribe)
        if count != CARDS_PER_TRIBE:
            raise DeckError(f"{source}: tribe {tribe} has {count} cards, a deck needs "
                            f"{CARDS_PER_TRIBE} of each tribe (T1a)")
    return Deck(tuple(cards))


def deck_from_list(entries: object, source: str = "deck") -> Deck:
    """A deck from card objects ``{"tribe": …, "animal": …, "habitats": […]}`` (a record header).

    >>> deck_from_list([{"tribe": "indians", "animal": "snake", "habitats": ["sky"]}])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.games.totem_wars.deck.DeckError: deck card 1: indians/snake: unknown habitat 'sky' ... (T1a)
    """
    if not isinstance(entries, list):
        raise DeckError(f"{source}: a deck is a list of 52 card objects (T1a)")
    cards = []
    for number, entry in enumerate(entries, start=1):
        where = f"{source} card {number}"
        if not isinstance(entry, dict):
            raise DeckError(f"{where}: each card is an object with tribe, animal and habitats (T1a)")
        unknown = sorted(set(entry) - {"tribe", "animal", "habitats"})
        if unknown:
            raise DeckError(f"{where}: unknown key {shown(unknown[0])} (T1a)")
        missing = [k for k in ("tribe", "animal", "habitats") if k not in entry]
        if missing:
            raise DeckError(f"{where}: missing key {missing[0]!r} (T1a)")
        cards.append(_card(where, entry["tribe"], entry["animal"], entry["habitats"]))
    return _check(cards, source)


def deck_from_toml(text: str, source: str = "deck") -> Deck:
    """A deck from the text of a deck file: a table per tribe, ``animal = [habitats]`` lines."""
    import tomllib  # when a deck is read, not when the menu names the game

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"{source}: not a valid deck file ({exc}) (T1a)") from None
    except ValueError:
        # tomllib converts an integer of thousands of digits and fails (a Python limit).
        raise DeckError(f"{source}: not a valid deck file (a number too long) (T1a)") from None
    except RecursionError:
        raise DeckError(f"{source}: not a valid deck file (arrays or tables nested too deep) (T1a)") from None
    cards = []
    for tribe, animals in data.items():
        if tribe not in TRIBES:
            raise DeckError(f"{source}: unknown tribe [{shown(tribe)[1:-1]}] (known: {', '.join(TRIBES)}) (T1a)")
        if not isinstance(animals, dict):
            raise DeckError(f"{source}: [{tribe}] must be a table of  animal = [habitats]  lines (T1a)")
        for animal, habitats in animals.items():
            cards.append(_card(f"{source}: {tribe}/{shown(animal, ANIMAL_CHARS)[1:-1]}", tribe, animal, habitats))
    return _check(cards, source)


def load_deck(path: str | os.PathLike[str]) -> Deck:
    """Read and check a deck file (format in docs/decks.md): a regular file of at most
    1 MB; ``DeckError`` names the problem in one line."""
    try:
        data = read_bytes(path, "a deck file", SMALL_BYTES, missing_ok=True)
    except UserError as exc:
        raise DeckError(str(exc)) from None
    if data is None:
        raise DeckError(f"{shown_path(path)}: no such deck file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DeckError(f"{shown_path(path)}: a deck file: not a UTF-8 text file") from None
    return deck_from_toml(text, shown_path(path))


def deck_of_data(data_dir: str | os.PathLike[str] | None, name: str) -> Deck:
    """The deck called ``name`` in the data folder's ``decks/`` (``decks/NAME.toml``), as a
    record's header may name it: a name, never a path. ``DeckError`` for a name that is not
    one (a path, a hidden file, control characters), a name without a data folder to look
    in, or a deck that is missing or breaks T1a."""
    if (not name or len(name) > NAME_CHARS or not name.isprintable() or name.startswith(".")
            or "/" in name or "\\" in name):
        raise DeckError(f"deck {shown(name)}: a record names a deck of the data folder's "
                        f"{DECKS_FOLDER}/ by its name (its file name without .toml), never a path (T1a)")
    if data_dir is None:
        raise DeckError(f"deck {shown(name)}: a deck named by a record is looked for in the data "
                        f"folder's {DECKS_FOLDER}/, and there is no data folder here (T1a)")
    folder = Path(data_dir) / DECKS_FOLDER
    path = folder / f"{name}.toml"
    if not os.path.lexists(path):
        raise DeckError(f"deck {shown(name)}: no such deck in {shown_path(folder)} (T1a)")
    return load_deck(path)


@cache
def default_deck() -> Deck:
    """The deck shipped with the companion (the spec's illustrative default deck)."""
    text = resources.files(__package__).joinpath("default_deck.toml").read_text(encoding="utf-8")
    return deck_from_toml(text, "default deck")
