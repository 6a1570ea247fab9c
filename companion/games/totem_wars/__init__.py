"""Totem Wars (rules/totem-wars.md): deck, best arrangements, the game, records, bots, matches.

The package offers what every game package offers the command line (``read_record``,
``score_json``, ``format_score``, ``moves_json``, ``format_moves``, ``result_line``) and the
engine itself, python-chess-like and a ``companion.engine.Engine``: ``TotemWars``, the moves
``ChooseTotems``, ``Play``, ``Declare`` (a war's habitat, R2) and ``Deal`` (a card dealt to a seat
the box plays), the legal counts ``Count``
and ``TotemsDue``, and the shared ``IllegalMove`` and ``Outcome``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.lazy_exports import lazy_exports

if TYPE_CHECKING:  # the names as the type checker sees them; at run time, ``__getattr__``
    from companion.engine import IllegalMove, Outcome, Termination
    from companion.games.totem_wars.arrangement import Arrangement, Column, best_arrangement, war_grouping
    from companion.games.totem_wars.deck import (
        HABITATS,
        TRIBES,
        Card,
        Deck,
        DeckError,
        deck_from_list,
        default_deck,
        load_deck,
    )
    from companion.games.totem_wars.game import SetupError, TotemWars
    from companion.games.totem_wars.match import Match
    from companion.games.totem_wars.moves import (
        ChooseTotems,
        Count,
        Deal,
        DealDue,
        Declare,
        LegalMove,
        Move,
        Play,
        TotemsDue,
    )
    from companion.games.totem_wars.record import event_line, header_line, read_record, write_record
    from companion.games.totem_wars.report import format_moves, format_score, moves_json, result_line, score_json
    from companion.games.totem_wars.rounds import DeclarationDue, RoundResult, habitat_winner, refill_order
    from companion.games.totem_wars.simulation import (
        Simulation,
        best_declaration,
        deal,
        greedy_bot,
        play_game,
        random_bot,
    )

__all__ = [
    "Arrangement", "Card", "ChooseTotems", "Column", "Count", "Deal", "DealDue", "DeclarationDue", "Declare", "Deck",
    "DeckError", "HABITATS", "IllegalMove", "LegalMove", "Match", "Move", "Outcome", "Play",
    "RoundResult", "SetupError", "Simulation", "TRIBES", "Termination", "TotemWars", "TotemsDue",
    "best_arrangement", "best_declaration", "deal", "deck_from_list", "default_deck", "event_line",
    "format_moves", "format_score", "greedy_bot", "habitat_winner", "header_line", "load_deck",
    "moves_json", "play_game", "random_bot", "read_record", "refill_order", "result_line",
    "score_json", "war_grouping", "write_record",
]

#: The module of each exported name (a submodule of the same name is that module).
_FROM = {
    "companion.engine": ("IllegalMove", "Outcome", "Termination"),
    "companion.games.totem_wars.arrangement": ("Arrangement", "Column", "best_arrangement", "war_grouping"),
    "companion.games.totem_wars.deck": ("HABITATS", "TRIBES", "Card", "Deck",
                                        "DeckError", "deck_from_list", "default_deck", "load_deck"),
    "companion.games.totem_wars.game": ("SetupError", "TotemWars"),
    "companion.games.totem_wars.match": ("Match",),
    "companion.games.totem_wars.moves": ("ChooseTotems", "Count", "Deal", "DealDue",
                                         "Declare", "LegalMove", "Move", "Play", "TotemsDue"),
    "companion.games.totem_wars.record": ("event_line", "header_line", "read_record", "write_record"),
    "companion.games.totem_wars.report": ("format_moves", "format_score", "moves_json", "result_line", "score_json"),
    "companion.games.totem_wars.rounds": ("DeclarationDue", "RoundResult", "habitat_winner", "refill_order"),
    "companion.games.totem_wars.simulation": ("Simulation", "best_declaration", "deal",
                                              "greedy_bot", "play_game", "random_bot"),
}

#: An exported name, its module imported when it is first asked for: the registry and the
#: menu take the game's words without its engine.
__getattr__ = lazy_exports(__name__, _FROM, globals())
