"""The word catalogues: every language complete and well-formed, every character drawable,
and every message fitting its place on the 128×64 screen at its widest values.

The fit checks render no lesson: each message is filled with the widest values of its
language (a 15-letter name, two-digit numbers, the longest piece, card, tribe or habitat
name) and measured with the bundled fonts in the place the screens give it.
"""

from __future__ import annotations

import shutil
import string
import subprocess
from functools import cache
from pathlib import Path

import pytest

from companion import catalogues
from companion.engine import Refusal
from companion.games import GAMES
from companion.games.totem_wars.deck import default_deck
from companion.games.totem_wars.words import card_label
from companion.ui.canvas import ELLIPSIS, LARGE, MEDIUM, SMALL, WIDTH, note_lines, text_width, wrap
from companion.ui.screens import FOOTER_CHARS, MENU_LINE_CHARS, NOTE_LINES, prompt_line
from companion.words import LANGUAGES, SHARED, Catalogue

DOMAINS: dict[str, Catalogue] = {"companion": SHARED, **{e.domain: e.words for e in GAMES.values()}}
LONG_NAME = "Konstantinovich"  # 15 letters: the speller's longest name
NUMBER = 10
#: The fields filled with a player's name.
NAMES = {"name", "owner", "dealer", "starter", "taker", "winner", "other", "a", "b"}


def test_every_language_has_every_domain_and_nothing_else():
    found = {(po.parent.parent.name, po.stem) for words in DOMAINS.values()
             for po in words.folder.glob("*/LC_MESSAGES/*.po")}
    assert found == {(lang, domain) for lang in LANGUAGES for domain in DOMAINS}
    assert {(po.parent.parent.name, po.stem) for po in catalogues.po_files()} <= found


@pytest.mark.parametrize("po", catalogues.po_files(), ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_every_catalogue_is_whole_and_its_fields_are_its_englishs(po: Path):
    done, total = catalogues.statistics(po)
    assert [str(p) for p in catalogues.problems(po)] == []
    assert done == total > 0


def test_every_language_has_the_keys_of_its_english():
    from babel.messages.pofile import read_po

    for po in catalogues.po_files():
        english = po.parents[2] / "en" / "LC_MESSAGES" / po.name
        with po.open("rb") as a, english.open("rb") as b:
            keys = [m.context for m in read_po(a) if m.id]
            want = [m.context for m in read_po(b) if m.id]
        assert keys == want, po


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")
def test_msgfmt_check_is_clean():
    for po in catalogues.po_files():
        result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)],
                                capture_output=True, text=True, check=False)
        assert result.returncode == 0, f"{po}: {result.stderr}"


def test_the_compiled_catalogues_are_up_to_date():
    stale = [po for po in catalogues.po_files()
             if not po.with_suffix(".mo").is_file() or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime]
    assert stale == [], "run ./setup.sh: it compiles the catalogues"


def test_every_character_of_every_catalogue_is_in_the_fonts():
    missing = {}
    for po in catalogues.po_files():
        for ch in set(po.read_text(encoding="utf-8").split("msgstr", 1)[1]):
            if ch.isprintable() and ch != " " and not all(ch in font.glyphs for font in (SMALL, MEDIUM, LARGE)):
                missing.setdefault(ch, po)
    assert missing == {}


# --- the widest values ---------------------------------------------------------------------

@cache
def widest(domain: str, lang: str) -> dict[str, object]:
    """The raw values of the kinds that put the longest words into a sentence of ``lang``."""
    words = DOMAINS[domain]
    values: dict[str, object] = {}
    if domain == "wakanda":
        from companion.games.wakanda.words import in_text
        for kind, raws in (("piece", ("eagle", "chief", "tomahawk", "skin", "teepee", "sun")),
                           ("village", ("eagle", "chief", "tomahawk", "skin", "teepee", "sun", "variety", "height")),
                           ("headdress", ("wings", "crests"))):
            values[kind] = max(raws, key=lambda raw: len(in_text(raw, lang)))
    if domain == "totem_wars":
        values["card"] = max(default_deck().cards, key=lambda card: len(card_label(card, lang)))
        values["tribe"] = max(("aborigines", "africans", "eskimos", "indians"),
                              key=lambda raw: len(words.text(f"tribe.{raw}", lang)))
        values["habitat"] = max(("water", "land", "air"), key=lambda raw: len(words.text(f"habitat.{raw}", lang)))
    return values


