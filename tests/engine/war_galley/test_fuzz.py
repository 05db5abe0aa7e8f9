"""Random legal play: every listed decision applies, the game never waits on nobody, and replay equals play.

The test's random generator picks among `legal(state)` and rolls the dice;
the engine itself never touches `random`.
"""

from __future__ import annotations

import random
import time

import pytest

from engine.dice import ForcedDice
from engine.war_galley.battles.scenario_files import BATTLES_DIR
from engine.war_galley.battles.setup import new_game
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.legal import legal
from engine.war_galley.turn import sequence
from engine.war_galley.turn.state import GameState
from engine.war_galley.turn.state_bytes import encode_state

CASES = [("tauris", 4), ("aegatian-isles", 3), ("myonessus", 3), ("catana", 2), ("arginusae", 2)]


class SeededDice:
    """Dice from a seeded generator, remembering every face (so a replay can force the same ones)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.faces: list[int] = []

    def d6(self, purpose: str) -> int:
        self.faces.append(self.rng.randint(1, 6))
        return self.faces[-1]

    def two_d6(self, purpose: str) -> int:
        return self.d6(purpose) + self.d6(purpose)


def start(name: str) -> GameState:
    return new_game((BATTLES_DIR / f"{name}.toml").read_bytes(), default_rules_data(), {})


@pytest.mark.parametrize(("name", "turns"), CASES)
def test_random_legal_play_and_replay(name: str, turns: int) -> None:
    rng = random.Random(f"fuzz-{name}")
    state = start(name)
    log: list[tuple[object, list[int], bytes]] = []  # decision (None: advance only), its dice, the state after
    dice = SeededDice(rng)
    state, _ = sequence.advance(state, dice)
    log.append((None, dice.faces, encode_state(state)))
    began = time.perf_counter()
    while state.result is None and state.turn <= turns:
        pending = play.pending(state)
        assert pending.side is not None and not pending.automatic, f"dead end: {pending}"
        options = legal(state)
        assert options, f"{name}: nothing legal for {pending}"
        decision = rng.choice(options)
        dice = SeededDice(rng)
        state, events = play.apply(state, decision, dice)
        state, more = sequence.advance(state, dice)
        assert all(e.rule for e in events + more)
        log.append((decision, dice.faces, encode_state(state)))
    assert state.turn > turns or state.result is not None
    elapsed = time.perf_counter() - began
    print(f"{name}: {turns} turns, {len(log) - 1} decisions, {elapsed:.1f} s")

    replayed = start(name)
    for decision, faces, expected in log:
        forced = ForcedDice(*faces)
        if decision is not None:
            replayed, _ = play.apply(replayed, decision, forced)  # type: ignore[arg-type]
        replayed, _ = sequence.advance(replayed, forced)
        assert forced.unused == []
        assert encode_state(replayed) == expected
