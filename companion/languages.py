"""The languages the box speaks: one table, from which the words' ``LANGUAGES`` (the order
Settings offers them), the voice's espeak-ng voices and doctor's names come.

A language's words are its catalogues (``companion/locale/<code>/LC_MESSAGES/companion.po``
and each game's ``locale/<code>/LC_MESSAGES/<domain>.po``); its name in the Settings list
is its own catalogue's ``language.name``; its plural rule is its catalogues' ``Plural-Forms``.
Adding a language is those catalogues and one line here (docs/internals.md).

>>> LANGUAGES[0], len(LANGUAGES), "bg" in LANGUAGES
('en', 8, True)
>>> LANGUAGES.of("fr").voice, VOICES["de"]
('fr-fr', ('de', 'German'))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import overload


@dataclass(frozen=True)
class Language:
    """One language: its ``code`` (the catalogues' folder), its ``english`` name (doctor's
    report) and the espeak-ng ``voice`` that says it."""

    code: str
    english: str
    voice: str


class Languages(Sequence[str]):
    """The codes of the languages, in the order Settings offers them; ``of(code)`` is the
    whole entry. ``add`` is the seam a language joins by at run time (the tests' ninth
    language): every view of the table (``VOICES``, the Settings list) sees it."""

    def __init__(self, table: Iterable[Language]) -> None:
        self._table: dict[str, Language] = {}
        for language in table:
            self.add(language)

    def add(self, language: Language) -> None:
        """One more language, offered last; ``ValueError`` for a code known already."""
        if language.code in self._table:
            raise ValueError(f"language {language.code!r} is known already")
        self._table[language.code] = language

    def of(self, code: str) -> Language:
        """The entry of ``code``; ``KeyError`` for a code not in the table."""
        return self._table[code]

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        return tuple(self._table)[index]

    def __len__(self) -> int:
        return len(self._table)

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(self._table))

    def __contains__(self, code: object) -> bool:
        return code in self._table

    def __repr__(self) -> str:
        return f"Languages({tuple(self._table)!r})"


class _Voices(Mapping[str, tuple[str, str]]):
    """Code → (espeak-ng voice, English name), read from the table as it is now."""

    def __init__(self, languages: Languages) -> None:
        self._languages = languages

    def __getitem__(self, code: str) -> tuple[str, str]:
        language = self._languages.of(code)
        return language.voice, language.english

    def __iter__(self) -> Iterator[str]:
        return iter(self._languages)

    def __len__(self) -> int:
        return len(self._languages)


#: The languages the box speaks, in the order Settings offers them: one line a language.
LANGUAGES = Languages((
    Language("en", "English", "en-gb"),
    Language("fr", "French", "fr-fr"),
    Language("de", "German", "de"),
    Language("es", "Spanish", "es"),
    Language("it", "Italian", "it"),
    Language("nl", "Dutch", "nl"),
    Language("pt", "Portuguese", "pt"),
    Language("bg", "Bulgarian", "bg"),
))

#: The box's language code → (espeak-ng voice, the language's English name for doctor).
VOICES: Mapping[str, tuple[str, str]] = _Voices(LANGUAGES)
