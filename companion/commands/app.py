"""``totem-companion`` / ``run`` and ``sim``: the box, or its simulator in the terminal.

``run`` uses the hardware of the configuration; on a computer without it (not a Raspberry
Pi, display ``auto``) that is the terminal simulator. ``sim`` always draws the OLED in the
terminal and takes the keyboard as buttons and scan pad. ``--input FILE`` plays an input
script instead of any hardware input; with ``--display png:DIR`` (or ``none``) and
``--data DIR`` a whole game runs without hardware, exactly as the box would play it.
The box's settings (``DATA/settings.json``, the settings page) go over the configuration's
names, language and voice. The voice (``companion/voice``) watches every frame shown and
speaks through espeak-ng (``hardware/speaker.py``) when the settings have it on; the
speaker starts its thread only when it first speaks. When the player quits with a game
unfinished, a last line says that it is kept. The box holds its data folder for as long as
it runs (``hold_data_folder``): a second box on the same folder is refused with one line
naming the first.

On an OLED the starting frame is drawn first, with the folder held and before the session
and the screens are even imported: on a Pi Zero 2 W those imports take longer than a person
waits for a sign of life (docs/reliability.md, "Start-up"). The imports are inside
the functions for that reason.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from companion.config import OVERRIDES, Config, load_config
from companion.table.data_lock import hold_data_folder

if TYPE_CHECKING:
    from companion.club.box import ClubLink  # imported when a club is configured


def _config(args: argparse.Namespace) -> Config:
    """The configuration with the command line applied; ``sim`` forces terminal + keyboard."""
    overrides = {name: getattr(args, name, None) for name in OVERRIDES}
    if args.command == "sim":
        overrides["display"] = overrides["display"] or "terminal"
        overrides["buttons"] = overrides["buttons"] or "keyboard"
        overrides["reader"] = overrides["reader"] or "keyboard"
    from hardware.platform import is_raspberry_pi
    return load_config(getattr(args, "config", None), overrides).resolved(is_raspberry_pi())


def _club_link(config: Config) -> ClubLink | None:
    """The club's link (companion/club) when ``[club]`` names a broker, started: the box's
    finished games go to the club on a thread of their own, never holding a frame."""
    if not config.club_broker:
        return None
    from companion.club.box import ClubAddress, ClubLink
    link = ClubLink(config.data_dir, ClubAddress(config.club_broker, config.club_box, config.club_user,
                                                 config.club_password, config.club_tls, config.club_ca))
    link.start()
    return link


def run(args: argparse.Namespace) -> int:
    """Run the companion until quit (q, Ctrl-C, the end of an input script)."""
    config = _config(args)
    with hold_data_folder(config.data_dir):
        # Held first: a second box on the folder must not draw over the first one's panel.
        from hardware.displays import show_starting
        shown = show_starting(config)
        return _run(args, config, shown)


def _run(args: argparse.Namespace, config: Config, shown: bytes | None = None) -> int:
    """``run`` with the data folder held; ``shown`` is the starting frame on the OLED."""
    from companion.games import GAMES
    from companion.table.app_loop import AppLoop
    from companion.table.journal import CURRENT
    from companion.table.registry import TAGS_FILE, TagRegistry
    from companion.table.session import Session
    from companion.table.settings import SettingsStore
    from companion.ui import text
    from companion.voice.narrator import Narrator

    registry = TagRegistry.load(config.data_dir / TAGS_FILE)
    settings, problem = SettingsStore.load(config.data_dir, names=config.players,
                                           language=config.language, games=tuple(GAMES),
                                           languages=text.languages(), voice=config.voice,
                                           web_port=config.web_port, web_bind=config.web_bind,
                                           voice_speed=config.voice_speed, voice_volume=config.voice_volume)
    if problem:
        # The box's menu says it too; this line, for the log, names the file and the fault.
        print(f"totem-companion: {problem}; the defaults are used", file=sys.stderr)
    # ``tutorial`` runs the box with the lesson of ``args.lesson`` on screen from the start.
    lesson = getattr(args, "lesson", None)
    session = Session(config.data_dir, registry, game=None if lesson else getattr(args, "game", None),
                      settings=settings, settings_problem=problem, tutorial=lesson)
    if session.journal_problem:
        # The menu says it in a few words; this line, for the log, says where the file went.
        print(f"totem-companion: {session.journal_problem}", file=sys.stderr)

    # The phone page follows the frames shown; it serves nothing (no server imported) until on.
    from companion.stick import StickOffer
    from companion.web.page import PhonePage
    from hardware.displays import open_display
    from hardware.speaker import Speaker

    display = open_display(config, starting=shown)
    speaker = Speaker(speed=config.voice_speed, volume=config.voice_volume, device=config.voice_device)
    page = PhonePage()
    loop = AppLoop(session, display, watchers=(Narrator(speaker), page),
                   stick=StickOffer(config.data_dir, config.stick_folders))
    page.put = loop.put  # what a paired phone sends joins the buttons' queue
    # systemd stops the service with SIGTERM: end as cleanly as on q, even while the box starts.
    loop.stop_on_signal()
    if shown is not None:
        # On the OLED the menu goes up before the buttons, LEDs and reader are opened (their
        # libraries are a third of the start): nothing can be pressed before they are open,
        # so nothing is missed; the loop's first frame is then this one, sent as no bytes.
        loop.show(session.frame())
    # Imported once the menu is up: the buttons', LEDs' and reader's libraries.
    from hardware.feedback import open_feedback
    from hardware.inputs import open_inputs
    from hardware.keyboard_input import FooterDisplay, KeyHelp
    from hardware.script_input import ScriptInput
    try:
        loop.feedback = open_feedback(config)
        # Item names in the script stay names: the session tells anonymous pieces apart
        # better than one enrolled UID repeated for every piece of a type.
        script = ScriptInput(args.input, on_end=loop.stop) if getattr(args, "input", None) else None
        # A terminal display's footer: the keys, in the box's language.
        keys = KeyHelp(display, session) if script is None and isinstance(display, FooterDisplay) else None
        if keys is not None:
            loop.watchers.append(keys)
        sources = open_inputs(config, script=script, echo=keys.echo if keys is not None else None,
                              on_quit=loop.stop, offer_firmware=True)
    except BaseException:
        loop.close()
        raise
    club = _club_link(config)
    if club is not None:
        from companion.club.live import LiveTable
        from companion.errors import UserError
        try:
            loop.watchers.append(LiveTable(club.club))
        except UserError as exc:  # a CA file that cannot be used: said, and play goes on
            print(f"totem-companion: {exc}", file=sys.stderr)
    from companion.notify import notify_ready
    notify_ready()  # the service's READY=1: the box is up (an update waits for it)
    try:
        loop.run(sources)
    finally:
        if club is not None:
            club.stop()
    if script is None and (config.data_dir / CURRENT).is_file():
        # Printed once the display and the keyboard have given the terminal back.
        print(text.t("quit.kept", session.language))
    elif script is None and session.lesson is not None and session.flow is session.lesson \
            and not session.lesson.complete:
        # A lesson keeps its progress in its own folder: said as a game's is.
        title = GAMES[session.lesson.name].shown_title(session.language)
        print(text.t("quit.lesson_kept", session.language, title=title))
    return 0
