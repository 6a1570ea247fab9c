"""A rule's pages, as the Rules pages and the why-pages show them: the rule in the box's
words and, for a ruling, what the rulebook says, what the box does, why and where it is
changed (the game's ``RuleBook``, ``rule_book.py``); turned past a rule's last page, the
next rule of the book.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games import GAMES
from companion.games.definition import GameDefinition
from companion.table.views import WhyView
from companion.ui.screens import paginate
from companion.ui.text import t


def rule_parts(entry: GameDefinition[Any], rule: str) -> tuple[str, ...]:
    """The words of ``rule``'s pages, part by part: the rule in the box's words, then, for
    a ruling, the rulebook's words, what the box does, why, and where it is changed."""
    text = entry.text(f"rule.{rule}.text")
    ruling = entry.rule_book.ruling(rule)
    if ruling is None:
        return (text,)
    parts = [text, t("rules.rulebook", words=entry.text(ruling.rulebook)),
             t("rules.box_does", what=entry.text(ruling.box)), t("rules.why", why=entry.text(ruling.why))]
    if ruling.setting is not None:
        line, value = ruling.setting
        parts.append(t("rules.setting", line=entry.text(line, value=entry.text(value))))
    return tuple(parts)


def rule_pages(entry: GameDefinition[Any], rule: str) -> tuple[tuple[str, ...], ...]:
    """``rule_parts`` cut into the pages of the why-pages' screen, each part from the top
    of a page."""
    return tuple(page for part in rule_parts(entry, rule) for page in paginate(part))


def rule_view(entry: GameDefinition[Any], rule: str, *, last: bool = False,
              then: str | None = None) -> WhyView:
    """The pages of ``rule`` of ``entry``'s book, on its first page (``last``: its last)."""
    pages = rule_pages(entry, rule)
    return WhyView(rule, entry.text(f"rule.{rule}.title"), pages, len(pages) - 1 if last else 0,
                   then=then, game=entry.name)


def turned(view: WhyView, step: int) -> WhyView:
    """``view`` turned one page by ``step`` (±1): past its last page the next rule of its
    game's book, before its first the rule before (on its last page); at the book's ends,
    and for pages of no book, it stays."""
    page = view.page + step
    if 0 <= page < len(view.pages):
        return replace(view, page=page)
    if view.game is None:
        return view
    entry = GAMES[view.game]
    rules = entry.rule_book.rules
    if view.rule not in rules:
        return view
    at = rules.index(view.rule) + step
    if not 0 <= at < len(rules):
        return view
    return rule_view(entry, rules[at], last=step < 0, then=view.then)