def filled(words: Catalogue, domain: str, key: str, lang: str, **given: object) -> str:
    """Message ``key`` of ``lang`` at its widest values (a plural in its longer form)."""
    template = words.template(key, lang, NUMBER)
    kinds = widest(domain, lang)
    fields: dict[str, object] = {}
    for _, field, spec, _ in string.Formatter().parse(template):
        if not field or field in given:
            continue
        if spec in kinds:
            fields[field] = kinds[spec]
        elif spec == "refusal":
            fields[field] = Refusal("nothing_to_undo")
        elif spec == "cards":
            fields[field] = NUMBER
        elif field in NAMES:
            fields[field] = LONG_NAME
        elif field in kinds:
            fields[field] = words.text(f"{field}.{kinds[field]}.in_text", lang) \
                if words.has(f"{field}.{kinds[field]}.in_text") else str(kinds[field])
        else:
            fields[field] = NUMBER
    return words.text(key, lang, plural_by=NUMBER, **fields, **given)


def messages(prefixes: tuple[str, ...], *, suffix: str | None = None, exclude: tuple[str, ...] = ()):
    """(domain, key) of the messages starting with one of ``prefixes``."""
    for domain, words in DOMAINS.items():
        for key in words.keys():
            if key.startswith(prefixes) and (suffix is None or key.endswith(suffix)) \
                    and not key.endswith(exclude):
                yield domain, key


def _cut(lines: list[str]) -> bool:
    return any(ELLIPSIS in line for line in lines)


