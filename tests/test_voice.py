"""The box's voice (companion/voice, issue 24), with the speaker mocked: what is said for
each kind of frame of both games in two languages, what is never said (a hidden hand, the
coach's suggestions), "Where are we?" on a held UP, and the Voice setting."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from box_helpers import choose
from tw_table_helpers import make as make_totem_wars
from tw_table_helpers import set_up

from companion.config import Config, load_config
from companion.errors import UserError
from companion.events import Hold, Press, Tag, TagGone, Wait
from companion.games import GAMES
from companion.table.app_loop import AppLoop
from companion.table.flow import ToTutorial
from companion.table.journal import CURRENT
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.settings import SETTINGS_FILE, SettingsStore
from companion.ui import text
from companion.voice.lines import for_the_ear, rule_words, voice_of
from companion.voice.narrator import Narrator
from hardware.script_input import ScriptInput

DATA = Path(__file__).parent / "data"
KNOWN = dict(games=tuple(GAMES), languages=text.languages())


class Screen:
    """A display that shows nothing."""

    def show(self, frame) -> int:
        return 0

    def close(self) -> None:
        pass


class Box:
    """A session in the app loop with the voice watching, its speaker a mock."""

    def __init__(self, session: Session, speaker):
        self.session, self.speaker = session, speaker
        self.loop = AppLoop(session, Screen(), watchers=(Narrator(speaker),))
        self.loop.show(session.frame())
        self.loop.tell_watchers()
        self.kinds: list[tuple[str, str | None]] = []  # (view kind, what its frame said)

    def said(self) -> list[str]:
        """Everything said so far."""
        return [call.args[0] for call in self.speaker.say.call_args_list]

    def send(self, event) -> str | None:
        """Deliver one event; what it made the box say (None: nothing)."""
        before = self.speaker.say.call_count
        self.loop.deliver(event)
        new = self.said()[before:]
        self.kinds.append((self.session.view.kind, new[-1] if new else None))
        return new[-1] if new else None

    def play(self, script: Path) -> None:
        for event in ScriptInput(script).events():
            if not isinstance(event, Wait):
                self.send(event)


def box(tmp_path, mocker, *, voice="prompts", language="en", players=()) -> Box:
    data = tmp_path / "data"
    store, _ = SettingsStore.load(data, names=players, language=language, voice=voice, **KNOWN)
    return Box(Session(data, TagRegistry(tmp_path / "tags.json"), settings=store), mocker.Mock())


def resumed(tmp_path, mocker, record: str, *, voice="prompts", language="en") -> Box:
    """A box on the unfinished (or finished) game of ``record``, resumed from the menu."""
    (tmp_path / "data").mkdir(parents=True, exist_ok=True)
    (tmp_path / "data" / CURRENT).write_text(record, encoding="utf-8")
    voiced = box(tmp_path, mocker, voice=voice, language=language)
    assert "resume" in voiced.session.view.choice.values
    voiced.send(Press("ok"))
    return voiced


# --- Wakanda ---------------------------------------------------------------------------------

WAKANDA_WORDS = {
    "en": ("en-gb", "Player 1: draw a piece from the bag and scan it.", "Player 1 drew a piece.",
           "Village 5 is not open yet (rule double-u 4).",
           "Eagle on village 1. Player 2: draw a piece from the bag and scan it.",
           "eagle"),
    "fr": ("fr-fr", "Joueur 1: pioche dans le sac et scanne la pièce.", "Joueur 1 pioche une pièce.",
           "Village 5 pas encore ouvert (règle double vé 4).",
           "Aigle au village 1. Joueur 2: pioche dans le sac et scanne la pièce.",
           "aigle"),
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_wakanda_game_says_each_prompt_confirmation_and_refusal_with_its_rule_in_words(tmp_path, mocker, lang):
    voiced = box(tmp_path, mocker, language=lang)
    voiced.play(DATA / "first_game_wakanda.txt")
    voice, prompt, drew, refusal, built, eagle = WAKANDA_WORDS[lang]
    said = voiced.said()
    assert {call.args[1] for call in voiced.speaker.say.call_args_list} == {voice}
    assert said[0] == prompt
    assert any(line.startswith(drew) for line in said)
    assert any(line.startswith(refusal) for line in said)
    assert built in said
    # The piece drawn into a hand is private (R2): never said while it is in the hand.
    hand_time = [line for line in said if line.startswith(drew)]
    assert hand_time and not any(eagle in line.lower() for line in hand_time)
    # The refusal is said each time it is made, the same words twice in a row (v5, then OK);
    # what to do now (the screen's bottom line) after it once, when it was not said already.
    refused = [line for line in said if line.startswith(refusal)]
    assert len(refused) == 2 and refusal in refused
    assert set(refused) - {refusal} <= {f"{refusal} Player 1: build a piece on a village.",
                                        f"{refusal} Joueur 1: pose une pièce sur un totem."}


def test_a_redraw_says_nothing_and_a_new_prompt_is_said_once(tmp_path, mocker):
    voiced = box(tmp_path, mocker, players=("Ana", "Ben"))
    choose(voiced.session, "wakanda")
    while voiced.session.screen != "board":
        voiced.send(Press("ok"))
    count = voiced.speaker.say.call_count
    assert voiced.send(TagGone("eagle")) is None          # nothing happened: the same frame
    assert voiced.send(Press("up")) is None               # a redraw of the same board
    assert voiced.speaker.say.call_count == count


def test_the_wakanda_final_score_is_said_with_each_players_points(tmp_path, mocker):
    voiced = box(tmp_path, mocker)
    voiced.play(DATA / "wakanda_against_box.txt")
    game = voiced.session.game
    assert game.phase == "over" and voiced.session.view.kind == "score"
    totals = [game.score(p).total for p in (0, 1)]
    last = voiced.said()[-1]
    assert f"{game.players[0]}: {totals[0]} point" in last and f"{game.players[1]}: {totals[1]} point" in last
    assert "wins" in last or "Shared win" in last


def test_the_list_of_a_hidden_hands_pieces_is_not_said(tmp_path, mocker):
    from companion.games.wakanda.public import PUBLIC
    from companion.table.choice import Choice
    from companion.table.public_view import public_view
    from companion.table.views import PickerView

    voiced = box(tmp_path, mocker, voice="everything")
    voiced.play(DATA / "first_game_wakanda.txt")
    flow = voiced.session.flow
    assert voiced.session.view.kind == "board" and not flow.game.open_hands
    # The list a village button opens when two pieces of the hand could go there (R2).
    pieces = PickerView(Choice("Which piece?", ("Sun", "Chief"), ("sun", "chief")))
    assert public_view(flow, pieces, PUBLIC) is None        # the voice's filter and the page's


# --- Totem Wars --------------------------------------------------------------------------------

TOTEM_WARS_WORDS = {
    "en": ("en-gb", "Player 2: lay your totem and scan it (rule tee 2).", "Totems are down.",
           "Place at least 2 cards, the level of this round (rule tee 5).",
           "Round 1. Player 1 takes 6 cards (rule tee 9)."),
    "fr": ("fr-fr", "Joueur 2: pose ton totem, scanne-le (règle té 2).", "Totems posés.",
           "Pose au moins 2 cartes, le niveau de la manche (règle té 5).",
           "Manche 1. Joueur 1 prend 6 cartes (règle té 9)."),
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_totem_wars_round_says_totems_deal_placements_refusals_and_the_result(tmp_path, mocker, lang):
    voiced = box(tmp_path, mocker, language=lang)
    voiced.play(DATA / "first_game_totem_wars.txt")
    voice, totem, deal, refusal, result = TOTEM_WARS_WORDS[lang]
    said = voiced.said()
    assert {call.args[1] for call in voiced.speaker.say.call_args_list} == {voice}
    assert said[0] == totem
    assert any(line.startswith(deal) for line in said)
    assert refusal in said
    assert any(line.startswith(result) for line in said)
    # The totems are laid face down (T2): no totem's card is ever named.
    assert not any(word in line.lower() for line in said for word in ("snake", "lion", "serpent"))


@pytest.mark.parametrize("lang, ask", [("en", "War: Ana declares. Crocodile fights in: land, "),
                                      ("fr", "Guerre: Ana. Crocodile: habitat? terre, ")])
def test_a_war_asks_its_declaration_aloud_with_the_habitat_lit(tmp_path, mocker, lang, ask):
    session = make_totem_wars(tmp_path)
    session.settings.change(voice="prompts")
    voiced = Box(session, mocker.Mock())
    set_up(session, ("Ana", "Ben"), 0)
    session.settings.change(language=lang)
    for card in ("indians/eagle", "africans/crocodile", None, "eskimos/whale", None, "aborigines/cockatoo", None):
        if card is None:
            voiced.send(Press("ok"))
        else:
            voiced.send(Tag(card))
            voiced.send(TagGone(card))
    assert session.screen == "declare"
    said = voiced.kinds[-1][1]
    assert said is not None and said.startswith(ask), said
    voiced.send(Press("down"))                               # the other habitat lit: said
    assert voiced.kinds[-1][1] not in (None, said)


def test_the_end_of_a_totem_wars_game_is_said_with_the_winner_and_the_points(tmp_path, mocker):
    record = (DATA / "totem_wars_finished.jsonl").read_text(encoding="utf-8")
    voiced = resumed(tmp_path, mocker, record, language="fr")
    game = voiced.session.game
    assert voiced.session.view.kind == "score"
    last = voiced.said()[-1]
    for p, name in enumerate(game.players):
        assert f"{name}: {game.points(p)} point" in last
    assert "gagne" in last or "Victoire partagée" in last or text.t("shared", "fr") in last


def test_a_hand_shown_for_a_hint_and_the_hints_for_it_are_never_said(tmp_path, mocker):
    session = make_totem_wars(tmp_path)
    voiced = Box(session, mocker.Mock())
    session.settings.change(voice="everything")
    set_up(session, ("Ana", "Ben"), 0)
    for card in ("africans/lion", "indians/snake"):
        voiced.send(Tag(card))
        voiced.send(TagGone(card))
    voiced.send(Press("ok"))                                 # past the deal reminder
    assert session.screen == "board"
    count = voiced.speaker.say.call_count
    hand = ("africans/zebra", "africans/giraffe", "indians/wolf", "eskimos/seal", "aborigines/emu")
    voiced.send(Press("hint"))
    assert session.screen == "hand"
    for card in hand:
        voiced.send(Tag(card))
        voiced.send(TagGone(card))
    voiced.send(Press("ok"))                                 # the coach's suggestions for it
    assert session.screen == "hint"
    voiced.send(Press("down"))
    assert voiced.speaker.say.call_count == count            # not a word of the hand or the tips
    voiced.send(Press("back"))
    said = " ".join(voiced.said()).lower()
    for word in ("zebra", "giraffe", "wolf", "seal", "emu"):
        assert word not in said


# --- whole sentences, never the screen's lines (issue 32) ---------------------------------------

DEAL_WORDS = {
    "en": "Totems are down. Player 1, deal one more card to each player, starting with Player 2 (rule tee 2). "
          "Player 2 starts (rule tee 3).",
    "fr": "Totems posés. Joueur 1, donne une carte de plus à chacun, en commençant par Joueur 2 (règle té 2). "
          "Joueur 2 commence (règle té 3).",
}
PLACED_WORDS = {"en": "Player 2 placed 2 cards. Player 1: place 2 cards or more, then OK.",
                "fr": "Joueur 2 a posé 2 cartes. Joueur 1: pose 2 cartes ou plus, puis OK."}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_deal_and_a_prompt_under_a_confirmation_are_whole_sentences(tmp_path, mocker, lang):
    voiced = box(tmp_path, mocker, language=lang)
    voiced.play(DATA / "first_game_totem_wars.txt")
    # The deal's screen wraps "… 1 more card each / from Ben (T2), then OK": said as sentences.
    assert [words for kind, words in voiced.kinds if kind == "deal" and words] == [DEAL_WORDS[lang]]
    # The screen's one-line prompt under a confirmation ("place 2+") is said in its long form.
    assert PLACED_WORDS[lang] in voiced.said() and "2+" not in " ".join(voiced.said())


@pytest.mark.parametrize("lang", text.languages())
def test_no_footer_naming_the_buttons_is_ever_said_and_every_line_is_sentences(tmp_path, mocker, lang):
    keys = ("confirm.footer", "nav.footer", "settings.footer", "rules.footer", "rules.footer_one", "hint.footer",
            "hint.footer_one", "tutorial.footer.more", "tutorial.footer.go")
    with text.speaking(lang):
        footers = {for_the_ear(text.t(key)) for key in keys}
    said = []
    for script in ("first_game_wakanda.txt", "first_game_totem_wars.txt"):
        voiced = box(tmp_path / script, mocker, voice="everything", language=lang)
        voiced.play(DATA / script)
        said += voiced.said()
    assert len(said) > 30
    assert [line for line in said for footer in footers if footer in line] == []
    # Every line is sentences: a capital first (after a sign that opens a question), a stop last.
    assert [line for line in said if not (line.lstrip("¿¡")[0].isupper() or line[0].isdigit())
            or not line.endswith((".", "?", "!"))] == []


def test_a_rules_page_is_said_whole_once_and_turning_its_pages_says_nothing_new(tmp_path, mocker):
    voiced = box(tmp_path, mocker, voice="everything")
    voiced.play(DATA / "first_game_wakanda.txt")
    voiced.send(Press("hint"))
    voiced.send(Press("hint"))                               # the rule's pages
    view = voiced.session.view
    assert view.kind == "why" and len(view.pages) > 1
    words = voiced.kinds[-1][1]
    assert words.startswith(f"{view.title} (rule double-u ") and view.pages[-1][-1] in words
    assert voiced.send(Press("down")) is None


def test_a_confirmation_is_asked_to_finish_and_an_undo_cuts_what_it_takes_back(tmp_path, mocker):
    voiced = box(tmp_path, mocker)
    voiced.play(DATA / "first_game_wakanda.txt")
    asked = {call.args[0]: call.kwargs for call in voiced.speaker.say.call_args_list}
    built = asked["Eagle on village 1. Player 2: draw a piece from the bag and scan it."]
    assert (built["finish"], built["cuts"]) == (True, False)
    prompt = asked["Player 1: draw a piece from the bag and scan it."]
    assert (prompt["finish"], prompt["cuts"]) == (False, False)
    undone = next(kwargs for line, kwargs in asked.items() if line.startswith("Taken back"))
    assert undone["cuts"] is True
    where = voiced.send(Hold("up"))                          # asked for: at once and whole
    assert voiced.speaker.say.call_args.kwargs | {"speed": 0, "volume": 0} == \
        {"finish": True, "cuts": True, "speed": 0, "volume": 0} and where


def test_the_voice_speaks_at_the_speed_and_volume_of_the_settings(tmp_path, mocker):
    voiced = box(tmp_path, mocker, voice="everything")
    session = voiced.session
    for value in ("settings", "voice_speed", "voice_volume"):
        while session.view.choice.value != value:
            voiced.send(Press("down"))
        voiced.send(Press("ok"))
    assert voiced.speaker.say.call_args.kwargs["speed"] == 180
    assert voiced.speaker.say.call_args.kwargs["volume"] == 150
    assert voiced.said()[-1] == "Voice volume: 150."


# --- every kind of frame -------------------------------------------------------------------------

def test_every_kind_of_frame_of_both_games_says_its_words_but_hints_and_hands(tmp_path, mocker):
    wakanda = box(tmp_path / "w", mocker, voice="everything")
    wakanda.play(DATA / "first_game_wakanda.txt")
    wakanda.send(Press("hint"))                              # the coach's move: never said
    wakanda.send(Press("hint"))                              # HINT again: the rule's pages
    against_the_box = box(tmp_path / "b", mocker, voice="everything")
    against_the_box.play(DATA / "wakanda_against_box.txt")      # to the final score
    totem_wars = box(tmp_path / "t", mocker, voice="everything")
    totem_wars.play(DATA / "first_game_totem_wars.txt")
    while totem_wars.session.screen == "round":
        totem_wars.send(Press("ok"))
    totem_wars.send(Press("hint"))                           # the hand screen: never said
    frames = wakanda.kinds + against_the_box.kinds + totem_wars.kinds
    said = {kind for kind, words in frames if words}
    silent = {kind for kind, words in frames if not words} - said
    assert {"menu", "picker", "board", "confirm", "status", "score", "totems", "deal", "round", "why"} <= said
    assert {"hint", "hand"} <= silent


@pytest.mark.parametrize("lang", ["en", "bg"])
def test_a_lessons_pages_are_said_as_prompts(tmp_path, mocker, lang):
    voiced = box(tmp_path, mocker, language=lang)
    while voiced.session.view.choice.value != ToTutorial("wakanda"):
        voiced.send(Press("down"))
    voiced.send(Press("ok"))
    view = voiced.session.view
    assert view.kind == "lesson"
    said = voiced.said()[-1]
    with text.speaking(lang):  # the rule's number is said in the box's words
        title = for_the_ear(view.title)
    assert said.startswith(title) and " ".join(view.pages[view.page])[:30] in said
    # Its pages are one text: said whole at once (a sentence runs on to the next page).
    assert view.pages[-1][-1] in said


# --- "Where are we?" ---------------------------------------------------------------------------

def test_holding_up_says_whose_turn_the_score_the_bag_and_the_last_action_and_again(tmp_path, mocker):
    voiced = box(tmp_path, mocker)
    voiced.play(DATA / "first_game_wakanda.txt")
    handled, frame = voiced.loop.handled, voiced.session.frame()
    where = voiced.send(Hold("up"))
    assert where == ("Player 1 to play. Player 1: 0 points. Player 2: 0 points. 17 pieces in the bag. "
                     "Last: Player 2 claimed village 1.")
    assert voiced.loop.handled == handled and voiced.session.frame() is frame  # the screen stays
    assert voiced.send(Hold("up")) == where                  # again: the same words


def test_where_are_we_in_totem_wars_in_french_names_the_round_and_the_deck(tmp_path, mocker):
    voiced = box(tmp_path, mocker, language="fr")
    voiced.play(DATA / "first_game_totem_wars.txt")
    where = voiced.send(Hold("up"))
    assert where.startswith("À Joueur 1 de jouer. Manche 2. Joueur 1: 4 points. Joueur 2: 1 point.")
    assert "cartes au paquet" in where and "Dernière action: Joueur 2" in where


def test_where_are_we_while_the_totems_are_laid_names_who_lays_one_never_a_totem(tmp_path, mocker):
    voiced = box(tmp_path, mocker)
    for event in ScriptInput(DATA / "first_game_totem_wars.txt").events():
        if isinstance(event, Wait):
            continue
        voiced.send(event)
        if isinstance(event, TagGone):
            break                                            # one totem down, one to lay
    assert voiced.session.game.phase == "totems"
    where = voiced.send(Hold("up"))
    assert where.startswith("Player 1: lay your totem and scan it (rule tee 2). Round 1.")
    assert "snake" not in where and "Last: The totems are down" not in where


def test_a_watcher_that_fails_on_an_event_is_dropped_and_the_session_gets_the_event(tmp_path, mocker, capsys):
    voiced = box(tmp_path, mocker)
    watcher = mocker.Mock()
    watcher.heard.side_effect = RuntimeError("broken")
    voiced.loop.watchers.insert(0, watcher)
    voiced.loop.err = sys.stderr
    handled = voiced.loop.handled
    voiced.send(Press("ok"))
    assert voiced.loop.handled == handled + 1 and watcher not in voiced.loop.watchers
    assert "stopped (broken); the game goes on" in capsys.readouterr().err


def test_with_the_voice_off_nothing_is_said_and_holding_up_is_the_sessions(tmp_path, mocker):
    voiced = box(tmp_path, mocker, voice="off")
    voiced.play(DATA / "first_game_wakanda.txt")
    handled = voiced.loop.handled
    voiced.send(Hold("up"))
    assert voiced.loop.handled == handled + 1
    voiced.speaker.say.assert_not_called()


def test_turning_the_voice_off_silences_what_is_being_said(tmp_path, mocker):
    voiced = box(tmp_path, mocker, voice="everything")
    voiced.session.settings.change(voice="off")
    voiced.send(Press("down"))
    voiced.speaker.stop.assert_called_once()


def test_a_speaker_that_fails_is_dropped_and_the_game_goes_on(tmp_path, mocker, capsys):
    voiced = box(tmp_path, mocker)
    voiced.speaker.say.side_effect = RuntimeError("no sound card")
    voiced.loop.err = sys.stderr
    voiced.play(DATA / "first_game_wakanda.txt")
    assert voiced.session.game is not None and voiced.loop.watchers == []
    assert capsys.readouterr().err.count("Narrator stopped") == 1


# --- words for the ear ---------------------------------------------------------------------------

@pytest.mark.parametrize("lang, said", [("en", "rule double-u 4"), ("bg", "правило дубъл ве 4"),
                                        ("de", "Regel Te 10")])
def test_a_rule_number_is_said_in_words(lang, said):
    assert said in rule_words("W4 T10", lang)


def test_a_name_shortened_on_screen_is_said_whole_and_marks_are_not_said():
    assert for_the_ear("Konstant…: draw and scan ▲▼", ["Konstantinovich"]) == "Konstantinovich: draw and scan"
    assert for_the_ear("Eagle — W4") == "Eagle, rule double-u 4"


def test_every_language_has_an_espeak_voice():
    assert [voice_of(code) for code in ("en", "fr", "de", "es", "it", "nl", "pt", "bg")] == \
        ["en-gb", "fr-fr", "de", "es", "it", "nl", "pt", "bg"]
    assert {voice_of(code) for code in text.languages()}


# --- the setting and the configuration ---------------------------------------------------------

def test_the_voice_setting_turns_off_prompts_everything_and_is_kept(tmp_path, mocker):
    voiced = box(tmp_path, mocker, voice="off")
    session = voiced.session
    choose(session, "settings")
    assert "Voice: off" in session.view.choice.labels
    for shown in ("Voice: prompts", "Voice: everything", "Voice: off", "Voice: prompts"):
        choose(session, "voice")
        choice = session.view.choice
        assert choice.labels[choice.values.index("voice")] == shown
    assert session.view.footer == "Hold ▲: where we stand"
    assert json.loads((tmp_path / "data" / SETTINGS_FILE).read_text())["voice"] == "prompts"
    again, problem = SettingsStore.load(tmp_path / "data", voice="off", **KNOWN)
    assert problem is None and again.voice == "prompts"


def test_a_voice_the_settings_file_does_not_know_is_damage(tmp_path):
    (tmp_path / SETTINGS_FILE).write_text('{"version": 1, "voice": "loud"}')
    store, problem = SettingsStore.load(tmp_path, voice="everything", **KNOWN)
    assert store.voice == "everything" and "voice: one of off, prompts, everything" in problem


def test_the_configuration_holds_the_voice_its_speed_volume_and_device(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[voice]\nmode = "prompts"\nspeed = 140\nvolume = 80\ndevice = "plughw:1,0"\n')
    config = load_config(str(path), {"voice": "everything"})
    assert (config.voice, config.voice_speed, config.voice_volume, config.voice_device) == \
        ("everything", 140, 80, "plughw:1,0")
    assert Config().voice == "off"


@pytest.mark.parametrize("toml, says", [
    ('mode = "loud"', "voice.mode: 'loud' is not a voice mode"),
    ("speed = 20", "voice.speed: expected a whole number from 80 to 450, got 20"),
    ("volume = 1.5", "voice.volume: expected a whole number, got float 1.5"),
    ('device = "a\\u0007b"', "voice.device: expected an audio device name"),
])
def test_a_wrong_voice_key_is_one_line_naming_it(tmp_path, toml, says):
    path = tmp_path / "config.toml"
    path.write_text(f"[voice]\n{toml}\n")
    with pytest.raises(UserError) as error:
        load_config(str(path))
    assert says in str(error.value) and "\n" not in str(error.value)


def test_a_wrong_voice_on_the_command_line_is_a_usage_error_naming_the_option(tmp_path, capsys, monkeypatch):
    from companion.cli import main
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert main(["run", "--voice", "loud", "--data", str(tmp_path / "data"), "--display", "none"]) == 2
    assert "--voice: 'loud' is not a voice mode (allowed: off | prompts | everything)" in capsys.readouterr().err
