"""Random legal play with combat (issues 5 and 6): many turns across the battles, no crash, no dead end,
every action kind in the sample, and replay equals play.

The player picks among `legal(state)`, preferring (four times in five) the decisions that fight:
an activation with a combat step, Missile Fire, a grapple or a disengage, and boarding parties;
with none, it mostly closes on the enemy (the first listed activation that moves).
The dice come from a seeded generator; the engine itself never touches `random`.
"""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from engine.dice import ForcedDice
from engine.war_galley.battles.scenario_files import BATTLES_DIR
from engine.war_galley.battles.setup import new_game
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data
from engine.war_galley.movement.steps import Anastrophe, JettisonTowers, PassThrough, Rake, Ram
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.legal import legal
from engine.war_galley.turn import sequence
from engine.war_galley.turn.decisions import Activate, AnyDecision, Boarding
from engine.war_galley.turn.state import GameState
from engine.war_galley.turn.state_bytes import encode_state

from .scenario_support import RecordedDice as SeededDice

CASES = [("tauris", 3), ("myonessus", 2), ("chios", 2), ("arginusae", 1), ("lade", 1), ("side", 2), ("catana", 2)]
COMBAT_STEPS = (Ram, Rake, PassThrough, Anastrophe, JettisonTowers)


def fights(decision: AnyDecision) -> bool:
    if isinstance(decision, Boarding):
        return bool(decision.parties)
    if isinstance(decision, Activate):
        steps = [s for p in decision.plans for s in p.steps]
        return bool(decision.fire or decision.grapple or decision.disengage
                    or any(isinstance(s, COMBAT_STEPS) for s in steps))
    return False


def start(name: str) -> GameState:
    return new_game((BATTLES_DIR / f"{name}.toml").read_bytes(), default_rules_data(), {})


def play_and_replay(name: str, turns: int, counts: Counter[str]) -> int:
    rng = random.Random(f"combat-{name}")
    state = start(name)
    dice = SeededDice(rng)
    state, _ = sequence.advance(state, dice)
    log: list[tuple[AnyDecision | None, list[int], bytes]] = [(None, dice.faces, encode_state(state))]
    while state.result is None and state.turn <= turns:
        pending = play.pending(state)
        assert pending.side is not None and not pending.automatic, f"{name}: dead end: {pending}"
        options = legal(state)
        assert options, f"{name}: nothing legal for {pending}"
        fighting = [d for d in options if fights(d)]
        moving = [d for d in options if isinstance(d, Activate) and d.plans]
        roll = rng.random()
        if fighting and roll < 0.8:
            decision = rng.choice(fighting)
        elif moving and roll < 0.6:  # no fight in reach: close on the enemy (legal's second variant) more often
            decision = moving[0]
        else:
            decision = rng.choice(options)
        dice = SeededDice(rng)
        state, events = play.apply(state, decision, dice)
        state, more = sequence.advance(state, dice)
        assert all(e.rule for e in events + more)
        counts.update(type(e).__name__ for e in events + more)
        counts.update([f"decision:{type(decision).__name__}"])
        log.append((decision, dice.faces, encode_state(state)))
    replayed = start(name)
    for decision, faces, expected in log:
        forced = ForcedDice(*faces)
        if decision is not None:
            replayed, _ = play.apply(replayed, decision, forced)
        replayed, _ = sequence.advance(replayed, forced)
        assert forced.unused == []
        assert encode_state(replayed) == expected
    return len(log) - 1


@pytest.mark.long
def test_random_play_with_every_combat_action_and_replay() -> None:
    counts: Counter[str] = Counter()
    began = time.perf_counter()
    decisions = sum(play_and_replay(name, turns, counts) for name, turns in CASES)
    kinds = ("RamResolved", "RakeResolved", "Grappled", "Captured", "Repulsed", "MissileHit", "Avoided",
             "TowersJettisoned", "VPAwarded")
    print(f"{decisions} decisions in {time.perf_counter() - began:.1f} s:", {k: counts[k] for k in kinds})
    print(sorted(counts.items()))
    for kind in ("RamResolved", "RakeResolved", "Grappled", "MissileHit", "VPAwarded", "Avoided", "TowersJettisoned"):
        assert counts[kind] > 0, f"no {kind} in the sample"
    assert counts["Captured"] + counts["Repulsed"] > 0, "no boarding in the sample"
    assert counts["Disengaged"] + counts["StillGrappled"] > 0, "no grapple disengage in the sample"
    assert counts["decision:Reactions"] > 0 and counts["decision:Boarding"] > 0