# --- the places ----------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_prompts_fit_the_band_with_a_long_name_shortened_never_the_prompt(lang):
    """A turn's prompt: two lines of the band, one under the last action (``.short``); a
    long name gives way (``named``), the words never do."""
    cut = []
    for domain, key in messages(("prompt.", "tw.prompt.", "box.", "play.turn_up", "play.press")):
        words = DOMAINS[domain]
        lines = 1 if key.endswith(".short") else 2
        text = prompt_line(filled(words, domain, key, lang, name="{name}"), LONG_NAME, short=lines == 1)
        if len(wrap(text, WIDTH - 4, SMALL)) > lines:
            cut.append(f"{key}: {text!r}")
    assert cut == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_what_the_last_action_did_fits_its_line(lang):
    """The confirmation above the prompt (``done.*``): one line of the band."""
    cut = [f"{key}: {text!r}" for domain, key in messages(("done.",))
           for text in [filled(DOMAINS[domain], domain, key, lang)] if text_width(text, SMALL) > WIDTH - 4]
    assert cut == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_refusals_are_shown_whole_with_their_rule(lang):
    """A refusal with its rule in at most NOTE_LINES lines of the band: what to do now
    keeps the bottom line under it."""
    cut = []
    for domain, key in messages(("refusal.",)):
        reason = filled(DOMAINS[domain], domain, key, lang)
        lines = note_lines(reason[:1].upper() + reason[1:], NOTE_LINES, rule="T1a")
        if _cut(lines):
            cut.append(f"{key}: {reason!r}")
    assert cut == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_what_to_undo_on_the_table_is_said_whole_above_the_prompt(lang):
    """An undo's note (``undo.*`` but the question, its answers and the screen's own
    words): whole in NOTE_LINES lines, the prompt on the bottom line under it."""
    cut = [f"{key}: {text!r}" for domain, key in messages(("undo.", "tw.undo."))
           if domain != "companion"
           for text in [filled(DOMAINS[domain], domain, key, lang)]
           if _cut(note_lines(text, NOTE_LINES))]
    assert cut == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_totem_wars_board_says_what_may_be_placed_on_one_line(lang):
    """The line over the players' rows (T4–T6, T14), in the medium font."""
    cut = [f"{key}: {text!r}" for domain, key in messages(("tw.board.",), exclude=(".scan", ".scanned", ".round"))
           for text in [filled(DOMAINS[domain], domain, key, lang, n=5, level=4, next=5,
                               cards=DOMAINS[domain].text("cards", lang, n=5))]
           if text_width(text, MEDIUM) > WIDTH - 4]
    assert cut == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rule_titles_fit_the_title_band_with_their_number_and_page(lang):
    """Whole in the title band: in the small font where the medium one is too wide."""
    room = WIDTH - 4 - (text_width("3/3", SMALL) + 4)
    cut = [f"{key}: {text!r}" for domain, key in messages(("rule.",), suffix=".title")
           for text in [f"{key.split('.')[1]} {DOMAINS[domain].text(key, lang)}"]
           if text_width(text, SMALL) > room]
    assert cut == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_footers_fit_their_line(lang):
    cut = []
    for domain, key in messages(("",)):
        if "footer" not in key and not key.startswith(("hint.then.", "tw.setup.big_")):
            continue
        words = DOMAINS[domain]
        then = max((words.text(k, lang) for k in SHARED.keys() if k.startswith("hint.then.")), key=len)
        text = filled(words, domain, key, lang, then=then, n=3, of=3)
        if len(text) > FOOTER_CHARS:
            cut.append(f"{key}: {text!r}")
    assert cut == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_totem_wars_status_footer_fits_with_a_full_deck_and_the_highest_level(lang):
    words = DOMAINS["totem_wars"]
    text = words.text("tw.status.deck", lang, plural_by=40, n=40) + words.text("tw.status.level", lang, level=10)
    assert text_width(text, SMALL) <= WIDTH, text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_menu_names_every_game_on_one_line(lang):
    """Whole on a menu line: in the small font where the medium one is too wide."""
    cut = [f"{key}: {text!r}" for entry in GAMES.values() for key in ("menu.new", "menu.resume", "menu.learn")
           for text in [SHARED.text(key, lang, title=entry.shown_title(lang))]
           if len(text) > MENU_LINE_CHARS and text_width(text, SMALL) > WIDTH - 14]
    assert cut == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_tile_labels_fit_under_a_pole(lang):
    words = DOMAINS["wakanda"]
    assert [k for k in words.keys() if k.startswith("tile.") and len(words.text(k, lang)) > 3] == []


def translations(lang: str, domain: str | None = None) -> list[str]:
    """Every translated text of ``lang`` (of one ``domain`` when given)."""
    from babel.messages.pofile import read_po

    texts: list[str] = []
    for po in catalogues.po_files():
        if po.parent.parent.name == lang and domain in (None, po.stem):
            with po.open("rb") as f:
                for message in read_po(f):
                    if message.id:
                        texts += list(message.string) if isinstance(message.string, tuple) else [message.string]
    return texts


def test_the_french_screens_follow_the_glossary():
    """No space before ':' ';' '?' '!', the box is "la boîte" on the page as on the screen
    (docs/glossary/fr.md)."""
    texts = translations("fr")
    assert [text for text in texts if any(f" {mark}" in text for mark in ":;?!")] == []
    assert [text for text in texts if "boîtier" in text] == []


def test_the_italian_device_is_il_box_on_the_page_as_on_the_screen():
    assert [text for text in translations("it", "companion") if "scatola" in text] == []


def test_the_european_portuguese_catalogues_use_its_plural_rule():
    for po in catalogues.po_files():
        if po.parent.parent.name == "pt":
            assert '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' in po.read_text(encoding="utf-8"), po


