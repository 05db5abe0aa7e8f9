"""Actium's victory (the book's last Actium Victory paragraph, after the Historical Note).

"The Octavian Player wins when he has at least 135 VP, and that number is at
least twice that of the enemy. The Antonian Player wins when he has at least
150 VP, and that number is at least twice that of the enemy. If neither of the
above happens, and/or the players halt play by mutual agreement, a minor,
indecisive victory goes to he who has the most VP." And: "If both Antony and
Cleopatra are alive and not in Octavian's hands when the game ends, if the
Antonians have not won, give the Antonians an additional 20 VP."
"""

from __future__ import annotations

import random

from engine.dice import ForcedDice
from engine.war_galley.map_and_galleys.galley import Removal
from engine.war_galley.turn.state import GameState, Phase
from engine.war_galley.turn.status import eliminate
from tests.engine.war_galley.scenario_support import SeededDice, deployed, drive


def _sink_until(state: GameState, side: str, vp: int) -> GameState:
    """Sink the enemy's galleys without commanders aboard (no 9.2 roll, no lost leader) until `side` has `vp`."""
    enemy = state.other(side)
    for galley in list(state.galleys_of(enemy)):
        if state.vp(side) >= vp:
            break
        if state.commander_on(galley.id):
            continue
        state, _ = eliminate(state, galley.id, Removal.SUNK, "sunk", ForcedDice(), "7.17")
    assert state.vp(side) >= vp
    return state


def _to_victory_phase(state: GameState) -> GameState:
    """Do-nothing play through the turn's phase H (the game over there, or the next turn begun)."""
    turn = state.turn
    return drive(state, lambda s: s.phase is Phase.OVER or s.turn > turn, SeededDice(random.Random(3)))


def test_the_book_sets_actiums_thresholds() -> None:
    state = deployed("actium")
    assert [(s.key, s.vp_needed, s.vp_ratio) for s in state.sides] == [("octavians", 135, 2), ("antonians", 150, 2)]


def test_octavian_wins_in_phase_h_on_135_vp_twice_the_enemys() -> None:
    state = _sink_until(deployed("actium"), "octavians", 135)
    assert state.result is None  # a win is judged in phase H (9.1), not the instant the VP come
    state = _to_victory_phase(state)
    assert state.phase is Phase.OVER and state.result is not None
    assert state.result.winner == "octavians" and state.result.kind == "victory"
    assert "needed 135" in state.result.text


def test_the_antonians_win_on_150_vp_twice_the_enemys() -> None:
    state = _sink_until(deployed("actium"), "antonians", 150)
    state = _to_victory_phase(state)
    assert state.result is not None and state.result.winner == "antonians" and state.result.kind == "victory"
    assert "needed 150" in state.result.text


def test_135_vp_short_of_twice_the_enemys_is_no_win_and_play_goes_on() -> None:
    state = _sink_until(deployed("actium"), "antonians", 70)
    state = _sink_until(state, "octavians", 135)
    assert state.vp("octavians") < 2 * state.vp("antonians")
    state = _to_victory_phase(state)
    assert state.result is None and state.turn == 2


def test_a_halt_without_a_win_is_a_minor_victory_with_the_leaders_20_vp_to_the_antonians() -> None:
    from engine.war_galley.turn.victory import halt

    state = _sink_until(deployed("actium"), "octavians", 1)
    assert 0 < state.vp("octavians") < 20 and state.vp("antonians") == 0
    result = halt(state)  # Antony and Cleopatra alive, aboard, not captured; the Antonians have not won
    assert result.kind == "minor" and result.winner == "antonians" and "survive: 20 VP" in result.text
    # "If this does not allow them to have more VP than the Octavians, then the Octavian still wins."
    state = _sink_until(state, "octavians", 21)
    result = halt(state)
    assert result.kind == "minor" and result.winner == "octavians" and "survive: 20 VP" in result.text
