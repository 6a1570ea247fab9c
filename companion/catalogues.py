"""Compiling and checking the word catalogues (set-up time: it needs Babel, the box does not).

``python -m companion.catalogues`` compiles every ``.po`` file of the shared domain and of
each game into the ``.mo`` file beside it when the ``.po`` is newer (``./setup.sh`` runs
it); ``--check`` also says what is missing, fuzzy or has other fields than its English;
``--stats`` prints how much of each catalogue is translated.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).parent
#: A ``{field}``, ``{field:kind}`` or ``{field!r}`` of a template (not ``{{``).
FIELD = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")


def po_files() -> list[Path]:
    """Every catalogue of the box: the shared domain's, then each game's."""
    return sorted(ROOT.glob("locale/*/LC_MESSAGES/*.po")) + sorted(
        ROOT.glob("games/*/locale/*/LC_MESSAGES/*.po"))


def fields(template: str) -> set[str]:
    """The fields of a template, as written (``name``, ``card:card``, ``move!r``)."""
    return set(FIELD.findall(template))


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a catalogue: the file, the message key, what is wrong."""

    path: Path
    key: str
    what: str

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT.parent)}: [{self.key}] {self.what}"


def _forms(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """A message's ``id`` or ``string``, singular or plural, as a tuple of its forms."""
    return tuple(value) if isinstance(value, tuple | list) else (value or "",)


def problems(path: Path) -> Iterator[Problem]:
    """What is wrong in one ``.po`` file: untranslated or fuzzy messages, and messages whose
    fields are not their English's (a plural's singular may leave out its count)."""
    from babel.messages.pofile import read_po

    with path.open("rb") as fp:
        catalog = read_po(fp)
    for message in catalog:
        if not message.id:
            continue
        key = message.context or ""
        ids, strings = _forms(message.id), _forms(message.string)
        if message.fuzzy:
            yield Problem(path, key, "fuzzy")
        if not all(strings):
            yield Problem(path, key, "not translated")
            continue
        want = fields(ids[-1])
        for form, text in enumerate(strings):
            got = fields(text)
            allowed = want | fields(ids[0]) if len(ids) > 1 and form == 0 else want
            if not (got <= allowed and (got >= want or (len(ids) > 1 and form == 0))):
                yield Problem(path, key, f"fields {sorted(got)}, its English has {sorted(want)}")


def compile_all(force: bool = False) -> list[Path]:
    """Compile each ``.po`` whose ``.mo`` is missing or older; the ``.mo`` files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in po_files():
        mo = po.with_suffix(".mo")
        if not force and mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as fp:
            catalog = read_po(fp)
        partial = mo.with_suffix(".mo.partial")
        with partial.open("wb") as fp:
            write_mo(fp, catalog)
        partial.replace(mo)
        written.append(mo)
    return written


def statistics(path: Path) -> tuple[int, int]:
    """(translated, all) messages of one ``.po`` file (fuzzy ones are not translated)."""
    from babel.messages.pofile import read_po

    with path.open("rb") as fp:
        catalog = read_po(fp)
    messages = [m for m in catalog if m.id]
    done = [m for m in messages if not m.fuzzy and all(_forms(m.string))]
    return len(done), len(messages)


def main(argv: list[str]) -> int:
    """Compile the catalogues; ``--check``: and list their problems; ``--stats``: the counts."""
    written = compile_all(force="--force" in argv)
    if written:
        print(f"catalogues: compiled {len(written)} of {len(po_files())}", file=sys.stderr)
    if "--stats" in argv:
        for po in po_files():
            done, total = statistics(po)
            print(f"{po.relative_to(ROOT.parent)}: {done} of {total} translated")
    if "--check" in argv:
        found = [problem for po in po_files() for problem in problems(po)]
        for problem in found:
            print(problem)
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
