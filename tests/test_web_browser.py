"""The phone page in a real browser (issue 23): Debian's Chromium, headless, driven by
Playwright, opens the page while a game plays through the app loop, and the page's words
follow the OLED's frame by frame; the page breaks none of its own Content-Security-Policy.
Skipped, saying why, where Chromium or Playwright is absent (``setup.sh test`` installs
them where it can)."""

from __future__ import annotations

import json
from urllib.parse import unquote

import pytest
from web_browser import Box, browser_missing, open_browser

from companion.events import Press, Tag, TagGone
from companion.table.public_view import public_text
from companion.ui.canvas import frame_words

REASON = browser_missing()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")

ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]


def shown(page) -> dict:
    """The page's words now: its title, note, what was done, its lines."""
    return page.evaluate("""() => ({
        title: document.getElementById('title').textContent,
        note: document.getElementById('note').textContent,
        done: document.getElementById('done').textContent,
        lines: [...document.querySelectorAll('#lines li')].map(li => li.textContent)})""")


def expected(shot: dict) -> dict:
    return {"title": shot["title"] or "", "note": shot["note"] or "", "done": shot["done"] or "",
            "lines": shot["lines"]}


def test_the_page_follows_the_oled_frame_by_frame(tmp_path):
    from playwright.sync_api import sync_playwright

    box = Box(tmp_path / "data")
    problems: list[str] = []
    try:
        with sync_playwright() as playwright:
            context = open_browser(playwright, tmp_path / "profile")
            page = context.new_page()
            page.on("console", lambda message: problems.append(message.text)
                    if message.type in ("error", "warning") else None)
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.goto(box.url)
            page.wait_for_function("() => document.getElementById('title').textContent !== ''")
            assert shown(page)["title"] == "Totem Companion"

            events = [Press("ok"), Press("ok"), Press("ok"), Press("ok")]   # Wakanda, names, open
            for village in ROW:
                events += [Tag(f"village:{village}"), TagGone(f"village:{village}")]
            events += [Press("ok"), Tag("sun"), TagGone("sun"), Tag("sun"), TagGone("sun"),
                       Press("v2"), Press("v5")]                            # a move, a refusal
            seen_board = seen_refusal = False
            for event in events:
                frame, shot = box.play(event)
                want = expected(shot)
                page.wait_for_function("want => { const d = document;"
                                       " return d.getElementById('note').textContent === want.note"
                                       " && d.getElementById('title').textContent === want.title"
                                       " && d.getElementById('done').textContent === want.done; }", arg=want)
                now = shown(page)
                assert now == want
                oled = " ".join(frame_words(frame))
                raw = box.session.view  # the OLED's own, before the public view
                for words, said in ((now["title"], None), (now["note"], getattr(raw, "message", None)),
                                    (now["done"], getattr(raw, "done", None))):
                    # The OLED's words, or their public form ("Ana drew a piece"), never others.
                    assert words in oled or (isinstance(said, str) and words == public_text(box.session, said)), \
                        (words, oled)
                if shot["table"] is not None:
                    seen_board = True
                    assert page.locator("#table .board .foot").count() == 6   # the six tiles
                seen_refusal |= shot["refused"]
            assert seen_board and seen_refusal
            assert "W4" in shown(page)["note"]
            assert page.locator("#note.refused").count() == 1
            context.close()
    finally:
        box.close()
    assert problems == []  # no script error, nothing refused by the page's own policy


def test_a_name_typed_on_a_paired_phone_reaches_the_game(tmp_path):
    from playwright.sync_api import sync_playwright

    box = Box(tmp_path / "data")
    try:
        with sync_playwright() as playwright:
            context = open_browser(playwright, tmp_path / "profile")
            page = context.new_page()
            page.goto(box.url)
            page.wait_for_function("() => document.getElementById('ask').textContent !== ''")
            page.click("#change summary")
            frames = len(box.display.frames)
            page.click("#ask")                                  # the OLED shows the code
            oled = " ".join(frame_words(box.display.wait(frames + 1)))
            code = oled.split("Phone code: ")[1][:6]             # only the OLED has it
            assert code.isdigit() and code not in page.content()
            page.fill("#code", f"{(int(code) + 1) % 10 ** 6:06d}")
            page.click("#pair")
            page.wait_for_function("() => document.getElementById('said').textContent !== ''")
            assert page.text_content("#said") == "Wrong code: ask the box again"
            page.fill("#code", code)
            page.click("#pair")
            page.wait_for_selector("#name", state="visible")
            assert "Phone code" not in " ".join(frame_words(box.display.wait(frames + 2)))  # gone
            frames = len(box.display.frames)
            page.fill("#name", "Zoé")
            page.click("#add")
            assert "Zoé added" in " ".join(frame_words(box.display.wait(frames + 1)))
            page.wait_for_function("() => document.getElementById('note').textContent === 'Zoé added'")
            _, shot = box.play(Press("ok"))                      # New: Wakanda
            assert shot["title"] == "Wings: who?" and shot["lines"][0] == "Zoé"
            page.wait_for_function("() => document.querySelector('#lines li').textContent === 'Zoé'")
            context.close()
    finally:
        box.close()



