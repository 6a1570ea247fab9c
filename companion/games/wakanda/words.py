"""Wakanda's words: its gettext domain (``locale/<lang>/LC_MESSAGES/wakanda.po``), which goes
on into the shared words, and the names of its pieces, villages and headdresses.

Inside a sentence a name is its ``.in_text`` form, written by the translator (German keeps
its capital: "Adler"); the code never changes a word's case.

>>> t("play.drew", "en", name="Ana", piece=in_text("sun", "en"))
'Ana drew sun'
>>> piece_name("eagle", "de"), tile_label(None, "en")
('Adler', '?')
"""

from __future__ import annotations

from pathlib import Path

from companion.engine import Refusals
from companion.words import SHARED, Catalogue

DOMAIN = "wakanda"
WORDS = Catalogue(DOMAIN, Path(__file__).with_name("locale"), parent=SHARED)


#: The Wakanda (or shared) message ``key`` in ``lang`` (default: the box's language); a
#: refusal and an ``IllegalMove`` whose words are Wakanda's.
t, refusal, illegal = WORDS.t, Refusals(DOMAIN).refusal, Refusals(DOMAIN).illegal


def _prefix(name: object) -> str | None:
    for prefix in ("piece", "village", "headdress"):
        if WORDS.has(f"{prefix}.{name}"):
            return prefix
    return None


def piece_name(piece: str, lang: str | None = None) -> str:
    """A piece type's or village's name as a label (``Eagle``, ``Variety``)."""
    return t(f"{_prefix(piece) or 'piece'}.{piece}", lang)


def in_text(name: object, lang: str | None = None) -> str:
    """A piece's, village's or headdress's name inside a sentence (``sun``, ``Adler``); a
    value the catalogue does not know, as it is."""
    prefix = _prefix(name)
    return t(f"{prefix}.{name}.in_text", lang) if prefix else str(name)


def tile_label(village: str | None, lang: str | None = None) -> str:
    """The short label printed under a village's pole; ``?`` for a face-down tile."""
    return t(f"tile.{village}" if village else "tile.hidden", lang)


# {piece:piece}, {village:village}, {headdress:headdress}: a raw kind ("eagle", "wings") in words.
WORDS.kinds.update({kind: lambda value, lang: in_text(value, lang) for kind in ("piece", "village", "headdress")})
