"""Every word the screens show players, in one place, with a dict-based translation hook.

``t(key, **fields)`` looks the key up in the current language, falls back to English, and
fills ``{fields}``. A language is a plain dict of the keys it translates; add one with
``add_language`` (the bundled fonts cover Latin and Cyrillic).

>>> t("wins", name="Ana")
'Ana wins'
>>> t("wins", lang="bg", name="Ана")
'Ана печели'
"""

from __future__ import annotations

ENGLISH: dict[str, str] = {
    # Piece types and village tiles (W1), as full names and as 3-letter tile labels.
    "piece.eagle": "Eagle", "piece.chief": "Chief", "piece.tomahawk": "Tomahawk",
    "piece.skin": "Skin", "piece.teepee": "Teepee", "piece.sun": "Sun",
    "village.variety": "Variety", "village.height": "Height",
    "tile.eagle": "EAG", "tile.chief": "CHF", "tile.tomahawk": "TOM", "tile.skin": "SKN",
    "tile.teepee": "TEE", "tile.variety": "VAR", "tile.height": "HGT", "tile.sun": "SUN",
    "tile.hidden": "?",
    # The board header.
    "phase.draw": "draw", "phase.action": "play", "phase.reveal": "reveal",
    "phase.over": "game over",
    "hand.none": "empty hand",
    # Score pages (W7-W9, R6).
    "wins": "{name} wins", "shared": "Shared win", "score.provisional": "Score so far",
    "score.line": "{a} to {b}",
    "why.higher": "Higher total (W9)",
    "why.tie_third": "Tie: {name} placed the third headdress first (W9)",
    "why.early": "Higher total (W9); ended early: both players passed (R6)",
    "why.only_third": "Tie: only {name} placed a third headdress (R6)",
    "why.shared": "Equal totals, no third headdress placed (R6)",
    "score.no_village": "no village",
    "score.sun_penalty": "Sun penalty (W8)",
    "score.total": "Total",
    "page": "{n}/{of}",
    # Shared prompts and footers.
    "confirm.footer": "OK yes · BACK no",
    "nav.footer": "▲▼ choose · OK",
    "scan_tile": "Scan village tile {n}",
    "or_buttons": "or ▲▼ then OK",
    "setup.title": "Set-up",
}

BULGARIAN: dict[str, str] = {
    "piece.eagle": "Орел", "piece.chief": "Вожд", "piece.tomahawk": "Томахавка",
    "piece.skin": "Кожа", "piece.teepee": "Типи", "piece.sun": "Слънце",
    "village.variety": "Разнообразие", "village.height": "Височина",
    "tile.eagle": "ОРЕ", "tile.chief": "ВОЖ", "tile.tomahawk": "ТОМ", "tile.skin": "КОЖ",
    "tile.teepee": "ТИП", "tile.variety": "РАЗ", "tile.height": "ВИС", "tile.sun": "СЛЪ",
    "phase.draw": "тегли", "phase.action": "играй", "phase.reveal": "обърни",
    "phase.over": "край",
    "wins": "{name} печели", "shared": "Равен резултат", "score.line": "{a} на {b}",
    "score.sun_penalty": "Наказание слънце (W8)", "score.total": "Общо",
    "confirm.footer": "OK да · BACK не",
    "nav.footer": "▲▼ избор · OK",
    "scan_tile": "Сканирай плочка {n}",
    "or_buttons": "или ▲▼ и OK",
    "setup.title": "Подготовка",
}

_LANGUAGES: dict[str, dict[str, str]] = {"en": ENGLISH, "bg": BULGARIAN}
_current = "en"


def add_language(lang: str, strings: dict[str, str]) -> None:
    """Register (or extend) language ``lang``; keys it lacks fall back to English."""
    _LANGUAGES.setdefault(lang, {}).update(strings)


def set_language(lang: str) -> None:
    """Make ``lang`` the language of every screen from now on."""
    if lang not in _LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(sorted(_LANGUAGES))})")
    global _current
    _current = lang


def languages() -> tuple[str, ...]:
    """The codes of the languages the screens can show."""
    return tuple(sorted(_LANGUAGES))


def language() -> str:
    """The current language code."""
    return _current


def t(key: str, lang: str | None = None, **fields: object) -> str:
    """The text for ``key`` in ``lang`` (default: the current language), fields filled in."""
    strings = _LANGUAGES[lang or _current]
    template = strings.get(key) or ENGLISH[key]
    return template.format(**fields) if fields else template


def piece_name(piece: str, lang: str | None = None) -> str:
    """A piece type's or village's name for players (``Eagle``, ``Variety``)."""
    key = f"piece.{piece}" if f"piece.{piece}" in ENGLISH else f"village.{piece}"
    return t(key, lang)


def tile_label(village: str | None, lang: str | None = None) -> str:
    """The short label printed under a village's pole; ``?`` for a face-down tile."""
    return t(f"tile.{village}" if village else "tile.hidden", lang)
