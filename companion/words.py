"""The box's words: gettext catalogues, one domain for the shared words and one per game.

Each domain is a folder of ``<lang>/LC_MESSAGES/<domain>.po`` files (the words, edited with
any PO editor) compiled into ``.mo`` files by ``./setup.sh`` (``companion.catalogues``).
A message is found by its key, the ``msgctxt``; the ``msgid`` is the English. The English
catalogue (``en``) is the source: its ``msgstr`` are the English a screen shows, its
``msgid`` the machine English of records and the command line. Read with the standard
library's ``gettext`` (``pgettext``, ``npgettext``), plurals by each language's
``Plural-Forms``.

A template's fields are ``str.format`` fields; ``{field:kind}`` puts a raw value into words
with the domain's ``kinds`` (a piece kind, a card, a number of cards …) and ``{field!r}``
shows a value as written. A plural message's count is its field ``n`` (or, without one, the
first field of its English plural), or ``plural_by`` where the shown number is no count
(``+1.5``).

Words never stop the box: a compiled catalogue that cannot be read (damaged, cut short, not a
regular file, too big) or is missing gives English for that domain and language, said once in
the log and once on the screen (``unreadable_note``); a translation whose fields do not fit
its English's (a translator's mistake ``./setup.sh`` would have refused) gives the English.

>>> SHARED.text("undo.done", "en", what="Ana drew sun")
'Taken back: Ana drew sun'
>>> SHARED.text("settings.language", "fr", name="Français").startswith("Langue")
True
"""

from __future__ import annotations

import gettext
import io
import re
import string
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.catalogues import plural_forms
from companion.errors import UserError
from companion.files import read_bytes
from companion.languages import LANGUAGES as _LANGUAGES

#: The languages the box speaks, in the order Settings offers them (``companion/languages.py``).
LANGUAGES = _LANGUAGES

#: How a ``{field:kind}`` puts a raw value into words: ``kind(value, lang)``.
Kind = Callable[[Any, str], str]


class MissingCatalogue(UserError):
    """A catalogue was never compiled: ``./setup.sh`` compiles them."""


class _Fields(string.Formatter):
    """``str.format`` plus a domain's ``{field:kind}`` specs, in one language."""

    def __init__(self, kinds: Mapping[str, Kind], lang: str):
        self.kinds, self.lang = kinds, lang

    def format_field(self, value: Any, format_spec: str) -> str:
        kind = self.kinds.get(format_spec)
        return kind(value, self.lang) if kind else super().format_field(value, format_spec)

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        # A name "as written" comes from a record or a scan, which may hold anything: quoted
        # short and escaped, so that a message stays one short line.
        if conversion == "r" and isinstance(value, str):
            from companion.files import shown
            return shown(value)
        return super().convert_field(value, conversion)


@dataclass(frozen=True)
class _Entry:
    """A message's English: its ``msgid`` and, for a plural message, its ``msgid_plural``."""

    msgid: str
    plural: str | None = None

    def count_of(self, fields: Mapping[str, Any]) -> int:
        if "n" in fields:
            return int(fields["n"])
        names = [name for _, name, _, _ in string.Formatter().parse(self.plural or "") if name]
        return int(fields[names[0]]) if names and names[0] in fields else 2


