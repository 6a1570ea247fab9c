"""The settings page, reached from the start menu: one line per setting with its value.

- **Names**: the names the set-ups offer, most recent first. "New name…" spells one with
  the buttons (``settings_speller.py``); OK on a name asks to forget it.
- **Language**: OK opens the list of languages, each named in its own words; OK on one
  speaks it at once, Back keeps the one spoken.
- **Sound**: on or off (the buzzer; the LEDs flash either way).
- **Hints**: on or off, for the games started from then on (a game keeps the setting it
  started with, in its record): with hints on, HINT in play suggests moves as well as
  explaining the rules; off, it gives the rules alone.
- Each game's own settings (``TableGame.settings``): OK turns to the next value; the line
  under the list names the game and the rule.
- **Voice**: off, prompts or everything (``companion/voice``); the line under the list says
  that holding UP tells where the game stands. **Voice speed** and **Voice volume**: OK
  turns to the next of their values (``setting_offers.py``); the voice says its next line
  at them.
- **Phone page**, last: on or off, the live table served to the phones of the local network
  (``companion/web/``); turned on, the page shows its address as a QR code (any button
  goes back), and while it is on the line's footer gives the address.
- **Forget phones**: after a confirmation, every phone paired with the box
  (``companion/pairing.py``) must pair again; the screen says it is done.

Back goes back a page, and from the settings to the menu. A change is saved at once; when
the data folder cannot be written it still holds until the box is switched off, and the
page says so.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from companion.errors import UserError
from companion.events import Press
from companion.games import GAMES
from companion.pairing import forget_phones
from companion.signals import Signal
from companion.table.choice import Choice, step_of
from companion.table.flow import Flow, FlowEvent, Reply, Scan, ToMenu
from companion.table.page_address import internet_sockets, page_address, phone_footer
from companion.table.setting_offers import (
    HINTS,
    LANGUAGE,
    SOUND,
    VOICE,
    VOICE_SPEED,
    VOICE_VOLUME,
    apply,
    current,
    setting_line,
    turned,
)
from companion.table.settings import GameOption, SettingsStore
from companion.table.settings_speller import NameSpeller, render_speller
from companion.table.views import ConfirmView, MenuView, render
from companion.ui.qr import QrView, qr_screen
from companion.ui.text import languages, speaking, t
from companion.words import unreadable_note

NAMES, WEB, PHONES = "names", "web", "phones"
#: The lines of the box's own settings whose value OK turns (``setting_offers.turned``).
TURNED = (SOUND, HINTS, VOICE, VOICE_SPEED, VOICE_VOLUME)


class SettingsFlow(Flow):
    """The settings of ``store``; ``options`` are the games' own settings, as ``(game's
    record name, GameOption)`` pairs in the order of the registry; ``data_dir`` keeps the
    paired phones (None: none to forget)."""

    kind = "settings"

    def __init__(self, store: SettingsStore, options: Sequence[tuple[str, GameOption]] = (),
                 data_dir: str | os.PathLike[str] | None = None):
        super().__init__()
        self.store = store
        self.data_dir = data_dir
        self.forgetting_phones = False
        self.options = tuple(options)
        self.page = "main"            # main, names, languages, forget or speller
        self.forgetting: str | None = None
        self.speller: NameSpeller | None = None
        self.qr: str | None = None    # the phone page's address shown as a QR code
        self.choice = self._main()

    # --- the pages' lists ------------------------------------------------------------------

    def _main(self, selected: Any = NAMES) -> Choice:
        names = ", ".join(self.store.names)
        labels = [t("settings.names", names=names) if names else t("settings.no_names"),
                  *(setting_line(None, key, current(self.store, None, key)) for key in (LANGUAGE, SOUND, HINTS))]
        values: list[Any] = [NAMES, LANGUAGE, SOUND, HINTS]
        for game, option in self.options:
            labels.append(setting_line(game, option.key, self.store.options(game, (option,))[option.key]))
            values.append((game, option))
        for key in (VOICE, VOICE_SPEED, VOICE_VOLUME):  # after the games' lines: theirs keep their places
            labels.append(setting_line(None, key, current(self.store, None, key)))
            values.append(key)
        labels.append(t("settings.web_on" if self.store.web else "settings.web_off"))
        values.append(WEB)
        labels.append(t("settings.forget_phones"))
        values.append(PHONES)
        return Choice(t("settings.title"), tuple(labels), tuple(values)).select(selected)

    def refresh(self) -> None:
        """Make the main page's lines again (a setting changed elsewhere: a phone), in the
        language spoken, the same line chosen."""
        if self.page == "main":
            self.choice = self._main(self.choice.value)

    def _languages(self) -> Choice:
        """Every language, named in its own words, the one spoken chosen."""
        codes = tuple(languages())
        return Choice(t("settings.languages_title"), tuple(t("language.name", code) for code in codes),
                      codes).select(self.store.language)

    def _names(self, selected: str | None = None) -> Choice:
        names = self.store.names
        return Choice(t("settings.names_title"), (t("settings.new_name"), *names),
                      (None, *names)).select(selected)

    # --- what is shown ---------------------------------------------------------------------

    def view(self) -> Any:
        """What the screen shows now."""
        if self.qr is not None:
            return QrView(self.qr, t("web.qr_footer"))
        if self.speller is not None:
            return self.speller.view(self._words(), self.refused)
        if self.forgetting is not None:
            return ConfirmView(t("settings.forget", name=self.forgetting),
                               t("settings.forget_detail"))
        if self.forgetting_phones:
            return ConfirmView(t("settings.forget_phones_ask"), t("settings.forget_phones_about"))
        return MenuView(self.choice, footer=self._words() or self._footer())

    def _words(self) -> str | None:
        # The settings page writes its notes itself: always words, never a refusal.
        return self.note if isinstance(self.note, str) else None

    def _footer(self) -> str:
        value = self.choice.value
        if self.page == "languages":
            return t("nav.footer")
        if isinstance(value, tuple):
            return GAMES[value[0]].text(value[1].about)
        if value == HINTS:
            return t("settings.hints_about")
        if value in (VOICE, VOICE_SPEED, VOICE_VOLUME):
            return t(f"settings.{value}_about")
        if value == WEB:
            return phone_footer(self.store)
        if value == PHONES:
            return t("settings.forget_phones_about")
        if self.page == "names":
            return t("settings.forget_footer") if value is not None else t("nav.footer")
        return t("settings.footer")

    def frame(self) -> Image.Image:
        """The picture of ``view()``."""
        view = self.view()
        if isinstance(view, QrView):
            return qr_screen(view.address, view.footer)
        return render_speller(view) if self.speller is not None else render(view)

    # --- events ----------------------------------------------------------------------------

    def handle(self, event: FlowEvent) -> Reply:
        """Up/down choose (or turn the speller's wheel), OK changes or opens, Back goes back."""
        self.clear()
        if isinstance(event, Scan):
            return self.tell(t("settings.buttons"))
        if not isinstance(event, Press):
            return Reply()
        back = event.button in ("back", "undo")
        if self.qr is not None:  # any button leaves the QR code
            self.qr = None
            return Reply()
        if self.speller is not None:
            return self._spell(event.button, back)
        if self.forgetting is not None:
            return self._forget(event.button == "ok")
        if self.forgetting_phones:
            return self._forget_phones(event.button == "ok")
        if step_of(event.button):
            self.choice = self.choice.moved(step_of(event.button))
            return Reply()
        if back:
            if self.page == "main":
                return Reply(then=ToMenu())
            self.page, self.choice = "main", self._main(LANGUAGE if self.page == "languages" else NAMES)
            return Reply()
        if event.button != "ok":
            return Reply()
        if self.page == "languages":
            return self._speak(self.choice.value)
        return self._open_names() if self.page == "names" else self._change(self.choice.value)

    def _change(self, value: Any) -> Reply:
        """OK on a line of the main page: open the names or the languages, or turn to the
        next value."""
        if value == NAMES:
            self.page, self.choice = "names", self._names()
            return Reply()
        if value == LANGUAGE:
            self.page, self.choice = "languages", self._languages()
            return Reply()
        if value in TURNED:
            later = turned(self.store, None, value)
            return self._keep(value, lambda: apply(self.store, None, value, later))
        if value == PHONES:
            self.forgetting_phones = True
            return Reply()
        if value == WEB:
            reply = self._keep(value, lambda: self.store.change(web=not self.store.web))
            if self.store.web and internet_sockets():  # just turned on: the address as a QR code
                self.qr = page_address(self.store.web_bind, self.store.web_port)
            return reply
        game, option = value
        later = turned(self.store, game, option.key)
        return self._keep(value, lambda: apply(self.store, game, option.key, later))

    def _keep(self, selected: Any, change: Callable[[], None], note: str | None = None,
              page: str = "main") -> Reply:
        """Make a change and save it; the page is drawn again with ``selected`` chosen.
        A change that cannot be saved still holds, and the page says it is not kept."""
        try:
            change()
        except UserError:
            note = t("settings.not_saved")
        self.page = page
        self.choice = self._main(selected) if page == "main" else self._names(selected)
        self.tell(note)
        return Reply(Signal.ACCEPTED)

    def _speak(self, code: str) -> Reply:
        """OK on the list of languages: speak ``code`` at once, back on the main page."""
        with speaking(code):  # at once: the page is redrawn in it
            return self._keep(LANGUAGE, lambda: self.store.change(language=code), unreadable_note())

    def _open_names(self) -> Reply:
        """OK on the names page: spell a new name, or ask to forget the one chosen."""
        if self.choice.value is None:
            self.speller = NameSpeller()
        else:
            self.forgetting = self.choice.value
        return Reply()

    def _forget(self, yes: bool) -> Reply:
        name, self.forgetting = self.forgetting, None
        if not yes or name is None:
            return Reply()
        return self._keep(None, lambda: self.store.forget(name), t("settings.forgotten", name=name),
                          page="names")

    def _forget_phones(self, yes: bool) -> Reply:
        """OK on the question: every paired phone must pair again (the server sees the file
        change); the screen says it, or that the data folder could not be written."""
        self.forgetting_phones = False
        if not yes:
            return Reply()
        try:
            if self.data_dir is not None:
                forget_phones(self.data_dir)
        except UserError:
            return self.tell(t("settings.phones_not_forgotten"), True)
        self.tell(t("settings.phones_forgotten"))
        return Reply(Signal.ACCEPTED)

    def _spell(self, button: str, back: bool) -> Reply:
        speller = self.speller
        assert speller is not None  # only called while spelling
        if step_of(button):
            speller.move(step_of(button))
            return Reply()
        if back:
            if not speller.delete():
                self.speller = None  # Back on no letter: nothing to keep
            return Reply()
        if button != "ok":
            return Reply()
        if not speller.on_done:
            problem = speller.add()
            return self.tell(problem, True) if problem else Reply()
        name = speller.done()
        if name is None:
            return self.tell(t("speller.empty"), True)
        self.speller = None
        return self._keep(name, lambda: self.store.remember((name,)), t("settings.added", name=name),
                          page="names")
