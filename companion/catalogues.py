"""Compiling and checking the word catalogues (set-up time: compiling needs Babel, the box
does not).

``python -m companion.catalogues`` checks every ``.po`` file of the shared domain and of
each game, then compiles each good one into the ``.mo`` file beside it when the ``.po`` is
newer (``./setup.sh`` runs it). A catalogue with a mistake is not compiled: its last good
``.mo`` stays (the box shows English where there is none), each mistake is named as
``file:line: what`` and the exit status is 1 (``./setup.sh`` warns and goes on).

A mistake is what would crash the box or lose words at run time: a line the PO syntax does
not allow, a header without a UTF-8 charset, a ``Plural-Forms`` that is not well formed or
gives a form out of range (read by the small evaluator below, never by ``eval``), a plural
message with other than ``nplurals`` forms, and a translation whose ``str.format`` fields are
not its English's (renamed, dropped, added, positional ``{}``/``{0}``, unbalanced braces).

``--check`` (for translators and CI) compiles nothing: it names every mistake and also what
is untranslated or fuzzy, exiting 1 when it found anything; ``--stats`` prints how much of
each catalogue is translated.
"""

from __future__ import annotations

import functools
import gettext
import io
import re
import string
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from companion.files import read_bytes

ROOT = Path(__file__).parent

#: How many forms a language's plural may have (msgfmt's own bound is far above any language).
MAX_PLURALS = 6
#: The counts a ``Plural-Forms`` expression is tried on: every count a screen shows, and beyond.
PLURAL_PROBE = (*range(0, 1001), 10_001, 1_000_000, 2**31 - 1)


def po_files(root: Path = ROOT) -> list[Path]:
    """Every catalogue of the box under ``root``: the shared domain's, then each game's."""
    return sorted(root.glob("locale/*/LC_MESSAGES/*.po")) + sorted(
        root.glob("games/*/locale/*/LC_MESSAGES/*.po"))


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a catalogue: the file, its line, the message key, what is wrong."""

    path: Path
    line: int
    key: str
    what: str

    def __str__(self) -> str:
        key = f" [{self.key}]" if self.key else ""
        return f"{_shown(self.path)}:{self.line}:{key} {self.what}"


def _shown(path: Path) -> Path:
    """A catalogue's path as said: from the project's folder when it is in it."""
    return path.relative_to(ROOT.parent) if path.is_relative_to(ROOT.parent) else path


# --- reading a .po file -----------------------------------------------------------------

@dataclass
class Entry:
    """One message of a ``.po`` file as written: its key (``msgctxt``), English and forms."""

    line: int
    context: str | None = None
    msgid: str | None = None
    plural: str | None = None
    #: ``msgstr`` as form 0 (``None``) or ``msgstr[N]`` by N, with the line of each.
    strings: dict[int | None, tuple[str, int]] = field(default_factory=dict)
    fuzzy: bool = False

    @property
    def key(self) -> str:
        """The message's key as said in a problem (its ``msgctxt``; empty for none)."""
        return self.context or ""


class PoSyntaxError(ValueError):
    """A line the PO syntax does not allow (its number in ``line``)."""

    def __init__(self, line: int, what: str):
        super().__init__(what)
        self.line, self.what = line, what


_KEYWORD = re.compile(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*)$')
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
            "f": "\f", "v": "\v"}


