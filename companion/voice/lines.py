"""What the box says for the view on its screen: pure, view in, words out.

The words are whole sentences made from the screen's message values, never its wrapped
lines (issue 32): the prompt in its long form (the screen's short one is for one line), what
the last action did, the refusal with its rule, a list's title and chosen line, a rule's
whole text; never a footer naming the buttons. They are in the box's language and fit for
the ear: a name the screen shortened is said whole, a rule number is said in words ("rule
W4" as the language spells the letter), the screen's marks (▲▼ · …) are left out, each
sentence starts with a capital and ends with a stop. Each game says its
own views (its result pages, its status page) through its ``GameVoice``
(``TableGame.voice``); the rest is said here from the shared views' public fields, naming
no game. The view given is the public one (``companion/table/public_view.py``, the phone
page's filter too): what is hidden information never reaches these words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from inspect import signature
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
#: A text that starts with a rule number: a lesson's or a rule page's title.
_LEADING_RULE = re.compile(r"^([WTR]\d{1,2})\s+(\S.*)$", re.DOTALL)
#: The screens' marks that mean nothing said aloud.
_MARKS = re.compile(r"[▲▼▶◀·•…|]+")


@dataclass(frozen=True)
class Line:
    """One thing to say and what kind of thing it is (``PROMPT`` … ``SCREEN``)."""

    text: str
    kind: str


#: Kinds of lines that say what happened: said to their end unless a newer line makes them
#: stale (``hardware/speaker.py``'s queue), where a prompt or a screen is cut by the next.
FINISHED = frozenset({DONE, REFUSAL, RESULT})


@dataclass(frozen=True)
class GameVoice:
    """How one game speaks (``TableGame.voice``), both given the flow on screen (its
    ``game``; the game's own flow type) and the view:

    - ``said(flow, view)``: the lines of a view of the game's own (its public form), None
      for a view the shared rules say (menus, boards).
    - ``where(flow)``: "Where are we?": whose turn, the score so far, what is left, the
      last action.
    """

    said: Callable[[Any, object], tuple[Line, ...] | None]
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
    # A title led by its rule ("W1 The pieces") says the rule after it, as a sentence would.
    text = _LEADING_RULE.sub(r"\2 (\1)", text.strip())
    text = rule_words(text.replace(" — ", ", "))
    return " ".join(_MARKS.sub(" ", text).split()).strip(" ,:")


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter a capital, ended with a stop when it has no
    end of its own.

    >>> sentence("village 5 is not open yet (rule double-u 4)")
    'Village 5 is not open yet (rule double-u 4).'
    """
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!", "…")) else f"{text}."


def refusal_words(refusal: Refusal) -> str:
    """A refusal said: its reason, then its rule in words, as one sentence."""
    reason = refusal_reason(refusal)
    return f"{reason} ({rule_words(refusal.rule)})" if refusal.rule else reason


def note_lines(note: object, refused: bool = False, done: str | None = None) -> tuple[Line, ...]:
    """The lines of a board's band: what the last action did, then the note (a prompt, or
    a refusal with its rule)."""
    lines = [Line(done, DONE)] if done else []
    if isinstance(note, Refusal):
        lines.append(Line(refusal_words(note), REFUSAL))
    elif note:
        lines.append(Line(str(note), REFUSAL if refused else PROMPT))
    return tuple(lines)


def long_prompt(flow: object, shown: object) -> object:
    """The prompt ``shown`` on a screen in its long form, a whole sentence (the screen's
    short form fits one line under a confirmation: "Ana: place 2+"); anything else as it
    is."""
    # A flow that runs another on screen (a lesson runs a game) shows that one's prompt.
    prompt = getattr(getattr(flow, "inner", flow), "prompt", None)
    if not isinstance(shown, str) or not callable(prompt) or "short" not in signature(prompt).parameters:
        return shown
    whole = prompt()
    return whole if whole and shown == str(prompt(short=True)) else shown


def _choice_lines(choice: Any, note: object) -> tuple[Line, ...]:
    lines = [Line(choice.title, SCREEN)]
    if choice.labels:
        lines.append(Line(choice.labels[choice.selected], SCREEN))
    if isinstance(note, Refusal):
        lines.append(Line(refusal_words(note), REFUSAL))
    elif note:
        lines.append(Line(str(note), SCREEN))
    return tuple(lines)


def shared_lines(flow: object, view: object) -> tuple[Line, ...]:
    """The lines of a view from its public fields (a menu, a picker, a question, the rule
    pages, a lesson's page, a board's band); () for a view with nothing to say. A menu's
    footer is never said (it names the buttons): only the flow's note, when it has one."""
    choice = getattr(view, "choice", None)
    if choice is not None:  # a menu or a picker: its title, the line chosen, a note
        note = getattr(view, "note", None) if hasattr(view, "note") else getattr(flow, "note", None)
        return _choice_lines(choice, note)
    question = getattr(view, "question", None)
    if question is not None:
        return (Line(question, QUESTION), Line(getattr(view, "detail", ""), QUESTION))
    pages = getattr(view, "pages", None)
    title = getattr(view, "title", None)
    rule = getattr(view, "rule", None)
    if pages is not None and rule is not None:
        # The why-pages: the rule's whole text at once, its pages being one text wrapped to
        # the screen (turning a page then says nothing new).
        return (Line(f"{title} ({rule})", SCREEN),
                Line(" ".join(line for page in pages for line in page), SCREEN))
    if pages is not None and title is not None:  # a lesson's pages: what to learn and do
        # Its pages are one text wrapped to the screen, a sentence running on to the next
        # page: said as one when the lesson's page opens.
        return (Line(title, PROMPT), Line(" ".join(line for page in pages for line in page), PROMPT))
    if hasattr(view, "message"):
        done = getattr(view, "done", None)  # what the last action did (a count on some views)
        message = long_prompt(flow, getattr(view, "message", None))
        lines = note_lines(message, getattr(view, "refused", False), done if isinstance(done, str) else None)
        then = getattr(view, "then", None)  # what to do now, under a refusal or an undo's note
        return lines + ((Line(str(long_prompt(flow, then)), PROMPT),) if then else ())
    return ()


def joined(texts: Iterable[str]) -> str:
    """Lines said one after the other, each a sentence."""
    return " ".join(sentence(text) for text in texts if text and text.strip())


def result(game: Any, points: Sequence[str]) -> str:
    """A finished game said: who wins (or a shared win), then ``points``, each player's."""
    outcome = game.outcome()
    winners: tuple[int, ...] = outcome.winners if outcome is not None else ()
    head = t("wins", name=game.players[winners[0]]) if len(winners) == 1 else t("shared")
    return joined([head, *points])


def lines_of(flow: object, view: object, voice: GameVoice | None, names: Sequence[str] = ()) -> tuple[Line, ...]:
    """Everything the view on screen says, each line made fit for the ear (``names``: the
    players', said whole): the game's own words first (``voice``), else the shared ones."""
    lines = voice.said(flow, view) if voice is not None else None
    if lines is None:
        lines = shared_lines(flow, view)
    said = (Line(for_the_ear(line.text, names), line.kind) for line in lines)
    return tuple(line for line in said if line.text)
