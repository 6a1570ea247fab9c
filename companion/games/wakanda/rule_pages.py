"""The why-pages of Wakanda: every rule the box can cite (rules/wakanda.md W1–W10 and the
project's rulings R1–R8), in players' words, per language; and the rule behind what a
Wakanda flow asks at the moment (``rule_of``), shown when no refusal is on screen.

The hint button opens them (``companion/table/why_flow.py``); each text is wrapped into
pages of four lines of about twenty characters, one to three pages a rule.
"""

from __future__ import annotations

from companion.games.wakanda.moves import Pass

#: Rule → (title, text), in English.
ENGLISH: dict[str, tuple[str, str]] = {
    "W1": ("The pieces", "2 players; 21 pieces: eagle 1, chief 2, tomahawk 3, skin 4, "
           "teepee 5, sun 6; 8 village tiles; 3 headdresses each: Wings (first player) and "
           "Crests."),
    "W2": ("Set-up", "Shuffle the 8 village tiles: 2 go back unseen, 6 make a row. Tiles "
           "1-3 are open, 4-6 lie turned. All pieces go in the bag. Each player takes 3 "
           "headdresses."),
    "W3": ("Who starts", "The players choose who starts: war cry, the youngest, or a lot "
           "the box can draw."),
    "W4": ("A turn", "Draw a piece if the bag is not empty. Then one of:\n"
           "BUILD: a piece from your hand on an open, unclaimed village.\n"
           "CLAIM: a headdress on an open pole. It is yours; the next turned tile opens."),
    "W5": ("No passing", "No passing while you can build or claim. With no move at all, "
           "you pass (R3)."),
    "W6": ("The end", "Out of headdresses? Keep drawing and building. The game ends when "
           "all 6 poles are claimed. Pieces in hands or the bag score nothing."),
    "W7": ("Scoring", "Your villages count pieces on ALL your poles: eagle 8 each, chief 5, "
           "tomahawk 4, skin 3, teepee 2, sun 1; variety 2 a kind; height 2 a piece of the "
           "tallest pole."),
    "W8": ("Sun penalty", "Without the sun village you lose 1 point per sun on your poles, "
           "once. The sun village's owner loses nothing."),
    "W9": ("Winning", "The higher total wins. On a tie, the first to place a third "
           "headdress wins."),
    "W10": ("Hidden tiles", "Variant: tiles 4-6 lie face down. Each is turned up as it "
            "opens after a claim: scan it, or OK and pick it."),
    "R1": ("Empty village", "A claim needs a piece on the pole, unless the bag and both "
           "hands are empty: then any open village may be claimed. A setting can change "
           "this."),
    "R2": ("Hands", "What a hand holds is secret; how many pieces, is public. With open "
           "hands set, the box shows both hands."),
    "R3": ("Forced pass", "No move possible (no piece in hand, and no headdress or only "
           "empty poles to claim)? You pass: press OK."),
    "R4": ("Variety", "Variety counts the kinds of piece on all your poles together, not "
           "pole by pole."),
    "R5": ("Height", "Height counts your tallest pole only; headdresses do not count. No "
           "pole: 0."),
    "R6": ("Early end", "If empty claims are never allowed, the game ends when both pass "
           "in a row. A tie then goes to the only player with a third headdress, else it is "
           "shared."),
    "R7": ("Suns in hand", "Suns left in a hand at the end cost nothing."),
    "R8": ("Translations", "Where the rulebook's languages disagree, the box follows what "
           "most of them say."),
}