def _unquote(text: str, line: int) -> str:
    """A PO string's value: ``"..."`` with C escapes."""
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoSyntaxError(line, "a string must be written between double quotes")
    out, chars, i = [], text[1:-1], 0
    while i < len(chars):
        ch = chars[i]
        if ch == '"':
            raise PoSyntaxError(line, 'a double quote inside a string must be written \\"')
        if ch == "\\":
            escaped = chars[i + 1] if i + 1 < len(chars) else ""
            if escaped not in _ESCAPES:
                raise PoSyntaxError(line, f"unknown escape \\{escaped}")
            out.append(_ESCAPES[escaped])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def read_entries(path: Path) -> list[Entry]:
    """The messages of a ``.po`` file (obsolete ``#~`` ones left out); ``PoSyntaxError``
    naming the line of the first thing the syntax does not allow."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PoSyntaxError(path.read_bytes()[:exc.start].count(b"\n") + 1, "not UTF-8 text") from None
    entries: list[Entry] = []
    entry: Entry | None = None
    fuzzy = False
    last: str | None = None  # the keyword a continuation line adds to
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            last = None
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in (flag.strip() for flag in line[2:].split(",")):
                fuzzy = True
            last = None
            continue
        if line.startswith('"'):
            if entry is None or last is None:
                raise PoSyntaxError(number, "a string continues no msgid or msgstr")
            value = _unquote(line, number)
            _append(entry, last, value)
            continue
        match = _KEYWORD.match(line)
        if match is None:
            raise PoSyntaxError(number, f"not a PO line: {line[:40]!r}")
        keyword, index, rest = match.group(1), match.group(2), match.group(3)
        value = _unquote(rest, number)
        starts = keyword == "msgctxt" or (keyword == "msgid" and (entry is None or entry.strings
                                                                  or entry.msgid is not None))
        if starts:
            entry = Entry(number, fuzzy=fuzzy)
            entries.append(entry)
            fuzzy = False
        if entry is None or (keyword != "msgid" and keyword != "msgctxt" and entry.msgid is None):
            raise PoSyntaxError(number, f"{keyword} before its msgid")
        name = "msgstr" if keyword.startswith("msgstr") else keyword
        if name == "msgstr":
            form = None if index is None else int(index)
            if form in entry.strings:
                raise PoSyntaxError(number, f"{keyword} twice")
            entry.strings[form] = (value, number)
            last = f"msgstr:{'' if form is None else form}"
        else:
            if getattr(entry, {"msgctxt": "context", "msgid": "msgid", "msgid_plural": "plural"}[name]) \
                    is not None:
                raise PoSyntaxError(number, f"{keyword} twice")
            _append(entry, name, value)
            if name == "msgid":
                entry.line = number
            last = name
    for entry in entries:
        if entry.msgid is None:
            raise PoSyntaxError(entry.line, "msgctxt without its msgid")
        if not entry.strings:
            raise PoSyntaxError(entry.line, "msgid without its msgstr")
    return entries


def _append(entry: Entry, keyword: str, value: str) -> None:
    if keyword.startswith("msgstr:"):
        index = keyword.split(":", 1)[1]
        form = int(index) if index else None
        text, line = entry.strings[form]
        entry.strings[form] = (text + value, line)
    elif keyword == "msgctxt":
        entry.context = (entry.context or "") + value
    elif keyword == "msgid":
        entry.msgid = (entry.msgid or "") + value
    else:
        entry.plural = (entry.plural or "") + value


# --- Plural-Forms, evaluated without eval -------------------------------------------------

_PLURAL_TOKEN = re.compile(r"\s*(?:(\d+)|(n)|(\|\||&&|==|!=|<=|>=|[-+*/%<>!?:()]))")
_BINARY: dict[str, Callable[[int, int], int]] = {
    "||": lambda a, b: int(bool(a) or bool(b)), "&&": lambda a, b: int(bool(a) and bool(b)),
    "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b), ">": lambda a, b: int(a > b),
    "<=": lambda a, b: int(a <= b), ">=": lambda a, b: int(a >= b),
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a // b, "%": lambda a, b: a % b,
}
#: C's binary operators, loosest first (the ``?:`` is looser still).
_LEVELS = (("||",), ("&&",), ("==", "!="), ("<", ">", "<=", ">="), ("+", "-"), ("*", "/", "%"))
#: Bounds on an expression: a language's rule is a line, not a program.
MAX_PLURAL_CHARS, MAX_PLURAL_DEPTH = 300, 30


Plural = Callable[[int], int]


class _PluralParser:
    """A recursive-descent parser of gettext's C-like plural expression into a function of n."""

    def __init__(self, text: str):
        if len(text) > MAX_PLURAL_CHARS:
            raise ValueError(f"longer than {MAX_PLURAL_CHARS} characters")
        self.tokens: list[str] = []
        at = 0
        while at < len(text.rstrip()):
            match = _PLURAL_TOKEN.match(text, at)
            if match is None or match.end() == at:
                raise ValueError(f"unexpected {text[at:].strip()[:10]!r}")
            self.tokens.append(match.group(match.lastindex or 0))
            at = match.end()
        self.at, self.depth = 0, 0

    def parse(self) -> Plural:
        rule = self._ternary()
        if self.at != len(self.tokens):
            raise ValueError(f"unexpected {self.tokens[self.at]!r}")
        return rule

    def _peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _take(self, want: str | None = None) -> str:
        token = self._peek()
        if token is None or (want is not None and token != want):
            raise ValueError(f"expected {want or 'more'}, found {token or 'the end'}")
        self.at += 1
        return token

    def _ternary(self) -> Plural:
        self.depth += 1
        if self.depth > MAX_PLURAL_DEPTH:
            raise ValueError(f"nested deeper than {MAX_PLURAL_DEPTH}")
        test = self._binary(0)
        if self._peek() == "?":
            self._take("?")
            yes = self._ternary()
            self._take(":")
            no = self._ternary()
            self.depth -= 1
            return lambda n: yes(n) if test(n) else no(n)
        self.depth -= 1
        return test

    def _binary(self, level: int) -> Plural:
        if level == len(_LEVELS):
            return self._unary()
        left = self._binary(level + 1)
        while self._peek() in _LEVELS[level]:
            operate = _BINARY[self._take()]
            right = self._binary(level + 1)
            left = (lambda a, b, op: lambda n: op(a(n), b(n)))(left, right, operate)
        return left

    def _unary(self) -> Plural:
        token = self._take()
        if token == "!":
            inner = self._unary()
            return lambda n: int(not inner(n))
        if token == "(":
            inner = self._ternary()
            self._take(")")
            return inner
        if token == "n":
            return lambda n: n
        if token.isdigit():
            value = int(token)
            return lambda n: value
        raise ValueError(f"unexpected {token!r}")


