"""Hypothesis helpers shared by the property tests: choices that shrink towards the first."""

from __future__ import annotations

from functools import cache

from hypothesis import strategies as st


@cache
def indices(n):
    """Indices into n options: one strategy per n, kept (a new sampled_from per move is slow)."""
    return st.integers(0, n - 1)


def pick(draw, options):
    """One of ``options``, drawn by hypothesis (shrinking towards the first)."""
    return options[draw(indices(len(options)))]
