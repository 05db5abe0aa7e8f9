"""encode_state's kept bytes (each galley's, and the parts most files leave alone) change nothing.

Along a random legal game, every state's bytes with the caches warm from the
states before it equal its bytes worked out from nothing, and decode back to it.
"""

from __future__ import annotations

import random

from engine.war_galley.battles.scenario_files import BATTLES_DIR
from engine.war_galley.battles.setup import new_game
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.legal import legal
from engine.war_galley.turn import sequence
from engine.war_galley.turn import state_bytes as states
from engine.war_galley.turn.state import GameState
from tests.engine.war_galley.scenario_support import SeededDice


def cold(state: GameState) -> bytes:
    """The state's bytes with nothing kept from earlier states."""
    states._steady.clear()
    states._encoded_galleys.clear()
    states._last_array.clear()
    return states.encode_state(state)


def test_kept_bytes_equal_fresh_ones_along_a_game() -> None:
    rng = random.Random("state-bytes")
    state = new_game((BATTLES_DIR / "tauris.toml").read_bytes(), default_rules_data(), {})
    state, _ = sequence.advance(state, SeededDice(rng))
    seen = 0
    while state.result is None and seen < 60:
        warm = states.encode_state(state)  # caches warm from the state before
        assert warm == cold(state)
        assert states.decode_state(warm, state.rules) == state
        state, _ = play.apply(state, rng.choice(legal(state)), SeededDice(rng))
        states.encode_state(state)  # warm the caches with the state before the advance
        state, _ = sequence.advance(state, SeededDice(rng))
        seen += 1
    assert seen == 60
