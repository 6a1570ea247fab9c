"""Every word the screens and the table's flows show players, in one place, with a
dict-based translation hook.

``t(key, **fields)`` looks the key up in the current language, falls back to English, and
fills ``{fields}``. A language is a plain dict of the keys it translates; add one with
``add_language`` (the bundled fonts cover Latin and Cyrillic). Bulgarian is in
``text_bg.py``. Rule numbers (W4, T5, R3 …) are written inside the texts and stay the same
in every language: players look them up in the rulebook — except in refusals.

A refusal (``companion.engine.Refusal``: a key, raw parameters, a rule) is put into words
by ``refusal_reason`` / ``refusal_text`` from ``refusal.<key>``; its text holds no rule
number (the rule is a field of its own) and puts raw values into words with
``{field:kind}`` (``WORD_KINDS``: a piece kind, a card, a number of cards …).

>>> t("wins", name="Ana")
'Ana wins'
>>> t("wins", lang="bg", name="Ана")
'Ана печели'
"""

from __future__ import annotations

import string
from typing import TYPE_CHECKING

from companion.ui.text_bg import BULGARIAN

if TYPE_CHECKING:
    from companion.engine import Refusal

ENGLISH: dict[str, str] = {
    # Piece types and village tiles (W1), as full names and as 3-letter tile labels.
    "piece.eagle": "Eagle", "piece.chief": "Chief", "piece.tomahawk": "Tomahawk",
    "piece.skin": "Skin", "piece.teepee": "Teepee", "piece.sun": "Sun",
    "village.variety": "Variety", "village.height": "Height",
    "tile.eagle": "EAG", "tile.chief": "CHF", "tile.tomahawk": "TOM", "tile.skin": "SKN",
    "tile.teepee": "TEE", "tile.variety": "VAR", "tile.height": "HGT", "tile.sun": "SUN",
    "tile.hidden": "?",
    # The board header.
    "phase.draw": "draw", "phase.action": "play", "phase.reveal": "reveal",
    "phase.over": "game over",
    # Score pages (W7-W9, R6).
    "wins": "{name} wins", "shared": "Shared win", "score.provisional": "Score so far",
    "why.higher": "Higher total (W9)",
    "why.tie_third": "Tie: {name} placed the third headdress first (W9)",
    "why.early": "Higher total (W9); ended early: both players passed (R6)",
    "why.only_third": "Tie: only {name} placed a third headdress (R6)",
    "why.shared": "Equal totals, no third headdress placed (R6)",
    "score.no_village": "no village",
    "score.sun_penalty": "Sun penalty (W8)",
    "score.total": "Total",
    "page": "{n}/{of}",
    # Shared prompts and footers.
    "confirm.footer": "OK yes · BACK no",
    "nav.footer": "▲▼ choose · OK",
    "scan_tile": "Scan village tile {n}",
    "or_buttons": "or ▲▼ then OK",
    "setup.title": "Set-up",

    # --- The table (companion/table/) ------------------------------------------------------
    # Start menu and the session's notes.
    "menu.new": "New: {title}",
    "menu.resume": "Resume {a} v {b}",
    "menu.resume_more": "Resume {name} +{more}",
    "menu.choose_first": "Choose a game first: ▲▼ then OK",
    "session.reader_on": "Reader connected",
    "session.reader_off": "Reader unplugged: go on with the buttons",
    "session.unknown_tag": "Unknown tag — enroll it",
    "session.finished": "Finished game kept",
    "session.unreadable": "Unfinished game unreadable: kept aside on New game",
    "session.cannot_resume": "Cannot resume: {reason}",
    "session.nothing_to_resume": "No unfinished game to resume",
    # Shared by both games: set-up, undo, leaving, the card picker.
    "setup.first": "Set-up first: ▲▼ then OK",
    "setup.player": "Player {n}",
    "undo.question": "Take back?",
    "undo.nothing": "Nothing to take back yet",
    "undo.done": "Taken back: {what}",
    # The notes on replayed frames (``replay``): what a record's header or line did.
    "replay.set_up": "{names}: set up",
    "replay.dealt": "{names}: set up, {dealer} deals",
    "replay.totems_down": "All totems are down",
    "save.not_played": "Cannot save the game: not played",
    "save.not_taken_back": "Cannot save the game: nothing taken back",
    "start.by_lot": "Drawn by lot: {name} starts",
    "wrong_game": "{item}: this game is {game}",
    "items.wakanda": "A Wakanda piece", "items.totem_wars": "A Totem Wars card",
    "game.wakanda": "Wakanda", "game.totem_wars": "Totem Wars",
    # Only confirmed actions are in the journal: what was scanned and not yet confirmed
    # when the box went off must be scanned again.
    "resumed.wakanda": "Game resumed: rescan a piece not yet placed",
    "resumed.totem_wars": "Game resumed: rescan cards not yet confirmed",
    "leave.question": "Leave this game?",
    "leave.detail": "It is kept: resume it from the menu",
    "picker.footer": "▲▼ · OK · BACK",
    # Wakanda set-up (W2, W3, W10); a seat is named by its headdress.
    "headdress.wings": "Wings", "headdress.crests": "Crests",
    "setup.who": "{headdress}: who?",
    "setup.variant": "Variant",
    "setup.open": "Open: all tiles up",
    "setup.hidden": "Hidden: 4-6 down",
    "setup.scan_tile": "Scan tile {n} of {of}",
    "setup.who_starts": "Who starts?",
    "setup.lots": "Draw lots",
    "setup.not_tile": "Not a village tile",
    "setup.tiles_next": "Tiles come next: ▲▼ then OK here first",
    "setup.tile_twice": "{village} is tile {n} already",
    # Wakanda play: what a move did (undo question, notes); {piece}, {village} in lower case.
    "play.turned_up": "village {n} turned up: {village}",
    "play.drew": "{name} drew {piece}",
    "play.built": "{name} built {piece} on village {n}",
    "play.claimed": "{name} claimed village {n}",
    "play.passed": "{name} passed",
    "play.passed_r3": "{name} passed: no move possible (R3)",
    # Wakanda play: moves in the picker, its titles, prompts and refusals.
    "move.build": "Build {piece} on {n}",
    "move.claim": "Claim village {n}",
    "move.pass": "Pass",
    "play.drew_title": "{name} drew:",
    "play.village_is": "Village {n} is:",
    "play.move_title": "{name}'s move",
    "play.on_village": "On village {n}:",
    "play.press_claim": "{headdress}: press the village to claim",
    "play.press_village": "{piece}: press its village",
    "play.press_now": "Now press the village's button",
    "play.turn_up": "Turn up village {n}: scan it or OK",
    "refusal.no_move": "no move possible: press OK to pass",
    "play.on_pole": "That {piece} is on village {n} already",
    "play.drawn_already": "{piece} drawn already: draw another piece",
    "refusal.not_in_hand": "no {piece:piece} in {name}'s hand",
    "refusal.not_yours": "{headdress:headdress} are {owner}'s; it is {mover}'s turn",
    "refusal.no_headdress": "{name} has no headdress left",
    "play.tile_is": "The {village} tile is village {n}",
    "refusal.face_down": "face-down tiles turn up after a claim",
    "play.tile_absent": "The {village} tile is not in this game",
    "play.hand_empty": "Hand empty: hold a village button to claim",

    # --- Totem Wars ------------------------------------------------------------------------
    # Set-up (T1a, T2, T16).
    "tw.setup.players": "Totem Wars: players",
    "tw.setup.count": "{n} players",
    "tw.setup.seat": "Seat {n} (clockwise)",
    "tw.setup.dealer": "Who deals?",
    "tw.setup.deck": "Which deck?",
    "tw.setup.default_deck": "Default deck",
    "tw.setup.big_on": "Big game goes on (T16)",
    "tw.setup.big_new": "New big game (T16)",
    "refusal.bad_deck": "{deck}: not valid",
    # Cards: tribes and habitats (T1), full and as 3-letter column labels; the animals of
    # the default deck (another deck's animals show as its file writes them).
    "tribe.aborigines": "Aborigines", "tribe.africans": "Africans",
    "tribe.eskimos": "Eskimos", "tribe.indians": "Indians",
    "tribe.aborigines.short": "ABO", "tribe.africans.short": "AFR",
    "tribe.eskimos.short": "ESK", "tribe.indians.short": "IND",
    "habitat.water": "water", "habitat.land": "land", "habitat.air": "air",
    "habitat.water.short": "WAT", "habitat.land.short": "LND", "habitat.air.short": "AIR",
    **{f"animal.{a}": a.replace("_", " ").capitalize() for a in (
        "bear", "beaver", "buffalo", "caribou", "cockatoo", "coyote", "crocodile", "deer",
        "dingo", "eagle", "elephant", "emu", "flamingo", "fox", "giraffe", "goanna", "gorilla",
        "hare", "hawk", "hippo", "kangaroo", "koala", "kookaburra", "leopard", "lion",
        "narwhal", "orca", "ostrich", "owl", "platypus", "polar_bear", "raven", "salmon",
        "seal", "shark", "snake", "turtle", "vulture", "walrus", "whale", "wolf", "zebra")},
    "tw.card": "{animal} ({tribe})",
    "tw.tribe_title": "{tribe}:",
    "cards.one": "{n} card", "cards.many": "{n} cards",
    # Why a scanned card cannot be in a hand (T1a, T2, T4, T9, R4): the table's short forms
    # (card_picker.card_problem); the engine's longer ones are with the refusals below.
    "refusal.card.not_in_deck": "{card} is not a card of this game's deck",
    "refusal.card.scanned": "{card:card} is scanned already",
    "refusal.card.totem": "{card:card} is a totem",
    "refusal.card.on_table": "{card:card} is on the table already",
    "refusal.card.taken": "{card:card} was taken",
    "refusal.card.left": "{card:card} left the game",
    # Play: totems, placements, undo.
    "tw.totem_of": "{name}'s totem",
    "tw.placed": "{name} placed {cards}",
    "tw.places": "{name} places",
    "tw.raises": "{name} raises to {level} (T5)",
    "refusal.no_card": "no card {name} in this game's deck",
    "refusal.totem_down": "that card is down as a totem already",
    "tw.taken_off": "{card} taken off: not placed",
    "tw.over": "The game is over: OK for the score",
    # Screens: the totems (T2) and the deal reminder (T3).
    "tw.totems.title": "Lay your totems",
    "tw.totems.scan": "Scan your totem card",
    "tw.totems.now": "scan now",
    "tw.totems.down": "down",
    "tw.deal.title": "Totems are down",
    "tw.deal.dealer": "{name}, deal",
    "tw.deal.more": "1 more card each",
    "tw.deal.from": "from {name} (T2), then OK",
    "tw.deal.starts": "{name} starts (T3)",
    # Screens: the round board; what to place (T4-T6, T14) before " (", so the short form
    # beside the name can drop the parenthesis.
    "tw.board.round": "R{n}", "tw.board.level": " L{level}",
    "tw.board.last": "Last: all {n} (T14)",
    "tw.board.start": "Start: 1 to {n} cards",
    "tw.board.answer": "Answer: {cards}",
    "tw.board.all_in": "All in: {cards}",
    "tw.board.place": "Place {cards}",
    "tw.board.raise": "{level}+ cards ({next} raises)",
    "tw.board.scanned": "{n} scanned · OK to place",
    "tw.board.scan": "Scan cards, then OK",
    "tw.game_over": "Game over",
    "tw.ok_score": "OK: the score",
    # Screens: a round's result (T9-T14, R1-R4).
    "tw.round": "Round {n}",
    "tw.round.war": " · war!",
    "tw.round.war_points": "war",
    "tw.round.takes": "{name} takes {cards} ({rule})",
    "tw.round.removed": "No winner 3 times: {cards} leave ({rule})",
    "tw.round.under": "No winner: {cards} under the deck ({rule})",
    "tw.round.points": "{name}: {points} pts",
    "tw.round.war_of": "War: {name} {points}",
    "tw.round.totem": "totem: {habitat} (T11)",
    "tw.round.no_refill": "Deck empty: no refill (T14)",
    "tw.round.refill": "Deal {parts}",
    "tw.round.refill_to": "{n} to {name}",
    "tw.round.starts": "{name} starts",
    "tw.round.deck_left": "deck: {n} left",
    # Screens: the end (T15) and the big game (T16).
    "tw.end.taken": "Totem + own tribe",
    "tw.end.taken_rule": "totem 1 + own tribe (T15)",
    "tw.big.title": "Big game to {target}",
    "tw.big.next": "Next: {name} deals (T16)",
    "tw.big.wins": "{name} wins (T16)",
    "tw.big.unavailable": "Totals unavailable: see the data folder",

    # --- Transcribing a deck (enroll --transcribe, T1a) -------------------------------------
    "deck.title": "Deck {n}/{of}",
    "deck.done_title": "Deck",
    "deck.tribe": "Tribe?", "deck.animal": "Animal?", "deck.habitats": "Habitats?",
    "deck.scan_next": "Scan the next card",
    "deck.scan_n": "Scan card {n} of {of}",
    "deck.keep_footer": "OK keep · ▲▼ change",
    "deck.not_tag": "'{token}' is not a tag: scan the card's tag",
    "deck.this_first": "OK or ▲▼ this card first",
    "deck.known": "{uid} is {name} already in this deck",
    "deck.dropped": "Scan dropped",
    "deck.twice": "{card} is in the deck already (T1a): ▲▼ change",
    "deck.tribe_full": "{tribe} has {n} cards already (T1a)",
    "deck.kept": "{card} kept ({n}/{of})",
    "deck.cards_kept": "{n} cards kept",
    "deck.written": "Deck written: {file}, {n} cards",
    "deck.stopped": "Stopped at {n}/{of}: scan again to go on later",

    # --- Refusals of the rules engines (companion.engine.IllegalMove) -----------------------
    # ``refusal.<key>``: the reason without its rule (a separate field, cited on screen as
    # " — W4" and in records as " (W4)"); the English ones are the lines of records and the
    # command line, so they keep their wording. Fields are raw values; ``{x:kind}`` puts one
    # into words (see ``refusal_reason``): ``{piece:piece}`` eagle, ``{card:card}`` Snake
    # (Indians), ``{n:cards}`` 3 cards; a plain ``{card}`` is its name, indians/snake.
    # Both games.
    "refusal.game_over": "the game is over",
    "refusal.nothing_to_undo": "nothing to undo",
    # Wakanda (W1-W10, R1); {village} is a village's number, {tile} a tile's name.
    "refusal.not_your_turn": "it is {name}'s turn",
    "refusal.turn_up_first": "village {village} must be turned up first",
    "refusal.no_reveal": "no tile to reveal now",
    "refusal.unknown_piece": "unknown piece {piece!r}",
    "refusal.one_draw": "one draw a turn: now build or claim",
    "refusal.bag_empty": "the bag is empty: build or claim without drawing",
    "refusal.none_in_bag": "no {piece:piece} left in the bag",
    "refusal.draw_first": "draw first: the bag is not empty",
    "refusal.empty_pole": "the pole is empty: a claim needs a piece",
    "refusal.no_pass": "no passing while a move is possible",
    "refusal.not_wakanda_move": "not a Wakanda move: {move!r}",
    "refusal.no_such_village": "there is no village {village}: villages are 1 to {last}",
    "refusal.not_open": "village {village} is not open yet",
    "refusal.claimed": "village {village} is already claimed",
    "refusal.unknown_village": "unknown village {tile!r}",
    "refusal.tile_in_row": "the {tile:village} tile is already in the row",
    # Totem Wars (T1a-T15, R4); {card} is a card, {name} a player's name.
    "refusal.totems_first": "every player lays a totem before the first round",
    "refusal.totems_laid": "the totems are already down",
    "refusal.not_totem_wars_move": "not a Totem Wars move: {move!r}",
    "refusal.one_totem_each": "one totem per player: {players} cards, not {given}",
    "refusal.holds_only": "{name} holds only {hand:cards}",
    "refusal.last_places_all": "{name} is the last player with cards and places all {hand}",
    "refusal.answer_exactly": "{name} answers with exactly {count:cards}",
    "refusal.starter_places_one": "the starter places at least 1 card",
    "refusal.all_in": "{name} holds fewer than {level} cards and places all {hand}",
    "refusal.at_least_level": "place at least {level} cards, the level of this round",
    "refusal.no_cards_named": "no cards named",
    "refusal.not_in_deck": "{card} is not a card of this deck",
    "refusal.named_twice": "{card} is named twice",
    "refusal.totem_card": "{card} is a totem; it stays on the table all game",
    "refusal.on_table": "{card} is already on the table",
    "refusal.taken_card": "{card} was taken; it is in a pile of taken cards",
    "refusal.out_of_game": "{card} left the game",
}

