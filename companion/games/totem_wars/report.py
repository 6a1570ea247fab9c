"""What ``score`` and ``moves`` print for a Totem Wars game, as JSON or as readable text.

The score's words are in the language being spoken (``score --language``), built from the
engine's ``Outcome`` (winners, rule) and the game's points; the JSON keeps machine English.
"""

from __future__ import annotations

from companion.files import printable
from companion.games.totem_wars.arrangement import Arrangement, Column
from companion.games.totem_wars.deck import TRIBES
from companion.games.totem_wars.game import TotemWars
from companion.games.totem_wars.moves import Count, DealDue, Declare, LegalMove
from companion.games.totem_wars.rounds import REMOVED, RoundResult
from companion.games.totem_wars.words import animal_in_text, card_label, cards, t


def score_json(game: TotemWars) -> dict[str, object]:
    """The score object of ``score --json``: per player name, totem, points (T15) and taken per tribe."""
    outcome = game.outcome()
    return {
        "game": "totem-wars",
        "finished": outcome is not None,
        "winners": list(outcome.winners) if outcome else [],
        "players": [{"name": name,
                     "totem": totem.name if totem else None,
                     "points": game.points(p),
                     "taken": game.taken_by_tribe(p)}
                    for (p, name), totem in zip(enumerate(game.players), game.totems)],
    }


def legal_line(player: int | None, move: LegalMove) -> dict[str, object]:
    """A legal move of ``moves --json``: ``{"p": 1, "count": 2}`` for a ``Count``,
    ``{"totems": 3}`` for ``TotemsDue``, the record line ``{"p": 1, "habitat": "land"}`` for
    a ``Declare``.

    >>> from companion.games.totem_wars.moves import TotemsDue
    >>> legal_line(1, Count(2)), legal_line(None, TotemsDue(3)), legal_line(0, Declare("air"))
    ({'p': 1, 'count': 2}, {'totems': 3}, {'p': 0, 'habitat': 'air'})
    """
    if isinstance(move, Count):
        return {"p": player, "count": move.n}
    if isinstance(move, Declare):
        return {"p": player, "habitat": move.habitat}
    if isinstance(move, DealDue):  # a card dealt onto a spot of a seat the box plays
        return {"p": move.seat, "deal": move.spot}
    return {"totems": move.n}


def moves_json(game: TotemWars) -> dict[str, object]:
    """The legal next record lines: ``{"p": 1, "count": 2}`` per legal count (hands are
    hidden), or while a war waits for a declaration each ``{"p": 1, "habitat": "land"}``
    the totem allows, the best for its owner first (R2).

    While the totems are chosen nobody in particular is to move and the one legal line is a
    totems line with one card per player: ``{"totems": 3}``.
    """
    p = game.to_move
    return {"to_move": p, "moves": [legal_line(p, move) for move in game.legal_moves()]}


def _names(game: TotemWars) -> list[str]:
    """The players' names as the text reports print them: a record made elsewhere may hold
    control characters (terminal escape codes) in a name, so they are escaped."""
    return [printable(name) for name in game.players]


def _either(items: list[str]) -> str:
    """``1, 2 or 3`` in the language spoken."""
    if len(items) == 1:
        return items[0]
    return t("tw.moves.or", a=", ".join(items[:-1]), b=items[-1])


def format_moves(game: TotemWars) -> str:
    """The legal next moves in words, in the language spoken (``moves --language``)."""
    if game.phase == "over":
        return t("tw.moves.over")
    deal = game.deal_due
    if deal is not None:  # a seat the box plays: its card first, face down on its spot
        rule = "T2" if game.phase == "totems" else "T13"
        return t("tw.moves.deal", name=_names(game)[deal.seat], spot=deal.spot, rule=rule)
    if game.phase == "totems":
        return t("tw.moves.totems", n=len(game.players))
    p = game.to_move
    assert p is not None  # in play, someone places or declares next
    name = _names(game)[p]
    round_number = len(game.rounds) + 1
    due = game.declaration_due
    if due is not None:
        habitats = [t(f"habitat.{move.habitat}") for move in game.legal_moves() if isinstance(move, Declare)]
        totem = game.totems[p]
        assert totem is not None  # a war is of totems on the table
        return t("tw.moves.declare", round=round_number, name=name, totem=card_label(totem),
                 habitats=_either(habitats), best=habitats[0])
    if game.level == 0:
        key = "tw.moves.starts"
    elif game.table[p]:
        key = "tw.moves.answers"
    else:
        key = "tw.moves.at_least"
    numbers = [move.n for move in game.legal_moves() if isinstance(move, Count)]
    counts = t("tw.moves.counts", list=_either([str(n) for n in numbers]), plural_by=numbers[-1])
    return t(key, round=round_number, name=name, level=game.level, held=game.hand_sizes[p], counts=counts)


