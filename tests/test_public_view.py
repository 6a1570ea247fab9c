"""The public view (issue 29): one filter decides what the phone page, its event stream and
the voice may show — whole games of both played with the page and the voice *everything*
on, at every step: no Totem Wars card is named before it is laid face up (T2, T4, T9), and
two Wakanda games that differ only in what the hidden hands hold show and say the same
(R2, W4). The OLED still shows the mover their own information."""

from __future__ import annotations

import io
import itertools
import json
import random
import re

import pytest
from box_helpers import choose, scan

from companion.engine import IllegalMove
from companion.events import Hold, Press, Tag, TagGone
from companion.games.totem_wars import ChooseTotems, deal, greedy_bot, random_bot
from companion.games.totem_wars.demo import TotemWarsPlayer
from companion.games.totem_wars.flow import totem_order
from companion.games.totem_wars.public import PUBLIC as TOTEM_WARS_PUBLIC
from companion.games.totem_wars.views import RoundView
from companion.games.totem_wars.words import animal_name, card_label
from companion.games.wakanda import Draw
from companion.games.wakanda.bots import greedy_bot as wakanda_greedy
from companion.games.wakanda.bots import random_bot as wakanda_random
from companion.games.wakanda.demo import TablePlayer, demo_tags
from companion.games.wakanda.setup import random_setup
from companion.table.app_loop import AppLoop
from companion.table.journal import CURRENT
from companion.table.public_view import public_view
from companion.table.registry import TagRegistry
from companion.table.session import Session
from companion.table.settings import SettingsStore
from companion.ui import text
from companion.ui.canvas import frame_words
from companion.voice.narrator import WHERE, Narrator
from companion.web.snapshot import snapshot

KNOWN = dict(games=("wakanda", "totem-wars"), languages=text.languages())


class Speaker:
    """A speaker that keeps what it is asked to say."""

    def __init__(self):
        self.said: list[str] = []

    def say(self, words: str, voice: str, **how: object) -> None:
        self.said.append(words)

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


class Screen:
    """A display that shows nothing."""

    def show(self, frame) -> int:
        return 0

    def close(self) -> None:
        pass


def session(tmp_path, lang: str, players=(), registry=None) -> Session:
    """A box with the voice on *everything*, in ``lang``."""
    data = tmp_path / "data"
    store, _ = SettingsStore.load(data, names=players, language=lang, voice="everything", **KNOWN)
    return Session(data, registry or TagRegistry(tmp_path / "tags.json"), settings=store,
                   rng=random.Random(1))


class Outputs:
    """What the page and the voice give anyone after each event: the page's value (what
    ``PhonePage`` serves and its stream sends, with the page on) and what the voice said,
    "Where are we?" asked each time."""

    def __init__(self):
        self.speaker = Speaker()
        self.narrator = Narrator(self.speaker)
        self.latest: dict = {}
        self.heard_up_to = 0  # what the speaker was asked to say before this step
        self.steps: list[tuple[str, str, str]] = []  # (view kind, page, voice)

    def watchers(self):
        return (self.narrator, self)

    def seen(self, session, out=None) -> None:
        """After the voice: the page's value, what the voice said, and "Where are we?"."""
        self.latest = snapshot(session, out.frame if out is not None else None)
        self.narrator.heard(session, WHERE)
        page = json.dumps(self.latest, ensure_ascii=False, sort_keys=True)
        self.steps.append((session.view.kind, page, " | ".join(self.speaker.said[self.heard_up_to:])))
        self.heard_up_to = len(self.speaker.said)

    def heard(self, session, event) -> bool:
        return False


# --- Totem Wars: no card face before it is laid face up ----------------------------------------

def _words(cards, lang: str) -> set[str]:
    return {animal_name(card.animal, lang).lower() for card in cards}


def named_hidden(game, view, outputs: str, lang: str) -> list[str]:
    """The names of cards not face up now (the totems once all are down, T2; a round's
    cards on its result pages, T9) found in ``outputs``: by their animal, or by their full
    label when a face-up card has the same animal."""
    face_up = {card for card in game.totems if card is not None}
    if isinstance(view, RoundView):
        face_up |= {card for placed in game.last_round.placed for card in placed}
    public = _words(face_up, lang)
    lowered = outputs.lower()
    found = []
    for card in set(game.deck.cards) - face_up:
        animal = animal_name(card.animal, lang).lower()
        if any(re.search(rf"\b{re.escape(animal)}\b", word) for word in public):
            name = card_label(card, lang).lower()  # an animal face up too: the card itself
        else:
            name = animal
        if re.search(rf"\b{re.escape(name)}\b", lowered):
            found.append(name)
    return found