_LANGUAGES: dict[str, dict[str, str]] = {"en": ENGLISH, "bg": BULGARIAN}
_current = "en"


def add_language(lang: str, strings: dict[str, str]) -> None:
    """Register (or extend) language ``lang``; keys it lacks fall back to English."""
    _LANGUAGES.setdefault(lang, {}).update(strings)


def set_language(lang: str) -> None:
    """Make ``lang`` the language of every screen from now on."""
    if lang not in _LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(sorted(_LANGUAGES))})")
    global _current
    _current = lang


def languages() -> tuple[str, ...]:
    """The codes of the languages the screens can show."""
    return tuple(sorted(_LANGUAGES))


def language() -> str:
    """The current language code."""
    return _current


def t(key: str, lang: str | None = None, **fields: object) -> str:
    """The text for ``key`` in ``lang`` (default: the current language), fields filled in."""
    strings = _LANGUAGES[lang or _current]
    template = strings.get(key) or ENGLISH[key]
    return template.format(**fields) if fields else template


def piece_name(piece: str, lang: str | None = None) -> str:
    """A piece type's or village's name for players (``Eagle``, ``Variety``)."""
    key = f"piece.{piece}" if f"piece.{piece}" in ENGLISH else f"village.{piece}"
    return t(key, lang)


