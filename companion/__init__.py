"""Totem Companion: the application that follows a physical game of Wakanda or Totem Wars.

Pure Python: rules engines, the table session, screens, tutorial, journal and the command
line. It knows nothing of GPIO, I2C or serial; the adapters live in the ``hardware`` package.
"""

__version__ = "0.1.0"
