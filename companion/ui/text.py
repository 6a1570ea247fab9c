"""The shared words of the screens and the table's flows, and how a refusal is put into
words: a thin layer over the shared gettext domain (``companion/words.py``,
``companion/locale/<lang>/LC_MESSAGES/companion.po``).

``t(key, **fields)`` is the shared message ``key`` in the language being spoken (``speaking``:
the session's while it handles an event or draws) or in ``lang``, fields filled in. Each
game's own words are in its package (``companion.games.<game>.words``, whose ``t`` goes on
into these). Rule numbers (W4, T5, R3 …) are written inside the texts
and stay the same in every language: players look them up in the rulebook — except in
refusals, where the rule is a field of its own.

>>> t("undo.question")
'Take back?'
>>> t("undo.question", lang="de")
'Rückgängig?'
"""

from __future__ import annotations

from typing import Any

from companion.engine import Refusal
from companion.words import LANGUAGES, SHARED, catalogue, language, speaking

__all__ = ["languages", "language", "speaking", "t", "refusal_reason", "refusal_text", "note_text"]


def languages() -> tuple[str, ...]:
    """The codes of the languages the screens can show, in the order Settings offers them."""
    return tuple(LANGUAGES)


def t(key: str, lang: str | None = None, **fields: Any) -> str:
    """The shared message ``key`` in ``lang`` (default: the language being spoken), fields
    filled in."""
    return SHARED.t(key, lang, **fields)


def refusal_reason(refusal: Refusal, lang: str | None = None) -> str:
    """Why a move was refused, in ``lang`` (default: the language being spoken), without the
    rule; the first letter as the catalogue writes it (``refusal.<key>`` of the refusal's
    domain). ``KeyError`` for a key the catalogue lacks.

    >>> from companion.engine import Refusal
    >>> refusal_reason(Refusal("none_in_bag", {"piece": "eagle"}, "W4", "wakanda"))
    'no eagle left in the bag'
    """
    return catalogue(refusal.domain).t(f"refusal.{refusal.key}", lang, **refusal.params)


def refusal_text(refusal: Refusal, lang: str | None = None) -> str:
    """A refusal as a screen shows it: the reason capitalised, `` — RULE`` after it when
    there is a rule.

    >>> from companion.engine import Refusal
    >>> refusal_text(Refusal("not_open", {"village": 5}, "W4", "wakanda"))
    'Village 5 is not open yet — W4'
    >>> refusal_text(Refusal("nothing_to_undo"), "fr")
    'Rien à annuler'
    """
    reason = refusal_reason(refusal, lang)
    text = reason[:1].upper() + reason[1:]
    return f"{text} — {refusal.rule}" if refusal.rule else text


def note_text(note: str | Refusal | None, lang: str | None = None) -> str | None:
    """The words of a note of a view (a footer, a picker's or a board's note) in ``lang``:
    a refusal is put into words with its rule; words already made (a ``Cited`` note too)
    are as they are. What a phone page or a voice calls, on its own thread, with the box's
    language (``session.language``).

    >>> from companion.engine import Refusal
    >>> note_text(Refusal("nothing_to_undo"), "de"), note_text("Ana: 12", "de"), note_text(None)
    ('Nichts zurückzunehmen', 'Ana: 12', None)
    """
    return note if note is None or isinstance(note, str) else refusal_text(note, lang)


SHARED.kinds["refusal"] = lambda value, lang: refusal_reason(value, lang)  # a Refusal → its reason
