"""What ``score`` and ``moves`` print for a Wakanda game: JSON (the shape other tools rely on) and readable text.

The words of who won and why are here (in the language being spoken, ``score --language``),
built from the engine's ``Outcome`` (winners, termination, rule) and the totals; and the
review of ``score --review`` (``review.py``): where each player lost the most points.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine import Termination
from companion.files import printable
from companion.games.wakanda.game import Wakanda
from companion.games.wakanda.moves import Build, Claim, Draw, Move, Reveal
from companion.games.wakanda.reasons import move_words
from companion.games.wakanda.record import event_line
from companion.games.wakanda.rules import ROW
from companion.games.wakanda.words import in_text, t


def score_json(game: Wakanda) -> dict[str, object]:
    """The ``score --json`` object: final figures, or provisional ones with ``finished`` false."""
    outcome = game.outcome()
    players = []
    for player, name in enumerate(game.players):
        b = game.score(player)
        players.append({"name": name, "total": b.total, "villages": b.villages,
                        "sun_penalty": b.sun_penalty})
    return {"game": "wakanda", "finished": outcome is not None,
            "winners": list(outcome.winners) if outcome else [], "players": players}


def moves_json(game: Wakanda) -> dict[str, object]:
    """The ``moves --json`` object: the event lines that would be legal next."""
    if game.to_move is None:
        return {"to_move": None, "moves": []}
    player = None if game.phase == "reveal" else game.to_move
    return {"to_move": game.to_move,
            "moves": [event_line(player, move) for move in game.legal_moves()]}


def _names(game: Wakanda) -> list[str]:
    """The players' names as the text reports print them: a record made elsewhere may hold
    control characters (terminal escape codes) in a name, so they are escaped."""
    return [printable(name) for name in game.players]


def _village_label(game: Wakanda, index: int) -> str:
    name = game.villages[index]
    return f"{index + 1} {in_text(name) if name else t('report.face_down')}"


def format_score(game: Wakanda) -> str:
    """A readable score table: points per village, sun penalty, totals, the winner and why,
    in the language spoken (the JSON form stays the records' machine English)."""
    outcome = game.outcome()
    scores = [game.score(0), game.score(1)]
    names = _names(game)
    width = max(6, *(len(name) for name in names))
    labels = [_village_label(game, i) for i in range(ROW)]
    words = [t("report.village"), t("report.sun_penalty"), t("report.total")]
    label_width = max(14, *(len(label) + 1 for label in [*labels, *words]))

    def row(label: str, cells: Sequence[str]) -> str:
        return f"{label:<{label_width}}" + "".join(f"{cell:>{width + 2}}" for cell in cells)

    state = t("report.finished") if outcome else t("report.provisional")
    lines = [t("report.title", a=names[0], b=names[1], state=state), row(words[0], names)]
    for i in range(ROW):
        owner = game.owners[i]
        name = game.villages[i]
        cells = [str(scores[p].villages[name]) if owner == p and name else "." for p in (0, 1)]
        lines.append(row(labels[i], cells))
    lines.append(row(words[1], [str(s.sun_penalty) for s in scores]))
    lines.append(row(words[2], [str(s.total) for s in scores]))
    if outcome is None:
        to_move = game.to_move
        assert to_move is not None  # not over: someone moves next
        lines.append(t("report.to_move", name=names[to_move]))
    elif outcome.winner is None:
        lines.append(t("report.no_winner", why=outcome_reason(game)))
    else:
        lines.append(t("report.winner", name=names[outcome.winner], why=outcome_reason(game)))
    return "\n".join(lines)


def format_moves(game: Wakanda) -> str:
    """A readable list of the legal next moves, one a line, in the language spoken
    (``moves --language``)."""
    if game.to_move is None:
        return t("report.moves.over")
    name = _names(game)[game.to_move]
    if game.phase == "reveal":
        head = t("report.moves.reveal_head", n=game.open_count, name=name)
    elif game.phase == "draw":
        head = t("report.moves.draw_head", name=name)
    else:
        head = t("report.moves.head", name=name)
    return "\n".join([head] + [f"  {_move_text(move)}" for move in game.legal_moves()])


def _move_text(move: Move) -> str:
    """A legal move in words: ``draw eagle``, ``build eagle on village 2``, ``claim village 2``."""
    if isinstance(move, Draw):
        return t("report.moves.draw", piece=in_text(move.piece))
    if isinstance(move, Reveal):
        return t("report.moves.reveal", village=in_text(move.village))
    return move_words(move)


def outcome_reason(game: Wakanda) -> str:
    """Why the finished ``game`` ended as it did, with its rules (``ValueError`` before the end):

    - ``higher total (W9)``, and after both passed (R6) ``higher total (W9); the game ended
      early: both players passed (R6)``;
    - on a tie: ``tie broken by the third headdress (W9)``, or after both passed ``tie won
      by the only player who placed a third headdress (R6)`` or ``shared: equal totals and
      no third headdress placed (R6)``.
    """
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    early = outcome.termination is Termination.BOTH_PASSED
    if game.score(0).total != game.score(1).total:
        return t("report.why.higher_early" if early else "report.why.higher", rule=outcome.rule)
    if not early:
        return t("report.why.tie_third", rule=outcome.rule)
    if outcome.winner is not None:
        return t("report.why.only_third", rule=outcome.rule)
    return t("report.why.shared", rule=outcome.rule)


def result_line(game: Wakanda) -> str:
    """``Ana wins 20 to 16`` (or a shared win), with the tie-break when there was one:
    ``Ana wins 9 to 9: tie broken by the third headdress (W9)``. The game must be over."""
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    totals = [game.score(p).total for p in (0, 1)]
    winner = outcome.winner
    if winner is None:
        return t("report.shared", a=totals[0], b=totals[1])
    text = t("report.wins", name=_names(game)[winner], a=totals[winner], b=totals[1 - winner])
    return text if totals[0] != totals[1] else t("report.wins_because", line=text, why=outcome_reason(game))


# --- the review (``score --review``) ----------------------------------------------------------

def review_json(game: Wakanda) -> dict[str, object]:
    """The ``review`` of ``score --review --json``: per player the moves judged and the
    clear losses, biggest first — the turn, the move played and the better one as record
    lines, the points (the expected final margin over the other player) it would have
    gained and that estimate's standard error, to a tenth. A seat the box played is not
    reviewed (as on the box): ``{"name": "Box", "box": "strong"}``."""
    from companion.games.wakanda.review import review  # with the search: not for the menu

    made = review(game)
    return {"players": [
        {"name": name, "box": game.box[player]} if player in game.box else
        {"name": name, "decisions": made.decisions[player],
         "losses": [{"turn": loss.turn, "played": event_line(player, loss.played),
                     "better": event_line(player, loss.better), "points": round(loss.points, 1),
                     "error": round(loss.error, 1)} for loss in made.losses[player]]}
        for player, name in enumerate(game.players)]}


def format_review(game: Wakanda) -> str:
    """The review in words: ``turn 12: claiming village 2 would have scored 6 more than
    building sun on village 3 (±1.5)``, biggest loss first, for each player."""
    from companion.games.wakanda.review import review  # with the search: not for the menu

    made = review(game)
    lines = [t("review.text.head")]
    for player, name in enumerate(_names(game)):
        if player in game.box:
            lines.append(t("review.text.box", name=name))
            continue
        head = t("review.text.judged", name=name, n=made.decisions[player])
        losses = made.losses[player]
        if not losses:
            lines.append(t("review.text.no_loss", head=head))
            continue
        lines.append(head)
        lines.extend("  " + t("review.text.loss", turn=loss.turn, better=_doing(loss.better), points=round(loss.points),
                              played=_doing(loss.played), error=f"{loss.error:.1f}") for loss in losses)
    return "\n".join(lines)


def _doing(move: Move) -> str:
    """A move as what one does: ``building sun on village 3``, ``claiming village 2``."""
    if isinstance(move, Build):
        return t("review.text.build", piece=in_text(move.piece), n=move.village)
    if isinstance(move, Claim):
        return t("review.text.claim", n=move.village)
    return t("review.text.pass")