def tile_label(village: str | None, lang: str | None = None) -> str:
    """The short label printed under a village's pole; ``?`` for a face-down tile."""
    return t(f"tile.{village}" if village else "tile.hidden", lang)


def cards(count: int, lang: str | None = None) -> str:
    """A number of cards: ``1 card``, ``3 cards``."""
    return t("cards.one" if count == 1 else "cards.many", lang, n=count)


def animal_name(animal: str, lang: str | None = None) -> str:
    """An animal of a Totem Wars card as players read it (``Polar bear``): the default
    deck's animals in ``lang``, another deck's as its file writes them (``_`` as a space)."""
    key = f"animal.{animal}"
    if key in ENGLISH:
        return t(key, lang)
    label = animal.replace("_", " ")
    return label[:1].upper() + label[1:]


def card_label(card, lang: str | None = None) -> str:
    """A Totem Wars card as players read it: ``Snake (Indians)``, ``Змия (Индианци)``
    (anything with a ``tribe`` and an ``animal``)."""
    return t("tw.card", lang, animal=animal_name(card.animal, lang),
             tribe=t(f"tribe.{card.tribe}", lang))


def _named(prefix: str, value: object, lang: str) -> str:
    """The name under ``prefix.<value>`` inside a sentence (lower case); a value the
    catalogue does not know, as it is."""
    key = f"{prefix}.{value}"
    return t(key, lang).lower() if key in ENGLISH else str(value)


