"""The errors a user can cause; the command line prints them as one line, never a traceback."""


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
