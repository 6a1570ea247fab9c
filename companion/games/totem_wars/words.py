"""Totem Wars' words: its gettext domain (``locale/<lang>/LC_MESSAGES/totem_wars.po``), which
goes on into the shared words, and the names of its cards, tribes and habitats.

>>> t("cards", "en", n=1), t("cards", "en", n=3), t("cards", "fr", n=0) == t("cards", "fr", n=1).replace("1", "0")
('1 card', '3 cards', True)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.engine import Refusals
from companion.words import SHARED, Catalogue

DOMAIN = "totem_wars"
WORDS = Catalogue(DOMAIN, Path(__file__).with_name("locale"), parent=SHARED)


#: The Totem Wars (or shared) message ``key`` in ``lang`` (default: the box's language); a
#: refusal and an ``IllegalMove`` whose words are Totem Wars's.
t, refusal, illegal = WORDS.t, Refusals(DOMAIN).refusal, Refusals(DOMAIN).illegal


def cards(count: int, lang: str | None = None) -> str:
    """A number of cards: ``1 card``, ``3 cards`` (the language's plural forms)."""
    return t("cards", lang, n=count)


def animal_name(animal: str, lang: str | None = None) -> str:
    """An animal of a card as a label (``Polar bear``): the default deck's animals in
    ``lang``, another deck's as its file writes them (``_`` as a space)."""
    if WORDS.has(f"animal.{animal}"):
        return t(f"animal.{animal}", lang)
    label = animal.replace("_", " ")
    return label[:1].upper() + label[1:]


def animal_in_text(animal: str, lang: str | None = None) -> str:
    """An animal inside a sentence or on a compact label (``polar bear``, ``Eisbär``)."""
    if WORDS.has(f"animal.{animal}.in_text"):
        return t(f"animal.{animal}.in_text", lang)
    return animal.replace("_", " ")


def card_label(card: Any, lang: str | None = None) -> str:
    """A card as players read it: ``Snake (Indians)``, ``Змия (Индианци)`` (anything with a
    ``tribe`` and an ``animal``)."""
    return t("tw.card", lang, animal=animal_name(card.animal, lang), tribe=t(f"tribe.{card.tribe}", lang))


def _card_words(value: Any, lang: str) -> str:
    return card_label(value, lang) if hasattr(value, "tribe") and hasattr(value, "animal") else str(value)


WORDS.kinds.update({
    "tribe": lambda value, lang: t(f"tribe.{value}", lang),      # "indians" → Indians, Индианци
    "habitat": lambda value, lang: t(f"habitat.{value}", lang),  # "land" → land, суша
    "card": _card_words,                                          # Card → Snake (Indians)
    "cards": lambda value, lang: cards(value, lang),              # 3 → 3 cards, 3 карти
})
