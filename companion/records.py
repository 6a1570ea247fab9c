"""Game records: JSON Lines, one object a line, the first line a header (rules/*.md).

This module reads and writes lines; each game's ``record`` module gives them meaning.
Every JSON text the program is given — a record line, an engine request, ``tags.json``,
``big_game.json`` — is read by ``parse_json``, which refuses what ``json.loads`` would take
silently or fail on with a traceback: a key given twice (which value was meant?), an
integer of thousands of digits, nesting hundreds deep, NaN and Infinity.

>>> parse_json('{"p": 0, "draw": "sun"}')
{'p': 0, 'draw': 'sun'}
>>> parse_json('{"p": 0, "p": 1}')
Traceback (most recent call last):
...
companion.records.JsonError: key 'p' given twice (an ambiguous line)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from typing import Any

from companion.errors import RecordError, one_line
from companion.files import QUOTE_CHARS, shown
from companion.words import SHARED

#: The deepest nesting of arrays and objects a JSON text may have (a record line needs 3,
#: an engine request 4).
MAX_DEPTH = 32
#: The most digits an integer may have (a record's numbers are seats, villages and seeds).
MAX_DIGITS = 100
#: The most lines a record may have: a game has a few hundred at most (undos included); a
#: file of millions of short lines would take gigabytes to read (a Pi has one at most).
MAX_LINES = 100_000
#: The longest player's name: what the screens show whole (the settings and the
#: configuration hold names to it too). A record made elsewhere with a longer one is refused
#: at its header: a name of megabytes would cost seconds on every screen that wraps it.
NAME_CHARS = 16


class JsonError(Exception):
    """A JSON text refused; ``reason`` says why in a few words. ``syntax`` is True when the
    text is not JSON at all (a torn write looks like that), False for JSON refused on
    purpose (a key given twice, a huge number, deep nesting, NaN)."""

    def __init__(self, reason: str, syntax: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.syntax = syntax


def parse_json(text: str) -> Any:
    """The value of a JSON text, strictly: ``JsonError`` for a text that is not JSON, a key
    given twice in an object, an integer of more than ``MAX_DIGITS`` digits, a number too
    large for a float, NaN or Infinity, or nesting deeper than ``MAX_DEPTH``."""
    # Integers are converted by the checking hook only where a long run of digits may be one:
    # the hook costs a call per number.
    decoder = _CHECKING_INTEGERS if _LONG_DIGITS.search(text) else _DECODER
    try:
        value = decoder.decode(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}" if "\n" in text.rstrip("\n") else f"column {exc.colno}"
        # Some of json's messages end in "at" already ("Invalid control character at").
        raise JsonError(f"not valid JSON ({exc.msg.removesuffix(' at')} at {where})", syntax=True) from None
    except RecursionError:
        raise JsonError(f"nested more than {MAX_DEPTH} deep") from None
    if text.count("[") + text.count("{") > MAX_DEPTH:  # else it cannot be nested that deep
        _check_depth(value)
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JsonError(f"key {shown(key)} given twice (an ambiguous line)")
            seen.add(key)
    return obj


def _integer(digits: str) -> int:
    # Checked before int(): Python refuses over 4,300 digits, and converting is quadratic.
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise JsonError(f"a number of more than {MAX_DIGITS} digits")
    return int(digits)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonError(f"the number {shown(text, 20)} is too large")
    return value


def _constant(name: str) -> Any:
    raise JsonError(f"{name} is not a number here")


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_float=_float, parse_constant=_constant)
_CHECKING_INTEGERS = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_int=_integer,
                                      parse_float=_float, parse_constant=_constant)
_LONG_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1}}}")


def _check_depth(value: Any) -> None:
    level = [value] if isinstance(value, (dict, list)) else []
    depth = 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            raise JsonError(f"nested more than {MAX_DEPTH} deep")
        level = [child for container in level
                 for child in (container.values() if isinstance(container, dict) else container)
                 if isinstance(child, (dict, list))]


def shown_value(value: Any) -> str:
    """A value of a JSON line for a one-line message, cut to about 80 characters, control
    characters escaped: a string quoted as other messages quote names (``'sun'``), any other
    value as the line writes it (``1.0``, ``true``, ``null``, ``[1, 2]``).

    >>> print(shown_value([True, "A\\x1b[2J"]), shown_value("sun"))
    [true, "A\\u001b[2J"] 'sun'
    """
    if isinstance(value, str):
        return shown(value)
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return one_line(text, QUOTE_CHARS)


def integer(line: int, obj: dict[str, Any], key: str, low: int | None = None, high: int | None = None,
            rule: str | None = None, what: str | None = None) -> int:
    """``obj[key]``, a whole number from ``low`` to ``high`` (either bound may be left to the
    rules engine, whose refusal then names the rule); else ``RecordError`` at ``line`` saying
    it must be ``what`` (default: the range), citing ``rule``. A float (``1.0``) or
    ``true``/``false`` is not a whole number here, though Python takes it as one.

    >>> integer(2, {"p": 1.0}, "p", 0, 1, "W1", "player 0 or 1")
    Traceback (most recent call last):
    ...
    companion.errors.RecordError: line 2: p must be player 0 or 1, got 1.0 (W1)
    """
    value = obj[key]
    if (isinstance(value, int) and not isinstance(value, bool) and (low is None or low <= value)
            and (high is None or value <= high)):
        return value
    what = what or f"a whole number from {low} to {high}"
    raise RecordError(line, f"{key} must be {what}, got {shown_value(value)}" + (f" ({rule})" if rule else ""))


def parse_lines(text: str) -> tuple[list[tuple[int, dict[str, Any]]], list[str]]:
    """Split a record into ``(line number, object)`` pairs, skipping empty lines.

    A last line that has no newline and is not JSON is a torn write (the box lost power
    mid-write): it is dropped with a warning, never fatal. Any other bad line raises
    ``RecordError`` (a key given twice too: an ambiguous line), and so does a record of
    more than ``MAX_LINES`` lines, before any is read.
    """
    if text.count("\n", 0, len(text) - 1) >= MAX_LINES:
        raise RecordError(MAX_LINES + 1, f"more lines than a game has (at most {MAX_LINES:,})")
    lines = text.split("\n")
    torn_possible = not text.endswith("\n")
    out: list[tuple[int, dict[str, Any]]] = []
    warnings: list[str] = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = parse_json(raw)
        except JsonError as exc:
            if exc.syntax and torn_possible and number == len(lines):
                warnings.append(SHARED.t("record.torn", line=number))  # in the language spoken
                break
            raise RecordError(number, exc.reason) from None
        if not isinstance(obj, dict):
            raise RecordError(number, "each line must be a JSON object")
        out.append((number, obj))
    if not out:
        raise RecordError(1, "the record is empty (line 1 must be the header)")
    return out, warnings


def json_text(obj: Any) -> str:
    r"""``obj`` as one line of JSON for the command line's output: letters of any language
    as they are, but every character a terminal could take for a code (control characters,
    DEL, C1, line separators, lone surrogates) escaped, so a name from a record made
    elsewhere cannot drive the terminal.

    >>> print(json_text({"name": "Бен\x1b[2J\x9b"}))
    {"name": "Бен\u001b[2J\u009b"}
    """
    text = json.dumps(obj, ensure_ascii=False)
    return text if text.isprintable() else "".join(map(_json_char, text))


def _json_char(char: str) -> str:
    if char.isprintable():
        return char
    code = ord(char)
    if code > 0xFFFF:  # JSON writes such a character as its UTF-16 pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def dump_line(obj: dict[str, Any]) -> str:
    """One record line (compact, UTF-8, with its newline)."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": ")) + "\n"


def check_names(line: int, names: Any, rule: str) -> None:
    """``RecordError`` at ``line`` for a name in ``names`` (a header's players) longer than
    ``NAME_CHARS``; whether the list is otherwise right is the game's to say."""
    for name in names if isinstance(names, list) else ():
        if isinstance(name, str) and len(name) > NAME_CHARS:
            raise RecordError(line, f"a player's name has at most {NAME_CHARS} characters, not "
                                    f"{len(name):,}: {shown(name, 20)} ({rule})")


def check_keys(line: int, obj: dict[str, Any], required: Iterable[str], optional: Iterable[str] = ()) -> None:
    """Raise ``RecordError`` for unknown or missing keys of a record line."""
    required = set(required)
    unknown = sorted(set(obj) - required - set(optional))
    if unknown:
        raise RecordError(line, f"unknown key {shown(unknown[0])}")
    missing = sorted(required - set(obj))
    if missing:
        raise RecordError(line, f"missing key {shown(missing[0])}")
