"""Text that must stay whole on the small screen: the rule and the OK at the end of a line,
an animal of two words, the last line of a column above a band."""

from tw_table_helpers import match_of

from companion.games.totem_wars import Match, TotemWars, default_deck, play_game, random_bot
from companion.games.totem_wars.round_screens import HABITAT_SHORT, _card_text, _columns, big_game_footer
from companion.games.totem_wars.screens import deal_lines
from companion.games.totem_wars.words import t
from companion.ui.canvas import HEIGHT, MEDIUM, SMALL, WIDTH, new_canvas, note_lines, wrap
from companion.ui.screens import TITLE_HEIGHT

LONG = "Bartholomew-Jay"


def fits(line, font):
    return len(line) * font.width <= WIDTH - 4


def test_a_refusal_too_long_for_the_band_keeps_its_rule():
    lines = note_lines("Place at least 4 cards, the level of this round", rule="T5")
    assert len(lines) == 2 and lines[-1].endswith("… — T5")
    lines = note_lines(f"{LONG} is the last player with cards and places all 3", rule="T14")
    assert len(lines) == 2 and lines[-1].endswith("… — T14")
    assert note_lines("Snake (Indians) is a totem", rule="T2") == ["Snake (Indians) is a", "totem — T2"]


def test_the_deal_reminder_keeps_its_rules_and_the_ok():
    for names in (("Ana", "Ben", "Cleo"), ("Ana", LONG)):
        small, band = deal_lines(TotemWars(names, 0))
        assert small.endswith("(T2), then OK") and len(wrap(small, WIDTH - 6, SMALL)) <= 2
        assert band.endswith(" starts (T3)") and fits(band, MEDIUM)
    assert deal_lines(TotemWars(("Ben", "Cleo", "Ana"), 0)) == (
        "from Cleo (T2), then OK", "Cleo starts (T3)")
    # A name that fits is never shortened: "from Player 2", not "from P2".
    assert deal_lines(TotemWars(("Player 1", "Player 2"), 0))[0] == "from Player 2 (T2), then OK"


def test_the_big_game_line_keeps_its_rule():
    won = match_of(("Ana", "Ben", "Cleo"), (40, 20, 44))
    assert big_game_footer(won) == "Cleo wins (T16)"
    shared = match_of((LONG, "Ben", "Cleo", "Dan"), (42, 42, 12, 42))  # three share it (T16)
    line = big_game_footer(shared)
    assert line.startswith("Shared: Bart") and line.endswith("… (T16)") and fits(line, SMALL)
    line = big_game_footer(Match((LONG, "Ben"), 1).add_points((3, 4)))
    assert line.startswith("Next: Bart") and line.endswith("… deals (T16)") and fits(line, SMALL)


def test_a_two_word_animal_stays_one_word_in_a_column():
    d = default_deck().card
    assert _card_text(d("eskimos/polar_bear"), "eskimos", totem=False) == "polar-bear"
    # A guest shows its tribe's short label as the catalogue writes it.
    assert _card_text(d("eskimos/polar_bear"), "indians", totem=False) == "polar-bear/ESK"
    assert _card_text(d("eskimos/polar_bear"), "indians", totem=False) == "polar-bear/" + t("tribe.eskimos.short")


def test_columns_stop_above_the_band_under_them():
    game, _ = play_game(111, 4, [random_bot] * 4)   # Dan's war grouping needs 6 lines
    grouping = game.rounds[0].war_groupings[3]
    image = new_canvas()
    _columns(image, TITLE_HEIGHT + 2, grouping, HABITAT_SHORT, guest_tribes=False, bottom=48)
    assert not any(image.getpixel((x, y)) for x in range(WIDTH) for y in range(48, HEIGHT))