#: Rule → (title, text), in Bulgarian.
BULGARIAN: dict[str, tuple[str, str]] = {
    "W1": ("Фигурите", "Двама играчи. 21 фигури: орел 1, вожд 2, томахавка 3, кожа 4, "
           "типи 5, слънце 6. 8 плочки на села. По 3 пера: Крила за първия играч, Гребени "
           "за втория."),
    "W2": ("Подготовка", "Разбъркай 8-те плочки: 2 се връщат неразкрити, 6 се нареждат в "
           "редица. 1-3 са отворени, 4-6 са обърнати. Всички фигури отиват в торбата. "
           "Всеки взема 3 пера."),
    "W3": ("Кой започва", "Играчите избират кой започва: с боен вик, най-младият или с "
           "жребий от кутията."),
    "W4": ("Ходът", "Тегли фигура, ако торбата не е празна. После едно от двете:\n"
           "СТРОЙ: фигура от ръката на отворено, невзето село.\n"
           "ВЗЕМИ: перо на тотема на отворено село. Селото е твое; отваря се следващата "
           "плочка."),
    "W5": ("Без пас", "Не се пасува, докато можеш да строиш или да вземеш село. Без ход "
           "пасуваш (R3)."),
    "W6": ("Краят", "Без пера? Продължаваш да теглиш и строиш. Играта свършва, когато и "
           "6-те тотема са взети. Фигурите в ръцете и в торбата не носят точки."),
    "W7": ("Точки", "Всяко твое село брои фигурите на ВСИЧКИ твои тотеми: орел по 8, "
           "вожд 5, томахавка 4, кожа 3, типи 2, слънце 1. Разнообразие: 2 за вид. "
           "Височина: 2 за фигура на най-високия."),
    "W8": ("Наказание", "Който няма селото на слънцето, губи по 1 точка за всяко слънце на "
           "тотемите си (само веднъж). Собственикът на селото не губи нищо."),
    "W9": ("Победа", "Печели по-големият сбор. При равенство печели този, който пръв е "
           "сложил трето перо."),
    "W10": ("Скрити плочки", "Вариант: плочки 4-6 са с лицето надолу. Всяка се обръща, "
            "щом се отвори след вземане: сканирай я или OK и я избери."),
    "R1": ("Празно село", "За вземане трябва фигура на тотема, освен ако торбата и "
           "ръцете са празни: тогава може всяко отворено село. Настройка може да промени "
           "това."),
    "R2": ("Ръцете", "Съдържанието на ръката е тайна, броят фигури е явен. С открити ръце "
           "кутията ги показва."),
    "R3": ("Принуден пас", "Няма ход (няма фигура в ръка, нито перо, или само празни "
           "тотеми)? Пасуваш с OK."),
    "R4": ("Разнообразие", "Разнообразието брои видовете фигури на всички твои тотеми "
           "заедно, не поотделно."),
    "R5": ("Височина", "Височината брои само най-високия ти тотем. Перата не се броят; "
           "без тотем е 0."),
    "R6": ("Ранен край", "Ако празни села никога не се вземат, играта свършва, щом двамата "
           "пасуват подред. Равенство тогава печели единственият с трето перо, иначе "
           "победата е обща."),
    "R7": ("Слънца в ръка", "Слънцата в ръката в края не отнемат точки."),
    "R8": ("Преводите", "Където езиците на правилата се разминават, кутията следва "
           "мнозинството от тях."),
}

#: Language → rule → (title, text): the pages the why-pages show, in the box's language.
PAGES = {"en": ENGLISH, "bg": BULGARIAN}

#: The rule behind each step of the set-up (``SetupFlow.current``).
SETUP_RULES = {"name0": "W1", "name1": "W1", "level": "W1", "variant": "W10", "tiles": "W2",
               "first": "W3"}


def rule_of(flow) -> str | None:
    """The rule behind what a Wakanda ``flow`` asks now: the set-up step (W1-W3, W10), the
    turn (W4; W10 for a tile to turn up, R3 when only a pass is left), the score page (the
    result's W9 or R6, then W7 for each player's points); None for a flow of another kind."""
    if flow.kind == "setup":
        return SETUP_RULES[flow.current]
    if flow.kind == "score":
        outcome = flow.game.outcome()
        return outcome.rule if flow.page == 0 and outcome is not None else "W7"
    if flow.kind != "play":
        return None
    game = flow.game
    if game.phase == "reveal":
        return "W10"
    if game.phase == "over":
        return "W6"
    if game.phase == "action" and list(game.legal_moves()) == [Pass()]:
        return "R3"
    return "W4"