def test_a_plural_follows_each_languages_rule():
    words = DOMAINS["totem_wars"]
    assert words.text("cards", "en", n=0) == "0 cards"
    assert words.text("cards", "fr", n=0) == words.text("cards", "fr", n=1).replace("1", "0")
    # European Portuguese: zero is plural, as in English ("0 pontos"), unlike Brazil's (n > 1).
    assert words.text("cards", "pt", n=0) == words.text("cards", "pt", n=2).replace("2", "0") == "0 cartas"
    assert words.text("cards", "de", n=0) == words.text("cards", "de", n=2).replace("2", "0")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_set_up_and_settings_lines_fit_a_menu_line(lang):
    """A set-up's titles and choices, the settings page's lines: one line of a list (in the
    small font where the medium one is too wide)."""
    cut = []
    for domain, key in messages(("setup.", "tw.setup.", "settings.", "level.", "menu."),
                                exclude=("_about", "footer", ".not_saved", ".buttons", ".tiles_next", ".first",
                                         ".forget_detail", ".not_tile", ".tile_twice", "menu.choose_first",
                                         "menu.resume_players", ".big_on", ".big_new")):
        options = ("when_stuck", "never", "always") if "empty_claim" in key else ("open", "hidden")
        values = [DOMAINS["wakanda"].text(f"settings.wakanda.{v}", lang) for v in options]
        seat = {"n": 4} if key.startswith("tw.setup.seat") else {}  # 2 to 4 players (T1)
        text = filled(DOMAINS[domain], domain, key, lang, name="Ana", names="Ana, Ben",
                      value=max(values, key=len), title=max((e.shown_title(lang) for e in GAMES.values()), key=len),
                      **seat)
        if len(text) > MENU_LINE_CHARS and text_width(text, SMALL) > WIDTH - 14:   # whole, small if need be
            cut.append(f"{key}: {text!r}")
    assert cut == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_village_names_fit_the_score_pages_label(lang):
    """A village's row on a player's score page (W7) has 12 letters for its name."""
    words = DOMAINS["wakanda"]
    assert [k for k in words.keys() if k.startswith(("piece.", "village.")) and not k.endswith(".in_text")
            and len(words.text(k, lang)) > 12] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_setting_from_a_phone_is_said_whole_on_a_footer_line(lang):
    from companion.table.setting_offers import form
    from companion.table.settings import SettingsStore
    from companion.ui.text import speaking
    with speaking(lang):
        lines = [SHARED.text("web.setting", lang, setting=line)
                 for setting in form(SettingsStore(None)) for _, line in setting["choices"]]
    assert [line for line in lines if len(line) > FOOTER_CHARS] == []



# --- a translator's mistakes: named with file and line, the last good words kept ----------------

