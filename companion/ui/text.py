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

from companion.files import shown
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
    # Wakanda's review page after a game with hints (companion/games/wakanda/review.py): the
    # columns' heads (a move is drawn as icons), the footer (25 characters at most).
    "review.title": "{name}: review",
    "review.turn": "Turn", "review.played": "Played", "review.better": "Better",
    "review.points": "Pts",
    "review.pass": "pass",
    "review.footer": "Pts: est. more at the end",
    "review.none": "No clear loss",
    "review.judged": "{n} moves looked at",
    "review.busy": "Reviewing…",
    "review.progress": "{done} of {of} moves",
    "review.busy_footer": "Shown here when ready",
    "review.failed": "No review this time",
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
    "menu.resume": "Resume {title}",
    "menu.resume_players": "{a} v {b}",
    "menu.settings": "Settings",
    "menu.choose_first": "Choose a game first: ▲▼ then OK",
    "session.reader_on": "Reader connected",
    "session.reader_off": "Reader unplugged: go on with the buttons",
    "session.unknown_tag": "Unknown tag — enroll it",
    "session.no_such_item": "No piece, tile or card is called '{name}'",
    "session.finished": "Finished game kept",
    "session.unreadable": "Unfinished game unreadable: kept aside on New game",
    "session.cannot_resume": "Cannot resume: {reason}",
    "session.nothing_to_resume": "No unfinished game to resume",
    "session.set_aside": "Unreadable game set aside",
    "session.dropped": "Bad line {line} dropped",
    "session.settings_damaged": "Damaged settings ignored",
    # The terminal's last line when the simulator quits with a game unfinished.
    "quit.kept": "Game kept: the next start offers to resume it",
    # The settings page (companion/table/settings_flow.py); a value follows each label.
    "settings.title": "Settings",
    "settings.footer": "▲▼ choose · OK change",
    "settings.names": "Names: {names}",
    "settings.no_names": "Names: none yet",
    "settings.language": "Language: {name}",
    "language.name": "English",
    "settings.sound_on": "Sound: on", "settings.sound_off": "Sound: off",
    "settings.hints_on": "Hints: on", "settings.hints_off": "Hints: off",
    "settings.hints_about": "Move hints, in new games",
    "settings.not_saved": "Not kept after a restart",
    "settings.buttons": "Use the buttons: ▲▼, OK",
    "settings.names_title": "Names",
    "settings.new_name": "New name…",
    "settings.forget_footer": "OK: forget this name",
    "settings.forget": "Forget {name}?",
    "settings.forget_detail": "The set-ups stop offering this name",
    "settings.forgotten": "{name} forgotten",
    "settings.added": "{name} added",
    # Spelling a name with the buttons: the letters on the wheel, in order.
    "speller.title": "New name",
    "speller.letters": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "speller.space": "space",
    "speller.done": "Done",
    "speller.footer": "▲▼ · OK add · BACK delete",
    "speller.done_footer": "OK: keep the name",
    "speller.full": "{n} letters at most",
    "speller.letter_first": "Start with a letter",
    "speller.empty": "Spell a name first",
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
    "save.partly_taken_back": "Cannot save the game: {n} of {of} moves taken back",
    "start.by_lot": "Drawn by lot: {name} starts",
    "wrong_game": "{item}: this game is {game}",
    "items.wakanda": "A Wakanda piece", "items.totem_wars": "A Totem Wars card",
    "game.wakanda": "Wakanda", "game.totem_wars": "Totem Wars",
    # Only confirmed actions are in the journal: what was scanned and not yet confirmed
    # when the box went off must be scanned again.
    "resumed.wakanda": "Game resumed: turn {turn}, {name} to play",
    "resumed.wakanda_box": "Game resumed, turn {turn}. {ask}",
    "resumed.totem_wars": "Game resumed: round {round}, {name} to play",
    "resumed.totem_wars_totems": "Game resumed: scan the totems (T2)",
    "leave.question": "Leave this game?",
    "leave.detail": "It is kept: resume it from the menu",
    "picker.footer": "▲▼ · OK · BACK",
    # The why-pages (HINT: the rule behind the screen); their texts are each game's own
    # (companion/games/<game>/rule_pages.py).
    "rules.footer": "▲▼ more · OK back",
    "rules.footer_one": "OK back",
    # ... and, when HINT gives a tip next (companion/table/hint_pages.py), what it gives.
    "rules.footer_then": "▲▼ more · {then}",
    # The hint button's tips on the board: the footer says what the next HINT gives (a
    # line of 25 characters at most), the tip number first when there are several.
    "hint.footer": "{n}/{of} · {then}",
    "hint.footer_one": "{then} · OK back",
    "hint.then.next": "HINT: next move",
    "hint.then.rule": "HINT: the rule",
    "hint.then.move": "HINT: a move",
    "hint.then.advice": "HINT: what now",
    # What to do when no choice is due (chance: a draw, a tile to turn up).
    "hint.now.draw": "No choice yet: draw a piece from the bag and scan it",
    "hint.now.reveal": "No choice yet: turn up village {n} and scan it",
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
    # Playing against the box (box_player.py): a seat it plays, its level (the search's
    # LEVELS, weakest first), its name on screens and in the record.
    "setup.the_box": "The box",
    "setup.open_box": "Open, vs the box",
    "setup.hidden_box": "Hidden, vs the box",
    "setup.box_level": "Box: how strong?",
    "level.easy": "Easy", "level.baseline30": "Medium", "level.standard": "Hard",
    "level.strong": "Strongest",
    "box.name": "Box",
    # Wakanda on the settings page: the variant offered first (W10), the R1 house rule.
    "settings.wakanda.variant": "Variant: {value}",
    "settings.wakanda.variant_about": "Wakanda set-up (W10)",
    "settings.wakanda.open": "open", "settings.wakanda.hidden": "hidden",
    "settings.wakanda.empty_claim": "Empty claim: {value}",
    "settings.wakanda.empty_claim_about": "Wakanda house rule (R1)",
    "settings.wakanda.when_stuck": "at end", "settings.wakanda.never": "never",
    "settings.wakanda.always": "always",
    # Wakanda play: what a move did (undo question, notes); {piece}, {village} in lower case.
    "play.turned_up": "village {n} turned up: {village}",
    "play.drew": "{name} drew {piece}",
    "play.built": "{name} built {piece} on village {n}",
    "play.claimed": "{name} claimed village {n}",
    "play.passed": "{name} passed: no move (R3)",
    # The confirmation of an action when the name makes it too long for the band's line.
    "done.drew": "Drew {piece}", "done.built": "{piece} on village {n}",
    "done.claimed": "Claimed village {n}", "done.passed": "Passed: no move (R3)",
    # What the player to move does now (W4): the long form alone, the short one under the
    # confirmation of the last action.
    "prompt.draw": "{name}: draw a piece from the bag and scan it",
    "prompt.draw.short": "{name}: draw and scan",
    "prompt.act": "{name}: build a piece or claim a village",
    "prompt.act.short": "{name}: build or claim",
    "prompt.pass": "{name} has no move: press OK to pass (R3)",
    "prompt.pass.short": "No move: OK to pass (R3)",
    # What to undo on the table when the box takes an action back.
    "undo.to_bag": "Taken back: put the {piece} back in the bag",
    "undo.to_hand": "Taken back: {piece} off village {n}, to the hand",
    "undo.headdress_off": "Taken back: the headdress off village {n}",
    "undo.face_down": "Taken back: village {n} face down again",
    # The status page (DOWN on the board).
    "status.title": "Status", "status.turn": "turn {n}", "status.points": "Points",
    "status.hand": "Hand", "status.bag": "Bag: {n} pieces",
    # Wakanda play: moves in the picker, its titles, prompts and refusals.
    "move.build": "Build {piece} on {n}",
    "move.claim": "Claim village {n}",
    "move.pass": "Pass",
    "play.drew_title": "{name} drew:",
    "play.village_is": "Village {n} is:",
    "play.move_title": "{name}'s move",
    "play.on_village": "On village {n}:",
    "play.press_claim": "Claim with the {headdress}: press a village button",
    "play.press_village": "Build the {piece}: press a village button",
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
    # The box's turn: what it asks the players to do for it ({piece}, {headdress} in lower
    # case), the long form alone, the short one under the confirmation of the last action.
    "box.draw": "Draw for me and scan the piece",
    "box.draw.short": "Draw for me, scan it",
    "box.build": "I build {piece} on village {n}: place it",
    "box.build.short": "Place my {piece} on {n}",
    "box.claim": "I claim village {n}: put the {headdress} on it",
    "box.claim.short": "Put my {headdress} on {n}",
    "box.press": "Now press village {n}",
    "refusal.box_build": "not that: I build {piece:piece} on village {n}",
    "refusal.box_claim": "not that: I claim village {n} with the {headdress:headdress}",
    # Taking back the box's move takes back the player's move before it too ({what}: the
    # short confirmation of that move); then what to put back, a part each, in one line:
    # "Crests off 2, sun to bag, tomahawk off 2" (a piece off a pole goes to its hand).
    "box.undo": "{what}, and my reply",
    "box.undo_start": "My moves, back to the start",
    "undo.part.bag": "{piece} to bag",
    "undo.part.hand": "{piece} off {n}",
    "undo.part.pole_bag": "{piece} off {n} to bag",
    "undo.part.headdress": "{headdress} off {n}",
    "undo.part.face_down": "tile {n} down",
    # Wakanda with the reader hub: what to put right on a village slot before play goes on
    # ({piece} a piece or headdress, in lower case; {why} a refusal's reason).
    "slot.put_back": "Put the {piece} back on village {n}",
    "slot.take_off": "Take the {piece} off village {n}",
    "slot.belongs": "Take the {piece} off village {n}: it belongs on village {m}",
    "slot.fix_first": "Fix village {n} first",
    "refusal.slot.take_off": "take the {item:piece} off village {n}: {why:refusal}",
    # Hints (companion/games/wakanda/reasons.py): a suggested move and why, in one line:
    # "{move}: {why}"; {piece} in lower case, {points} a number of points (hint.points.*).
    "hint.because": "{move}: {why}",
    "hint.build": "build {piece} on village {n}", "hint.claim": "claim village {n}",
    "hint.pass": "pass",
    "hint.locks": "locks {points} for you",
    "hint.keeps": "keeps {points} from {name}",
    "hint.ends": "ends the game, {mine} to {theirs}",
    "hint.opens": "opens village {next}",
    "hint.more": "{points} more for you when you claim it",
    "hint.less": "{points} less for {name} if {name} claims it",
    "hint.best": "the best chance to win ({pct}%)",
    "hint.chance": "{pct}% chance to win",
    "hint.least_loss": "every move loses; this one by the least",
    "hint.no_move": "no move possible (R3)",
    "hint.points.one": "{n} point", "hint.points.many": "{n} points",
    # Hints of the Totem Wars coach (companion/games/totem_wars/search.py), after "{move}: ".
    "tw.hint.totem": "totem {card}",
    "tw.hint.totem_why": "{n} more of your cards are {tribe}",
    "tw.hint.place": "place {cards}",
    "tw.hint.now.one": "{n} point now", "tw.hint.now.many": "{n} points now",
    # The expected change in end points (T15), {n} signed and in halves ("+1", "-0.5", "±0";
    # tw.hint.half writes a half), one point or many.
    "tw.hint.gain.one": "{n} end point", "tw.hint.gain.many": "{n} end points",
    "tw.hint.half": "{n}.5",
    # The chance to take the round: sure (the round ends at this placement), else in words.
    "tw.hint.take.yes": "takes the round", "tw.hint.take.no": "does not take the round",
    "tw.hint.take.likely": "likely takes the round", "tw.hint.take.maybe": "may take the round",
    "tw.hint.take.unlikely": "rarely takes the round",
    "tw.hint.war.certain": "war certain", "tw.hint.war.likely": "war likely",
    "tw.hint.war.possible": "war possible",
    "tw.hint.raise": "raises by {extra}",
    "tw.hint.declare": "declare {habitat}",
    "tw.hint.war_points": "{points} war points",
    # The hint at the table (companion/games/totem_wars/hand_hint.py): the player shows their
    # hand (a line of 24 characters each, the footer 25), then a tip's title (18).
    "tw.hand.ask": "{name}: show me your hand for a hint",
    "tw.hand.title": "{name}'s hand",
    "tw.hand.scan": "Scan each card, then OK",
    "tw.hand.ready": "All scanned: OK",
    "tw.hand.pick": "No reader? ▲▼ to pick",
    "tw.hand.forgotten": "Your hand is forgotten after the hint",
    "tw.hand.footer": "BACK cancel · HINT: rule",
    "refusal.hand.twice": "{card:card} is in the hand already",
    "refusal.hand.full": "{name} holds {n} cards: all are scanned",
    "refusal.hand.short": "{n} more to scan: the hand holds {size}",
    "tw.tip.place": "Place {cards}",
    "tw.tip.all": "Place all {n} cards",
    "tw.tip.keep": "Place {n}, keep {kept}",
    "tw.tip.totem": "Lay as your totem",
    "tw.tip.declare": "War: declare {habitat}",

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
    "tw.raised": "Raised to {level} (T5)", "tw.placed_short": "Placed {cards}",
    "tw.declared": "{name} declared {habitat}",
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
    "tw.board.round": "Round {n}",
    "tw.board.last": "Last: all {n} (T14)",
    "tw.board.start": "Start: 1 to {n} cards",
    "tw.board.answer": "Answer: {cards}",
    "tw.board.all_in": "All in: {cards}",
    "tw.board.place": "Place {cards}",
    "tw.board.raise": "Level {level} · {next}+ raises",
    # What the player to move does (T2, T4–T6, T14), by name; the short forms under the
    # confirmation of the last action.
    "tw.prompt.totem": "{name}: lay your totem and scan it (T2)",
    "tw.prompt.last": "{name}: place all {n} cards, then OK (T14)",
    "tw.prompt.last.short": "{name}: all {n} cards",
    "tw.prompt.start": "{name}: place 1 to {n} cards, then OK",
    "tw.prompt.start.short": "{name}: 1 to {n} cards",
    "tw.prompt.answer": "{name}: answer with {cards}, then OK",
    "tw.prompt.answer.short": "{name}: answer {cards}",
    "tw.prompt.all_in": "{name}: place all {cards} you hold, then OK",
    "tw.prompt.all_in.short": "{name}: all {cards}",
    "tw.prompt.place": "{name}: place {cards}, then OK",
    "tw.prompt.place.short": "{name}: {cards}",
    "tw.prompt.raise": "{name}: place {level} cards or more, then OK",
    "tw.prompt.raise.short": "{name}: {level}+ cards",
    # The status page (DOWN on the board).
    "tw.status.title": "Status", "tw.status.points": "Points", "tw.status.hand": "Hand",
    "tw.status.taken": "Taken", "tw.status.deck": "Deck: {n} cards", "tw.status.level": " · level {level}",
    "tw.board.scanned": "{n} scanned · OK to place",
    "tw.board.scan": "Scan cards, then OK",
    "tw.game_over": "Game over",
    "tw.ok_score": "OK: the score",
    # Screens: a war asks the owner of a two-habitat totem for its habitat (R2).
    "tw.declare.title": "War: {name} declares",
    "tw.declare.ask": "{animal} fights in:",
    "tw.declare.points": "{n} war pts",
    "tw.declare.others": "vs {others}",
    "tw.declare.footer": "▲▼ choose · OK declares",
    # Screens: a round's result (T9-T14, R1-R4).
    "tw.round": "Round {n}",
    "tw.round.war": " · war!",
    "tw.round.war_points": "war",
    "tw.round.takes": "{name} takes {cards} ({rule})",
    "tw.round.removed": "No winner, deck empty: {cards} leave ({rule})",
    "tw.round.under": "No winner: {cards} under the deck ({rule})",
    "tw.round.points": "{name}: {points} pts",
    "tw.round.war_of": "War: {name} {points}",
    "tw.round.totem": "totem: {habitat} (T11)",
    "tw.round.declared": "declared: {habitat} (R2)",
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
    "tw.big.share": "Shared: {name} (T16)",
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

    # --- Lessons (companion/table/tutorial_flow.py, companion/games/*/lessons.py) ---------
    # The menu's entry, the runner's footers, notes and transcript words; a page's title is
    # "RULE title" in the band, so titles stay within 12 characters.
    "menu.learn": "Learn {title}",
    "tutorial.footer.more": "OK more · ▲▼ pages",
    "tutorial.footer.go": "OK go on · hold OK skip",
    "tutorial.footer.again": "OK: try again",
    "tutorial.footer.menu": "OK: back to the menu",
    "tutorial.wrong.title": "Not quite",
    "tutorial.not_now.title": "Not now",
    "tutorial.not_now": "This step asks: {ask}",
    "tutorial.did.ok": "OK",
    "tutorial.did.wrong": "refused: {what}",
    "tutorial.did.not_now": "taken back: {what}",
    "tutorial.did.back": "back: {what}",
    "tutorial.did.skipped": "skipped to the next topic",
    "tutorial.skipped": "Skipped to: {topic}",
    "tutorial.resumed": "Lesson resumed at step {n}",
    "tutorial.resumed_at": "Resumed at step {n}.",
    "tutorial.damaged": "Lesson progress damaged: begun again",
    "tutorial.not_saved": "Lesson progress not saved",
    "tutorial.none": "No lessons for {game} yet",
    "tutorial.complete.title": "Lesson complete",
    "tutorial.complete": "Well done! You have played a whole game of {game} and know its "
                         "rules. While you play, HINT shows the rule behind any screen.",
    # The topics a skip (hold OK) jumps over.
    "tutorial.topic.pieces": "The pieces", "tutorial.topic.setup": "Set-up",
    "tutorial.topic.turn": "A turn", "tutorial.topic.claim": "Claiming",
    "tutorial.topic.scores": "The villages", "tutorial.topic.play": "Playing on",
    "tutorial.topic.end": "The end and the score",
    # The Wakanda lesson (companion/games/wakanda/lessons.py): page titles, pages, asks.
    "tutorial.wakanda.title.pieces": "The pieces", "tutorial.wakanda.title.variant": "Face down?",
    "tutorial.wakanda.title.tiles": "The row", "tutorial.wakanda.title.first": "Who starts",
    "tutorial.wakanda.title.draw": "Draw", "tutorial.wakanda.title.build": "Build",
    "tutorial.wakanda.title.pole": "Poles", "tutorial.wakanda.title.claim": "Claim",
    "tutorial.wakanda.title.reveal": "Turn it up", "tutorial.wakanda.title.opened": "A tile opens",
    "tutorial.wakanda.title.owned": "Your village", "tutorial.wakanda.title.row": "Villages",
    "tutorial.wakanda.title.sun": "Suns", "tutorial.wakanda.title.play_on": "Play on",
    "tutorial.wakanda.title.out": "Headdresses", "tutorial.wakanda.title.bag_empty": "Empty bag",
    "tutorial.wakanda.title.end": "The end", "tutorial.wakanda.title.villages": "Points",
    "tutorial.wakanda.title.suns": "Sun penalty", "tutorial.wakanda.title.winner": "The winner",
    "tutorial.wakanda.owned.ask": "Read what the village scores, then OK",
    "tutorial.wakanda.row.ask": "Read what each village scores, then OK",
    "tutorial.wakanda.sun.ask": "Read what suns do, then OK",
    "tutorial.wakanda.end.ask": "Read how the game ended, then OK",
    "tutorial.wakanda.villages.ask": "Read the villages' points, then OK",
    "tutorial.wakanda.suns.ask": "Read the sun penalties, then OK",
    "tutorial.wakanda.pieces.page": "2 players. 21 pieces go in the bag: eagle 1, chief 2, "
                                    "tomahawk 3, skin 4, teepee 5, sun 6. 3 headdresses each: "
                                    "Wings, Crests.\nBag them all, then OK.",
    "tutorial.wakanda.pieces.ask": "Put the pieces in the bag, then OK",
    "tutorial.wakanda.variant.page": "Tiles 4-6 of the row lie open (face up), or hidden: "
                                     "face down, each turned up when it opens (W10).\n"
                                     "Choose one.",
    "tutorial.wakanda.variant.ask": "Choose open or hidden tiles",
    "tutorial.wakanda.tiles.open": "Shuffle the 8 village tiles. 2 go back in the box unseen; "
                                   "lay 6 in a row. 1-3 are open; turn 4-6 sideways: they "
                                   "open later.\nScan them in order.",
    "tutorial.wakanda.tiles.hidden": "Shuffle the 8 village tiles. 2 go back in the box "
                                     "unseen. Lay 3 in a row face up, then 3 face down.\n"
                                     "Scan tiles 1-3 in order.",
    "tutorial.wakanda.tiles.ask": "Scan the tiles in row order",
    "tutorial.wakanda.first.page": "The players choose who starts: a war cry, the youngest, "
                                   "or lots the box draws.",
    "tutorial.wakanda.first.ask": "Choose who starts",
    "tutorial.wakanda.did.first": "{name} starts",
    "tutorial.wakanda.draw.page": "A turn begins with a draw. {name}, take a piece from the "
                                  "bag without looking, keep it in your hand and scan it.",
    "tutorial.wakanda.draw.ask": "{name}: draw a piece and scan it",
    "tutorial.wakanda.draw2.ask": "{name}: your turn: draw a piece",
    "tutorial.wakanda.build.page": "{name} drew {piece}. {worth}\nBuild: put it on village "
                                   "1-{last} and press its button.",
    "tutorial.wakanda.build.plain": "Build: put a piece of your hand on village 1-{last} "
                                    "and press its button.",
    "tutorial.wakanda.build.ask": "{name}: build it on village 1-{last}",
    "tutorial.wakanda.pole.page": "{worth}\nOne pole a village: build on top of it, or start "
                                  "one on an empty village.",
    "tutorial.wakanda.pole.ask": "{name}: build on an open village",
    "tutorial.wakanda.worth.piece": "Village {n} scores {points} for each {piece} on its "
                                    "owner's poles.",
    "tutorial.wakanda.worth.piece_none": "No {piece} village here: it counts for variety or "
                                         "height.",
    "tutorial.wakanda.worth.sun": "Village {n} scores 1 a sun; without it you lose 1 a sun "
                                  "(W8).",
    "tutorial.wakanda.worth.sun_none": "No Sun village here: each sun on your poles costs 1 "
                                       "(W8).",
    "tutorial.wakanda.worth.sun_hidden": "No Sun village yet: each sun on your poles costs 1 "
                                         "(W8).",
    "tutorial.wakanda.claim.page": "{name}: claim a village now. Put a headdress on an open "
                                   "village with pieces: its pole is finished and yours. The "
                                   "game ends at 6 claims.",
    "tutorial.wakanda.claim.ask": "{name}: claim a village with a headdress",
    "tutorial.wakanda.reveal.page": "Hidden tiles (W10): the claim opened village {n}. Turn "
                                    "its tile face up and scan it, or OK and pick it.",
    "tutorial.wakanda.reveal.ask": "Turn up village {n} and scan it",
    "tutorial.wakanda.opened.page": "The claim opened village {n}, the {village}: turn its "
                                    "tile straight. Each claim opens the next tile.",
    "tutorial.wakanda.opened.ask": "Turn the tile, then OK",
    "tutorial.wakanda.owned.page": "{name} owns village {n}, the {village}: {scores}",
    "tutorial.wakanda.scores.piece": "{points} points for each {piece} on all of {name}'s "
                                     "poles, not only this one.",
    "tutorial.wakanda.scores.variety": "2 points for each kind of piece on all of {name}'s "
                                       "poles.",
    "tutorial.wakanda.scores.height": "2 points for each piece of {name}'s tallest pole.",
    "tutorial.wakanda.scores.sun": "1 point for each sun on {name}'s poles, and no sun "
                                   "penalty.",
    "tutorial.wakanda.pic.variety": "2×k", "tutorial.wakanda.pic.height": "2×h",
    "tutorial.wakanda.pic.sun": "±1",
    "tutorial.wakanda.pic.line": "per piece, on ALL poles",
    "tutorial.wakanda.row.page": "Villages count ALL your poles. 2×k: 2 a kind; 2×h: 2 a "
                                 "piece of the tallest.",
    "tutorial.wakanda.sun.page": "Suns: the owner of village {n}, the Sun, scores 1 for each. "
                                 "The other player loses 1 for each sun on their poles (W8).",
    "tutorial.wakanda.sun.page_none": "No Sun village in this game: each sun on your poles "
                                      "costs you 1 point at the end (W8). Suns in a hand cost "
                                      "nothing.",
    "tutorial.wakanda.sun.page_hidden": "Without the Sun village, each sun on your poles "
                                        "costs you 1 point at the end (W8). It may lie face "
                                        "down.",
    "tutorial.wakanda.play_on.page": "Now play on, turn by turn: draw, then build or claim. "
                                     "No passing while you can build or claim (W5).",
    "tutorial.wakanda.play_on.ask": "{name}: play on",
    "tutorial.wakanda.out.page": "{name} has placed all 3 headdresses: no more claims, but "
                                 "{name} keeps drawing and building to the end (W6).",
    "tutorial.wakanda.bag_empty.page": "The bag is empty: no more draws. Each turn now: "
                                       "build from your hand, or claim (W4).",
    "tutorial.wakanda.bag_empty.ask": "{name}: build or claim",
    "tutorial.wakanda.end.page": "All 6 poles are claimed: the game is over (W6). Pieces "
                                 "left in hands or the bag ({left}) score nothing.",
    "tutorial.wakanda.villages.intro": "Each village counts ALL its owner's poles:",
    "tutorial.wakanda.villages.player": "{name}: {parts}.",
    "tutorial.wakanda.suns.intro": "Sun penalty (W8):",
    "tutorial.wakanda.suns.owner": "{name} owns the Sun village: no penalty.",
    "tutorial.wakanda.suns.penalty": "{name} loses {n}: suns without the Sun village.",
    "tutorial.wakanda.suns.none": "{name}: no sun on the poles, no penalty.",
    "tutorial.wakanda.winner.higher": "{a} {x}, {b} {y}: {name} wins with the higher total "
                                      "(W9). On a tie, the first to place a third headdress "
                                      "wins.",
    "tutorial.wakanda.winner.tie": "{a} {x}, {b} {y}: a tie! {name} placed a third "
                                   "headdress first and wins (W9).",
    "tutorial.wakanda.winner.ask": "OK: the score pages",
    "tutorial.wakanda.wrong.not_open": "Villages 1 to {last} are open. The next one opens "
                                       "after each claim, in row order.",
    "tutorial.wakanda.wrong.draw_first": "Each turn begins with a draw while the bag holds "
                                         "pieces: draw one and scan it.",
    "tutorial.wakanda.wrong.one_draw": "One draw a turn: now build or claim.",
    "tutorial.wakanda.wrong.not_yours": "Each player claims with their own headdresses: "
                                        "Wings for {a}, Crests for {b}.",
    "tutorial.wakanda.wrong.empty_pole": "A claim needs a piece on the pole: build there "
                                         "first.",
    "tutorial.wakanda.wrong.claimed": "A claimed pole is finished: build on another open "
                                      "village.",
    "tutorial.wakanda.wrong.not_in_hand": "Build with a piece of your hand: the one you "
                                          "drew, or one you kept.",
    "tutorial.wakanda.wrong.turn_up_first": "The claim opened village {n}: turn its tile up "
                                            "and scan it first.",

    # The Totem Wars lesson (companion/games/totem_wars/lessons.py).
    "tutorial.topic.deal": "The deal and the totems", "tutorial.topic.round": "A round",
    "tutorial.topic.result": "The round's result",
    "tutorial.totem_wars.title.players": "The cards", "tutorial.totem_wars.title.dealer": "The deal",
    "tutorial.totem_wars.title.totems": "Totems", "tutorial.totem_wars.title.deal_more": "One more",
    "tutorial.totem_wars.title.start": "Starting", "tutorial.totem_wars.title.raise": "Raising",
    "tutorial.totem_wars.title.answer": "Answering", "tutorial.totem_wars.title.points": "Points",
    "tutorial.totem_wars.title.taking": "Taking", "tutorial.totem_wars.title.columns": "Columns",
    "tutorial.totem_wars.title.refill": "Refill", "tutorial.totem_wars.title.war": "War",
    "tutorial.totem_wars.title.habitats": "Habitats", "tutorial.totem_wars.title.no_winner": "No winner",
    "tutorial.totem_wars.title.empty_deck": "Empty deck", "tutorial.totem_wars.title.end": "The end",
    "tutorial.totem_wars.title.big": "Big game",
    "tutorial.totem_wars.players.page": "2 to 4 players. 52 cards in 4 tribes of 13: "
                                        "Aborigines, Africans, Eskimos, Indians. A card shows an "
                                        "animal and 1 or 2 habitats.\nHow many play?",
    "tutorial.totem_wars.players.ask": "Choose how many play",
    "tutorial.totem_wars.dealer.page": "The dealer shuffles and deals 5 cards each, one at a "
                                       "time, clockwise (T2).\nChoose the dealer, then deal.",
    "tutorial.totem_wars.dealer.ask": "Choose the dealer, then deal",
    "tutorial.totem_wars.did.dealer": "{name} deals",
    "tutorial.totem_wars.totems.page": "Each player picks a card of the hand as totem and "
                                       "lays it face up: it stays all game, never taken. Its "
                                       "tribe is the one you collect.\nScan the totems.",
    "tutorial.totem_wars.totems.ask": "{name}: lay your totem, scan it",
    "tutorial.totem_wars.deal_more.page": "{dealer} deals 1 more card each, from the left: "
                                          "hands are 5 again. {starter}, left of the dealer, "
                                          "starts the first round (T3).",
    "tutorial.totem_wars.deal_more.ask": "Deal 1 more card each, then OK",
    "tutorial.totem_wars.start.page": "{name} starts: place cards face up, scan each, then "
                                      "OK. How many is the round's level: the others place "
                                      "at least as many (T4).\nNow: place {n}.",
    "tutorial.totem_wars.start.ask": "{name}: place {n} cards, then OK",
    "tutorial.totem_wars.raise.page": "{name}: place at least {level} cards, the level. More "
                                      "is a raise: the new level for all (T5).\nNow: raise, "
                                      "place {n}.",
    "tutorial.totem_wars.raise.ask": "{name}: raise: place {n} cards",
    "tutorial.totem_wars.answer.page": "All have placed once. {name} is below the level: "
                                       "answer with exactly {cards} more. Answers never raise "
                                       "(T6).",
    "tutorial.totem_wars.answer.ask": "{name}: answer with {cards}",
    "tutorial.totem_wars.points.page": "Totem column: 1 + 2 a card above the totem. Other "
                                       "columns: 1 a card, from 2 (T8).\n{scores}.",
    "tutorial.totem_wars.points.ask": "Read how points count, then OK",
    "tutorial.totem_wars.taking.taker": "{name} has the most points and takes the {n} cards "
                                        "down, not the totems, to a face-down pile, never "
                                        "the hand (T9).",
    "tutorial.totem_wars.taking.war": "The war decided: {name} takes the {n} cards down, "
                                      "not the totems, to a face-down pile (T9).",
    "tutorial.totem_wars.taking.none": "Nobody won this round. A winner takes the cards "
                                       "down, not the totems, to a face-down pile (T9).",
    "tutorial.totem_wars.taking.ask": "Read who takes the cards, then OK",
    "tutorial.totem_wars.columns.page": "{name}'s columns: one per tribe. A card joins its "
                                        "tribe's column, or one holding its animal (T7). "
                                        "{example}",
    "tutorial.totem_wars.columns.joins": "Here the {card} joins the {tribe}.",
    "tutorial.totem_wars.columns.own": "Here each card is in its tribe's column.",
    "tutorial.totem_wars.columns.ask": "Read how columns form, then OK",
    "tutorial.totem_wars.refill.page": "Refill to 5, a card at a time, clockwise from the "
                                       "taker (else the starter): {refill}. {name} starts "
                                       "next (T13).",
    "tutorial.totem_wars.refill.nothing": "the deck is empty",
    "tutorial.totem_wars.refill.ask": "Refill the hands, then OK",
    "tutorial.totem_wars.war.page": "Round {n}: {names} tied at {points}: war! Only they "
                                    "fight, regrouped by habitat, totem first (T10). {won}",
    "tutorial.totem_wars.war.won": "{name} won it with {points}.",
    "tutorial.totem_wars.war.tied": "It stayed tied.",
    "tutorial.totem_wars.war.recap": "No war this game. When players share the top score, "
                                     "only they fight, regrouping their cards by habitat, "
                                     "totem first (T10).",
    "tutorial.totem_wars.war.ask": "Read about wars, then OK",
    "tutorial.totem_wars.habitats.page": "Round {n}: still tied after the war, so the "
                                         "totems' habitats decided: water beats land, land "
                                         "beats air, air beats water (T11). {end}",
    "tutorial.totem_wars.habitats.took": "{name} took the cards.",
    "tutorial.totem_wars.habitats.nobody": "Nobody won.",
    "tutorial.totem_wars.habitats.recap": "A war still tied? The totems' habitats decide: "
                                          "water beats land, land beats air, air beats water "
                                          "(T11).",
    "tutorial.totem_wars.habitats.ask": "Read how habitats decide, then OK",
    "tutorial.totem_wars.no_winner.page": "Round {n}: nobody won, so its {cards} went under "
                                          "the deck (T12), to come back in later deals.",
    "tutorial.totem_wars.no_winner.removed": "Round {n}: nobody won. Cards go under the deck "
                                             "(T12), but with the deck empty its {cards} "
                                             "left the game.",
    "tutorial.totem_wars.no_winner.recap": "Every round had a winner. If nobody wins a "
                                           "round, its cards go under the deck (T12).",
    "tutorial.totem_wars.no_winner.ask": "Read where the cards went, then OK",
    "tutorial.totem_wars.empty_deck.page": "The deck is empty: no refills. Play on with your "
                                           "hands; no cards, you sit out. The last one with "
                                           "cards places all and takes them (T14).",
    "tutorial.totem_wars.empty_deck.ask": "Read how the game ends, then OK",
    "tutorial.totem_wars.end.page": "Deck and hands empty: game over. 1 point for your totem, "
                                    "+1 per taken card of its tribe (T15): {scores}. {won}",
    "tutorial.totem_wars.end.wins": "{name} wins.",
    "tutorial.totem_wars.end.shared": "Shared: {names}.",
    "tutorial.totem_wars.end.ask": "Read the final points, then OK",
    "tutorial.totem_wars.big.page": "Small games add up to the big game: the dealer moves "
                                    "one seat clockwise each game, and the first to reach 42 "
                                    "wins (T16).",
    "tutorial.totem_wars.big.ask": "OK: the score pages",
    "tutorial.totem_wars.wrong.at_least_level": "The level is {level}: place at least {level} "
                                                "cards, or more to raise.",
    "tutorial.totem_wars.wrong.answer_exactly": "An answer brings you up to the level, never "
                                                "above: exactly {cards}.",
    "tutorial.totem_wars.wrong.totem_down": "That card is down as a totem already: each "
                                            "player lays a card of their own hand.",
    "tutorial.totem_wars.wrong.card_on_table": "That card is on the table already: place "
                                               "cards from your hand.",
    "tutorial.totem_wars.wrong.card_totem": "A totem stays on the table all game: place "
                                            "cards from your hand.",
    "tutorial.totem_wars.wrong.card_taken": "Taken cards lie in a face-down pile, out of "
                                            "play.",
    "tutorial.totem_wars.wrong.card_scanned": "That card is scanned already: scan each card "
                                              "once.",

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
    "refusal.not_turn_of": "not {name}'s turn",
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
    # Totem Wars (T1a-T15, R2, R4); {card} is a card, {name} a player's name.
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
    "refusal.declare_first": "{name} declares the totem's habitat first",
    "refusal.no_declaration": "no habitat declaration is due",
    "refusal.not_a_habitat": "{habitat!r} is not a habitat: water, land or air",
    "refusal.not_totem_habitat": "{name}'s totem has no habitat {habitat:habitat}",
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
    for prefix in ("piece", "village", "headdress"):
        if f"{prefix}.{value}" in ENGLISH:
            return _named(prefix, value, lang)
    return str(value)


