"""Wording that reads as the language's own (issue: a family's evening without friction,
item 7): the German lesson footer says what holding OK does, the French house rule says
"Sans pièce: à la fin", Portuguese writes "totens" everywhere, and the box speaks to a person with the
familiar form (tu, du, tú, ти) in every catalogue, on its screen and on the phone page; the
French variant is "visible", "ouvert" kept for a village open to build."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.ui.canvas import SMALL, text_width
from companion.ui.screens import footer_lines
from companion.ui.text import t
from companion.words import LANGUAGES

ROOT = Path(__file__).parent.parent / "companion"
CATALOGUES = sorted(ROOT.glob("**/locale/*/LC_MESSAGES/*.po"))


@pytest.fixture
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))
    return tmp_path


def frames(args: list[str], script: str, folders: Path, capsys: pytest.CaptureFixture[str]) -> list[list[str]]:
    """The lines of each frame the box showed for ``args`` and the input ``script``."""
    path = folders / "script.txt"
    path.write_text(script)
    assert main([*args, "--input", str(path), "--display", "text", "--data", str(folders / "data")]) == 0
    out = capsys.readouterr().out
    return [line.split(": ", 1)[1].split(" | ") for line in out.splitlines() if line.startswith("frame ")]


def translations(lang: str) -> list[str]:
    """Every msgstr of ``lang``'s catalogues, its quoted lines joined."""
    found = []
    for path in CATALOGUES:
        if path.parts[-3] != lang:
            continue
        for block in path.read_text(encoding="utf-8").split("\n\n"):
            lines = block.splitlines()
            starts = [i for i, line in enumerate(lines) if line.startswith("msgstr")]
            for i in starts:
                text = lines[i].split(" ", 1)[1]
                for more in lines[i + 1:]:
                    if not more.startswith('"'):
                        break
                    text += more
                found.append("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text)))
    return found


def test_the_german_lesson_footer_says_hold_to_skip_and_fits(folders, capsys):
    shown = frames(["--language", "de", "tutorial", "--game", "wakanda"], "press ok\n", folders, capsys)
    footer = shown[-1][-1]
    assert footer == "OK weiter · lang: Sprung" == t("tutorial.footer.go", "de")
    assert text_width(footer, SMALL) <= 124 and "vor" not in footer


def test_the_french_house_rule_reads_a_la_fin_on_the_settings_page(folders, capsys):
    script = "press up\npress up\npress ok\n" + "press down\n" * 6
    lines = {line for frame in frames(["--language", "fr", "run"], script, folders, capsys) for line in frame}
    assert "Sans pièce: à la fin" in lines and not any("en fin" in line for line in lines)
    # On the phone's footer line too, whole: "Tél: Sans pièce: à la fin".
    phone = t("web.setting", "fr", setting="Sans pièce: à la fin")
    assert footer_lines(phone) == [phone]                        # one footer line, uncut


def test_portuguese_says_totens_and_counts_the_european_way():
    assert [text for text in translations("pt") if re.search(r"\btotems\b", text)] == []
    header = (ROOT / "locale/pt/LC_MESSAGES/companion.po").read_text(encoding="utf-8")
    assert "Plural-Forms: nplurals=2; plural=(n != 1);" in header


#: Forms that speak to a person politely (or to "you all" where one person reads the line):
#: the box says tu, du, tú, tu, jij, tu, ти.
FORMAL = {
    "fr": r"\b(Scannez|ouvrez|Choisissez|Appuyez|Veuillez|votre)\b",
    "de": r"[a-zäöüß,] (Sie|Ihnen|Ihre|Ihren)\b",  # mid-sentence: "Ihr habt" speaks to the table
    "es": r"\b(usted|pídalo|Escanéelo|inténtelo|Pulse|Elija|Escanee)\b",
    "it": r"\b(Scelga|Prema|Scansioni|Legga)\b",
    "nl": r"\b(uw)\b",
    "pt": r"\b(você|Leia|abra|peça de novo|tente|esqueça|Escolha|Prima)\b",
    "bg": r"(Сканирайте (този|с )|поискайте|опитайте|отворете)",  # "Сканирайте тотемите": to the table
}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang in FORMAL])
def test_the_box_says_tu_to_a_person(lang):
    assert [text for text in translations(lang) if re.search(FORMAL[lang], text)] == []


@pytest.mark.parametrize("lang", ["fr", "pt", "es", "bg"])
def test_the_phone_pages_words_say_tu(lang):
    words = [t(key, lang) for key in ("web.wrong", "web.qr_footer", "web.busy", "club.bgstats_scan")]
    assert [word for word in words if re.search(FORMAL[lang], word)] == []


def test_french_says_visible_for_the_variant_and_keeps_ouvert_for_a_village_open_to_build(folders, capsys):
    shown = frames(["--language", "fr", "run"], "press ok\n", folders, capsys)
    variant = shown[-1]
    assert variant[1:5] == ["Visible: 6 tuiles", "Cachée: tuiles 4-6", "Visible, vs boîte", "Cachée, vs boîte"]
    assert not any("uvert" in line or "…" in line for line in variant)
    assert t("refusal.not_open", "fr", village=5) == "village 5 pas encore ouvert"
