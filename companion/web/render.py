"""The phone page's HTML, made on the box from a snapshot (``snapshot.py``): the screen's
words and the game's table as its ``phone.py`` describes it (``companion/phone_table.py``),
drawn the same way for every game.

The same HTML is in the page as served (a phone without JavaScript sees the table then,
and reloads for the next) and in each table of the event stream (the page's script puts it
in place). Every word is escaped here: a player's name is never markup.

>>> html = live({"lang": "en", "words": {"board": "Board"}, "title": "Menu", "lines": ["<b>"],
...              "selected": 0, "note": None, "done": None, "refused": False, "sheet": None})
>>> html[html.index("<h1"):html.index("</ol>")]
'<h1 id="title">Menu</h1><ol id="lines"><li class="selected" aria-current="true">&lt;b&gt;</li>'
"""

from __future__ import annotations

from html import escape
from typing import Any


def _text(value: object) -> str:
    return escape(str(value), quote=True)


def escape_text(value: object) -> str:
    """``value``'s words, safe anywhere in HTML (an attribute too)."""
    return _text(value)


def _classes(*names: str) -> str:
    found = " ".join(n for n in names if n)
    return f' class="{_text(found)}"' if found else ""


def _marks(value: dict[str, Any]) -> list[str]:
    marks = value.get("marks")
    return [str(m) for m in marks] if isinstance(marks, list) else []


def _words(value: dict[str, Any]) -> str:
    """A cell's words, and its short form beside them for where room is short (the page's
    script shows one of the two; without it, the words)."""
    text = str(value.get("text", ""))
    short = str(value.get("short") or "")
    if short and short != text:
        return f'<span class="full">{_text(text)}</span><abbr class="short" title="{_text(text)}">{_text(short)}</abbr>'
    return _text(text)


def cell(value: dict[str, Any], tag: str = "td", scope: str = "") -> str:
    """One cell of a table, its marks as classes."""
    where = f' scope="{scope}"' if scope else ""
    return f"<{tag}{where}{_classes('n' if value.get('figure') else '', *_marks(value))}>{_words(value)}</{tag}>"


def _grid(block: dict[str, Any]) -> str:
    title = str(block.get("title") or "")
    heads = block.get("heads") or []
    head = ""
    if any(h.get("text") for h in heads):
        head = "<thead><tr>" + "".join(cell(h, "th", "col") for h in heads) + "</tr></thead>"
    rows = []
    for row in block.get("rows") or []:
        cells = row.get("cells") or []
        drawn = "".join(cell(c, "th" if i == 0 else "td", "row" if i == 0 else "") for i, c in enumerate(cells))
        rows.append(f"<tr{_classes(*_marks(row))}>{drawn}</tr>")
    caption = f"<caption>{_text(title)}</caption>" if title else ""
    return f'<div class="wide"><table class="grid fit">{caption}{head}<tbody>{"".join(rows)}</tbody></table></div>'


def _stacks(block: dict[str, Any], board: str) -> str:
    """A board: its places side by side (wrapping onto a second line when the text is
    large), each its foot first and what stands on it bottom first, drawn upwards; its
    accessible name says it is the board."""
    places = []
    for stack in block.get("stacks") or []:
        foot = stack.get("foot") or {}
        parts = [f'<div{_classes("foot", *_marks(foot))}>{_words(foot)}</div>']
        parts += [f'<div{_classes("item", *_marks(item))}>{_words(item)}</div>' for item in stack.get("items") or []]
        places.append(f'<div class="stack" role="listitem">{"".join(parts)}</div>')
    return f'<div class="board fit" role="list" aria-label="{_text(board)}">{"".join(places)}</div>'


def sheet(value: dict[str, Any] | None, board: str = "Board") -> str:
    """A game's table (``Sheet.to_json``) as HTML; ``board``: the board's accessible name."""
    if not value:
        return ""
    parts = []
    for block in value.get("blocks") or []:
        kind = block.get("type")
        if kind == "text":
            parts.append(f"<p{_classes('line', *_marks(block))}>{_text(block.get('text', ''))}</p>")
        elif kind == "grid":
            parts.append(_grid(block))
        elif kind == "stacks":
            parts.append(_stacks(block, board))
    return "".join(parts)


def _para(ident: str, cls: str, text: str | None, tag: str = "p") -> str:
    hidden = "" if text else " hidden"
    return f'<{tag} id="{ident}"{_classes(cls)}{hidden}>{_text(text or "")}</{tag}>'


def live(shot: dict[str, Any]) -> str:
    """The screen's words (what was done, the title, a list's lines with the one chosen,
    the note, marked when refused) and the game's table, as HTML."""
    selected = shot.get("selected")
    lines = "".join(f'<li class="selected" aria-current="true">{_text(line)}</li>' if i == selected
                    else f"<li>{_text(line)}</li>" for i, line in enumerate(shot.get("lines") or []))
    note_class = "note refused" if shot.get("refused") else "note"
    words = shot.get("words") or {}
    return ('<section id="screen" aria-live="polite">'
            + _para("done", "done", shot.get("done"))
            + (f'<h1 id="title">{_text(shot["title"])}</h1>' if shot.get("title") else '<h1 id="title" hidden></h1>')
            + f'<ol id="lines">{lines}</ol>'
            + _para("note", note_class, shot.get("note"))
            + '</section><section id="table">'
            + sheet(shot.get("sheet"), str(words.get("board", "")))
            + "</section>")