def _card_words(value, lang: str) -> str:
    return card_label(value, lang) if hasattr(value, "tribe") and hasattr(value, "animal") else str(value)


#: How a refusal's text puts a raw value into words: ``{field:kind}`` calls
#: ``WORD_KINDS[kind](value, lang)``. Any other format spec (or none) formats as usual, and
#: ``!r`` gives the value as written (``unknown piece 'bison'``).
WORD_KINDS = {
    "piece": _piece_words,                                      # "eagle" → eagle, орел; "wings" → wings
    "village": _piece_words,                                    # "variety" → variety, разнообразие
    "headdress": lambda value, lang: _named("headdress", value, lang),   # "wings" → wings, крила
    "tribe": lambda value, lang: t(f"tribe.{value}", lang),     # "indians" → Indians, Индианци
    "habitat": lambda value, lang: t(f"habitat.{value}", lang),  # "land" → land, суша
    "card": _card_words,                                        # Card → Snake (Indians)
    "cards": lambda value, lang: cards(value, lang),            # 3 → 3 cards, 3 карти
    "refusal": lambda value, lang: refusal_reason(value, lang),  # a Refusal → its reason
}


class _Words(string.Formatter):
    """``str.format`` plus the ``{field:kind}`` specs of ``WORD_KINDS``, in one language."""

    def __init__(self, lang: str):
        self.lang = lang

    def format_field(self, value: object, format_spec: str) -> str:
        kind = WORD_KINDS.get(format_spec)
        return kind(value, self.lang) if kind else super().format_field(value, format_spec)

    def convert_field(self, value: object, conversion: str | None) -> object:
        # A name "as written" comes from a record or a scan, which may hold anything: quoted
        # short and escaped, so a refusal stays one short line.
        if conversion == "r" and isinstance(value, str):
            return shown(value)
        return super().convert_field(value, conversion)


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
