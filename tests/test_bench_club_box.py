"""The box's pace with a club configured but out of reach (issue 30: "no frame is slower with
the club unreachable"). Figures:
.venv/bin/python -m pytest tests/test_bench_club_box.py --benchmark-enable --benchmark-only -s

A whole game of Wakanda played by ``run --input`` in this process (display ``none``), three
ways: no club; a club whose broker refuses connections (a closed port); a club whose "broker"
takes the connection and never answers (the worst a café's network does: the box's sync
waits for its login to time out on its own thread). The figure is actions a second: the
script's events over the time the game took, each the best of several runs.
"""

from __future__ import annotations

import socket
import time

import pytest

from companion.cli import main
from tests.club_servers import free_port
from tests.test_app import greedy_bot, play_game, random_bot, script_of

RUNS = 3


def test_bench_a_game_is_as_fast_with_the_club_unreachable(benchmark, tmp_path, monkeypatch):
    if benchmark.disabled:
        pytest.skip("the box's club bench runs with --benchmark-enable")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    script_text = script_of(play_game(4, bots=(greedy_bot, random_bot)))
    events = sum(1 for line in script_text.splitlines() if line and not line.startswith("wait"))
    script = tmp_path / "game.txt"
    script.write_text(script_text)
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    configs = {"no club": "", "refused": f"127.0.0.1:{free_port()}",
               "silent": f"127.0.0.1:{silent.getsockname()[1]}"}
    rates: dict[str, float] = {}

    def once():
        for run in range(RUNS):
            for name, broker in configs.items():
                config = tmp_path / f"{name}.toml"
                config.write_text(f'[club]\nbroker = "{broker}"\nbox = "box1"\npassword = "x"\n' if broker else "")
                began = time.perf_counter()
                assert main(["run", "--config", str(config), "--input", str(script), "--display", "none",
                             "--data", str(tmp_path / f"{name}-{run}")]) == 0
                rate = events / (time.perf_counter() - began)
                rates[name] = max(rates.get(name, 0.0), rate)
    try:
        benchmark.pedantic(once, rounds=1, iterations=1)
    finally:
        silent.close()
    print(f"\nactions a second over a whole game ({events} events), best of {RUNS}: "
          + ", ".join(f"{name} {rate:.0f}" for name, rate in rates.items())
          + f"; unreachable/none: {rates['refused'] / rates['no club']:.0%}, "
          f"silent/none: {rates['silent'] / rates['no club']:.0%}")