def _piece_words(value: object, lang: str) -> str:
    key = "piece" if f"piece.{value}" in ENGLISH else "village"
    return _named(key, value, lang)


def _card_words(value, lang: str) -> str:
    return card_label(value, lang) if hasattr(value, "tribe") and hasattr(value, "animal") else str(value)


#: How a refusal's text puts a raw value into words: ``{field:kind}`` calls
#: ``WORD_KINDS[kind](value, lang)``. Any other format spec (or none) formats as usual, and
#: ``!r`` gives the value as written (``unknown piece 'bison'``).
WORD_KINDS = {
    "piece": _piece_words,                                      # "eagle" → eagle, орел
    "village": _piece_words,                                    # "variety" → variety, разнообразие
    "headdress": lambda value, lang: _named("headdress", value, lang),   # "wings" → wings, крила
    "tribe": lambda value, lang: t(f"tribe.{value}", lang),     # "indians" → Indians, Индианци
    "habitat": lambda value, lang: t(f"habitat.{value}", lang),  # "land" → land, суша
    "card": _card_words,                                        # Card → Snake (Indians)
    "cards": lambda value, lang: cards(value, lang),            # 3 → 3 cards, 3 карти
}


class _Words(string.Formatter):
    """``str.format`` plus the ``{field:kind}`` specs of ``WORD_KINDS``, in one language."""

    def __init__(self, lang: str):
        self.lang = lang

    def format_field(self, value: object, format_spec: str) -> str:
        kind = WORD_KINDS.get(format_spec)
        return kind(value, self.lang) if kind else super().format_field(value, format_spec)