_PLURAL_FORMS = re.compile(r"^\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]*?)\s*;?\s*$")


@functools.lru_cache(maxsize=16)  # every catalogue of a language has the same: checked once
def plural_forms(value: str) -> tuple[int, Plural]:
    """``nplurals`` and the plural rule of a ``Plural-Forms`` header value; ``ValueError``
    (one line) when it is not well formed or gives, for some count, a form out of range."""
    match = _PLURAL_FORMS.match(value)
    if match is None:
        raise ValueError("not 'nplurals=N; plural=EXPRESSION;'")
    count = int(match.group(1))
    if not 1 <= count <= MAX_PLURALS:
        raise ValueError(f"nplurals={count}: 1 to {MAX_PLURALS}")
    rule = _PluralParser(match.group(2)).parse()
    for n in PLURAL_PROBE:
        try:
            form = rule(n)
        except ZeroDivisionError:
            raise ValueError(f"plural divides by zero for n={n}") from None
        if not 0 <= form < count:
            raise ValueError(f"plural gives form {form} for n={n}, outside 0 to {count - 1}")
    return count, rule


# --- fields --------------------------------------------------------------------------------

def fields(template: str) -> set[str]:
    """The fields of a template, as written (``name``, ``card:card``, ``move!r``);
    ``ValueError`` for unbalanced braces or a positional field (``{}``, ``{0}``)."""
    found = set()
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise ValueError(f"{exc} (a literal brace is written {{{{ or }}}})") from None
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if name == "" or name[0].isdigit():
            raise ValueError(f"positional field {{{name}}}: fields have names")
        found.add(name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else ""))
    return found


