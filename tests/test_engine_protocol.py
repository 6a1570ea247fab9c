"""``totem-companion engine``: the engine protocol of shared/DESIGN.md, driven as an outside
program drives it — a separate process, one JSON request a line in, one answer a line out."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.games.wakanda import (
    Wakanda,
    event_line,
    header_line,
    random_setup,
    sample_draw,
    sample_reveal,
)
from companion.games.wakanda.record import read_record

ROOT = Path(__file__).resolve().parent.parent


class EngineProcess:
    """``python -m companion engine`` in a child process, asked one line at a time."""

    def __init__(self, *args, hash_seed="0"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "engine", *args], cwd=ROOT, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=1)

    def ask(self, request) -> dict:
        line = request if isinstance(request, str) else json.dumps(request)
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer, self.process.stderr.read()
        return json.loads(answer)

    def close(self) -> tuple[int, str, str]:
        out, err = self.process.communicate(timeout=30)
        return self.process.returncode, out, err


@pytest.fixture
def engine():
    process = EngineProcess()
    yield process
    if process.process.poll() is None:
        process.process.kill()
        process.process.wait()


def record_of(game):
    return [header_line(game)] + [event_line(p, m) for p, m in game.history]


@pytest.mark.parametrize("variant,level", [("open", "easy"), ("hidden", "easy"), ("open", None)])
def test_whole_games_through_the_engine(engine, variant, level):
    """The box's side of a game against the engine: it samples the draws and turned-up tiles,
    sends the record so far, and plays what the engine answers — always legal, to the end."""
    rng = random.Random(variant)
    game = Wakanda(random_setup(rng, variant), first=1, players=("Ana", "Ben"), variant=variant)
    asked = 0
    while game.phase != "over":
        if game.phase == "draw":
            game.push(sample_draw(game, rng))
            continue
        if game.phase == "reveal":
            game.push(sample_reveal(game, rng))
            continue
        request = {"id": asked, "record": record_of(game), "seed": asked}
        if level:
            request["level"] = level
        answer = engine.ask(request)
        assert set(answer) == {"id", "move", "reason", "ms"} and answer["id"] == asked, answer
        assert answer["move"] in [event_line(game.to_move, m) for m in game.legal_moves()]
        assert answer["reason"] and answer["ms"] >= 0
        replayed, _ = read_record("".join(json.dumps(line) + "\n" for line in record_of(game) + [answer["move"]]))
        game = replayed
        asked += 1
    assert asked >= 12 and game.outcome() is not None
    assert engine.close()[:2] == (0, "")


def test_bad_requests_get_an_error_line_and_the_engine_goes_on(engine, midgame, worked_example):
    record = record_of(midgame)
    assert engine.ask("{not json") == {
        "id": None, "error": "not valid JSON (Expecting property name enclosed in double quotes at column 2)"}
    assert engine.ask("[1, 2]") == {"id": None, "error": "a request is a JSON object"}
    assert engine.ask({"id": 1})["error"].startswith("missing key 'record'")
    assert engine.ask({"id": 2, "record": record, "colour": "red"})["error"].startswith("unknown key 'colour'")
    assert engine.ask({"id": 3, "record": record, "seat": 1}) == {"id": 3, "error": "line 26: not Ben's turn (W4)"}
    assert engine.ask({"id": 4, "record": record[:-1]}) == {
        "id": 4, "error": "line 25: draw first: the bag is not empty (W4)"}
    assert engine.ask({"id": 5, "record": record_of(worked_example)}) == {
        "id": 5, "error": "line 47: the game is over (W6)"}
    assert engine.ask({"id": 6, "record": record[:4] + [{"p": 1, "claim": 9}]}) == {
        "id": 6, "error": "line 5: there is no village 9: villages are 1 to 6 (W2)"}
    assert engine.ask({"id": 7, "record": record, "level": "hardest"})["error"].startswith("unknown level 'hardest'")
    assert engine.ask({"id": 8, "record": record, "seed": "x"}) == {
        "id": 8, "error": "seed must be a whole number, got 'x'"}
    assert engine.ask({"id": 9, "record": record, "hand": ["eagle"]}) == {
        "id": 9, "error": "a Wakanda hand comes from the record (R2): leave out the hand"}
    assert engine.ask({"id": 10, "record": [{"game": "chess"}]})["error"].startswith("line 1: the header must name")
    answer = engine.ask({"id": "last", "record": record, "seat": 0, "level": "easy"})
    assert answer["id"] == "last" and "move" in answer
    status, rest, err = engine.close()
    assert (status, rest, err) == (0, "", "")


def test_hostile_request_lines_get_an_error_line_and_the_engine_goes_on(engine, midgame):
    """Lines json.loads takes silently (a key twice) or fails on with a traceback (an
    integer of 5,000 digits, nesting 3,000 deep), and bytes that are not UTF-8."""
    assert engine.ask('{"id": 1, "id": 2, "record": []}') == {
        "id": None, "error": "key 'id' given twice (an ambiguous line)"}
    assert engine.ask('{"id": ' + "9" * 5000 + ', "record": []}') == {
        "id": None, "error": "a number of more than 100 digits"}
    assert engine.ask('{"id": 3, "record": ' + "[" * 3000 + "]" * 3000 + "}") == {
        "id": None, "error": "nested more than 32 deep"}
    assert engine.ask('{"id": 4, "record": [], "seed": NaN}') == {"id": None, "error": "NaN is not a number here"}
    engine.process.stdin.buffer.write(b'{"id": 5, "record": "\xff"}\n')
    assert engine.ask({"id": 6, "record": record_of(midgame)[:-1] + [{"p": 0.0, "draw": "sun"}]}) == {
        "id": None, "error": "a request is UTF-8 text"}
    reply = json.loads(engine.process.stdout.readline())
    assert reply["id"] == 6 and reply["error"].startswith("line 26: p must be player 0 or 1, got 0.0 (W1)")
    assert "move" in engine.ask({"id": 7, "record": record_of(midgame)})
    assert engine.close()[:2] == (0, "")


def test_the_same_request_gets_the_same_answer_in_another_process(midgame):
    request = {"id": 1, "record": record_of(midgame), "seed": 42, "level": "standard"}
    answers = []
    for hash_seed in ("1", "2"):
        process = EngineProcess(hash_seed=hash_seed)
        answer = process.ask(request)
        process.close()
        del answer["ms"]
        answers.append(answer)
    assert answers[0] == answers[1]


def test_the_answer_does_not_depend_on_the_other_hands_contents(engine, wakanda_play):
    # Ben drew a chief, a sun or a tomahawk and kept it; Ana's hint is the same (the record
    # holds Ben's piece, the engine must not read it).
    answers = []
    for piece in ("chief", "sun", "tomahawk"):
        game = wakanda_play(f"d:eagle b:eagle:2 d:teepee b:teepee:1 d:skin b:skin:3 d:{piece} c:1 d:chief")
        answer = engine.ask({"id": piece, "record": record_of(game), "seed": 7})
        answers.append((answer["move"], answer["reason"]))
    assert len(set(map(json.dumps, answers))) == 1


def test_the_level_of_the_command_line_is_the_default_and_a_bad_one_is_refused(midgame):
    process = EngineProcess("--level", "easy")
    assert "move" in process.ask({"id": 1, "record": record_of(midgame)})
    process.close()
    bad = subprocess.run([sys.executable, "-m", "companion", "engine", "--level", "hardest"], cwd=ROOT,
                         input="", capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("totem-companion engine: unknown level 'hardest'")
    assert "Traceback" not in bad.stderr