@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the box's catalogue tree (.po and compiled .mo), to break."""
    root = tmp_path / "companion"
    for po in catalogues.po_files():
        for source in (po, po.with_suffix(".mo")):
            target = root / source.relative_to(catalogues.ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return root


def rewrite(po: Path, old: str, new: str) -> int:
    """Replace the line ``old`` of ``po`` with ``new`` (a newer file); the line's number."""
    lines = po.read_text(encoding="utf-8").split("\n")
    number = lines.index(old) + 1
    lines[number - 1] = new
    po.write_text("\n".join(lines), encoding="utf-8")
    return number


FR = "locale/fr/LC_MESSAGES/companion.po"
BG = "locale/bg/LC_MESSAGES/companion.po"


@pytest.mark.parametrize(("new", "what"), [
    ('msgstr "{nom} gagne"', "fields: lacks {name}; has {nom} its English has not"),    # renamed
    ('msgstr "gagne"', "fields: lacks {name}"),                                           # dropped
    ('msgstr "{name} gagne {score}"', "fields: has {score} its English has not"),        # added
    ('msgstr "{} gagne"', "positional field {}: fields have names"),
    ('msgstr "{0} gagne"', "positional field {0}: fields have names"),
    ('msgstr "{name gagne"', "expected '}' before end of string (a literal brace is written {{ or }})"),
    ('msgstr "{name} gagne }"', "Single '}' encountered in format string (a literal brace is written {{ or }})"),
    ('msgstr "{name!z} gagne"', "fields: lacks {name}; has {name!z} its English has not"),
])
def test_a_translation_whose_fields_are_not_its_englishs_is_named_with_its_line(tree, capsys, new, what):
    line = rewrite(tree / FR, 'msgstr "{name} gagne"', new)
    assert catalogues.main(["--check"], root=tree) == 1
    assert capsys.readouterr().out == f"{tree / FR}:{line}: [wins] {what}\n"


@pytest.mark.parametrize(("forms", "what"), [
    ("nplurals=2; plural=(n != ;", "Plural-Forms: expected more, found the end"),
    ("nplurals=2; plural=(n != 1", "Plural-Forms: expected ), found the end"),
    ("nplurals=2; plural=__import__('os').system('x');", "Plural-Forms: unexpected '__import__'"),
    ("nplurals=2; plural=(n != 1) / (n - n);", "Plural-Forms: plural divides by zero for n=0"),
    ("nplurals=2; plural=n;", "Plural-Forms: plural gives form 2 for n=2, outside 0 to 1"),
    ("nplurals=0; plural=0;", "Plural-Forms: nplurals=0: 1 to 6"),
    ("nplurals=2; plural=" + "(" * 40 + "n" + ")" * 40 + ";", "Plural-Forms: nested deeper than 30"),
    ("nplurals=2", "Plural-Forms: not 'nplurals=N; plural=EXPRESSION;'"),
])
def test_a_plural_forms_that_is_not_well_formed_or_safe_is_a_mistake(tree, capsys, forms, what):
    rewrite(tree / BG, '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"', f'"Plural-Forms: {forms}\\n"')
    assert catalogues.main(["--check"], root=tree) == 1
    assert capsys.readouterr().out == f"{tree / BG}:3: {what}\n"


def test_a_good_plural_rule_is_read_without_eval():
    count, rule = catalogues.plural_forms(
        "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);")
    assert count == 3 and [rule(n) for n in (1, 2, 5, 11, 21, 22, 25)] == [0, 1, 2, 2, 0, 1, 2]
    assert catalogues.plural_forms("nplurals=1; plural=0;")[0] == 1
    assert catalogues.plural_forms("nplurals=2; plural=!(n == 1);")[1](1) == 0


def test_a_plural_message_needs_as_many_forms_as_nplurals(tree, capsys):
    line = rewrite(tree / BG, 'msgstr[1] "Най-много {n} букви"', "")
    rewrite(tree / BG, 'msgid "{n} letter at most"', 'msgid "{n} letter at most"')
    assert catalogues.main(["--check"], root=tree) == 1
    assert capsys.readouterr().out == \
        f"{tree / BG}:{line - 3}: [speller.full] a plural message needs msgstr[0] to msgstr[1] (nplurals=2)\n"


def test_a_plural_form_may_leave_out_its_count_but_nothing_else(tree, capsys):
    rewrite(tree / BG, 'msgstr[0] "Най-много {n} буква"', 'msgstr[0] "Най-много една буква"')
    assert catalogues.main(["--check"], root=tree) == 0
    line = rewrite(tree / BG, 'msgstr[1] "Най-много {n} букви"', 'msgstr[1] "Най-много {m} букви"')
    assert catalogues.main(["--check"], root=tree) == 1
    assert f"{tree / BG}:{line}: [speller.full] fields: lacks {{n}}; has {{m}}" in capsys.readouterr().out


@pytest.mark.parametrize(("old", "new", "what"), [
    ('msgstr "{name} gagne"', 'msgstr "{name} gagne', "a string must be written between double quotes"),
    ('msgstr "{name} gagne"', 'msgstr "{name} "gagne"', 'a double quote inside a string must be written \\"'),
    ('msgstr "{name} gagne"', 'msgstr "{name} \\q gagne"', "unknown escape \\q"),
    ('msgstr "{name} gagne"', 'msgtsr "{name} gagne"', "not a PO line: 'msgtsr \"{name} gagne\"'"),
    ('msgstr "{name} gagne"', 'msgstr[0] "{name} gagne"', "msgstr[N] without msgid_plural"),
])
def test_a_line_the_po_syntax_does_not_allow_is_named(tree, capsys, old, new, what):
    line = rewrite(tree / FR, old, new)
    assert catalogues.main(["--check"], root=tree) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{tree / FR}:") and out.endswith(f" {what}\n") and out.count("\n") == 1
    assert int(out.split(":")[1]) in (line, line - 1)  # the line itself, or its message's msgid


def test_a_file_without_header_or_utf8_is_a_mistake(tree, capsys):
    (tree / FR).write_text('msgctxt "wins"\nmsgid "{name} wins"\nmsgstr "{name} gagne"\n', encoding="utf-8")
    (tree / BG).write_bytes((tree / BG).read_bytes().replace("Най".encode(), b"\xff\xfe", 1))
    assert catalogues.main(["--check"], root=tree) == 1
    out = capsys.readouterr().out.splitlines()
    assert f"{tree / FR}:1: no header (msgid \"\" first)" in out
    assert any(line.startswith(f"{tree / BG}:") and line.endswith(": not UTF-8 text") for line in out)


def test_compiling_keeps_the_last_good_mo_of_a_catalogue_with_a_mistake(tree, capsys):
    good = (tree / BG).with_suffix(".mo").read_bytes()
    rewrite(tree / BG, 'msgstr "{name} печели"', 'msgstr "{име} печели"')
    rewrite(tree / FR, 'msgstr "{name} gagne"', 'msgstr "{name} gagne !"')   # a good change
    assert catalogues.main([], root=tree) == 1
    err = capsys.readouterr().err
    assert f"{tree / BG}:" in err and "[wins] fields: lacks {name}" in err
    assert "catalogues: compiled 1 of 24" in err and "1 not compiled" in err
    assert (tree / BG).with_suffix(".mo").read_bytes() == good
    assert b"{name} gagne !" in (tree / FR).with_suffix(".mo").read_bytes()



@pytest.mark.parametrize("damage", [lambda data: data[:40], lambda data: data.replace(b"gagne", b"gagn\xff")])
def test_a_damaged_mo_newer_than_its_po_is_compiled_again(tree, capsys, damage):
    mo = (tree / FR).with_suffix(".mo")
    good = mo.read_bytes()
    mo.write_bytes(damage(good))                                   # newer than its .po, unreadable
    assert catalogues.main([], root=tree) == 0
    assert mo.read_bytes() == good and "compiled 1 of 24" in capsys.readouterr().err

def test_set_up_warns_of_a_bad_catalogue_and_goes_on(tmp_path):
    """``./setup.sh`` in a copy of the project, its .venv shared: exit 0, the mistake named."""
    project = Path(__file__).parent.parent
    copy = tmp_path / "project"
    shutil.copytree(project / "companion", copy / "companion", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("setup.sh", "pyproject.toml"):
        shutil.copy2(project / name, copy / name)
    (copy / ".venv").symlink_to(project / ".venv")
    po = copy / "companion" / BG
    good = po.with_suffix(".mo").read_bytes()
    line = rewrite(po, 'msgstr "{name} печели"', 'msgstr "{0} печели"')
    result = subprocess.run(["./setup.sh"], cwd=copy, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert f"companion/{BG}:{line}: [wins] positional field {{0}}" in result.stderr
    assert "setup: warning: some word catalogues were not compiled" in result.stderr
    assert po.with_suffix(".mo").read_bytes() == good
