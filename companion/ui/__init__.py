"""Screens: pure functions from a view of the game to a 128×64 one-colour picture, with the
bundled fonts, icons and the players' words (text.py). See docs/screens.md."""
