"""The bound on pairing guesses (issue 29): how many guesses the box judges while a flood of
wrong ones comes from 500 addresses, and the chance that an attacker pairs within an hour,
from the pairing's limits. Figures:
.venv/bin/python -m pytest tests/test_bench_pairing.py --benchmark-enable --benchmark-only -s

The flood is an attacker that asks for a code whenever the box lets it (it holds the
code's ticket, not the code: the code is on the OLED) and sends wrong codes with that ticket
from 100 addresses at a time, 500 in turn, through real sockets, for ``SECONDS``.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter

from test_pairing import addresses, request, with_server

from companion.pairing import ASK_BURST, ASK_EVERY, CODE_DIGITS, TRIES, WRONG, Pairing, attack_odds

SECONDS = 4.0
CROWD, AT_ONCE = 500, 100


def test_bench_guesses_the_box_judges_under_a_flood(benchmark, tmp_path):
    crowd = addresses(CROWD)
    counts: Counter = Counter()
    elapsed: list[float] = []

    async def flood(port, events):
        ticket, turn = None, 0
        start = time.monotonic()
        while time.monotonic() - start < SECONDS:
            status, cookies, _ = await request(port, "POST", "/pair/ask", source=crowd[turn % CROWD], doc={})
            counts["codes shown" if status == 202 else "asks refused"] += 1
            ticket = cookies.get("totem-ticket", ticket)
            sources = [crowd[(turn + i) % CROWD] for i in range(AT_ONCE)]
            turn += AT_ONCE
            answers = await asyncio.gather(*(
                request(port, "POST", "/pair", source=a, doc={"code": f"{(turn + i) % 10 ** CODE_DIGITS:06d}"},
                        cookies={"totem-ticket": ticket} if ticket else None)
                for i, a in enumerate(sources)))
            for status, _, body in answers:
                counts["paired" if status == 200 else body.get("error") or f"status {status}"] += 1
        elapsed.append(time.monotonic() - start)

    benchmark.pedantic(lambda: with_server(flood, Pairing(tmp_path)), rounds=1, iterations=1)
    seconds = elapsed[0]
    sent = sum(n for key, n in counts.items() if key not in ("codes shown", "asks refused"))
    judged = counts["wrong code"] + counts["paired"]
    print(f"\nflood: {sent} guesses from {CROWD} addresses in {seconds:.1f} s ({sent / seconds:.0f}/s answered); "
          f"judged {judged} ({judged / seconds:.2f}/s), refused unjudged {sent - judged}; "
          f"codes shown {counts['codes shown']}, asks refused {counts['asks refused']}; {dict(counts)}")
    print(f"box-wide bound: {ASK_BURST * TRIES} guesses judged at once, then {TRIES / ASK_EVERY:.2f}/s "
          f"({ASK_BURST} codes, then one per {ASK_EVERY:.0f} s, {TRIES} tries each, {CODE_DIGITS} digits); "
          f"P(an attacker pairs within an hour, any number of addresses) <= {attack_odds():.2e}")
    assert judged <= TRIES * counts["codes shown"] and attack_odds() < 1e-3


def test_bench_an_hour_of_attack_judges_what_the_odds_count(benchmark):
    """An attacker that asks every second of an hour (the box's clock moved by the test) and
    guesses until each code dies: the guesses judged are those ``attack_odds`` counts."""
    judged: list[int] = []

    class Clock:
        now = 0.0

        def __call__(self) -> float:
            return self.now

    def hour() -> None:
        clock = Clock()
        pairing, count = Pairing(clock=clock), 0
        for second in range(3600):
            clock.now = float(second)
            asked = pairing.ask()
            if asked is None:
                continue
            ticket, code = asked
            wrong = f"{(int(code) + 1) % 10 ** CODE_DIGITS:0{CODE_DIGITS}d}"
            while pairing.pair(ticket, wrong)[0] == WRONG:
                count += 1
        judged.append(count)

    benchmark.pedantic(hour, rounds=1, iterations=1)
    print(f"\nan hour of attack: {judged[0]} guesses judged ({judged[0] / 3600:.3f}/s); "
          f"P(pairing) <= {judged[0] / 10 ** CODE_DIGITS:.2e}, attack_odds() = {attack_odds():.2e}")
    assert judged[0] / 10 ** CODE_DIGITS <= attack_odds() < 1e-3
