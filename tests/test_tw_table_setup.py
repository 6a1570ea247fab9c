"""Setting up Totem Wars at the table: players, names, dealer, deck, the big game's dealer."""

import pytest
from tw_table_helpers import choose, make

from companion.events import Press
from companion.games.totem_wars import Match, default_deck
from companion.games.totem_wars.big_game_store import BigGame, save_big_game
from companion.games.totem_wars.deck_transcription import deck_text
from companion.games.totem_wars.setup_flow import DECKS_FOLDER, TotemWarsSetupFlow
from companion.table.flow import ToMenu, ToStart


def pick(flow, value):
    """Move the flow's list to ``value`` and press OK; the reply."""
    for _ in range(10):
        if flow.choice.value == value:
            return flow.handle(Press("ok"))
        flow.handle(Press("down"))
    raise AssertionError(f"{value!r} not offered")


def test_steps_names_and_dealer_give_the_settings():
    flow = TotemWarsSetupFlow(("Ana", "Ben", "Cleo"))
    for value in (3, "Cleo", "Ana"):
        pick(flow, value)
    assert flow.step == "name2"
    assert flow.choice.labels == ("Ben", "Player 3")             # names already seated leave
    flow.handle(Press("ok"))
    assert flow.choice.title == "Who deals?" and flow.choice.labels == ("Cleo", "Ana", "Ben")
    flow.handle(Press("down"))
    reply = flow.handle(Press("ok"))
    assert isinstance(reply.then, ToStart)
    settings = reply.then.settings
    assert settings.players == ("Cleo", "Ana", "Ben") and settings.dealer == 1
    assert settings.deck == default_deck() and settings.deck_name == "Default deck"


def test_without_offered_names_players_are_numbered():
    flow = TotemWarsSetupFlow()
    flow.handle(Press("down")); flow.handle(Press("down")); flow.handle(Press("ok"))
    assert flow.choice.labels == ("Player 1", "Player 2", "Player 3", "Player 4")
    assert flow.handle(Press("ok")).then.settings.players[3] == "Player 4"


def test_back_goes_one_step_back_then_to_the_menu():
    flow = TotemWarsSetupFlow(("Ana", "Ben"))
    flow.handle(Press("ok")); flow.handle(Press("ok"))
    assert flow.step == "name1"
    flow.handle(Press("back"))
    assert flow.step == "name0" and flow.choice.value == "Ana"   # the name chosen before
    flow.handle(Press("back"))
    assert flow.handle(Press("back")).then == ToMenu()


def test_a_deck_file_of_the_data_folder_is_offered_and_used(tmp_path):
    folder = tmp_path / "data" / DECKS_FOLDER
    folder.mkdir(parents=True)
    cards = [c if c.name != "indians/snake" else type(c)("indians", "snake", ("water",))
             for c in default_deck()]
    (folder / "our-deck.toml").write_text(deck_text(cards))
    (folder / "broken.toml").write_text("[indians]\nsnake = [\"sky\"]\n")
    t = make(tmp_path)
    choose(t, 2); choose(t, "Ana"); choose(t, "Ben"); choose(t, 0)
    assert t.view.choice.labels == ("Default deck", "broken", "our-deck")
    out = choose(t, folder / "broken.toml")
    assert out.signal == "refused" and t.message == "Broken: not valid — T1a"
    choose(t, folder / "our-deck.toml")
    assert t.screen == "totems" and t.game.deck.card("indians/snake").habitats == ("water",)
    header = (tmp_path / "data" / "current.jsonl").read_text().splitlines()[0]
    assert '"water"' in header and '"deck": [' in header          # resume needs no file


@pytest.mark.parametrize("players, due", [(("Ana", "Ben"), 1), (("Ana", "Cleo"), 0)])
def test_the_dealer_due_in_the_big_game_is_offered_first(tmp_path, players, due):
    save_big_game(tmp_path, BigGame(Match(("Ana", "Ben")).add_points((3, 4))))
    flow = TotemWarsSetupFlow(("Ana", "Ben", "Cleo"), tmp_path)
    flow.handle(Press("ok"))
    for name in players:
        pick(flow, name)
    assert flow.choice.value == due


def test_a_scan_during_set_up_says_what_to_do(tmp_path):
    t = make(tmp_path)
    from tw_table_helpers import scan
    scan(t, "indians/snake")
    assert t.message == "Set-up first: ▲▼ then OK" and t.screen == "setup"


def test_a_damaged_default_deck_is_refused_in_one_line(mocker):
    # The bundled deck is data a maker may edit: when it breaks T1a the set-up names it by
    # its label, as a deck file of the data folder is named, never a traceback.
    from companion.games.totem_wars import DeckError, setup_flow
    mocker.patch.object(setup_flow, "default_deck", side_effect=DeckError("default deck: bad (T1a)"))
    flow = TotemWarsSetupFlow(("Ana", "Ben"))
    for value in (2, "Ana", "Ben"):
        pick(flow, value)
    reply = flow.handle(Press("ok"))
    assert reply.signal == "refused" and reply.then is None
    assert flow.view().footer.params == {"deck": "Default deck"} and flow.view().footer.rule == "T1a"
