"""The demo player ends a War Galley game the way 9.1 allows: a halt by agreement."""

import random

from engine.war_galley.play.agent import HALT_AFTER, aggression, choose
from engine.war_galley.ruleset import RULESET
from engine.war_galley.turn.decisions import ProposeHalt, to_json


class CyclingDice:
    """Deterministic dice for a test: 1..6 in a fixed, uneven order."""

    def __init__(self) -> None:
        self.faces = [3, 5, 1, 6, 2, 4, 4, 2, 6, 1, 5, 3]
        self.count = 0

    def d6(self, purpose: str) -> int:
        self.count += 1
        return self.faces[self.count % len(self.faces)]

    def two_d6(self, purpose: str) -> int:
        return self.d6(purpose) + self.d6(purpose)


def test_demo_player_plays_tauris_to_a_halt() -> None:
    ruleset, rng, dice = RULESET, random.Random(3), CyclingDice()
    state = ruleset.new_game(ruleset.builtin_scenario("tauris"), ruleset.default_rules_data(), {})
    state, _ = ruleset.advance(state, dice)
    offered = False
    for _ in range(5000):
        pending = ruleset.pending(state)
        if pending.finished:
            break
        decision = choose(state, pending.side, rng)
        offered |= isinstance(decision, ProposeHalt)
        state, _ = ruleset.apply(state, to_json(decision), dice)
        state, _ = ruleset.advance(state, dice)
    assert ruleset.pending(state).finished
    assert offered and "halted by agreement" in (ruleset.result(state) or "")
    assert state.turn <= HALT_AFTER + 2


def test_aggression_counts_combat_orders() -> None:
    from engine.war_galley.turn.decisions import Concede

    assert aggression(Concede(side="x")) == 0