@dataclass(eq=False)
class Catalogue:
    """The words of one gettext ``domain`` kept under ``folder``, in every language.

    A key this domain lacks is looked up in ``parent`` (a game's words go on into the
    shared ones). ``kinds`` put raw values into words inside this domain's templates
    (``{piece:piece}``); the parent's kinds apply too.
    """

    domain: str
    folder: Path
    parent: Catalogue | None = None
    kinds: dict[str, Kind] = field(default_factory=dict)
    _entries: dict[str, _Entry] | None = field(default=None, repr=False)
    _translations: dict[str, gettext.NullTranslations] = field(default_factory=dict, repr=False)
    # Each lookup once: a frame asks for a dozen messages, an event must draw within 1 ms.
    _templates: dict[tuple[str, str, int | None], tuple[str, bool]] = field(default_factory=dict, repr=False)
    _owners: dict[str, Catalogue | None] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        _DOMAINS[self.domain] = self

    # --- lookup -------------------------------------------------------------------------

    def _mo(self, lang: str) -> Path:
        return self.folder / lang / "LC_MESSAGES" / f"{self.domain}.mo"

    def _english(self) -> dict[str, _Entry]:
        if self._entries is None:
            translation = self._load("en")
            entries: dict[str, _Entry] = {}
            # GNUTranslations keeps a compiled catalogue as "context\x04msgid" keys, a
            # plural message as (key, form) pairs: the only index of msgctxt to msgid.
            for raw in getattr(translation, "_catalog", {}):
                key, plural_form = (raw if isinstance(raw, tuple) else (raw, None))
                if "\x04" not in key:
                    continue
                context, msgid = key.split("\x04", 1)
                if plural_form is None:
                    entries[context] = _Entry(msgid)
                elif plural_form == 0:
                    entries[context] = _Entry(msgid, translation.npgettext(context, msgid, msgid, 2))
            self._entries = entries
        return self._entries

    def _load(self, lang: str) -> gettext.NullTranslations:
        translation = self._translations.get(lang)
        if translation is None:
            try:
                translation = _read_mo(self._mo(lang))
            except _Unreadable as exc:
                if lang == "en":
                    raise MissingCatalogue(f"the {self.domain} words cannot be read ({exc}): run ./setup.sh") \
                        from None
                _unreadable(self.domain, lang, str(exc))
                translation = gettext.NullTranslations()
            if lang != "en":
                translation.add_fallback(self._load("en"))
            self._translations[lang] = translation
        return translation

    def owner(self, key: str) -> Catalogue | None:
        """The catalogue of this chain that holds ``key`` (this one first), or None."""
        if key in self._owners:
            return self._owners[key]
        catalogue: Catalogue | None = self
        while catalogue is not None and key not in catalogue._english():
            catalogue = catalogue.parent
        if len(self._owners) < MAX_TEMPLATES:
            self._owners[key] = catalogue
        return catalogue

    def has(self, key: str) -> bool:
        """Whether ``key`` is a message of this domain or of its parents."""
        return self.owner(key) is not None

    def keys(self) -> tuple[str, ...]:
        """The keys of this domain alone (not its parents'), in catalogue order."""
        return tuple(self._english())

    def _found(self, key: str) -> tuple[Catalogue, _Entry]:
        owner = self.owner(key)
        if owner is None:
            raise KeyError(f"{key!r} is not a message of {self.domain}")
        return owner, owner._english()[key]

    def english(self, key: str) -> _Entry:
        """The English ``msgid`` (and ``msgid_plural``) of ``key``; ``KeyError`` if none."""
        return self._found(key)[1]

    def template(self, key: str, lang: str, count: int | None = None) -> str:
        """The template of ``key`` in ``lang`` (English where the language lacks it)."""
        owner, entry = self._found(key)
        translation = owner._load(lang)
        if entry.plural is None:
            return translation.pgettext(key, entry.msgid)
        try:
            return translation.npgettext(key, entry.msgid, entry.plural, 2 if count is None else count)
        except ArithmeticError:  # a language's plural rule dividing by zero for this count
            if lang == "en":
                raise
            _unreadable(owner.domain, lang, "its plural rule fails")
            return self.template(key, "en", count)

    def _kinds(self) -> dict[str, Kind]:
        kinds = self.parent._kinds() if self.parent else {}
        return {**kinds, **self.kinds}

    def text(self, key: str, lang: str, *, plural_by: int | None = None, **fields: Any) -> str:
        """The message ``key`` in ``lang`` with its ``fields`` filled in; a plural message's
        form chosen by ``plural_by`` when given."""
        entry = self.english(key)
        count = None if entry.plural is None else plural_by if plural_by is not None else entry.count_of(fields)
        found = self._templates.get((key, lang, count))
        if found is None:
            template = self.template(key, lang, count)
            # Only a {field:kind} or a {field!r} needs the (slower) formatter of this module.
            found = template, bool(re.search(r"\{[^{}]*[:!][^{}]*\}", template))
            if len(self._templates) < MAX_TEMPLATES:
                self._templates[(key, lang, count)] = found
        template, special = found
        if not fields:
            return template
        try:
            return _Fields(self._kinds(), lang).vformat(template, (), fields) if special else template.format(**fields)
        except (KeyError, IndexError, ValueError, AttributeError):
            if lang == "en":
                raise  # the English is the source: its fields are the code's
            _unreadable(self.domain, lang, "its fields are not its English's", key)
            return self.text(key, "en", plural_by=plural_by, **fields)

    def t(self, key: str, lang: str | None = None, *, plural_by: int | None = None, **fields: Any) -> str:
        """``text`` in ``lang``, by default the language being spoken (``speaking``)."""
        return self.text(key, lang or _SPOKEN.get(), plural_by=plural_by, **fields)

    def machine(self, key: str, **fields: Any) -> str:
        """The message as a record or the command line writes it: the ``msgid`` English,
        a value of a kind in ``raw`` written as it is (``indians/snake``)."""
        entry = self.english(key)
        template = entry.msgid if entry.plural is None or entry.count_of(fields) == 1 else entry.plural
        kinds = {**self._kinds(), **{kind: (lambda value, lang: str(value)) for kind in MACHINE_RAW}}
        return _Fields(kinds, "en").vformat(template, (), fields)


