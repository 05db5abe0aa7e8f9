"""Every activation `legal` lists passes the whole check `apply` makes, entry plans included (Lade, Drepanum Approach)."""

from __future__ import annotations

import random

import pytest

from engine.dice import NoDice
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.legal import legal
from engine.war_galley.turn import entry
from engine.war_galley.turn.decisions import Activate
from engine.war_galley.turn.state import GameState
from tests.engine.war_galley.scenario_support import apply, deployed


def entering(state: GameState, decision: object) -> bool:
    return isinstance(decision, Activate) and any(entry.queue_of(state, p.galley) is not None for p in decision.plans)


def states_with_entries(key: str, wanted: int, limit: int = 300) -> list[GameState]:
    """States where `legal` lists an activation bringing galleys on, by random play from the deployment."""
    rng = random.Random(key)
    state = deployed(key)
    found: list[GameState] = []
    for _ in range(limit):
        if state.result is not None or len(found) >= wanted:
            break
        listed = legal(state)
        if any(entering(state, d) for d in listed):
            found.append(state)
        state = apply(state, rng.choice(listed))
    return found


@pytest.mark.parametrize("key", ["lade", "drepanum-approach"])
def test_every_listed_decision_passes_apply(key: str) -> None:
    states = states_with_entries(key, 3)
    assert states, f"{key}: no state lists an entry"
    for state in states:
        for decision in legal(state):
            try:
                play.apply(state, decision, NoDice())
            except NoDice.Needed:
                pass  # it would roll dice: it got past every check
