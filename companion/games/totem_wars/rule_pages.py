"""The why-pages of Totem Wars: every rule the box can cite (rules/totem-wars.md T1–T16,
T1a and the project's rulings R1–R4), in players' words, per language; and the rule behind
what a Totem Wars flow asks at the moment (``rule_of``), shown when no refusal is on screen.

The hint button opens them (``companion/table/why_flow.py``); each text is wrapped into
pages of four lines of about twenty characters, one to three pages a rule.
"""

from __future__ import annotations

from companion.games.totem_wars.views import DealView, RoundView

#: Rule → (title, text), in English.
ENGLISH: dict[str, tuple[str, str]] = {
    "T1": ("The cards", "2 to 4 players. 52 cards in 4 tribes of 13: Aborigines, Africans, "
           "Eskimos, Indians. A card shows an animal and 1 or 2 habitats: water, land, "
           "air."),
    "T1a": ("The deck", "The box knows the deck as a list: 4 tribes of 13 cards, none "
            "twice, 1 or 2 habitats each. A card scanned must be in it."),
    "T2": ("Deal, totems", "The dealer deals 5 cards each, one at a time, clockwise. Each "
           "player lays one face up as their totem: it stays all game. Then 1 more card "
           "each."),
    "T3": ("First round", "The player on the dealer's left starts the first round."),
    "T4": ("Starting", "The starter places 1 or more cards. How many sets the round's "
           "level."),
    "T5": ("Placing", "Clockwise, each player places at least the level. More is a raise: "
           "the new level. With fewer cards, place them all."),
    "T6": ("Answers", "Then, from the starter, each player below the level places exactly "
           "the missing cards (or all they hold). Answers never raise."),
    "T7": ("Columns", "Your cards stand in columns on your totem, one per tribe. A card "
           "fits its own tribe's column, or one with a card of the same animal."),
    "T8": ("Points", "Totem column: 1 + 2 a card above the totem, 0 with none. Other "
           "columns: 1 a card if 2 or more."),
    "T9": ("Taking", "The highest score takes all table cards but totems, onto a "
           "face-down pile, not into the hand."),
    "T10": ("War", "A shared top score means war: only the tied fight. They regroup by "
            "habitat (water, land, air), totem first. Points as in T8."),
    "T11": ("War tie", "Top war score takes the cards. Still tied? Totem habitats decide: "
            "water beats land, land beats air, air beats water."),
    "T12": ("No winner", "If nobody wins, the table cards but the totems go under the "
            "deck."),
    "T13": ("Refill", "Hands refill to 5, a card at a time, clockwise from the taker (else "
            "the starter). The taker starts the next round."),
    "T14": ("Empty deck", "With the deck empty, play on from hands; players with no cards "
            "sit out. The last player with cards places them all and takes them."),
    "T15": ("End", "Deck and hands empty: the game ends. 1 point for your totem, +1 per "
            "taken card of its tribe. Most points win; a tie shares."),
    "T16": ("Big game", "Small games add up; the dealer moves one seat clockwise. First to "
            "42 wins; reached together, the highest total wins."),
    "R1": ("Arrangement", "Lay your cards as you like within T7; the box scores and shows "
           "the best arrangement."),
    "R2": ("Two habitats", "A two-habitat totem fights a war with the habitat its owner "
           "declares. The box asks, offering the best first."),
    "R3": ("3 or 4 tied", "A tied player whose habitat another's beats drops out. One "
           "left wins; else none."),
    "R4": ("Cards leave", "A round nobody wins that began with the deck empty: its cards "
           "leave the game."),
}