def _columns(arrangement: Arrangement) -> str:
    """A player's columns in words: ``Indians: hawk* raven | Aborigines: dingo`` (the totem
    starred; a column's key is a tribe, or in a war a habitat)."""
    def column(c: Column) -> str:
        key = t(f"tribe.{c.key}") if c.key in TRIBES else t(f"habitat.{c.key}")
        names = [animal_in_text(card.animal) + ("*" if c.totem and i == 0 else "") for i, card in enumerate(c.cards)]
        return f"{key}: {' '.join(names)}"
    return " | ".join(column(c) for c in arrangement.columns)


def _round_lines(game: TotemWars, r: RoundResult) -> list[str]:
    names = _names(game)
    n = len(names)
    order = [(r.starter + i) % n for i in range(n)]
    played = ", ".join(f"{names[p]} {len(r.placed[p])}" for p in order if r.placed[p])
    lines = [t("tw.score.round", n=r.number, name=names[r.starter], placed=played)]
    for p in order:
        arrangement = r.arrangements[p]
        if arrangement is not None:
            lines.append("  " + t("tw.score.columns", name=names[p], n=arrangement.points,
                                  columns=_columns(arrangement)))
    if r.war:
        lines.append("  " + t("tw.score.war", names=", ".join(names[p] for p in r.warring)))
        for p in r.warring:
            grouping = r.war_groupings[p]
            if grouping is not None:
                lines.append("    " + t("tw.score.columns", name=names[p], n=grouping.points,
                                          columns=_columns(grouping)))
        declared = [p for p in range(n) if r.declared[p]]
        if declared:
            lines.append("  " + t("tw.score.declared",
                                  list=", ".join(f"{names[p]} {t(f'habitat.{r.declared[p]}')}" for p in declared)))
        read = [p for p in range(n) if r.read_as and r.read_as[p]]
        if read:  # an old record's war: nobody chose, never said as a declaration
            lines.append("  " + t("tw.score.not_declared", list=", ".join(
                t("tw.score.read_as", name=names[p], habitat=t(f"habitat.{r.read_as[p]}")) for p in read)))
        compared = [p for p in range(n) if r.habitats[p]]
        if compared:
            lines.append("  " + t("tw.score.habitats",
                                  list=", ".join(f"{names[p]} {t(f'habitat.{r.habitats[p]}')}" for p in compared)))
    count = cards(len(r.cards))
    if r.taker is not None:
        rule = t("tw.score.last_player") if r.last_player else r.rule
        lines.append("  " + t("tw.score.takes", name=names[r.taker], cards=count, rule=rule))
    elif r.destination == REMOVED:
        lines.append("  " + t("tw.score.removed", cards=count, rule=r.rule))
    else:
        lines.append("  " + t("tw.score.under", cards=count, rule=r.rule))
    if r.refill:
        lines.append("  " + t("tw.score.refill", list=", ".join(f"{names[p]} {c}" for p, c in r.refill)))
    return lines


def format_score(game: TotemWars) -> str:
    """Every round (cards played, points, best arrangements, war, who took the cards), then
    each player's points and the winner (or the provisional score of an unfinished game),
    in the language being spoken."""
    names = _names(game)
    lines = [t("tw.score.header", title=t("game.totem_wars"), names=", ".join(names), dealer=names[game.dealer])]
    if game.phase != "totems":
        totems = ", ".join(f"{names[p]} {card_label(c)}" for p, c in enumerate(game.totems))
        lines.append(t("tw.demo.totems", list=totems))
    for r in game.rounds:
        lines += _round_lines(game, r)
    outcome = game.outcome()
    lines.append(t("tw.score.final") if outcome else t("tw.score.provisional"))
    for p, name in enumerate(names):
        totem = game.totems[p]
        if totem is None:
            lines.append("  " + t("tw.score.no_totem", name=name))
            continue
        own = game.taken_by_tribe(p)[totem.tribe]
        lines.append("  " + t("tw.score.player", name=name, points=game.points(p), totem=animal_in_text(totem.animal),
                              own=own, tribe=t(f"tribe.{totem.tribe}"), taken=len(game.taken[p])))
    if outcome:
        lines.append(result_line(game))
    return "\n".join(lines)


def result_line(game: TotemWars) -> str:
    """Who won the finished small game and with how many points, with the rule:
    ``Ana wins with 5 points (T15)``, ``Ana and Ben share the win with 3 points (T15)``.
    ``ValueError`` before the end."""
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    winners = [_names(game)[p] for p in outcome.winners]
    points = t("tw.report.points", n=game.points(outcome.winners[0]))
    if outcome.winner is not None:
        return t("tw.report.wins", name=winners[0], points=points, rule=outcome.rule)
    names = winners[0]
    for name in winners[1:]:
        names = t("tw.report.and", a=names, b=name)
    return t("tw.report.share", names=names, points=points, rule=outcome.rule)