class Watched(Screen):
    """The display of a demo player: after each event it shows, the page and the voice see
    the session as an app loop's watchers would, and the hidden cards are looked for."""

    def __init__(self, table: Session, lang: str):
        self.table, self.lang = table, lang
        self.outputs = Outputs()
        self.leaks: list[tuple[str, list[str], str]] = []
        self.steps = 0

    def show(self, frame) -> int:
        table = self.table
        for watcher in self.outputs.watchers():
            watcher.seen(table)
        kind, page, said = self.outputs.steps[-1]
        self.steps += 1
        if table.game is not None and table.game.phase != "over":
            found = named_hidden(table.game, table.view, page + said, self.lang)
            if found:
                self.leaks.append((kind, found, page + said))
        return 0


def play_totem_wars(tmp_path, seed: int, lang: str) -> Watched:
    """A whole small game of bots (greedy and random seats), a card now and then picked
    with the buttons, every frame watched."""
    rng = random.Random(seed)
    players = ("Ana", "Ben", "Cleo", "Dan")[:rng.choice((2, 3, 4))]
    dealer = rng.randrange(len(players))
    bots = [rng.choice((greedy_bot, random_bot)) for _ in players]
    table = session(tmp_path, lang, players)
    watched = Watched(table, lang)
    player = TotemWarsPlayer(table, rng, watched)
    player.choose("totem-wars")
    player.set_up(players, dealer)
    sim = deal(rng, players, dealer, table.game.deck)
    totems = ChooseTotems(tuple(bots[p](sim, rng).cards[p] for p in range(len(players))))
    for seat in totem_order(table.game):
        player.card(totems.cards[seat])
    sim.push(totems)
    player.turn_pages()
    while sim.game.phase != "over":
        move = bots[sim.game.to_move](sim, rng)
        player.play(move)
        sim.push(move)
        player.turn_pages()
    assert table.game.phase == "over" and table.game.history == sim.game.history
    return watched


@pytest.mark.parametrize("seed, lang", [(3, "en"), (5, "fr"), (8, "en")])
def test_a_whole_totem_wars_game_names_no_card_before_it_is_face_up(tmp_path, seed, lang):
    watched = play_totem_wars(tmp_path, seed, lang)
    kinds = {kind for kind, _, _ in watched.outputs.steps}
    assert {"totems", "board", "round", "score"} <= kinds and watched.steps > 100
    assert "menu" in kinds                                 # cards were picked with the buttons
    assert watched.leaks == []
    said = " ".join(watched.outputs.speaker.said)
    assert said                                             # the voice spoke all along


def test_a_card_picked_with_the_buttons_is_shown_on_the_oled_only(tmp_path):
    table = session(tmp_path, "en", ("Ana", "Ben"))
    outputs = Outputs()
    loop = AppLoop(table, Screen(), watchers=outputs.watchers())
    choose(table, "totem-wars")
    for value in (2, "Ana", "Ben", 0):
        for _ in range(70):
            if table.view.choice.value == value:
                break
            loop.deliver(Press("down"))
        loop.deliver(Press("ok"))
    for card in ("africans/lion", "indians/snake"):        # the totems, scanned
        loop.deliver(Press("up"))
        tribe, animal = card.split("/")
        for value in (tribe, table.game.deck.card(card)):
            while table.view.choice.value != value:
                loop.deliver(Press("down"))
            loop.deliver(Press("ok"))
    loop.deliver(Press("ok"))                               # past the deal reminder
    loop.deliver(Press("up"))                               # Ben picks a card with the buttons
    for _ in range(3):
        loop.deliver(Press("down"))
    assert table.screen == "menu" and "Aborigines" in " ".join(frame_words(table.frame()))
    loop.deliver(Press("ok"))
    assert "Caribou" in " ".join(frame_words(table.frame())) or table.view.choice.labels
    loop.deliver(Press("ok"))                               # a card: placed face down (T4)
    said = " ".join(outputs.speaker.said)
    pages = " ".join(page for _, page, _ in outputs.steps)
    # The totems' tribes (Africans, Indians) are face up (T2): the page's table names them.
    for word in ("Aborigines", "Eskimos", "Caribou", "Cockatoo", "Crocodile", "Dingo"):
        assert word not in said and f'"{word}' not in pages, word
    loop.deliver(Press("undo"))                             # taken off again: counted, not named
    assert "taken off" in " ".join(frame_words(table.frame()))
    shot = outputs.latest
    assert shot["note"] == "1 card taken off: not placed"
    assert "1 card taken off: not placed" in outputs.steps[-1][2]
    assert "Bear" not in outputs.steps[-1][1] + outputs.steps[-1][2]


