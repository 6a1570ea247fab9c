"""The start menu and the set-up: names, variant, tiles by scan or buttons, who starts."""

import json
import random

from box_helpers import choose

from companion.events import Hold, Press, Tag, TagGone
from companion.games import GAMES
from companion.table.flow import ToRules, ToTutorial
from companion.table.registry import TagRegistry
from companion.table.session import Session

ROW = ["teepee", "eagle", "chief", "variety", "sun", "tomahawk"]


def make(tmp_path, players=(), seed=1):
    registry = TagRegistry(tmp_path / "tags.json", {"0B00000001": "village:sun"})
    return Session(tmp_path / "data", registry, players=players, rng=random.Random(seed))


def header(s):
    return json.loads((s.data_dir / "current.jsonl").read_text().splitlines()[0])


def test_menu_offers_both_games(tmp_path):
    s = make(tmp_path)
    assert s.screen == "menu"
    assert s.view.choice.labels == (*(f"New: {entry.shown_title()}" for entry in GAMES.values()),
                                    *(f"Learn {entry.shown_title()}" for entry in GAMES.values() if entry.lessons),
                                    "Settings", "Rules")
    assert s.view.choice.labels[:2] == ("New: Wakanda", "New: Totem Wars")
    choose(s, "totem-wars")
    assert s.screen == "setup" and s.view.choice.title == "Totem Wars: players"
    s.handle(Press("back"))                                 # back out of the set-up
    assert s.screen == "menu" and s.view.choice.value == "wakanda"
    s.handle(Press("ok"))
    assert s.screen == "setup" and s.view.choice.title == "Variant"


def test_buttons_only_set_up_with_default_names(tmp_path):
    s = make(tmp_path)
    s.handle(Press("ok"))
    assert s.flow.current == "variant"                      # no names configured: none asked
    s.handle(Press("ok"))                                   # open
    for village in ROW:
        assert s.flow.current == "tiles"
        for _ in range(10):
            if s.view.choice.value == village:
                break
            s.handle(Press("down"))
        s.handle(Press("ok"))
    s.handle(Press("down"))                                 # Player 2 starts
    s.handle(Press("ok"))
    assert s.screen == "board"
    assert header(s) == {"game": "wakanda", "players": ["Player 1", "Player 2"],
                         "villages": ROW, "first": 1, "hints": True}   # hints on, the default


def test_names_from_the_configured_list(tmp_path):
    s = make(tmp_path, players=("Ana", "Ben", "Cleo"))
    s.handle(Press("ok"))
    assert s.flow.current == "name0"
    assert s.view.choice.labels == ("Ana", "Ben", "Cleo", "Player 1", "The box")
    s.handle(Press("down")); s.handle(Press("down"))        # Cleo wears the Wings
    s.handle(Press("ok"))
    assert s.view.choice.labels == ("Ana", "Ben", "Player 2", "The box")  # Cleo is taken
    s.handle(Press("ok"))                                   # Ana
    s.handle(Press("ok"))                                   # open
    for village in ROW:
        s.handle(Tag(f"village:{village}")); s.handle(TagGone(f"village:{village}"))
    assert s.view.choice.labels == ("Cleo", "Ana", "Draw lots")
    s.handle(Press("ok"))
    assert header(s)["players"] == ["Cleo", "Ana"]


def test_hidden_variant_takes_three_tiles(tmp_path):
    s = make(tmp_path)
    s.handle(Press("ok"))
    s.handle(Press("down")); s.handle(Press("ok"))          # hidden
    for village in ROW[:3]:
        s.handle(Tag(f"village:{village}")); s.handle(TagGone(f"village:{village}"))
    assert s.flow.current == "first"
    s.handle(Press("ok"))
    assert s.game.villages == ("teepee", "eagle", "chief", None, None, None)
    assert header(s)["variant"] == "hidden"


def test_a_tile_scanned_twice_or_a_piece_is_explained(tmp_path):
    s = make(tmp_path)
    s.handle(Press("ok")); s.handle(Press("ok"))
    s.handle(Tag("0B00000001"))                             # an enrolled tag: the sun tile
    out = s.handle(Tag("village:sun"))
    assert out.signal == "refused" and s.message == "Sun is tile 1 already"
    out = s.handle(Tag("eagle"))
    assert out.signal == "refused" and s.message == "Eagle: scan tile 2"   # what it is, what is wanted
    assert s.flow.tiles == ["sun"]
    assert "sun" not in s.view.choice.values                # no longer offered


def test_back_steps_back_tile_by_tile_then_to_the_menu(tmp_path):
    s = make(tmp_path)
    s.handle(Press("ok")); s.handle(Press("ok"))
    for village in ROW[:2]:
        s.handle(Tag(f"village:{village}")); s.handle(TagGone(f"village:{village}"))
    s.handle(Press("back"))
    assert s.flow.tiles == ["teepee"]
    s.handle(Press("back")); s.handle(Press("back"))
    assert s.flow.current == "variant"
    s.handle(Press("back"))
    assert s.screen == "menu"
    assert not (s.data_dir / "current.jsonl").exists()      # nothing started


