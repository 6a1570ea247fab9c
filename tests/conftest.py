"""Shared pytest options and fixtures.

``--regen-golden`` rewrites the golden screen images under tests/data/golden/ instead of
comparing against them (see docs/screens.md).

``TOTEM_EXTRA_GAME=1`` / ``TOTEM_EXTRA_LANGUAGE=1`` add a third game and a ninth language
before the tests are collected (``tests/additions.py``) and keep only the tests
parametrised with them (``tests/test_additions.py`` runs them); ``TOTEM_EXTRA_ALL=1`` keeps
every test, to see what else they change (the menu's golden images show every game: those
tests skip, ``only_the_shipped_games``). A box a test starts as ``python -m companion`` has
them too (``additions.site_folder``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from PIL import Image

if TYPE_CHECKING:
    from gpiozero.pins.mock import MockFactory

    from companion.games.wakanda import Wakanda

GOLDEN = Path(__file__).parent / "data" / "golden"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regen-golden", action="store_true", default=False,
                     help="rewrite tests/data/golden/*.png from the current screens")


def _extras() -> set[str]:
    import additions  # beside this file, on the path as the tests' helpers are

    asked = {name: os.environ.get(env) == "1" for name, env in
             ((additions.EXTRA_GAME, additions.GAME_ENV), (additions.EXTRA_LANGUAGE, additions.LANGUAGE_ENV))}
    return {name for name, wanted in asked.items() if wanted}


def pytest_configure(config: pytest.Config) -> None:
    """Add the third game and the ninth language when asked, before any test is collected."""
    extras = _extras()
    if not extras:
        return
    import additions

    root = Path(tempfile.mkdtemp(prefix="totem-additions-"))
    config.add_cleanup(lambda: shutil.rmtree(root, ignore_errors=True))
    if additions.EXTRA_GAME in extras:
        additions.add_game(root)
    if additions.EXTRA_LANGUAGE in extras:
        additions.add_language(root)
    # The box a test starts in a process of its own (``python -m companion``) has them too.
    site = str(additions.site_folder(root, extras))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, (site, os.environ.get("PYTHONPATH"))))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """With a third game or a ninth language added, keep only the tests parametrised with one."""
    extras = _extras()
    if not extras or os.environ.get("TOTEM_EXTRA_ALL") == "1":
        return
    import additions

    kept = [item for item in items if additions.wanted(
        getattr(getattr(item, "callspec", None), "params", {}).values(), extras)]
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept


def only_the_shipped_games() -> None:
    """Skip a test whose golden image shows a menu line for every game when this run added
    a game (``TOTEM_EXTRA_GAME``): the image holds the menu of the games the box ships with."""
    import additions

    from companion.games import GAMES

    if additions.EXTRA_GAME in GAMES:
        pytest.skip(f"the golden menu shows the shipped games; this run added {additions.EXTRA_GAME!r}")


@pytest.fixture
def speak() -> Iterator[Callable[[str], str]]:
    """``speak(lang)``: until the test ends, the words made without a language (and the
    sessions made without settings) are in ``lang`` (``companion.ui.text.speaking``)."""
    from companion.ui.text import speaking

    with ExitStack() as stack:
        yield lambda lang: stack.enter_context(speaking(lang))


@pytest.fixture
def regen_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was asked to rewrite the golden images."""
    return bool(request.config.getoption("--regen-golden"))


@pytest.fixture
def golden(regen_golden: bool) -> Callable[[str, Image.Image], None]:
    """``golden(name, image)`` checks a 128×64 screen against tests/data/golden/NAME.png
    (rewrites it with ``--regen-golden``); a picture that differs is saved beside it as
    NAME.actual.png to look at."""

    def check(name: str, actual: Image.Image) -> None:
        assert actual.size == (128, 64) and actual.mode == "1"
        golden_path = GOLDEN / f"{name}.png"
        actual_path = GOLDEN / f"{name}.actual.png"
        if regen_golden:
            GOLDEN.mkdir(parents=True, exist_ok=True)
            actual.save(golden_path)
            actual_path.unlink(missing_ok=True)
            return
        assert golden_path.exists(), (
            f"no golden image {golden_path}; create it with --regen-golden and look at it")
        with Image.open(golden_path) as image:
            same = image.convert("1").tobytes() == actual.tobytes()
        if not same:
            actual.save(actual_path)
            pytest.fail(f"screen {name!r} differs from {golden_path.name}; the actual picture "
                        f"is {actual_path}. If the change is intended: --regen-golden")
        actual_path.unlink(missing_ok=True)

    return check


# A whole game that ends in the rulebook's worked example (rules/wakanda.md: 20 vs 16), one
# move a token: d:<piece> draw, b:<piece>:<village> build, c:<village> claim, p pass,
# r:<village> reveal.
WORKED_EXAMPLE = (
    "d:chief b:chief:2 d:chief b:chief:3 d:teepee b:teepee:1 d:eagle b:eagle:1 "
    "d:skin b:skin:1 d:teepee b:teepee:3 d:tomahawk c:1 d:sun b:sun:2 "
    "d:tomahawk b:tomahawk:2 d:sun b:sun:3 d:tomahawk c:2 d:skin b:skin:3 "
    "d:skin b:tomahawk:5 d:teepee b:teepee:5 d:sun b:sun:4 d:skin c:5 "
    "d:sun b:sun:4 d:teepee b:skin:4 d:sun b:sun:6 d:sun b:sun:6 "
    "d:teepee b:skin:6 c:4 b:teepee:6 c:6 c:3"
)
WORKED_EXAMPLE_ROW = ("teepee", "eagle", "chief", "variety", "sun", "tomahawk")


def play(tokens: str, villages: Sequence[str] = WORKED_EXAMPLE_ROW, **settings: Any) -> Wakanda:
    """A Wakanda game (Ana v Ben) after the moves written as tokens (see WORKED_EXAMPLE)."""
    from companion.games.wakanda import Build, Claim, Draw, Pass, Reveal, Wakanda

    game = Wakanda(list(villages), players=("Ana", "Ben"), **settings)
    for token in tokens.split():
        match token.split(":"):
            case ["d", piece]:
                game.push(Draw(piece))
            case ["b", piece, village]:
                game.push(Build(piece, int(village)))
            case ["c", village]:
                game.push(Claim(int(village)))
            case ["p"]:
                game.push(Pass())
            case ["r", village]:
                game.push(Reveal(village))
            case _:
                raise ValueError(f"not a move token: {token!r}")
    return game


@pytest.fixture
def wakanda_play() -> Callable[..., Wakanda]:
    """``play(tokens, villages=…, **settings)``: a game after the moves given as tokens."""
    return play


@pytest.fixture
def worked_example() -> Wakanda:
    """The finished game of the rulebook's worked example: Ana 20, Ben 16."""
    return play(WORKED_EXAMPLE)


@pytest.fixture
def midgame() -> Wakanda:
    """The worked example after 25 moves: Ana to play with a skin and two tomahawks in
    hand, villages 1 and 2 hers, 4 and 5 open, 6 still turned."""
    return play(" ".join(WORKED_EXAMPLE.split()[:25]))


@pytest.fixture
def pin_factory() -> Iterator[MockFactory]:
    """gpiozero's ``MockFactory``, for the hardware tests' buttons, buzzer and LEDs.

    It is also made gpiozero's default pin factory for the test, so devices built without
    ``pin_factory=`` (as the command line builds them) land on the same mock pins; after
    the test its pins are released and the previous default comes back.
    """
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = previous
