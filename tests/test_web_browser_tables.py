"""The phone page's tables in a real browser (issue 32 item 8): Debian's Chromium, headless,
at a phone's 390×844 and a tablet's 820×1180, dark and light, at the phone's text size and
twice it, with and without JavaScript: nothing spills out of its box or off the screen,
the three-letter codes stand in only where the words have no room, and the board says it
is the board. Skipped, saying why, where Chromium or Playwright is absent. The screenshots
land in the test's folder (``tests/web_browser.py`` writes those of docs/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_browser import CHROMIUM as BROWSER
from web_browser import FLAGS, Box, browser_missing, open_browser

from companion.events import Press

REASON = browser_missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

DATA = Path(__file__).parent / "data"
SIZES = [(390, 844), (820, 1180)]

#: Every cell and the page: the widths a thing would need beyond the room it has.
SPILLS = """() => {
  const out = [];
  const whole = document.documentElement.scrollWidth;
  if (whole > window.innerWidth) out.push('page ' + whole);
  for (const cell of document.querySelectorAll('#live th, #live td, #live p, #live h1, #live li, .stack > div'))
    if (cell.scrollWidth > cell.clientWidth + 1) out.push(`${cell.textContent} ${cell.scrollWidth}`);
  for (const box of document.querySelectorAll('#live .wide'))
    if (box.scrollWidth > box.clientWidth + 1) out.push('table ' + box.textContent.slice(0, 30));
  return out;
}"""


def finished_box(tmp_path, record: str, lang: str = "en") -> Box:
    """A box on the score of the finished game ``record`` (resumed from its journal)."""
    data = tmp_path / "data"
    data.mkdir(parents=True)
    (data / "current.jsonl").write_text((DATA / record).read_text())
    box = Box(data)
    box.session.settings.change(language=lang)
    box.play(Press("ok"))                                   # Resume: the score
    assert box.session.screen == "score"
    return box


def shown_codes(page) -> list[str]:
    """The words of the board's feet as shown: the whole word or its code."""
    return page.evaluate("""() => [...document.querySelectorAll('.board .foot')].map(foot =>
        getComputedStyle(foot.querySelector('.full') || foot).display !== 'none'
          ? (foot.querySelector('.full') || foot).textContent : foot.querySelector('abbr').textContent)""")


@pytest.mark.parametrize("record", ["wakanda_worked_example.jsonl", "totem_wars_finished.jsonl"])
@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_score_fits_a_phone_and_a_tablet_in_both_schemes(tmp_path, record, scheme):
    from playwright.sync_api import sync_playwright

    box = finished_box(tmp_path, record, "fr")
    problems: list[str] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=BROWSER, headless=True, args=FLAGS)
            for width, height in SIZES:
                context = browser.new_context(viewport={"width": width, "height": height},
                                              device_scale_factor=2, color_scheme=scheme)
                page = context.new_page()
                page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
                page.on("pageerror", lambda e: problems.append(str(e)))
                page.goto(box.url)
                page.wait_for_selector("#table table")
                assert page.evaluate(SPILLS) == []
                paper = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
                assert (paper == "rgb(251, 248, 240)") == (scheme == "light")
                page.screenshot(path=str(tmp_path / f"{record}-{scheme}-{width}.png"), full_page=True)
                if record.startswith("wakanda"):
                    feet = shown_codes(page)
                    if width == 820:                        # room for the words
                        assert feet == ["1 Tipi", "2 Aigle", "3 Chef", "4 Diversité", "5 Soleil", "6 Tomahawk"]
                    else:                                   # a code where a word has no room
                        assert "6 TOM" in feet or "6 Tomahawk" in feet
                context.close()
            browser.close()
    finally:
        box.close()
    assert problems == []


def test_at_twice_the_text_size_the_words_grow_and_nothing_spills(tmp_path):
    from playwright.sync_api import sync_playwright

    box = finished_box(tmp_path, "wakanda_worked_example.jsonl", "de")
    try:
        with sync_playwright() as playwright:
            context = open_browser(playwright, tmp_path / "profile", 390, 844)
            page = context.new_page()
            page.goto(box.url)
            page.wait_for_selector("#table table")
            before = page.evaluate("() => document.querySelector('#table .result').getBoundingClientRect().height")
            page.evaluate("() => { document.documentElement.style.fontSize = '200%'; }")  # the phone's text size
            box.play(Press("down"))                         # the next page of the score: drawn again
            page.wait_for_function("() => document.querySelector('.board.codes') !== null")
            after = page.evaluate("() => document.querySelector('#table .result').getBoundingClientRect().height")
            page.screenshot(path=str(tmp_path / "twice.png"), full_page=True)
            assert after >= 1.8 * before
            assert page.evaluate(SPILLS) == []
            assert all(len(foot) <= 5 for foot in shown_codes(page))   # "6 TOM": the codes now
            context.close()
    finally:
        box.close()


def test_without_javascript_the_page_shows_the_screen_and_the_table(tmp_path):
    from playwright.sync_api import sync_playwright

    box = finished_box(tmp_path, "wakanda_worked_example.jsonl", "fr")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=BROWSER, headless=True, args=FLAGS)
            context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
            page = context.new_page()
            page.goto(box.url)
            assert page.locator("html").get_attribute("lang") == "fr"
            assert page.locator("#table .result").text_content() == "Ana gagne"
            board = page.locator(".board")
            assert board.get_attribute("aria-label") == "Plateau"
            assert board.locator(".foot").count() == 6
            assert "Malus Soleil (W8)" in page.locator("#table").text_content()
            assert not page.locator("#change").is_visible() and not page.locator("#history").is_visible()
            assert page.evaluate(SPILLS) == []
            page.screenshot(path=str(tmp_path / "no-script.png"), full_page=True)
            context.close()
            browser.close()
    finally:
        box.close()


@pytest.mark.parametrize("lang", ["en", "de", "bg"])
def test_the_statistics_fit_a_phone_each_game_with_its_own_columns(tmp_path, lang):
    from playwright.sync_api import sync_playwright
    from web_browser import keep_games

    box = Box(keep_games(tmp_path / "data"))
    box.session.settings.change(language=lang)
    try:
        box.play(Press("down"))                             # a frame in the box's language
        with sync_playwright() as playwright:
            context = open_browser(playwright, tmp_path / "profile", 390, 844)
            page = context.new_page()
            page.goto(box.url)
            page.wait_for_function("() => document.getElementById('past-title').textContent !== ''")
            page.click("#history summary")
            page.wait_for_selector("#stats table")
            spills = page.evaluate("""() => [...document.querySelectorAll('#stats .wide, #stats th, #stats td')]
                .filter(box => box.scrollWidth > box.clientWidth + 1).map(box => box.textContent.slice(0, 40))""")
            assert spills == []
            heads = page.locator("#stats table").evaluate_all(
                "tables => tables.map(t => t.querySelectorAll('thead th').length)")
            assert sorted(heads) == [6, 7]                  # the shared four and each game's own
            page.locator("#history").screenshot(path=str(tmp_path / f"stats-{lang}.png"))
            context.close()
    finally:
        box.close()