def test_a_setting_chosen_on_a_paired_phone_changes_the_box(tmp_path):
    from playwright.sync_api import sync_playwright

    box = Box(tmp_path / "data")
    try:
        with sync_playwright() as playwright:
            context = open_browser(playwright, tmp_path / "profile")
            page = context.new_page()
            page.goto(box.url)
            page.wait_for_function("() => document.getElementById('ask').textContent !== ''")
            page.click("#change summary")
            frames = len(box.display.frames)
            page.click("#ask")
            oled = " ".join(frame_words(box.display.wait(frames + 1)))
            page.fill("#code", oled.split("Phone code: ")[1][:6])
            page.click("#pair")
            page.wait_for_selector("#settings select", state="visible")
            box.display.wait(frames + 2)                         # the code left the OLED
            assert page.text_content("#settings-title") == "Settings"
            sound = "#settings .setting:nth-child(2) select"
            assert page.eval_on_selector(sound, "s => [...s.options].map(o => o.textContent)") == \
                ["Sound: on", "Sound: off"]
            # Each control is labelled with its setting's name.
            assert page.locator("#settings label.setting:nth-child(2) span").text_content() == "Sound"
            frames = len(box.display.frames)
            page.select_option(sound, "off")
            assert "Tel: Sound: off" in " ".join(frame_words(box.display.wait(frames + 1)))
            assert not box.session.settings.sound
            page.select_option("#settings .setting:nth-child(1) select", "fr")
            page.wait_for_function("() => document.getElementById('settings-title').textContent === 'Réglages'")
            assert box.session.settings.language == "fr"
            assert page.eval_on_selector(sound, "s => s.value") == "off"   # the form follows the box
            context.close()
    finally:
        box.close()

def test_past_games_are_listed_with_their_records_and_statistics(tmp_path):
    from playwright.sync_api import sync_playwright
    from web_browser import keep_games

    box = Box(keep_games(tmp_path / "data"))
    try:
        with sync_playwright() as playwright:
            context = open_browser(playwright, tmp_path / "profile")
            page = context.new_page()
            page.goto(box.url)
            page.wait_for_function("() => document.getElementById('past-title').textContent !== ''")
            page.click("#history summary")
            page.wait_for_selector("#stats table")
            games = page.locator(".game").all_text_contents()
            assert len(games) == 2 and "Totem Wars" in games[0] and "Ana 20" in games[1]
            assert page.locator("#stats tbody th").first.text_content() == "Ana"
            with page.expect_download() as download:
                page.locator(".game a[download]").nth(1).click()
            saved = tmp_path / "record.jsonl"
            download.value.save_as(saved)
            assert saved.read_text() == (tmp_path / "data" / "games" / "20260301-201500-wakanda.jsonl").read_text()
            wakanda = page.locator(".game").nth(1)
            # BG Stats: its link, and its QR code drawn when opened (from the box: the page's CSP).
            link = wakanda.locator("a.bgstats").get_attribute("href")
            data = json.loads(unquote(link.split("?data=", 1)[1]))
            assert link.startswith("bgstats://") and [p["name"] for p in data["players"]] == ["Ana", "Ben"]
            assert wakanda.locator("details.bgstats summary").text_content() == "QR code for BG Stats"
            assert wakanda.locator("details.bgstats img").get_attribute("src") is None
            wakanda.locator("details.bgstats summary").click()
            page.wait_for_function("() => document.querySelectorAll('.game')[1].querySelector('details img')"
                                   ".naturalWidth > 100")
            wakanda.locator("button.frames").click()                # the end first: the score
            wakanda.locator(".frame li").first.wait_for()
            count = len((tmp_path / "data" / "games" / "20260301-201500-wakanda.jsonl").read_text().splitlines())
            assert wakanda.locator(".frame .meta").text_content().strip() == f"{count}/{count}"
            assert [wakanda.locator(".frame button").nth(i).get_attribute("aria-label") for i in (0, 1)] == \
                ["One step back", "One step on"]
            wakanda.locator(".frame button").first.click()          # ◀ one step back
            assert wakanda.locator(".frame .meta").text_content().strip() == f"{count - 1}/{count}"
            context.close()
    finally:
        box.close()