def test_a_refusal_names_a_card_only_when_it_is_face_up(tmp_path):
    table = session(tmp_path, "fr", ("Ana", "Ben"))
    choose(table, "totem-wars")
    for value in (2, "Ana", "Ben", 0):
        choose(table, value)
    for card in ("africans/lion", "indians/snake"):         # the totems (T2)
        scan(table, card)
    table.handle(Press("ok"))
    scan(table, "indians/wolf")
    scan(table, "indians/wolf")                              # scanned already: face down (T4)
    assert "Loup" in " ".join(frame_words(table.frame()))    # the OLED names it
    with text.speaking("fr"):                                # as the page and the voice put it
        view = public_view(table.flow, table.view, TOTEM_WARS_PUBLIC)
        assert text.refusal_text(view.message) == "1 carte: déjà scannée — T4"
    scan(table, "indians/snake")                             # a totem: face up once all are down
    view = public_view(table.flow, table.view, TOTEM_WARS_PUBLIC)
    assert view.message.params["card"] == table.game.deck.card("indians/snake")


# --- Wakanda: two games that differ only in the hidden hands -----------------------------------

class Scanning(TablePlayer):
    """A player at the table who scans every piece (the list a village button opens depends
    on the hand, and is the OLED's only)."""

    def buttons(self) -> bool:
        return False


def wakanda_game(tmp_path, seed: int):
    """A whole game of two bots at the table, hands hidden: its set-up and the game."""
    rng = random.Random(seed)
    row = random_setup(rng, "open")
    tags = demo_tags()
    table = session(tmp_path / "bots", "en", ("Ana", "Ben"), TagRegistry(tmp_path / "bots.json", tags))
    player = Scanning(AppLoop(table, Screen()), tags, rng)
    player.set_up(("Ana", "Ben"), "open", row, 0)
    player.play((wakanda_greedy, wakanda_random), io.StringIO())
    return row, table.game


def twins(game):
    """Games with the same public moves as ``game`` (builds, claims, passes, how many
    pieces each hand holds) but two draws of one player swapped, so that the hands differ
    in between: each as (its moves, the two draws swapped)."""
    history = [move for _, move in game.history]
    start = game.copy()
    while start.history:
        start.pop()
    for i, first in enumerate(history):
        for k in range(i + 1, len(history)):
            second = history[k]
            if not (isinstance(first, Draw) and isinstance(second, Draw) and second.piece != first.piece
                    and game.history[i][0] == game.history[k][0]):
                continue
            swapped = list(history)
            swapped[i], swapped[k] = second, first
            played = start.copy()
            try:
                for move in swapped:
                    played.push(move)
            except IllegalMove:
                continue
            yield swapped, i, k
            break


def replay_wakanda(tmp_path, row, moves, lang: str) -> Outputs:
    """``moves`` played at the table (each piece scanned), every frame watched."""
    tags = demo_tags()
    table = session(tmp_path, lang, ("Ana", "Ben"), TagRegistry(tmp_path / "tags.json", tags))
    outputs = Outputs()
    player = Scanning(AppLoop(table, Screen(), watchers=outputs.watchers()), tags, random.Random(0))
    player.set_up(("Ana", "Ben"), "open", row, 0)
    for move in moves:
        if isinstance(move, Draw):
            player.draw(move)
        else:
            player.act(move)
    assert [move for _, move in table.game.history] == moves and table.game.phase == "over"
    assert not table.game.open_hands
    return outputs


@pytest.mark.parametrize("seed, lang", [(2, "en"), (7, "fr")])
def test_two_wakanda_games_that_differ_only_in_the_hidden_hands_show_and_say_the_same(tmp_path, seed, lang):
    row, game = wakanda_game(tmp_path, seed)
    # The twin whose hands differ the longest, among the first few found.
    twin, differs, same = max(itertools.islice(twins(game), 12), key=lambda found: found[2] - found[1])
    assert same - differs > 2
    real = replay_wakanda(tmp_path / "real", row, [move for _, move in game.history], lang)
    other = replay_wakanda(tmp_path / "twin", row, twin, lang)
    assert len(real.steps) == len(other.steps) > 100
    for step, (seen, also) in enumerate(zip(real.steps, other.steps)):
        assert seen == also, f"step {step}: the page or the voice tells the hands apart"
    assert real.speaker.said == other.speaker.said
    # Between the swapped draws the hands held other pieces: the OLED showed them.
    assert differs < len(twin) and twin[differs] != game.history[differs][1]


