"""How long fleet battles take to play and list (prints, never asserts).

    python bench/bench_fleets.py [VERSION]     (default: the newest fleets version)

For each scenario: a whole game by the demo player and by uniformly random legal
orders (CPU seconds, decisions, bounds), and the mean time of one `legal` listing.
"""

from __future__ import annotations

import random
import sys
import time

from engine.fleets import agent, legal, scenario
from engine.fleets.decisions import to_json
from engine.fleets.ruleset import RULESET


class Dice:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def d6(self, purpose: str) -> int:
        return self.rng.randint(1, 6)


def game(name: str, seed: int, uniform: bool, version: str = RULESET.version) -> tuple[float, int, int, float]:
    rules = RULESET.at_version(version)
    state = rules.new_game(rules.builtin_scenario(name) or b"", rules.default_rules_data(), {})
    dice, rng = Dice(seed), random.Random(seed)
    state, _ = RULESET.advance(state, dice)
    start, steps, listing, listings = time.process_time(), 0, 0.0, 0
    while not RULESET.pending(state).finished:
        t = time.process_time()
        options = legal.legal(state)
        listing += time.process_time() - t
        listings += 1
        decision = rng.choice(options) if uniform else agent.choose(state, rng)
        state, _ = RULESET.apply(state, to_json(decision), dice)
        state, _ = RULESET.advance(state, dice)
        steps += 1
    return time.process_time() - start, steps, state.bound, listing / max(1, listings)


def main() -> None:
    version = sys.argv[1] if len(sys.argv) > 1 else RULESET.version
    print(f"fleets version {version}")
    print(f"{'scenario':18} {'player':8} {'cpu s':>7} {'orders':>7} {'bounds':>7} {'legal ms':>9}")
    for name in scenario.builtin_names():
        for uniform in (False, True):
            cpu, steps, bounds, per = game(name, 5, uniform, version)
            print(f"{name:18} {'random' if uniform else 'demo':8} {cpu:7.2f} {steps:7d} {bounds:7d} {per * 1000:9.1f}")


if __name__ == "__main__":
    main()
