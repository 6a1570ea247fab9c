"""What the box says for the view on its screen: pure, view in, words out.

The words are the screen's own message values (the prompt, what the last action did, the
refusal, the list and its chosen line), in the box's language, made fit for the ear: a name
the screen shortened is said whole, a rule number is said in words ("rule W4" as the
language spells the letter), the screen's marks (▲▼ · …) are left out. Each game says its
own views (its result pages, its status page) through its ``GameVoice``
(``TableGame.voice``); the rest is said here from the shared views' public fields, naming
no game. The view given is the public one (``companion/table/public_view.py``, the phone
page's filter too): what is hidden information never reaches these words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.engine import Refusal
from companion.languages import VOICES as _VOICES
from companion.ui.text import refusal_reason, t

#: Kinds of lines. ``prompts`` mode says the first five; ``everything`` says all.
PROMPT, DONE, REFUSAL, RESULT, QUESTION, SCREEN = (
    "prompt", "done", "refusal", "result", "question", "screen")
IN_PLAY = frozenset({PROMPT, DONE, REFUSAL, RESULT, QUESTION})

#: The box's language code -> (espeak-ng voice, the language's English name for doctor).
VOICES = _VOICES

#: A rule number as the screens write it: W4, T10, R3 (rules and rulings, docs: rules/).
_RULE = re.compile(r"\b([WTR])(\d{1,2})\b")
#: The screens' marks that mean nothing said aloud.
_MARKS = re.compile(r"[▲▼▶◀·•…|]+")


@dataclass(frozen=True)
class Line:
    """One thing to say and what kind of thing it is (``PROMPT`` … ``SCREEN``)."""

    text: str
    kind: str


@dataclass(frozen=True)
class GameVoice:
    """How one game speaks (``TableGame.voice``), both given the flow on screen (its
    ``game``) and the view:

    - ``said(flow, view)``: the lines of a view of the game's own (its public form), None
      for a view the shared rules say (menus, boards).
    - ``where(flow)``: "Where are we?": whose turn, the score so far, what is left, the
      last action.
    """

    said: Callable[[Any, Any], tuple[Line, ...] | None]
    where: Callable[[Any], str]


def voice_of(language: str) -> str:
    """The espeak-ng voice of the box's ``language`` (a code of the catalogues)."""
    return VOICES[language][0]


def rule_words(text: str, lang: str | None = None) -> str:
    """``text`` with each rule number said in words: ``— W4`` → ``rule double-u 4``."""
    return _RULE.sub(lambda m: t(f"voice.rule.{m.group(1)}", lang, number=m.group(2)), text)


def for_the_ear(text: str, names: Sequence[str] = ()) -> str:
    """A screen's words made fit to be said: a name shortened to fit (``Konstant…``) said
    whole, rule numbers in words, marks left out, spaces tidied."""
    if "…" in text:
        for name in names:
            for cut in range(len(name) - 1, 0, -1):
                text = text.replace(name[:cut] + "…", name)
    text = rule_words(text.replace(" — ", ", "))
    return " ".join(_MARKS.sub(" ", text).split()).strip(" ,:")


def refusal_words(refusal: Refusal) -> str:
    """A refusal said: its reason, then its rule in words."""
    reason = refusal_reason(refusal)
    return f"{reason}, {rule_words(refusal.rule)}" if refusal.rule else reason


def note_lines(note, refused: bool = False, done: str | None = None) -> tuple[Line, ...]:
    """The lines of a board's band: what the last action did, then the note (a prompt, or
    a refusal with its rule)."""
    lines = [Line(done, DONE)] if done else []
    if isinstance(note, Refusal):
        lines.append(Line(refusal_words(note), REFUSAL))
    elif note:
        lines.append(Line(str(note), REFUSAL if refused else PROMPT))
    return tuple(lines)


def _choice_lines(choice, note) -> tuple[Line, ...]:
    lines = [Line(choice.title, SCREEN)]
    if choice.labels:
        lines.append(Line(choice.labels[choice.selected], SCREEN))
    if isinstance(note, Refusal):
        lines.append(Line(refusal_words(note), REFUSAL))
    elif note:
        lines.append(Line(str(note), SCREEN))
    return tuple(lines)


def shared_lines(view) -> tuple[Line, ...]:
    """The lines of a view from its public fields (a menu, a picker, a question, the rule
    pages, a lesson's page, a board's band); () for a view with nothing to say."""
    if hasattr(view, "choice"):  # a menu or a picker: its title and the line chosen
        return _choice_lines(view.choice, getattr(view, "footer", None) or getattr(view, "note", None))
    if hasattr(view, "question"):
        return (Line(view.question, QUESTION), Line(view.detail, QUESTION))
    if hasattr(view, "pages") and hasattr(view, "rule"):  # the why-pages: the rule's text
        return (Line(f"{view.rule} {view.title}", SCREEN), Line(" ".join(view.pages[view.page]), SCREEN))
    if hasattr(view, "pages") and hasattr(view, "title"):  # a lesson's page: what to learn and do
        # A page's lines are one text wrapped to the screen: said as one.
        return (Line(view.title, PROMPT), Line(" ".join(view.pages[view.page]), PROMPT))
    if hasattr(view, "message"):
        done = getattr(view, "done", None)  # what the last action did (a count on some views)
        lines = note_lines(view.message, getattr(view, "refused", False), done if isinstance(done, str) else None)
        then = getattr(view, "then", None)  # what to do now, under a refusal or an undo's note
        return lines + ((Line(then, PROMPT),) if then else ())
    return ()


def joined(texts) -> str:
    """Lines said one after the other, each ended as a sentence."""
    return " ".join(text if text.endswith((".", "?", "!")) else f"{text}." for text in texts if text)


def result(game, points: Sequence[str]) -> str:
    """A finished game said: who wins (or a shared win), then ``points``, each player's."""
    outcome = game.outcome()
    winners: tuple[int, ...] = outcome.winners if outcome is not None else ()
    head = t("wins", name=game.players[winners[0]]) if len(winners) == 1 else t("shared")
    return joined([head, *points])


def lines_of(flow, view, voice: GameVoice | None, names: Sequence[str] = ()) -> tuple[Line, ...]:
    """Everything the view on screen says, each line made fit for the ear (``names``: the
    players', said whole): the game's own words first (``voice``), else the shared ones."""
    lines = voice.said(flow, view) if voice is not None else None
    if lines is None:
        lines = shared_lines(view)
    said = (Line(for_the_ear(line.text, names), line.kind) for line in lines)
    return tuple(line for line in said if line.text)