#: Rule → (title, text), in Bulgarian.
BULGARIAN: dict[str, tuple[str, str]] = {
    "T1": ("Картите", "От 2 до 4 играчи. 52 карти в 4 племена по 13: аборигени, "
           "африканци, ескимоси, индианци. Картата има животно и 1 или 2 среди: вода, "
           "суша, въздух."),
    "T1a": ("Тестето", "Кутията знае тестето като списък: 4 племена по 13 карти, без "
            "повторения, с 1 или 2 среди. Сканираната карта трябва да е в него."),
    "T2": ("Раздаване", "Раздаващият дава по 5 карти, една по една, по часовника. Всеки "
           "слага една открита за тотем: тя остава цялата игра. После още 1 карта на "
           "всеки."),
    "T3": ("Първи рунд", "Играчът отляво на раздаващия започва първия рунд."),
    "T4": ("Начало", "Започващият слага 1 или повече карти. Броят им е нивото на рунда."),
    "T5": ("Слагане", "По часовника всеки слага поне колкото нивото. Повече е вдигане: "
           "ново ниво. С по-малко карти слагаш всичките."),
    "T6": ("Отговори", "После, от започващия, всеки под нивото слага точно липсващите "
           "карти (или всичките си). Отговорът не вдига."),
    "T7": ("Колони", "Картите ти са колони върху тотема, по една за племе. Картата "
           "влиза в колоната на племето си или в колона със същото животно."),
    "T8": ("Точки", "Колоната на тотема: 1 + 2 за карта над тотема (0 без карти). Друга "
           "колона: 1 за карта, ако са 2 или повече."),
    "T9": ("Взимане", "Най-високият резултат взема картите на масата без тотемите, в "
           "купчина с лицето надолу, не в ръката."),
    "T10": ("Война", "Равен най-висок резултат е война: бият се само равните. Подреждат "
            "по среда (вода, суша, въздух), тотемът пръв. Точки като в T8."),
    "T11": ("Равна война", "Най-добрият във войната взема. Пак равни? Решават средите на "
            "тотемите: вода бие суша, суша бие въздух, въздух бие вода."),
    "T12": ("Без победа", "Ако никой не спечели, картите на масата без тотемите отиват "
            "под тестето."),
    "T13": ("Допълване", "Ръцете се допълват до 5, по карта, по часовника от взелия (или "
            "от започващия). Взелият започва следващия рунд."),
    "T14": ("Празно тесте", "С празно тесте се играе с картите в ръка; без карти не се "
            "играе. Последният с карти слага всичките и ги взема."),
    "T15": ("Край", "Тестето и ръцете са празни: край. 1 точка за тотема и +1 за всяка "
            "взета карта от племето му. Най-много точки печели; равните делят."),
    "T16": ("Голяма игра", "Малките игри се сумират; раздаващият се мести с едно място по "
            "часовника. Пръв до 42 печели; ако са няколко, печели по-високият сбор."),
    "R1": ("Подреждане", "Подреждай картите както искаш според T7. Кутията брои най-"
           "доброто подреждане и го показва."),
    "R2": ("Две среди", "Тотем с две среди воюва със средата, която собственикът му "
           "обяви. Кутията пита и предлага първо най-добрата."),
    "R3": ("3 или 4 равни", "Всеки равен играч, чиято среда е бита от среда на друг, "
           "отпада. Ако остане един, печели; иначе никой."),
    "R4": ("Карти излизат", "Рунд без победител, започнал с празно тесте: картите му "
           "излизат от играта."),
}

#: Language → rule → (title, text): the pages the why-pages show, in the box's language.
PAGES = {"en": ENGLISH, "bg": BULGARIAN}

#: The rules behind the set-up's steps (``TotemWarsSetupFlow.step``; a name step is a seat).
SETUP_RULES = {"count": "T1", "dealer": "T2", "deck": "T1a"}
#: The rules behind the pages of the end: the winner, the taken cards, the big game.
END_RULES = ("T15", "T15", "T16")


def rule_of(flow) -> str | None:
    """The rule behind what a Totem Wars ``flow`` asks now: the set-up step (T1, T2, T1a;
    T16 when the big game's dealer is offered), the totems (T2), the placement due
    (T4–T6, T14), a war's habitat to declare (R2), the page of a round's result (where the
    cards went, R1, T10, T13) or of the end (T15, T16); None for a flow of another kind."""
    if flow.kind == "setup":
        if flow.step == "dealer" and flow.due is not None:
            return "T16"
        return SETUP_RULES.get(flow.step, "T1")
    if flow.kind == "score":
        return END_RULES[min(flow.page, len(END_RULES) - 1)]
    if flow.kind != "play":
        return None
    game = flow.game
    view = flow.view()
    if isinstance(view, DealView):
        return "T2"
    if isinstance(view, RoundView):
        return _round_page_rule(game.last_round, view.page, view.count)
    if game.phase == "totems":
        return "T2"
    if game.phase == "declare":
        return "R2"
    if game.phase == "over":
        return "T15"
    return _placement_rule(game)


def _round_page_rule(result, page: int, count: int) -> str:
    """The rule of a round result's page: the summary (where the cards went), a player's
    arrangement (R1), a war grouping (T10), the refill (T13)."""
    if page == 0:
        return result.rule
    if page == count - 1:
        return "T13"
    arranged = sum(a is not None for a in result.arrangements)
    return "R1" if page <= arranged else "T10"


def _placement_rule(game) -> str:
    """The rule of the placement the player to move makes: the last player with cards
    (T14), the starter (T4), an answer (T6), a first placement (T5)."""
    player = game.to_move
    holding = sum(1 for hand, down in zip(game.hand_sizes, game.table) if hand or down)
    if len(game.legal_counts()) == 1 and holding == 1:
        return "T14"
    if game.level == 0:
        return "T4"
    return "T6" if game.table[player] else "T5"