def _count_field(plural: str) -> str | None:
    """The field a plural message's form follows: ``n``, else its English plural's first."""
    names = [name for _, name, _, _ in string.Formatter().parse(plural) if name]
    return "n" if "n" in names else names[0] if names else None


def _field_mistakes(entry: Entry) -> Iterator[tuple[int, str]]:
    """(line, what) for each translation whose fields are not its English's."""
    assert entry.msgid is not None
    try:
        want = fields(entry.plural if entry.plural is not None else entry.msgid)
        if entry.plural is not None:
            fields(entry.msgid)
    except ValueError as exc:
        yield entry.line, f"the English: {exc}"
        return
    count = _count_field(entry.plural) if entry.plural is not None else None
    for text, line in sorted(entry.strings.values(), key=lambda found: found[1]):
        if not text:
            continue  # untranslated: the English is shown
        try:
            got = fields(text)
        except ValueError as exc:
            yield line, str(exc)
            continue
        if entry.plural is not None:
            # A plural's form may leave out its count ("un seul essai"), nothing else.
            spared = {f for f in want if count is not None and f.split("!")[0].split(":")[0] == count}
            if not (want - spared <= got <= want):
                yield line, _differ(got, want)
        elif got != want:
            yield line, _differ(got, want)


def _differ(got: set[str], want: set[str]) -> str:
    parts = []
    if want - got:
        parts.append("lacks " + ", ".join(f"{{{f}}}" for f in sorted(want - got)))
    if got - want:
        parts.append("has " + ", ".join(f"{{{f}}}" for f in sorted(got - want)) + " its English has not")
    return "fields: " + "; ".join(parts)


# --- the checks ----------------------------------------------------------------------------

def _header(entries: list[Entry]) -> dict[str, str]:
    header = entries[0].strings.get(None, ("", 0))[0] if entries and entries[0].msgid == "" else ""
    pairs = (line.split(":", 1) for line in header.splitlines() if ":" in line)
    return {name.strip().lower(): value.strip() for name, value in pairs}


def mistakes(path: Path) -> list[Problem]:
    """What in one ``.po`` file would crash the box or lose words at run time (see the
    module); a file with any is not compiled."""
    try:
        entries = read_entries(path)
    except PoSyntaxError as exc:
        return [Problem(path, exc.line, "", exc.what)]
    except OSError as exc:
        return [Problem(path, 0, "", f"cannot be read ({exc.strerror or exc})")]
    found: list[Problem] = []
    if not entries or entries[0].msgid != "" or entries[0].context is not None:
        return [Problem(path, 1, "", 'no header (msgid "" first)')]
    header, line = _header(entries), entries[0].line
    if "charset=utf-8" not in header.get("content-type", "").lower().replace(" ", ""):
        found.append(Problem(path, line, "", "the header's Content-Type must say charset=UTF-8"))
    nplurals: int | None = None
    if "plural-forms" in header:
        try:
            nplurals = plural_forms(header["plural-forms"])[0]
        except ValueError as exc:
            found.append(Problem(path, line, "", f"Plural-Forms: {exc}"))
    elif any(entry.plural is not None for entry in entries):
        found.append(Problem(path, line, "", "plural messages but no Plural-Forms in the header"))
    seen: set[tuple[str | None, str | None]] = set()
    for entry in entries[1:]:
        if (entry.context, entry.msgid) in seen:
            found.append(Problem(path, entry.line, entry.key, "the same message twice"))
        seen.add((entry.context, entry.msgid))
        if entry.plural is None and set(entry.strings) != {None}:
            found.append(Problem(path, entry.line, entry.key, "msgstr[N] without msgid_plural"))
            continue
        if entry.plural is not None and nplurals is not None \
                and set(entry.strings) != set(range(nplurals)):
            found.append(Problem(path, entry.line, entry.key,
                                 f"a plural message needs msgstr[0] to msgstr[{nplurals - 1}] (nplurals={nplurals})"))
            continue
        if entry.fuzzy:
            continue  # not compiled: the English is shown
        found.extend(Problem(path, at, entry.key, what) for at, what in _field_mistakes(entry))
    return found


