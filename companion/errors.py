"""The errors a user can cause; the command line prints them as one line, never a traceback."""

#: The most characters of an error line the command line prints (the bad input quoted in
#: it is shorter still: ``companion.files.QUOTE_CHARS``).
LINE_CHARS = 600


class UserError(Exception):
    """Bad input from the user (a record, a config file, a tag): exit status 1."""


class UsageError(Exception):
    """Bad use of the command line: exit status 2."""


class RecordError(UserError):
    """A problem at one line of a game record, reported as ``line N: reason (RULE)``."""

    def __init__(self, line: int, reason: str):
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


def one_line(message: str, limit: int | None = LINE_CHARS) -> str:
    r"""``message`` made safe to print as one line: newlines, NUL bytes, terminal escape
    codes, lone surrogates and other unprintable characters escaped, and cut to about
    ``limit`` characters ("…"; None: not cut). The last safeguard for whatever a message
    quotes, and how a name from elsewhere is printed.

    >>> print(one_line("bad.txt\nline 2: \x1b[2J"))
    bad.txt\nline 2: \x1b[2J
    >>> one_line("x" * 10, limit=4)
    'xxxx…'
    """
    out: list[str] = []
    size = 0
    for char in message:  # stops at the limit: a huge message costs no more than a short one
        piece = char if char.isprintable() else repr(char)[1:-1]
        if limit is not None and size + len(piece) > limit:
            out.append("…")
            break
        out.append(piece)
        size += len(piece)
    return "".join(out)
