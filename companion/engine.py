"""What every rules engine offers, whatever the game: the ``Engine`` protocol, the one
``IllegalMove`` a refused move raises, the ``Refusal`` a view shows, and the ``Outcome``.

Modelled on python-chess: ``legal_moves()``, ``push``/``pop`` and ``outcome()`` returning an
``Outcome(winners, termination, rule)``. A refusal is data (a message key of a game's
catalogue, its parameters, the rule and the catalogue's domain), so that it can be shown in
any language and never has to be parsed back out of a sentence.

>>> exc = IllegalMove("not_open", rule="W4", domain="wakanda", village=5)
>>> str(exc), exc.reason, exc.rule
('village 5 is not open yet (W4)', 'village 5 is not open yet', 'W4')
>>> exc.refusal
Refusal(key='not_open', params={'village': 5}, rule='W4', domain='wakanda')
>>> from companion.ui.text import refusal_text
>>> refusal_text(exc.refusal, "en"), refusal_text(exc.refusal, "bg")
('Village 5 is not open yet — W4', 'Село 5 още не е отворено — W4')

Both engines satisfy ``Engine``; the parameter is the game's move type:

>>> from companion.games.wakanda import Wakanda
>>> game = Wakanda(["teepee", "eagle", "chief", "variety", "sun", "tomahawk"])
>>> isinstance(game, Engine), game.history, game.outcome()
(True, (), None)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol, TypeVar, runtime_checkable

from companion.errors import UserError
from companion.words import catalogue


@dataclass(frozen=True)
class Refusal:
    """Why a move was refused: the catalogue ``key`` (its text is ``refusal.<key>`` of the
    gettext ``domain``: the game's, or the shared ``companion``), the raw ``params`` the text
    is filled with (numbers, names, piece kinds, cards — never words of a language), and the
    ``rule`` number (``"W4"``) players look up. ``companion.ui.text.refusal_text`` puts it
    into words.

    Hashable like the moves (``params`` are compared and hashed by their items).
    """

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    rule: str | None = None
    domain: str = "companion"

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted(self.params.items())), self.rule, self.domain))


class Cited(str):
    """A note that cites the rule behind it: the words as shown (in the box's language), and
    the ``rule`` as data, so that the hint button opens that rule's pages without reading it
    back out of the words.

    >>> note = Cited("Ana passed: no move (R3)", "R3")
    >>> note.rule, note == "Ana passed: no move (R3)"
    ('R3', True)
    """

    rule: str

    def __new__(cls, text: str, rule: str) -> Cited:
        note = super().__new__(cls, text)
        note.rule = rule
        return note


class IllegalMove(UserError):
    """A move the rules forbid: ``IllegalMove("not_open", rule="W4", domain="wakanda",
    village=5)``.

    ``refusal`` is the value a screen shows (in the box's language); ``str(exc)`` is the
    machine English line for records and the command line: ``village 5 is not open yet
    (W4)``. The key must be in the domain's catalogue (``refusal.<key>``).
    """

    def __init__(self, key: str, *, rule: str | None = None, domain: str = "companion", **params: Any):
        self.refusal = Refusal(key, params, rule, domain)
        super().__init__(self.reason + (f" ({rule})" if rule else ""))

    @property
    def key(self) -> str:
        """The message key."""
        return self.refusal.key

    @property
    def rule(self) -> str | None:
        """The rule the move breaks, e.g. ``"W4"``; ``None`` when no rule is at stake."""
        return self.refusal.rule

    @property
    def params(self) -> dict[str, Any]:
        """The raw values the message is filled with."""
        return self.refusal.params

    @property
    def reason(self) -> str:
        """The reason in machine English, without the rule: ``village 5 is not open yet``."""
        return catalogue(self.refusal.domain).machine(f"refusal.{self.refusal.key}", **self.refusal.params)

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled as its refusal (not as its English line)."""
        return (_illegal_move, (self.refusal,))


def _illegal_move(refusal: Refusal) -> IllegalMove:
    return IllegalMove(refusal.key, rule=refusal.rule, domain=refusal.domain, **refusal.params)


@dataclass(frozen=True)
class Refusals:
    """The refusals whose words are one gettext ``domain``'s (a game's): its rules engine
    refuses with them.

    >>> Refusals("companion").refusal("nothing_to_undo")
    Refusal(key='nothing_to_undo', params={}, rule=None, domain='companion')
    """

    domain: str

    def refusal(self, key: str, params: dict[str, Any] | None = None, rule: str | None = None) -> Refusal:
        """A refusal whose words are this domain's (``refusal.<key>``)."""
        return Refusal(key, params or {}, rule, self.domain)

    def illegal(self, key: str, *, rule: str | None = None, **params: Any) -> IllegalMove:
        """The ``IllegalMove`` of a refusal of this domain."""
        return IllegalMove(key, rule=rule, domain=self.domain, **params)


class Termination(Enum):
    """How a game ended (python-chess's ``Termination``). Which rule then decided the
    winners is ``Outcome.rule``."""

    #: Wakanda W6: the sixth pole is claimed, the normal end.
    ALL_CLAIMED = "all_claimed"
    #: Wakanda R6: both players passed in a row (only ``empty_claim: never`` reaches it).
    BOTH_PASSED = "both_passed"
    #: Totem Wars T15: the deck and every hand are empty, the normal end of a small game.
    DECK_EXHAUSTED = "deck_exhausted"


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the ``winners`` in seat order (several: a shared win), how it
    ended, and the rule that decided who won — Wakanda ``"W9"`` (the higher total, or on a
    tie the first third headdress) or ``"R6"`` (a tie after both passed: the only third
    headdress, or shared), Totem Wars ``"T15"`` (the most points; a tie is shared).

    The points themselves belong to the game (``Wakanda.score``, ``TotemWars.points``);
    the words of who won and why are the report's and the screens' (``result_line``).
    """

    winners: tuple[int, ...]
    termination: Termination
    rule: str

    @property
    def winner(self) -> int | None:
        """The single winner; ``None`` when the win is shared."""
        return self.winners[0] if len(self.winners) == 1 else None


#: The move type of an engine (``companion.games.wakanda.Move``, ``…totem_wars.Move``).
MoveT = TypeVar("MoveT", bound=Hashable)


@runtime_checkable
class Engine(Protocol[MoveT]):
    """A game's rules engine as the table, the records and the bots see it.

    Generic in its move type: ``engine: Engine[wakanda.Move] = Wakanda(...)``; a plain
    ``Engine`` takes any move. ``legal_moves()`` lists what may be played in the form the
    game can know it: Wakanda's are moves to push, Totem Wars' are counts of cards (hands
    are hidden), a ``Play`` of that many cards being the move.
    """

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, in seat order."""

    @property
    def to_move(self) -> int | None:
        """The seat to move; ``None`` when the game is over (or no one seat moves next)."""

    @property
    def history(self) -> tuple[tuple[int | None, MoveT], ...]:
        """``(player, move)`` pairs, oldest first (player ``None``: a move of no one seat)."""

    @property
    def phase(self) -> str:
        """The game's phase; ``"over"`` once it has ended."""

    def legal_moves(self) -> Sequence[Hashable]:
        """What may be played now, in a stable order (empty when the game is over)."""

    def push(self, move: MoveT) -> None:
        """Play ``move``; ``IllegalMove`` (the state unchanged) when the rules forbid it."""

    def pop(self) -> MoveT:
        """Take back the last move and return it; ``IllegalMove("nothing_to_undo")`` when
        there is none."""

    def outcome(self) -> Outcome | None:
        """The ``Outcome`` once the game is over, else ``None``."""
