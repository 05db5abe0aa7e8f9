"""How long the legal-action listing takes in every War Galley battle, as a fresh process pays it (prints figures,
never asserts).

`receive` lists the next decision in its turn report, and the benchmark's per-process targets are timed on the
Actium and Tauris games only. Here every built-in battle is played by random legal play (the contract test's
way: a seeded choice among the listed decisions, dice from a seeded generator) for its first TURNS turns, and
each listing on the way is timed with the engine's kept end positions dropped first, as a new process starts
with none. Printed per battle: how many listings, the median, how many over 150 ms and the worst, with the
decision it listed.

    python bench/bench_listing.py            # every battle, 2 turns
    python bench/bench_listing.py lade 1     # one battle, 1 turn
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.war_galley.battles import choices  # noqa: E402
from engine.war_galley.battles.scenario_files import BATTLES_DIR  # noqa: E402
from engine.war_galley.play import legal as listing  # noqa: E402
from engine.war_galley.play.dispatch import pending  # noqa: E402
from engine.war_galley.ruleset import RULESET  # noqa: E402
from tests.engine.war_galley.scenario_support import RecordedDice, apply, commit, new, opening  # noqa: E402

TURNS = 2
SLOW = 0.15  # seconds: a receive's own work besides the listing is about as much again


def battle(key: str, turns: int) -> str:
    rng = random.Random(key)
    dice = RecordedDice(rng)
    state, _ = RULESET.advance(new(key, {}), dice)
    committed: dict[str, str] = {}
    times: list[float] = []
    worst = (0.0, "")
    while state.result is None and state.turn <= turns and len(times) < 400:
        want = choices.wanted(state)
        if want is not None:  # a secret choice (Actium's Treasure Ship): committed and opened with our salt
            if want.kind == "commit":
                committed[want.label] = str(choices.listed(state)[0].get("value") or "1")
                state = apply(state, commit(want.label, committed[want.label]), dice)
            else:
                state = apply(state, opening(want.label, committed[want.label]), dice)
            continue
        listing._REACHES.clear()  # a fresh process keeps no end positions
        listing._gap.cache_clear()
        began = time.perf_counter()
        options = listing.legal(state)
        took = time.perf_counter() - began
        times.append(took)
        if took > worst[0]:
            worst = (took, pending(state).prompt)
        state = apply(state, rng.choice(options), dice)
    slow = sum(t > SLOW for t in times)
    return (f"| {key} | {len(times)} | {statistics.median(times) * 1000:.0f} | {slow} | {worst[0] * 1000:.0f} | "
            f"{worst[1][:90]} |")


def main() -> None:
    keys = [sys.argv[1]] if len(sys.argv) > 1 else [p.stem for p in sorted(BATTLES_DIR.glob("*.toml"))]
    turns = int(sys.argv[2]) if len(sys.argv) > 2 else TURNS
    print(f"War Galley listings, random legal play for {turns} turns, end positions dropped before each (ms)\n")
    print(f"| battle | listings | median | over {SLOW * 1000:.0f} ms | worst | the worst's decision |")
    print("|---|---|---|---|---|---|")
    for key in keys:
        print(battle(key, turns), flush=True)


if __name__ == "__main__":
    main()
