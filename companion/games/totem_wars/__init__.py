"""Totem Wars (rules/totem-wars.md): deck, best arrangements, the game, records, bots, matches.

The package offers what every game package offers the command line (``read_record``,
``score_json``, ``format_score``, ``moves_json``, ``format_moves``) and the engine itself,
python-chess-like: ``TotemWars``, the moves ``ChooseTotems`` and ``Play``, ``IllegalMove``.
"""

from companion.games.totem_wars.arrangement import Arrangement, Column, best_arrangement, war_grouping
from companion.games.totem_wars.deck import (HABITATS, TRIBES, Card, Deck, DeckError, default_deck,
                                             deck_from_list, load_deck)
from companion.games.totem_wars.game import Outcome, TotemWars
from companion.games.totem_wars.match import Match
from companion.games.totem_wars.moves import ChooseTotems, IllegalMove, Play
from companion.games.totem_wars.record import event_line, header_line, read_record, write_record
from companion.games.totem_wars.report import format_moves, format_score, moves_json, score_json
from companion.games.totem_wars.rounds import RoundResult, habitat_winner, refill_order
from companion.games.totem_wars.simulation import Simulation, deal, greedy_bot, play_game, random_bot

__all__ = [
    "Arrangement", "Card", "ChooseTotems", "Column", "Deck", "DeckError", "HABITATS", "IllegalMove",
    "Match", "Outcome", "Play", "RoundResult", "Simulation", "TRIBES", "TotemWars", "best_arrangement",
    "deal", "deck_from_list", "default_deck", "event_line", "format_moves", "format_score",
    "greedy_bot", "habitat_winner", "header_line", "load_deck", "moves_json", "play_game",
    "random_bot", "read_record", "refill_order", "score_json", "war_grouping", "write_record",
]