def test_draw_lots_for_the_start_player(tmp_path):
    firsts = set()
    for seed in range(8):
        s = make(tmp_path / str(seed), seed=seed)
        s.handle(Press("ok")); s.handle(Press("ok"))
        for village in ROW:
            s.handle(Tag(f"village:{village}")); s.handle(TagGone(f"village:{village}"))
        s.handle(Press("down")); s.handle(Press("down")); s.handle(Press("ok"))
        # The lot said, and what the player it chose does now (W4): the note replaces the prompt.
        assert s.message == f"Drawn by lot. {s.game.name(s.game.first)}: draw and scan"
        firsts.add(s.game.first)
    assert firsts == {0, 1}


def test_scans_and_holds_at_the_menu_do_nothing(tmp_path):
    s = make(tmp_path)
    s.handle(Tag("eagle"))
    assert s.screen == "menu" and "Choose a game" in s.message
    s.handle(Hold("v1"))
    assert s.screen == "menu"


def test_new_game_keeps_an_unfinished_one_aside(tmp_path):
    s = make(tmp_path)
    s.handle(Press("ok")); s.handle(Press("ok"))
    for village in ROW:
        s.handle(Tag(f"village:{village}")); s.handle(TagGone(f"village:{village}"))
    s.handle(Press("ok"))
    s.handle(Tag("sun")); s.handle(TagGone("sun"))
    s.handle(Hold("back")); s.handle(Press("ok"))           # leave: kept for resume
    assert s.view.choice.values == ("resume", *GAMES, *(ToTutorial(name) for name, entry in GAMES.items()
                                                         if entry.lessons), "settings", ToRules())
    choose(s, "wakanda")                                    # new game instead: asked first
    assert s.view.question == "Start a new game?"
    s.handle(Press("ok"))                                   # yes: the kept one stays
    s.handle(Press("ok"))
    for village in ROW:
        s.handle(Tag(f"village:{village}")); s.handle(TagGone(f"village:{village}"))
    s.handle(Press("ok"))
    kept = list((s.data_dir / "games").iterdir())
    assert len(kept) == 1 and kept[0].name.endswith("-unfinished.jsonl")
    assert '"draw": "sun"' in kept[0].read_text()
    assert s.game.history == ()
    s.handle(Hold("back")); s.handle(Press("ok"))
    assert s.view.choice.labels[:2] == ("Resume Wakanda", "Resume Wakanda")  # both offered


def test_an_unreadable_unfinished_game_is_not_offered_but_kept(tmp_path):
    s = make(tmp_path)
    (s.data_dir).mkdir(parents=True, exist_ok=True)
    (s.data_dir / "current.jsonl").write_text('{"game": "wakanda", "players": 3}\n')
    s = make(tmp_path)
    assert s.view.choice.values[0] == "wakanda" and s.message == "Unreadable game set aside"
    s.handle(Press("ok")); s.handle(Press("ok"))
    for village in ROW:
        s.handle(Tag(f"village:{village}")); s.handle(TagGone(f"village:{village}"))
    s.handle(Press("ok"))
    assert s.screen == "board"
    assert len(list((s.data_dir / "games").iterdir())) == 1


def test_scanning_the_first_tile_at_the_variant_step_takes_the_variant_shown(tmp_path):
    s = make(tmp_path)
    s.handle(Press("ok"))
    s.handle(Press("down"))                                 # hidden
    out = s.handle(Tag("village:teepee"))                   # the tile is not lost
    assert out.signal == "accepted"
    assert s.flow.variant == "hidden" and s.flow.tiles == ["teepee"]
    assert s.view.choice.title == "Scan tile 2 of 3"


def test_menu_lines_fit_the_screen_and_name_the_game_to_resume(tmp_path):
    from companion.ui.screens import MENU_LINE_CHARS
    s = make(tmp_path)
    s.handle(Press("ok"))
    assert all(len(label) <= MENU_LINE_CHARS for label in s.view.choice.labels)
    s.handle(Press("ok"))
    for village in ROW:
        s.handle(Tag(f"village:{village}")); s.handle(TagGone(f"village:{village}"))
    s.handle(Press("ok"))
    s.handle(Hold("back")); s.handle(Press("ok"))           # leave: kept for resume
    assert s.view.choice.labels[0] == "Resume Wakanda"
    assert s.view.footer == "Player 1 v Player 2"           # whose game, under the list
    assert all(len(label) <= MENU_LINE_CHARS for label in s.view.choice.labels)
    s.handle(Press("down"))
    assert s.view.footer is None                            # only while Resume is chosen
