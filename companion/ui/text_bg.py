"""Bulgarian words of the screens and the table's flows (keys of ``text.ENGLISH``).

A key left out shows in English. The texts are kept about as short as the English ones:
the screens cut a line too long with an ellipsis. Rule numbers stay as the rulebook
writes them; OK, BACK and ▲▼ are the names printed on the buttons.
"""

from __future__ import annotations

BULGARIAN: dict[str, str] = {
    # Wakanda: pieces, tiles, the board header, score pages, shared prompts.
    "piece.eagle": "Орел", "piece.chief": "Вожд", "piece.tomahawk": "Томахавка",
    "piece.skin": "Кожа", "piece.teepee": "Типи", "piece.sun": "Слънце",
    "village.variety": "Разнообразие", "village.height": "Височина",
    "tile.eagle": "ОРЕ", "tile.chief": "ВОЖ", "tile.tomahawk": "ТОМ", "tile.skin": "КОЖ",
    "tile.teepee": "ТИП", "tile.variety": "РАЗ", "tile.height": "ВИС", "tile.sun": "СЛЪ",
    "phase.draw": "тегли", "phase.action": "играй", "phase.reveal": "обърни",
    "phase.over": "край",
    "wins": "{name} печели", "shared": "Равен резултат",
    "score.provisional": "Резултат досега",
    "score.sun_penalty": "Наказание слънце (W8)", "score.total": "Общо",
    "confirm.footer": "OK да · BACK не",
    "nav.footer": "▲▼ избор · OK",
    "scan_tile": "Сканирай плочка {n}",
    "or_buttons": "или ▲▼ и OK",
    "setup.title": "Подготовка",

    # Start menu and the session's notes.
    "menu.new": "Нова: {title}",
    "menu.resume": "Продължи {title}",
    "menu.resume_players": "{a} и {b}",
    "menu.settings": "Настройки",
    "menu.choose_first": "Избери игра: ▲▼ и OK",
    "session.reader_on": "Четецът е включен",
    "session.reader_off": "Четецът е изключен: играй с бутоните",
    "session.no_such_item": "Нищо не се казва '{name}'",
    "session.unknown_tag": "Непознат таг — запиши го",
    "session.finished": "Играта е запазена",
    "session.unreadable": "Повредена игра: пази се",
    "session.cannot_resume": "Не може да продължи: {reason}",
    "session.nothing_to_resume": "Няма недовършена игра",
    "session.settings_damaged": "Настройките са повредени",
    "quit.kept": "Играта е запазена: следващото пускане я предлага",
    "settings.title": "Настройки",
    "settings.footer": "▲▼ избор · OK промени",
    "settings.names": "Имена: {names}",
    "settings.no_names": "Имена: още няма",
    "settings.language": "Език: {name}",
    "language.name": "Български",
    "settings.sound_on": "Звук: вкл.", "settings.sound_off": "Звук: изкл.",
    "settings.not_saved": "Не се пази след рестарт",
    "settings.buttons": "С бутоните: ▲▼, OK",
    "settings.names_title": "Имена",
    "settings.new_name": "Ново име…",
    "settings.forget_footer": "OK: забрави името",
    "settings.forget": "Забрави {name}?",
    "settings.forget_detail": "Подготовката вече не го предлага",
    "settings.forgotten": "Забравено: {name}",
    "settings.added": "Добавено: {name}",
    "speller.title": "Ново име",
    "speller.letters": "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЬЮЯABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "speller.space": "интервал",
    "speller.done": "Готово",
    "speller.footer": "▲▼ · OK буква · BACK трий",
    "speller.done_footer": "OK: запази името",
    "speller.full": "Най-много {n} букви",
    "speller.letter_first": "Започни с буква",
    "speller.empty": "Първо напиши име",
    # Shared by both games.
    "setup.first": "Първо подготовка: ▲▼ и OK",
    "setup.player": "Играч {n}",
    "undo.question": "Отмяна?",
    "undo.nothing": "Още няма какво да се отмени",
    "undo.done": "Отменено: {what}",
    "replay.set_up": "{names}: подготовка",
    "replay.dealt": "{names}: подготовка, {dealer} раздава",
    "replay.totems_down": "Всички тотеми са сложени",
    "save.not_played": "Играта не се записа: ходът не е изигран",
    "save.not_taken_back": "Играта не се записа: нищо не е отменено",
    "start.by_lot": "Жребий: {name} започва",
    "wrong_game": "{item}: играта е {game}",
    "items.wakanda": "Фигура от Уаканда", "items.totem_wars": "Карта от Тотемни войни",
    "game.wakanda": "Уаканда", "game.totem_wars": "Тотемни войни",
    "resumed.wakanda": "Играта продължава: ход {turn}, играе {name}",
    "resumed.totem_wars": "Играта продължава: рунд {round}, играе {name}",
    "resumed.totem_wars_totems": "Играта продължава: сканирайте тотемите (T2)",
    "leave.question": "Изход от играта?",
    "leave.detail": "Пази се: продължи я от менюто",
    # The why-pages.
    "rules.footer": "▲▼ още · OK назад",
    "rules.footer_one": "OK назад",
    # Wakanda set-up.
    "headdress.wings": "Крила", "headdress.crests": "Гребени",
    "setup.who": "{headdress}: кой?",
    "setup.variant": "Вариант",
    "setup.open": "Открит: всички горе",
    "setup.hidden": "Скрит: 4-6 долу",
    "setup.scan_tile": "Плочка {n} от {of}",
    "setup.who_starts": "Кой започва?",
    "setup.lots": "Жребий",
    "setup.not_tile": "Това не е плочка на село",
    "setup.tiles_next": "Плочките са после: първо ▲▼ и OK тук",
    "setup.tile_twice": "{village} вече е плочка {n}",
    "settings.wakanda.variant": "Вариант: {value}",
    "settings.wakanda.variant_about": "Уаканда: подготовка (W10)",
    "settings.wakanda.open": "открит", "settings.wakanda.hidden": "скрит",
    "settings.wakanda.empty_claim": "Празно село: {value}",
    "settings.wakanda.empty_claim_about": "Уаканда, правило R1",
    "settings.wakanda.when_stuck": "накрая", "settings.wakanda.never": "никога",
    "settings.wakanda.always": "винаги",
    # Wakanda play; the name of a piece is put in, in lower case, where it says {piece}.
    "play.turned_up": "село {n} обърнато: {village}",
    "play.drew": "{name} изтегли {piece}",
    "play.built": "{name} сложи {piece} на село {n}",
    "play.claimed": "{name} взе село {n}",
    "play.passed": "{name} пасува: няма ход (R3)",
    "done.drew": "Изтегли {piece}", "done.built": "{piece} на село {n}",
    "done.claimed": "Взе село {n}", "done.passed": "Пас: няма ход (R3)",
    "prompt.draw": "{name}: изтегли фигура от торбата и я сканирай",
    "prompt.draw.short": "{name}: тегли и сканирай",
    "prompt.act": "{name}: строй фигура или вземи село",
    "prompt.act.short": "{name}: строй или вземи",
    "undo.to_bag": "Върнато: сложи {piece} в торбата",
    "undo.to_hand": "Върнато: {piece} от село {n} в ръката",
    "undo.headdress_off": "Върнато: свали перата от село {n}",
    "undo.face_down": "Върнато: обърни село {n} надолу",
    "status.title": "Състояние", "status.turn": "ход {n}", "status.points": "Точки",
    "status.hand": "Ръка", "status.bag": "Торба: {n} фигури",
    "move.build": "{piece} на {n}",
    "move.claim": "Вземи село {n}",
    "move.pass": "Пас",
    "play.drew_title": "{name} изтегли:",
    "play.village_is": "Село {n} е:",
    "play.move_title": "Ход на {name}",
    "play.on_village": "На село {n}:",
    "play.press_claim": "Вземи с {headdress}: натисни бутон на село",
    "play.press_village": "Строй {piece}: натисни бутон на село",
    "play.press_now": "Сега натисни бутона на селото",
    "play.turn_up": "Обърни село {n}: сканирай или OK",
    "refusal.no_move": "няма ход: OK за пас",
    "play.on_pole": "Вече е на село {n}: {piece}",
    "play.drawn_already": "Вече изтеглено: {piece}. Тегли друго",
    "refusal.not_in_hand": "{name} няма {piece:piece} в ръка",
    "refusal.not_yours": "{headdress:headdress} са на {owner}; ред е на {mover}",
    "refusal.no_headdress": "{name} няма повече пера",
    "play.tile_is": "Плочка {village} е село {n}",
    "refusal.face_down": "скритите плочки се обръщат след вземане",
    "play.tile_absent": "Плочка {village} не е в играта",
    "play.hand_empty": "Празна ръка: задръж бутон на село",
    "slot.put_back": "Върни на село {n}: {piece}",
    "slot.take_off": "Свали от село {n}: {piece}",
    "slot.belongs": "Свали от село {n}: {piece} е от село {m}",
    "slot.fix_first": "Първо оправи село {n}",
    "refusal.slot.take_off": "свали {item:piece} от село {n}: {why:refusal}",
    # Hints: a suggested move and why.
    "hint.because": "{move}: {why}",
    "hint.build": "сложи {piece} на село {n}", "hint.claim": "вземи село {n}",
    "hint.pass": "пас",
    "hint.locks": "печелиш {points}",
    "hint.keeps": "отнемаш {points} от {name}",
    "hint.ends": "край на играта, {mine} на {theirs}",
    "hint.opens": "отваря село {next}",
    "hint.more": "+{points} за теб, когато го вземеш",
    "hint.less": "-{points} за {name}, ако го вземе",
    "hint.best": "най-добър шанс за победа ({pct}%)",
    "hint.least_loss": "всеки ход губи, този с най-малка разлика",
    "hint.no_move": "няма възможен ход (R3)",
    "hint.points.one": "{n} точка", "hint.points.many": "{n} точки",
    # Hints of the Totem Wars coach.
    "tw.hint.totem": "тотем {card}",
    "tw.hint.totem_why": "още {n} твои карти са {tribe}",
    "tw.hint.place": "сложи {cards}",
    "tw.hint.now": "{points} сега",
    "tw.hint.takes": "взима рунда {pct}%",
    "tw.hint.war": "война {pct}%",
    "tw.hint.raise": "вдига на {level}: {extra} повече от нужното",
    "tw.hint.declare": "обяви {habitat}",
    "tw.hint.war_points": "{points} точки във война",

    # Totem Wars set-up.
    "tw.setup.players": "Брой играчи",
    "tw.setup.count": "{n} играчи",
    "tw.setup.seat": "По часовника: {n}",
    "tw.setup.dealer": "Кой раздава?",
    "tw.setup.deck": "Кое тесте?",
    "tw.setup.default_deck": "Основно тесте",
    "tw.setup.big_on": "Голямата игра върви (T16)",
    "tw.setup.big_new": "Нова голяма игра (T16)",
    "refusal.bad_deck": "{deck}: невалидно",
    # Cards.
    "tribe.aborigines": "Аборигени", "tribe.africans": "Африканци",
    "tribe.eskimos": "Ескимоси", "tribe.indians": "Индианци",
    "tribe.aborigines.short": "АБО", "tribe.africans.short": "АФР",
    "tribe.eskimos.short": "ЕСК", "tribe.indians.short": "ИНД",
    "habitat.water": "вода", "habitat.land": "суша", "habitat.air": "въздух",
    "habitat.water.short": "ВОД", "habitat.land.short": "СУШ", "habitat.air.short": "ВЪЗ",
    "animal.bear": "Мечка", "animal.beaver": "Бобър", "animal.buffalo": "Бизон",
    "animal.caribou": "Карибу", "animal.cockatoo": "Какаду", "animal.coyote": "Койот",
    "animal.crocodile": "Крокодил", "animal.deer": "Елен", "animal.dingo": "Динго",
    "animal.eagle": "Орел", "animal.elephant": "Слон", "animal.emu": "Ему",
    "animal.flamingo": "Фламинго", "animal.fox": "Лисица", "animal.giraffe": "Жираф",
    "animal.goanna": "Гоана", "animal.gorilla": "Горила", "animal.hare": "Заек",
    "animal.hawk": "Ястреб", "animal.hippo": "Хипопотам", "animal.kangaroo": "Кенгуру",
    "animal.koala": "Коала", "animal.kookaburra": "Кукабура", "animal.leopard": "Леопард",
    "animal.lion": "Лъв", "animal.narwhal": "Нарвал", "animal.orca": "Косатка",
    "animal.ostrich": "Щраус", "animal.owl": "Сова", "animal.platypus": "Птицечовка",
    "animal.polar_bear": "Бяла мечка", "animal.raven": "Гарван", "animal.salmon": "Сьомга",
    "animal.seal": "Тюлен", "animal.shark": "Акула", "animal.snake": "Змия",
    "animal.turtle": "Костенурка", "animal.vulture": "Лешояд", "animal.walrus": "Морж",
    "animal.whale": "Кит", "animal.wolf": "Вълк", "animal.zebra": "Зебра",
    "cards.one": "{n} карта", "cards.many": "{n} карти",
    "refusal.card.not_in_deck": "{card} не е карта от тестето",
    "refusal.card.scanned": "{card:card} е вече сканирана",
    "refusal.card.totem": "{card:card} е тотем",
    "refusal.card.on_table": "{card:card} е вече на масата",
    "refusal.card.taken": "{card:card} е взета",
    "refusal.card.left": "{card:card} е извън играта",
    # Play.
    "tw.totem_of": "Тотем на {name}",
    "tw.placed": "{name} сложи {cards}",
    "tw.places": "{name} слага",
    "tw.raises": "{name} вдига на {level} (T5)",
    "tw.raised": "Вдигнато на {level} (T5)", "tw.placed_short": "Сложени {cards}",
    "tw.declared": "{name} обяви {habitat}",
    "refusal.no_card": "няма карта {name} в тестето",
    "refusal.totem_down": "тази карта вече е тотем",
    "tw.taken_off": "{card} махната: не е сложена",
    "tw.over": "Играта свърши: OK за резултата",
    # Screens: totems, the deal reminder.
    "tw.totems.title": "Сложете тотемите",
    "tw.totems.scan": "Сканирай картата тотем",
    "tw.totems.now": "сканира",
    "tw.totems.down": "готов",
    "tw.deal.title": "Тотемите са сложени",
    "tw.deal.dealer": "{name}, раздай",
    "tw.deal.more": "Още 1 карта на всеки",
    "tw.deal.from": "от {name} (T2), после OK",
    "tw.deal.starts": "{name} започва (T3)",
    # Screens: the round board ("Р" рунд, "Н" ниво).
    "tw.board.round": "Рунд {n}",
    "tw.board.last": "Сам: всички {n} (T14)",
    "tw.board.start": "Начало: 1 до {n} карти",
    "tw.board.answer": "Отговор: {cards}",
    "tw.board.all_in": "Всички: {cards}",
    "tw.board.place": "Сложи {cards}",
    "tw.board.raise": "Ниво {level} · {next}+ вдига",
    "tw.prompt.totem": "{name}: сложи тотема си и го сканирай (T2)",
    "tw.prompt.last": "{name}: сложи всичките {n} карти, после OK (T14)",
    "tw.prompt.last.short": "{name}: всички {n} карти",
    "tw.prompt.start": "{name}: сложи от 1 до {n} карти, после OK",
    "tw.prompt.start.short": "{name}: 1 до {n} карти",
    "tw.prompt.answer": "{name}: отговори с {cards}, после OK",
    "tw.prompt.answer.short": "{name}: отговор {cards}",
    "tw.prompt.all_in": "{name}: сложи всичките си {cards}, после OK",
    "tw.prompt.all_in.short": "{name}: всички {cards}",
    "tw.prompt.place": "{name}: сложи {cards}, после OK",
    "tw.prompt.place.short": "{name}: {cards}",
    "tw.prompt.raise": "{name}: сложи {level} или повече карти, после OK",
    "tw.prompt.raise.short": "{name}: {level}+ карти",
    "tw.status.title": "Състояние", "tw.status.points": "Точки", "tw.status.hand": "Ръка",
    "tw.status.taken": "Взети", "tw.status.deck": "Тесте: {n} карти", "tw.status.level": " · ниво {level}",
    "tw.board.scanned": "{n} сканирани · OK слага",
    "tw.board.scan": "Сканирай карти, после OK",
    "tw.game_over": "Край на играта",
    "tw.ok_score": "OK: резултатът",
    # Screens: a war asks for a two-habitat totem's habitat (R2).
    "tw.declare.title": "Война: {name} обявява",
    "tw.declare.ask": "{animal} се бие в:",
    "tw.declare.points": "{n} т. война",
    "tw.declare.others": "срещу {others}",
    "tw.declare.footer": "▲▼ избери · OK обявява",
    # Screens: a round's result.
    "tw.round": "Рунд {n}",
    "tw.round.war": " · война!",
    "tw.round.war_points": "бой",
    "tw.round.takes": "{name} взема {cards} ({rule})",
    "tw.round.removed": "Без победа, празно тесте: {cards} излизат ({rule})",
    "tw.round.under": "Без победа: {cards} под тестето ({rule})",
    "tw.round.points": "{name}: {points} т.",
    "tw.round.war_of": "Война: {name} {points}",
    "tw.round.totem": "тотем: {habitat} (T11)",
    "tw.round.declared": "обявена: {habitat} (R2)",
    "tw.round.no_refill": "Тестето е празно: без теглене (T14)",
    "tw.round.refill": "Раздай {parts}",
    "tw.round.refill_to": "{n} на {name}",
    "tw.round.starts": "{name} започва",
    "tw.round.deck_left": "тесте: остават {n}",
    # Screens: the end and the big game.
    "tw.end.taken": "Тотем + племе",
    "tw.end.taken_rule": "тотем 1 + племе (T15)",
    "tw.big.title": "Голяма игра до {target}",
    "tw.big.next": "Раздава: {name} (T16)",
    "tw.big.wins": "{name} печели (T16)",
    "tw.big.share": "Делят: {name} (T16)",
    "tw.big.unavailable": "Няма сборове: виж папката с данни",

    # Transcribing a deck.
    "deck.title": "Тесте {n}/{of}",
    "deck.done_title": "Тесте",
    "deck.tribe": "Племе?", "deck.animal": "Животно?", "deck.habitats": "Среди?",
    "deck.scan_next": "Сканирай следващата карта",
    "deck.scan_n": "Сканирай карта {n} от {of}",
    "deck.keep_footer": "OK запази · ▲▼ смени",
    "deck.not_tag": "'{token}' не е таг: сканирай тага на картата",
    "deck.this_first": "Първо OK или ▲▼ за картата",
    "deck.known": "{uid} вече е {name} в тестето",
    "deck.dropped": "Сканирането е отказано",
    "deck.twice": "{card} вече е в тестето (T1a): ▲▼ смени",
    "deck.tribe_full": "{tribe} вече има {n} карти (T1a)",
    "deck.kept": "OK {n}/{of}: {card}",
    "deck.cards_kept": "{n} карти записани",
    "deck.written": "Тестето е записано: {file}, {n} карти",
    "deck.stopped": "Спряно на {n}/{of}: сканирай пак, за да продължиш",

    # Lessons: the menu's entry, the runner's footers and notes, the Wakanda lesson.
    "menu.learn": "Научи {title}",
    "tutorial.footer.more": "OK още · ▲▼ страници",
    "tutorial.footer.go": "OK напред · задръж: скок",
    "tutorial.footer.again": "OK: опитай пак",
    "tutorial.footer.menu": "OK: към менюто",
    "tutorial.wrong.title": "Не съвсем",
    "tutorial.not_now.title": "Не сега",
    "tutorial.not_now": "Тази стъпка иска: {ask}",
    "tutorial.did.wrong": "отказано: {what}",
    "tutorial.did.not_now": "върнато: {what}",
    "tutorial.did.back": "назад: {what}",
    "tutorial.did.skipped": "пропусната до следващата тема",
    "tutorial.skipped": "Напред към: {topic}",
    "tutorial.resumed": "Урокът продължава от стъпка {n}",
    "tutorial.resumed_at": "Отново от стъпка {n}.",
    "tutorial.damaged": "Напредъкът е повреден: урокът започва отначало",
    "tutorial.not_saved": "Напредъкът на урока не се записа",
    "tutorial.none": "Още няма уроци за {game}",
    "tutorial.complete.title": "Урокът е готов",
    "tutorial.complete": "Браво! Изиграхте цяла игра {game} и знаете правилата. В игра "
                         "HINT показва правилото зад всеки екран.",
    "tutorial.topic.pieces": "Фигурите", "tutorial.topic.setup": "Подготовка",
    "tutorial.topic.turn": "Ходът", "tutorial.topic.claim": "Вземане",
    "tutorial.topic.scores": "Селата", "tutorial.topic.play": "Играта продължава",
    "tutorial.topic.end": "Краят и резултатът",
    "tutorial.wakanda.title.pieces": "Фигурите", "tutorial.wakanda.title.variant": "Лице долу?",
    "tutorial.wakanda.title.tiles": "Редицата", "tutorial.wakanda.title.first": "Кой започва",
    "tutorial.wakanda.title.draw": "Теглене", "tutorial.wakanda.title.build": "Строеж",
    "tutorial.wakanda.title.pole": "Тотеми", "tutorial.wakanda.title.claim": "Вземане",
    "tutorial.wakanda.title.reveal": "Обърни я", "tutorial.wakanda.title.opened": "Нова плочка",
    "tutorial.wakanda.title.owned": "Твоето село", "tutorial.wakanda.title.row": "Селата",
    "tutorial.wakanda.title.sun": "Слънца", "tutorial.wakanda.title.play_on": "Играйте",
    "tutorial.wakanda.title.out": "Пера", "tutorial.wakanda.title.bag_empty": "Празна торба",
    "tutorial.wakanda.title.end": "Краят", "tutorial.wakanda.title.villages": "Точки",
    "tutorial.wakanda.title.suns": "Наказание", "tutorial.wakanda.title.winner": "Победител",
    "tutorial.wakanda.owned.ask": "Прочети какво носи селото, после OK",
    "tutorial.wakanda.row.ask": "Прочети какво носи всяко село, после OK",
    "tutorial.wakanda.sun.ask": "Прочети за слънцата, после OK",
    "tutorial.wakanda.end.ask": "Прочети как свърши играта, после OK",
    "tutorial.wakanda.villages.ask": "Прочети точките на селата, после OK",
    "tutorial.wakanda.suns.ask": "Прочети наказанията, после OK",
    "tutorial.wakanda.pieces.page": "2 играчи. 21 фигури в торбата: орел 1, вожд 2, "
                                    "томахавка 3, кожа 4, типи 5, слънце 6. По 3 пера: Крила, "
                                    "Гребени.\nВсички в торбата, после OK.",
    "tutorial.wakanda.pieces.ask": "Сложи фигурите в торбата, после OK",
    "tutorial.wakanda.variant.page": "Плочки 4-6 лежат открити или скрити: с лице долу, "
                                     "всяка се обръща, щом се отвори (W10).\nИзбери.",
    "tutorial.wakanda.variant.ask": "Избери открити или скрити плочки",
    "tutorial.wakanda.tiles.open": "Разбъркай 8-те плочки. 2 се връщат неразкрити в кутията, "
                                   "6 отиват в редица: 1-3 отворени, 4-6 настрани за "
                                   "после.\nСканирай ги подред.",
    "tutorial.wakanda.tiles.hidden": "Разбъркай 8-те плочки. 2 се връщат неразкрити в "
                                     "кутията. Нареди 3 с лице горе, после 3 с лице долу.\n"
                                     "Сканирай 1-3 подред.",
    "tutorial.wakanda.tiles.ask": "Сканирай плочките подред",
    "tutorial.wakanda.first.page": "Играчите избират кой започва: с боен вик, най-младият "
                                   "или с жребий от кутията.",
    "tutorial.wakanda.first.ask": "Избери кой започва",
    "tutorial.wakanda.did.first": "{name} започва",
    "tutorial.wakanda.draw.page": "Ходът започва с теглене. {name}, извади фигура от "
                                  "торбата, без да гледаш, дръж я в ръка и я сканирай.",
    "tutorial.wakanda.draw.ask": "{name}: изтегли фигура и я сканирай",
    "tutorial.wakanda.draw2.ask": "{name}: твой ред: изтегли фигура",
    "tutorial.wakanda.build.page": "{name} изтегли {piece}. {worth}\nСтрой: сложи я на село "
                                   "1-{last} и натисни бутона му.",
    "tutorial.wakanda.build.plain": "Строй: сложи фигура от ръката си на село 1-{last} и "
                                    "натисни бутона му.",
    "tutorial.wakanda.build.ask": "{name}: строй я на село 1-{last}",
    "tutorial.wakanda.pole.page": "{worth}\nПо един тотем на село: строй отгоре или започни "
                                  "нов на празно село.",
    "tutorial.wakanda.pole.ask": "{name}: строй на отворено село",
    "tutorial.wakanda.worth.piece": "Село {n}: по {points} т. за {piece} на тотемите на "
                                    "собственика.",
    "tutorial.wakanda.worth.piece_none": "Няма село {piece} в играта: брои за разнообразие "
                                         "или височина.",
    "tutorial.wakanda.worth.sun": "Село {n} носи по 1 за слънце; без него губиш по 1 (W8).",
    "tutorial.wakanda.worth.sun_none": "Няма село на слънцето: всяко слънце на тотемите ти "
                                       "струва 1 (W8).",
    "tutorial.wakanda.worth.sun_hidden": "Още няма село на слънцето: всяко слънце на "
                                         "тотемите ти струва 1 (W8).",
    "tutorial.wakanda.claim.page": "{name}: вземи село сега. Сложи перо на отворено село с "
                                   "фигури: тотемът е завършен и е твой. Играта свършва при "
                                   "6 вземания.",
    "tutorial.wakanda.claim.ask": "{name}: вземи село с перо",
    "tutorial.wakanda.reveal.page": "Скрити плочки (W10): вземането отвори село {n}. Обърни "
                                    "плочката и я сканирай или OK и я избери.",
    "tutorial.wakanda.reveal.ask": "Обърни село {n} и го сканирай",
    "tutorial.wakanda.opened.page": "Вземането отвори село {n}, {village}: изправи плочката "
                                    "му. Всяко вземане отваря следващата.",
    "tutorial.wakanda.opened.ask": "Изправи плочката, после OK",
    "tutorial.wakanda.owned.page": "{name} има село {n}, {village}: {scores}",
    "tutorial.wakanda.scores.piece": "по {points} т. за {piece} на ВСИЧКИ тотеми на {name}, "
                                     "не само на този.",
    "tutorial.wakanda.scores.variety": "по 2 т. за всеки вид фигура на ВСИЧКИ тотеми на "
                                       "{name}.",
    "tutorial.wakanda.scores.height": "по 2 т. за всяка фигура от най-високия тотем на "
                                      "{name}.",
    "tutorial.wakanda.scores.sun": "по 1 т. за слънце на тотемите на {name} и без "
                                   "наказание.",
    "tutorial.wakanda.pic.variety": "2×в", "tutorial.wakanda.pic.height": "2×е",
    "tutorial.wakanda.pic.line": "по ВСИЧКИ твои тотеми",
    "tutorial.wakanda.row.page": "Село брои ВСИЧКИ твои тотеми. 2×в: 2 за вид; 2×е: 2 за "
                                 "етаж на най-високия.",
    "tutorial.wakanda.sun.page": "Слънца: собственикът на село {n}, Слънцето, печели по 1 "
                                 "за всяко. Другият губи по 1 за слънце на тотемите си (W8).",
    "tutorial.wakanda.sun.page_none": "Няма село на слънцето: всяко слънце на тотемите ти "
                                      "струва 1 точка накрая (W8). В ръката не струват нищо.",
    "tutorial.wakanda.sun.page_hidden": "Без селото на слънцето всяко слънце на тотемите ти "
                                        "струва 1 точка накрая (W8). То може да е с лице долу.",
    "tutorial.wakanda.play_on.page": "Играйте нататък, ход по ход: теглене, после строеж или "
                                     "вземане. Не се пасува, докато имаш ход (W5).",
    "tutorial.wakanda.play_on.ask": "{name}: играй",
    "tutorial.wakanda.out.page": "{name} сложи и 3-те си пера: без повече вземания, но "
                                 "{name} тегли и строи до края (W6).",
    "tutorial.wakanda.bag_empty.page": "Торбата е празна: без теглене. Всеки ход сега: строй "
                                       "от ръката или вземи село (W4).",
    "tutorial.wakanda.bag_empty.ask": "{name}: строй или вземи",
    "tutorial.wakanda.end.page": "И 6-те тотема са взети: играта свърши (W6). Фигурите в "
                                 "ръцете и торбата ({left}) не носят точки.",
    "tutorial.wakanda.villages.intro": "По ВСИЧКИ тотеми на собственика:",
    "tutorial.wakanda.suns.intro": "Наказание за слънца (W8):",
    "tutorial.wakanda.suns.owner": "{name} има селото на слънцето: без наказание.",
    "tutorial.wakanda.suns.penalty": "{name} губи {n}: слънца без селото на слънцето.",
    "tutorial.wakanda.suns.none": "{name}: без слънца на тотемите, без наказание.",
    "tutorial.wakanda.winner.higher": "{a} {x}, {b} {y}: {name} печели с по-голям сбор (W9). "
                                      "При равенство печели първият сложил трето перо.",
    "tutorial.wakanda.winner.tie": "{a} {x}, {b} {y}: равенство! {name} пръв сложи трето "
                                   "перо и печели (W9).",
    "tutorial.wakanda.winner.ask": "OK: страниците с резултата",
    "tutorial.wakanda.wrong.not_open": "Отворени са села 1 до {last}. Следващото се отваря "
                                       "след всяко вземане, подред.",
    "tutorial.wakanda.wrong.draw_first": "Ходът започва с теглене, докато в торбата има "
                                         "фигури: изтегли една и я сканирай.",
    "tutorial.wakanda.wrong.one_draw": "По едно теглене на ход: сега строй или вземи село.",
    "tutorial.wakanda.wrong.not_yours": "Всеки взема със своите пера: Крила за {a}, Гребени "
                                        "за {b}.",
    "tutorial.wakanda.wrong.empty_pole": "За вземане трябва фигура на тотема: първо строй "
                                         "там.",
    "tutorial.wakanda.wrong.claimed": "Взетият тотем е завършен: строй на друго отворено "
                                      "село.",
    "tutorial.wakanda.wrong.not_in_hand": "Строй с фигура от ръката си: изтеглената или "
                                          "запазена.",
    "tutorial.wakanda.wrong.turn_up_first": "Вземането отвори село {n}: първо обърни "
                                            "плочката му и я сканирай.",

    # The Totem Wars lesson.
    "tutorial.topic.deal": "Раздаване и тотеми", "tutorial.topic.round": "Рундът",
    "tutorial.topic.result": "Резултатът",
    "tutorial.totem_wars.title.players": "Картите", "tutorial.totem_wars.title.dealer": "Раздаване",
    "tutorial.totem_wars.title.totems": "Тотеми", "tutorial.totem_wars.title.deal_more": "Още една",
    "tutorial.totem_wars.title.start": "Начало", "tutorial.totem_wars.title.raise": "Вдигане",
    "tutorial.totem_wars.title.answer": "Отговор", "tutorial.totem_wars.title.points": "Точки",
    "tutorial.totem_wars.title.taking": "Взимане", "tutorial.totem_wars.title.columns": "Колони",
    "tutorial.totem_wars.title.refill": "Допълване", "tutorial.totem_wars.title.war": "Война",
    "tutorial.totem_wars.title.habitats": "Среди", "tutorial.totem_wars.title.no_winner": "Без победа",
    "tutorial.totem_wars.title.empty_deck": "Празно тесте", "tutorial.totem_wars.title.end": "Краят",
    "tutorial.totem_wars.title.big": "Голяма игра",
    "tutorial.totem_wars.players.page": "От 2 до 4 играчи. 52 карти в 4 племена по 13: "
                                        "аборигени, африканци, ескимоси, индианци. Картата има "
                                        "животно и 1 или 2 среди.\nКолко играят?",
    "tutorial.totem_wars.players.ask": "Избери колко играят",
    "tutorial.totem_wars.dealer.page": "Раздаващият разбърква и дава по 5 карти, една по "
                                       "една, по часовника (T2).\nИзбери раздаващ, после "
                                       "раздай.",
    "tutorial.totem_wars.dealer.ask": "Избери раздаващ, после раздай",
    "tutorial.totem_wars.did.dealer": "{name} раздава",
    "tutorial.totem_wars.totems.page": "Всеки избира карта от ръката за тотем и я слага "
                                       "открита: остава цялата игра и не се взема. Неговото "
                                       "племе събираш.\nСканирайте тотемите.",
    "tutorial.totem_wars.totems.ask": "{name}: сложи тотем и го сканирай",
    "tutorial.totem_wars.deal_more.page": "{dealer} дава още 1 карта на всеки, отляво: "
                                          "ръцете пак са по 5. {starter}, отляво на "
                                          "раздаващия, започва първия рунд (T3).",
    "tutorial.totem_wars.deal_more.ask": "Раздай още 1 карта, после OK",
    "tutorial.totem_wars.start.page": "{name} започва: слага карти открити, сканира всяка, "
                                      "после OK. Броят им е нивото: другите слагат поне "
                                      "толкова (T4).\nСега: сложи {n}.",
    "tutorial.totem_wars.start.ask": "{name}: сложи {n} карти, после OK",
    "tutorial.totem_wars.raise.page": "{name}: сложи поне {level} карти, колкото нивото. "
                                      "Повече е вдигане: ново ниво за всички (T5).\nСега: "
                                      "вдигни, сложи {n}.",
    "tutorial.totem_wars.raise.ask": "{name}: вдигни: сложи {n} карти",
    "tutorial.totem_wars.answer.page": "Всички сложиха веднъж. {name} е под нивото: отговаря "
                                       "с точно още {cards}. Отговорът не вдига (T6).",
    "tutorial.totem_wars.answer.ask": "{name}: отговори с {cards}",
    "tutorial.totem_wars.points.page": "Колоната на тотема: 1 + 2 за карта над него. "
                                       "Другите: 1 за карта, от 2 (T8).\n{scores}.",
    "tutorial.totem_wars.points.ask": "Прочети как се броят точките, после OK",
    "tutorial.totem_wars.taking.taker": "{name} има най-много точки и взема {n} карти от "
                                        "масата без тотемите, в купчина с гръб, не в ръката "
                                        "(T9).",
    "tutorial.totem_wars.taking.war": "Войната реши: {name} взема {n} карти от масата без "
                                      "тотемите, в купчина с гръб (T9).",
    "tutorial.totem_wars.taking.none": "Никой не спечели рунда. Победителят взема картите "
                                       "без тотемите в купчина с гръб (T9).",
    "tutorial.totem_wars.taking.ask": "Прочети кой взема картите, после OK",
    "tutorial.totem_wars.columns.page": "Колоните на {name}: по една за племе. Карта влиза в "
                                        "колоната на племето си или при своето животно (T7). "
                                        "{example}",
    "tutorial.totem_wars.columns.joins": "Тук {card} е при {tribe}.",
    "tutorial.totem_wars.columns.own": "Тук всяка е при племето си.",
    "tutorial.totem_wars.columns.ask": "Прочети как стават колоните, после OK",
    "tutorial.totem_wars.refill.page": "Допълнете до 5, по една карта, по часовника от "
                                       "взелия (иначе от започналия): {refill}. {name} "
                                       "започва (T13).",
    "tutorial.totem_wars.refill.nothing": "тестето е празно",
    "tutorial.totem_wars.refill.ask": "Допълнете ръцете, после OK",
    "tutorial.totem_wars.war.page": "Рунд {n}: {names} с по {points}: война! Бият се само те, "
                                    "по среди, тотемът пръв (T10). {won}",
    "tutorial.totem_wars.war.won": "{name} я спечели с {points}.",
    "tutorial.totem_wars.war.tied": "Остана равно.",
    "tutorial.totem_wars.war.recap": "Нямаше война. При равен най-висок резултат се бият "
                                     "само равните: картите се подреждат по среди, тотемът "
                                     "пръв (T10).",
    "tutorial.totem_wars.war.ask": "Прочети за войните, после OK",
    "tutorial.totem_wars.habitats.page": "Рунд {n}: равно и след войната, затова решиха "
                                         "средите на тотемите: вода бие суша, суша бие "
                                         "въздух, въздух бие вода (T11). {end}",
    "tutorial.totem_wars.habitats.took": "{name} взе картите.",
    "tutorial.totem_wars.habitats.nobody": "Никой не спечели.",
    "tutorial.totem_wars.habitats.recap": "Война пак равна? Решават средите на тотемите: "
                                          "вода бие суша, суша бие въздух, въздух бие вода "
                                          "(T11).",
    "tutorial.totem_wars.habitats.ask": "Прочети как решават средите, после OK",
    "tutorial.totem_wars.no_winner.page": "Рунд {n}: никой не спечели, затова {cards} отидоха "
                                          "под тестето (T12) и ще се върнат при раздаване.",
    "tutorial.totem_wars.no_winner.removed": "Рунд {n}: никой не спечели. Картите отиват под "
                                             "тестето (T12), но при празно тесте {cards} "
                                             "излязоха от играта.",
    "tutorial.totem_wars.no_winner.recap": "Всеки рунд имаше победител. Ако никой не спечели "
                                           "рунд, картите му отиват под тестето (T12).",
    "tutorial.totem_wars.no_winner.ask": "Прочети къде отидоха картите, после OK",
    "tutorial.totem_wars.empty_deck.page": "Тестето е празно: без допълване. Играйте с "
                                           "ръцете; без карти стоиш отвън. Последният с карти "
                                           "ги слага и взема (T14).",
    "tutorial.totem_wars.empty_deck.ask": "Прочети как свършва играта, после OK",
    "tutorial.totem_wars.end.page": "Тестето и ръцете са празни: край. 1 точка за тотема, +1 "
                                    "за всяка взета карта от племето му (T15): {scores}. "
                                    "{won}",
    "tutorial.totem_wars.end.wins": "{name} печели.",
    "tutorial.totem_wars.end.shared": "Делят: {names}.",
    "tutorial.totem_wars.end.ask": "Прочети крайните точки, после OK",
    "tutorial.totem_wars.big.page": "Малките игри се събират в голяма: раздаващият се мести "
                                    "с едно място по часовника, а първият с 42 печели (T16).",
    "tutorial.totem_wars.big.ask": "OK: страниците с резултата",
    "tutorial.totem_wars.wrong.at_least_level": "Нивото е {level}: сложи поне {level} карти "
                                                "или повече, за да вдигнеш.",
    "tutorial.totem_wars.wrong.answer_exactly": "Отговорът стига до нивото, никога над него: "
                                                "точно {cards}.",
    "tutorial.totem_wars.wrong.totem_down": "Тази карта вече е тотем: всеки слага карта от "
                                            "своята ръка.",
    "tutorial.totem_wars.wrong.card_on_table": "Тази карта вече е на масата: слагай карти от "
                                               "ръката си.",
    "tutorial.totem_wars.wrong.card_totem": "Тотемът стои на масата цялата игра: слагай "
                                            "карти от ръката си.",
    "tutorial.totem_wars.wrong.card_taken": "Взетите карти са в купчина с гръб, извън "
                                            "играта.",
    "tutorial.totem_wars.wrong.card_scanned": "Картата вече е сканирана: сканирай всяка "
                                              "веднъж.",

    # Refusals of the rules engines: no rule numbers (the rule is shown after the text);
    # {x:piece}, {x:card}, {x:cards} … put a raw value into Bulgarian words (text.WORD_KINDS).
    "refusal.game_over": "играта свърши",
    "refusal.nothing_to_undo": "няма какво да се отмени",
    # Wakanda.
    "refusal.not_your_turn": "ред е на {name}",
    "refusal.not_turn_of": "не е ред на {name}",
    "refusal.turn_up_first": "първо се обръща село {village}",
    "refusal.no_reveal": "сега няма плочка за обръщане",
    "refusal.unknown_piece": "непозната фигура {piece!r}",
    "refusal.one_draw": "по едно теглене на ход: сега строй или вземи село",
    "refusal.bag_empty": "торбата е празна: строй или вземи село без теглене",
    "refusal.none_in_bag": "в торбата вече няма {piece:piece}",
    "refusal.draw_first": "първо тегли: торбата не е празна",
    "refusal.empty_pole": "тотемът е празен: за вземане трябва фигура",
    "refusal.no_pass": "не се пасува, докато има възможен ход",
    "refusal.not_wakanda_move": "не е ход от Уаканда: {move!r}",
    "refusal.no_such_village": "няма село {village}: селата са от 1 до {last}",
    "refusal.not_open": "село {village} още не е отворено",
    "refusal.claimed": "село {village} вече е взето",
    "refusal.unknown_village": "непознато село {tile!r}",
    "refusal.tile_in_row": "плочката {tile:village} вече е в реда",
    # Totem Wars.
    "refusal.totems_first": "преди първия рунд всеки играч слага тотем",
    "refusal.totems_laid": "тотемите вече са сложени",
    "refusal.not_totem_wars_move": "не е ход от Тотемни войни: {move!r}",
    "refusal.one_totem_each": "по един тотем на играч: {players} карти, а не {given}",
    "refusal.holds_only": "{name} държи само {hand:cards}",
    "refusal.last_places_all": "{name} е последният играч с карти и слага всичките {hand}",
    "refusal.answer_exactly": "{name} отговаря с точно {count:cards}",
    "refusal.starter_places_one": "започващият слага поне 1 карта",
    "refusal.all_in": "{name} има по-малко от {level} карти и слага всичките {hand}",
    "refusal.at_least_level": "сложи поне {level} карти, колкото е нивото на рунда",
    "refusal.no_cards_named": "не са посочени карти",
    "refusal.not_in_deck": "{card} не е карта от това тесте",
    "refusal.named_twice": "{card:card} е посочена два пъти",
    "refusal.totem_card": "{card:card} е тотем и остава на масата цялата игра",
    "refusal.on_table": "{card:card} вече е на масата",
    "refusal.taken_card": "{card:card} е взета и е в купчина с взети карти",
    "refusal.out_of_game": "{card:card} излезе от играта",
    "refusal.declare_first": "първо {name} обявява средата на тотема",
    "refusal.no_declaration": "не се чака обявяване на среда",
    "refusal.not_a_habitat": "{habitat!r} не е среда: вода, суша или въздух",
    "refusal.not_totem_habitat": "тотемът на {name} няма среда {habitat:habitat}",
}
