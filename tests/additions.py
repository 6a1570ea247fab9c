"""A third game and a ninth language, added at run time the way a maker adds them
(docs/internals.md), for the suite's game- and language-parametrised tests to run over.

- The game: ``companion/games/wakanda`` copied into a folder of its own as the package
  ``companion.games.wakanda_copy`` (record name ``wakanda-copy``, words domain
  ``wakanda_copy``, its title "Wakanda 2"), found through ``companion.games.__path__`` and
  registered with ``GAMES.add``.
- The language: ``pl``, its catalogues the French ones copied under the new code (its
  name in the Settings list "Polski"; French, not English: tests hold that a language's
  words are not the English ones), registered with ``LANGUAGES.add``. The catalogues of
  the box are copied to the folder first, so the source tree is never written.

``TOTEM_EXTRA_GAME=1`` and ``TOTEM_EXTRA_LANGUAGE=1`` ask ``tests/conftest.py`` for them;
that run keeps only the tests parametrised with one of them (``wanted``). The box the tests
start in a process of their own (``python -m companion``) has them too: ``site_folder``
writes a ``sitecustomize`` that registers them from the folder already made (``register``).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable
from pathlib import Path

DOCS = Path(__file__).parent.parent / "docs"
GAME_ENV, LANGUAGE_ENV = "TOTEM_EXTRA_GAME", "TOTEM_EXTRA_LANGUAGE"

#: The third game's record name, package and words domain; the game it is a copy of.
EXTRA_GAME, EXTRA_PACKAGE, COPIED_PACKAGE = "wakanda-copy", "wakanda_copy", "wakanda"
#: The ninth language's code, English name and espeak-ng voice; its name in its own words;
#: the language whose catalogues it copies.
EXTRA_LANGUAGE, EXTRA_ENGLISH, EXTRA_VOICE, EXTRA_NATIVE = "pl", "Polish", "pl", "Polski"
COPIED_LANGUAGE = "fr"


def _rewrite(path: Path, *changes: tuple[str, str]) -> None:
    text = path.read_text(encoding="utf-8")
    for pattern, replacement in changes:
        text = re.sub(pattern, replacement, text)
    path.write_text(text, encoding="utf-8")


def copy_game(root: Path) -> Path:
    """The copy of Wakanda as a package folder under ``root/games`` (not yet compiled)."""
    import companion.games

    source = Path(companion.games.__file__).parent / COPIED_PACKAGE
    target = root / "games" / EXTRA_PACKAGE
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    for module in target.rglob("*.py"):
        _rewrite(module,
                 (r'DOMAIN = "wakanda"', f'DOMAIN = "{EXTRA_PACKAGE}"'),
                 (r"companion\.games\.wakanda\b", f"companion.games.{EXTRA_PACKAGE}"),
                 (r'"game\.wakanda"', f'"game.{EXTRA_PACKAGE}"'),
                 (r'"wakanda"', f'"{EXTRA_GAME}"'))
    for po in target.glob("locale/*/LC_MESSAGES/wakanda.po"):
        # The title's key is the domain's (``game.<domain>``), shown beside Wakanda's own.
        _rewrite(po, (r'msgctxt "game\.wakanda"\nmsgid "([^"]*)"\nmsgstr "([^"]*)"',
                      rf'msgctxt "game.{EXTRA_PACKAGE}"\nmsgid "\1 2"\nmsgstr "\2 2"'))
        po.rename(po.with_name(f"{EXTRA_PACKAGE}.po"))
    return target


def add_game(root: Path) -> None:
    """Copy the game under ``root`` and register it (``GAMES.add``), its words compiled."""
    from companion.catalogues import compile_all

    copy_game(root)
    compile_all(force=True, root=root)
    _register_game(root)


def _register_game(root: Path) -> None:
    import companion.games

    companion.games.__path__.append(str(root / "games"))
    companion.games.GAMES.add(EXTRA_GAME, f"companion.games.{EXTRA_PACKAGE}.definition")


def _add_catalogue(locale: Path, domain: str) -> None:
    copied = locale / COPIED_LANGUAGE / "LC_MESSAGES" / f"{domain}.po"
    po = locale / EXTRA_LANGUAGE / "LC_MESSAGES" / f"{domain}.po"
    po.parent.mkdir(parents=True)
    shutil.copyfile(copied, po)
    _rewrite(po, (rf'"Language: {COPIED_LANGUAGE}\\n"', f'"Language: {EXTRA_LANGUAGE}\\\\n"'),
             (r'(msgctxt "language\.name"\nmsgid "[^"]*"\nmsgstr ")[^"]*"', rf'\1{EXTRA_NATIVE}"'))


def add_language(root: Path) -> None:
    """Copy every catalogue of the box (the shared one, each registered game's) under
    ``root``, add the ninth language's beside them, compile, read them from there, and
    register the language (``LANGUAGES.add``)."""
    from companion.catalogues import compile_all
    from companion.games import GAMES
    from companion.words import SHARED

    for words in (SHARED, *(entry.words for entry in GAMES.values())):
        folder = root / "words" / words.domain
        shutil.copytree(words.folder, folder / "locale", ignore=shutil.ignore_patterns("*.mo"))
        _add_catalogue(folder / "locale", words.domain)
        compile_all(force=True, root=folder)
    _register_language(root)


def _register_language(root: Path) -> None:
    from companion.games import GAMES
    from companion.languages import LANGUAGES, Language
    from companion.words import SHARED

    for words in (SHARED, *(entry.words for entry in GAMES.values())):
        words.folder = root / "words" / words.domain / "locale"
    LANGUAGES.add(Language(EXTRA_LANGUAGE, EXTRA_ENGLISH, EXTRA_VOICE))


def register(root: Path, extras: Iterable[str]) -> None:
    """Register ``extras`` (``EXTRA_GAME``, ``EXTRA_LANGUAGE``) from ``root``, where
    ``add_game`` and ``add_language`` made them: in a process the tests started."""
    if EXTRA_GAME in extras:
        _register_game(root)
    if EXTRA_LANGUAGE in extras:
        _register_language(root)


def site_folder(root: Path, extras: Iterable[str]) -> Path:
    """A folder holding a ``sitecustomize`` that registers ``extras`` from ``root``: on a
    process's ``PYTHONPATH``, a box started as ``python -m companion`` has the third game and
    the ninth language too. Only such a process: any other (``./setup.sh`` in a copy of the
    project, a run of pytest) starts as it would without them."""
    site = root / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import sys\n"
        "if sys.orig_argv[1:3] == ['-m', 'companion']:\n"
        f"    sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "    import additions\n"
        "    from pathlib import Path\n"
        f"    additions.register(Path({str(root)!r}), {sorted(extras)!r})\n", encoding="utf-8")
    return site


def rules_doc(game: str) -> Path:
    """``docs/rules/<game>.md``, the rules a game's specification numbers (the third game's:
    those of the game it copies)."""
    return DOCS / "rules" / f"{COPIED_PACKAGE if game == EXTRA_GAME else game}.md"


def wanted(values: Iterable[object], extras: set[str]) -> bool:
    """Whether a test's parameters name one of ``extras``: a game's or a language's code, a
    game definition of that name, inside tuples too."""
    for value in values:
        if isinstance(value, (tuple, list)):
            if wanted(value, extras):
                return True
        elif isinstance(value, str) and value in extras:
            return True
        elif getattr(value, "name", None) in extras:
            return True
    return False