def problems(path: Path) -> list[Problem]:
    """Everything ``--check`` says of one ``.po`` file: its mistakes, then what is fuzzy or
    not translated (shown in English, no mistake)."""
    found = mistakes(path)
    if found:
        return found
    for entry in read_entries(path)[1:]:
        if entry.fuzzy:
            found.append(Problem(path, entry.line, entry.key, "fuzzy"))
        if not all(text for text, _ in entry.strings.values()):
            found.append(Problem(path, entry.line, entry.key, "not translated"))
    return found


#: A compiled catalogue bigger than this is no catalogue of ours: compiled again.
MO_BYTES = 4 * 1024 * 1024


def _fresh(po: Path, mo: Path) -> bool:
    """Whether ``mo`` is a regular file newer than ``po`` that reads: a damaged one (a
    torn write, an editor's or a disk's accident) is compiled again, not left to the box."""
    try:
        if mo.stat().st_mtime < po.stat().st_mtime:
            return False
        gettext.GNUTranslations(io.BytesIO(read_bytes(mo, "the compiled catalogue", MO_BYTES) or b""))
    except Exception:  # noqa: BLE001 - whatever a damaged file raises, it is compiled again
        return False
    return True


def compile_all(force: bool = False, root: Path = ROOT,
                said: Callable[[Problem], None] = lambda problem: None) -> tuple[list[Path], list[Path]]:
    """Check each ``.po`` whose ``.mo`` is missing or older and compile the good ones; each
    mistake goes to ``said``. (The ``.mo`` files written, the ``.po`` files kept out.)"""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written, refused = [], []
    for po in po_files(root):
        mo = po.with_suffix(".mo")
        if not force and _fresh(po, mo):
            continue
        found = mistakes(po)
        for problem in found:
            said(problem)
        if found:
            refused.append(po)
            continue
        data = io.BytesIO()
        try:
            with po.open("rb") as fp:
                write_mo(data, read_po(fp))
            gettext.GNUTranslations(io.BytesIO(data.getvalue()))  # what the box reads must read
        except Exception as exc:  # noqa: BLE001 - one catalogue must not stop the others
            said(Problem(po, 0, "", f"cannot be compiled ({type(exc).__name__}: {exc})"))
            refused.append(po)
            continue
        partial = mo.with_suffix(".mo.partial")
        partial.write_bytes(data.getvalue())
        partial.replace(mo)
        written.append(mo)
    return written, refused


def statistics(path: Path) -> tuple[int, int]:
    """(translated, all) messages of one ``.po`` file (fuzzy ones are not translated)."""
    messages = read_entries(path)[1:]
    done = [m for m in messages if not m.fuzzy and all(text for text, _ in m.strings.values())]
    return len(done), len(messages)


def main(argv: list[str], root: Path = ROOT) -> int:
    """Compile the good catalogues (1 when one had a mistake: its last ``.mo`` is kept);
    ``--check``: compile nothing, name every problem, 1 when there is one; ``--stats``: the
    counts."""
    if "--stats" in argv:
        for po in po_files(root):
            done, total = statistics(po)
            print(f"{_shown(po)}: {done} of {total} translated")
        return 0
    if "--check" in argv:
        found = [problem for po in po_files(root) for problem in problems(po)]
        for problem in found:
            print(problem)
        return 1 if found else 0
    written, refused = compile_all(force="--force" in argv, root=root,
                                   said=lambda problem: print(problem, file=sys.stderr))
    if written:
        print(f"catalogues: compiled {len(written)} of {len(po_files(root))}", file=sys.stderr)
    if refused:
        print(f"catalogues: {len(refused)} not compiled for the mistakes above: the box keeps their last good "
              "words (English where there are none)", file=sys.stderr)
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
