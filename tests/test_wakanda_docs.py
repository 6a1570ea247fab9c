"""The examples in the Wakanda modules' docstrings run and give what they show."""

import doctest
import importlib

import pytest

MODULES = ["game", "moves", "record", "scoring", "setup", "bots"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"companion.games.wakanda.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