#: Templates kept ready per catalogue (key, language, count): every message of every language
#: is a few thousand; counts vary, so the cache is bounded.
MAX_TEMPLATES = 20_000

#: The kinds a record writes as raw values (a card as ``tribe/animal``).
MACHINE_RAW = ("card",)

_DOMAINS: dict[str, Catalogue] = {}

# The language of the words being made and drawn now: set only for the span of ``speaking``
# (a session while it handles an event or draws, a command while it runs), never for good,
# so that one session or test cannot leave its language to another. A context variable is
# per thread too: a phone page or a voice on its own thread speaks what it asks for.
_SPOKEN: ContextVar[str] = ContextVar("spoken", default="en")


#: A compiled catalogue is a few kilobytes; anything much bigger is not one.
MAX_MO_BYTES = 1 << 20


class _Unreadable(Exception):
    """A compiled catalogue that cannot be read (its one-line reason)."""


def _read_mo(path: Path) -> gettext.GNUTranslations:
    """The compiled catalogue at ``path``: a regular file of at most ``MAX_MO_BYTES`` that
    gettext reads; ``_Unreadable`` otherwise."""
    try:
        data = read_bytes(path, "the compiled catalogue", MAX_MO_BYTES, missing_ok=True)
    except UserError as exc:  # not a regular file, too big, unreadable: its one line
        raise _Unreadable(str(exc)) from None
    if data is None:
        raise _Unreadable("missing")
    # gettext turns Plural-Forms into Python with eval: it is read by the small evaluator of
    # the set-up's checks first, and a rule that is not well formed or safe is refused.
    for forms in re.finditer(rb"plural-forms:([^\n\x00]*)", data, re.IGNORECASE):
        try:
            plural_forms(forms.group(1).decode("utf-8", "replace"))
        except ValueError as exc:
            raise _Unreadable(f"its Plural-Forms: {exc}") from None
    try:
        return gettext.GNUTranslations(io.BytesIO(data))
    except Exception as exc:  # noqa: BLE001 - gettext raises many kinds for a damaged file
        raise _Unreadable(f"damaged: {type(exc).__name__}") from None


# Each catalogue problem (domain, language) is said once in the log; the screen says, once
# per language, that some of its words are shown in English.
_problems_lock = threading.Lock()
_said: set[tuple[str, str, str]] = set()  # (domain, language, key: "" for the whole catalogue)
_shown: set[str] = set()


def _unreadable(domain: str, lang: str, why: str, key: str = "") -> None:
    """Say once in the log that ``domain``'s words in ``lang`` (only message ``key``'s when
    given) fall back to English."""
    with _problems_lock:
        if (domain, lang, key) in _said:
            return
        _said.add((domain, lang, key))
    what = f"{key!r} of the {lang} words of {domain}" if key else f"the {lang} words of {domain}"
    print(f"totem-companion: {what}: {why}; English shown instead", file=sys.stderr)


def unreadable_note(lang: str | None = None, catalogues: Iterable[Catalogue] = ()) -> str | None:
    """Once per language: a note for the screen when some catalogue of ``lang`` (default:
    the language spoken) cannot be read, so that its words are English; None otherwise.
    Reads that language of every catalogue made so far, and of ``catalogues`` (the games':
    a game's words are made with its definition), to know."""
    lang = lang or _SPOKEN.get()
    for words in (*_DOMAINS.values(), *catalogues):
        words._load(lang)
    with _problems_lock:
        if lang in _shown or not any(said == lang and not key for _, said, key in _said):
            return None
        _shown.add(lang)
    return SHARED.text("words.unreadable", lang)


def check_language(lang: str) -> str:
    """``lang`` when it is a code of ``LANGUAGES``; ``ValueError`` (one line) otherwise."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    return lang


@contextmanager
def speaking(lang: str) -> Iterator[str]:
    """Within the ``with`` block, a ``t(key)`` without a language is in ``lang``; the
    language before it comes back after (on this thread only).

    >>> with speaking("fr"):
    ...     SHARED.t("undo.question")
    'Annuler?'
    >>> SHARED.t("undo.question")
    'Take back?'
    """
    token = _SPOKEN.set(check_language(lang))
    try:
        yield lang
    finally:
        _SPOKEN.reset(token)


def language() -> str:
    """The language being spoken here and now (``speaking``; English outside any)."""
    return _SPOKEN.get()


def catalogue(domain: str) -> Catalogue:
    """The catalogue of ``domain`` (the game packages make theirs on import: a refusal of a
    game comes from a game already loaded)."""
    return _DOMAINS[domain]


#: The words both games share (the menu, settings, the table's notes, the buttons).
SHARED = Catalogue("companion", Path(__file__).with_name("locale"))
