"""Random legal play over every fleet scenario: whole games, no crash, no dead end, replayed byte for byte."""

from __future__ import annotations

import hashlib
import random

import pytest

from engine.fleets import scenario
from engine.fleets.ruleset import RULESET
from engine.fleets.state import decode_state


class SeededDice:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def d6(self, purpose: str) -> int:
        return self.rng.randint(1, 6)


def play_out(name: str, seed: int, uniform: bool) -> tuple[str, str, int]:
    """A whole game by the contract; every listed order must apply and round-trip its notation."""
    state = RULESET.new_game(RULESET.builtin_scenario(name) or b"", RULESET.default_rules_data(), {})
    dice, chooser = SeededDice(seed), random.Random(seed)
    digest = hashlib.sha256()
    state, _ = RULESET.advance(state, dice)
    steps = 0
    while not RULESET.pending(state).finished:
        steps += 1
        assert steps < 2000, "the game does not end"
        pending = RULESET.pending(state)
        options = RULESET.legal(state)
        assert options, f"dead end: nothing legal at {pending.prompt}"
        decision = chooser.choice(options) if uniform else RULESET.choose(state, pending.side or "", chooser)
        text = RULESET.format_order(decision)
        assert RULESET.parse_order(text, state) == decision, text
        state, _ = RULESET.apply(state, decision, dice)
        state, _ = RULESET.advance(state, dice)
        data = RULESET.state_bytes(state)
        assert decode_state(data) == state and RULESET.state_bytes(decode_state(data)) == data
        digest.update(data)
    return digest.hexdigest(), RULESET.result(state) or "", steps


@pytest.mark.parametrize("name", scenario.builtin_names())
def test_demo_player_games_end_and_replay_byte_for_byte(name: str) -> None:
    for seed in (1, 2):
        first = play_out(name, seed, uniform=False)
        assert first[1]
        assert play_out(name, seed, uniform=False) == first


@pytest.mark.parametrize("name", scenario.builtin_names())
def test_uniformly_random_legal_games_end(name: str) -> None:
    digest, result, steps = play_out(name, 7, uniform=True)
    assert result and steps > 10