def refusal_reason(refusal: Refusal, lang: str | None = None) -> str:
    """Why a move was refused, in ``lang`` (default: the current language), without the
    rule; the first letter as the catalogue writes it (``refusal.<key>``, falling back to
    English). ``KeyError`` for a key the catalogue lacks.

    >>> from companion.engine import Refusal
    >>> refusal_reason(Refusal("none_in_bag", {"piece": "eagle"}, "W4"))
    'no eagle left in the bag'
    >>> refusal_reason(Refusal("none_in_bag", {"piece": "eagle"}, "W4"), "bg")
    'в торбата вече няма орел'
    """
    lang = lang or _current
    key = f"refusal.{refusal.key}"
    template = _LANGUAGES[lang].get(key) or ENGLISH[key]
    return _Words(lang).vformat(template, (), refusal.params)


def refusal_text(refusal: Refusal, lang: str | None = None) -> str:
    """A refusal as a screen shows it: the reason capitalised, `` — RULE`` after it when
    there is a rule.

    >>> from companion.engine import Refusal
    >>> refusal_text(Refusal("not_open", {"village": 5}, "W4"))
    'Village 5 is not open yet — W4'
    >>> refusal_text(Refusal("nothing_to_undo"), "bg")
    'Няма какво да се отмени'
    """
    reason = refusal_reason(refusal, lang)
    text = reason[:1].upper() + reason[1:]
    return f"{text} — {refusal.rule}" if refusal.rule else text