# --- Wakanda: what the mover alone sees -------------------------------------------------------

ROW = ("teepee", "eagle", "chief", "variety", "sun", "tomahawk")


def wakanda_box(tmp_path, lang="en", record=None):
    """A Wakanda game on a box with the page's value and the voice watched: a new one with
    hidden hands, or ``record``'s, resumed."""
    if record is not None:
        (tmp_path / "data").mkdir(parents=True)
        (tmp_path / "data" / CURRENT).write_text(record, encoding="utf-8")
    table = session(tmp_path, lang)
    outputs = Outputs()
    loop = AppLoop(table, Screen(), watchers=outputs.watchers())
    if record is not None:
        choose(table, "resume")
    else:
        choose(table, "wakanda"); choose(table, "open")
        for village in ROW:
            scan(table, f"village:{village}")
        choose(table, 0)
    assert table.screen == "board"
    return table, loop, outputs


def scanned(loop, item):
    loop.deliver(Tag(item)); loop.deliver(TagGone(item))


def words(outputs) -> str:
    """The page's words (its table aside: the villages are named by their tiles) and the
    voice's, at the last step."""
    shot = outputs.latest
    return json.dumps([shot[key] for key in ("title", "lines", "note", "done")]) + outputs.steps[-1][2]


def test_a_wakanda_draw_and_the_hand_it_goes_to_are_the_oleds_only(tmp_path):
    table, loop, outputs = wakanda_box(tmp_path)
    scanned(loop, "sun")                                    # Player 1 draws a sun
    assert "Player 1 drew sun" in " ".join(frame_words(table.frame()))
    assert outputs.latest["done"] == "Player 1 drew a piece" and "Player 1 drew a piece" in outputs.steps[-1][2]
    assert "sun" not in words(outputs).lower()
    assert [player["hand"] for player in outputs.latest["table"]["players"]] == [None, None]
    assert [player["hand_size"] for player in outputs.latest["table"]["players"]] == [1, 0]
    loop.deliver(Press("undo"))                             # the question names the draw on the OLED
    assert table.screen == "confirm" and "Player 1 drew sun" in " ".join(frame_words(table.frame()))
    assert outputs.latest["lines"] == ["Player 1 drew a piece"] and "sun" not in words(outputs).lower()
    loop.deliver(Press("ok"))                               # taken back: into the bag again
    assert "sun back in the bag" in " ".join(frame_words(table.frame()))
    assert outputs.latest["note"] == "Taken back: Player 1 drew a piece" and "sun" not in words(outputs).lower()


def test_the_list_of_the_movers_pieces_and_the_coachs_tips_are_the_oleds_only(tmp_path):
    table, loop, outputs = wakanda_box(tmp_path)
    for item, village in (("sun", "v1"), ("skin", "v2")):
        scanned(loop, item); loop.deliver(Press(village))
    scanned(loop, "sun"); loop.deliver(Hold("v1"))          # Player 1 claims 1 and keeps a sun
    scanned(loop, "teepee"); loop.deliver(Press("v3"))
    scanned(loop, "chief")                                  # Player 1 holds a sun and a chief
    said = len(outputs.speaker.said)
    loop.deliver(Press("v2"))                               # which piece? (the OLED's list)
    assert table.screen == "picker" and {"chief", "sun"} <= set(table.view.choice.labels)
    shot = outputs.latest
    assert (shot["title"], shot["lines"], shot["note"]) == (None, [], None)
    where = outputs.speaker.said[-1]
    assert outputs.speaker.said[said:] == [where] and where.startswith("Player 1 to play")  # nothing else
    assert "chief" not in where.lower()
    loop.deliver(Press("back"))
    loop.deliver(Press("hint"))                             # the coach's tips: the OLED's only
    assert table.view.kind == "hint" and frame_words(table.frame())
    shot = outputs.latest
    assert (shot["title"], shot["lines"], shot["note"], shot["done"]) == (None, [], None, None)


def test_with_open_hands_the_page_shows_every_hand_and_every_draw(tmp_path):
    record = ('{"game": "wakanda", "players": ["Ana", "Ben"], "villages": ["teepee", "eagle", "chief", '
              '"variety", "sun", "tomahawk"], "first": 0, "open_hands": true}\n')
    table, loop, outputs = wakanda_box(tmp_path, "fr", record)
    assert table.game.open_hands
    scanned(loop, "sun")
    assert outputs.latest["done"] == table.view.done and "soleil" in table.view.done.lower()
    assert outputs.latest["table"]["players"][0]["hand"] == [["Soleil", 1]]
    assert outputs.latest["table"]["players"][1]["hand"] == []
