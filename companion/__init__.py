"""Totem Companion: the application that follows a physical game of Wakanda or Totem Wars.

Pure Python: rules engines, the table session, screens, tutorial, journal and the command
line. It knows nothing of GPIO, I2C or serial; the adapters live in the ``hardware`` package.
"""

__version__ = "0.1.0"

import _signal  # type: ignore[import-not-found]  # the C module: ``signal`` takes a while to load
import os as _os
import sys as _sys


def _interrupted_while_loading(signum: int, frame: object) -> None:  # pragma: no cover - ends the process
    """Ctrl-C before ``companion.cli.main`` can answer it: its one line, and the end."""
    _os.write(2, b"totem-companion: interrupted\n")
    _os._exit(130)


# Started as the program (``totem-companion``, ``python -m companion``), not imported by
# another: a Ctrl-C while the modules load is one line, not a traceback from an import.
# ``main`` gives Ctrl-C back to Python as soon as it can say it itself.
if (_os.path.basename(_sys.argv[0]) == "totem-companion" or _sys.argv[:1] == ["-m"]) \
        and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _interrupted_while_loading)
