"""The demo player: a seeded pick among legal orders, leaning toward battle (front contacts, then closing)."""

from __future__ import annotations

from typing import Any

from engine.fleets import legal
from engine.fleets.decisions import Decision, Drift, End, Move, PlaceRest, Shift, Wheel
from engine.fleets.state import State


def _closeness(state: State, d: Decision) -> int:
    if not isinstance(d, Move) or not d.to:
        return 1 << 62
    x, y = d.to[-1]
    me = state.element(d.id)
    return min(((e.x - x) ** 2 + (e.y - y) ** 2 for e in state.elements if me and e.side != me.side), default=1 << 62)


def choose(state: State, rng: Any, listed: list[Decision] | None = None) -> Decision:
    """`listed`: legal(state), if the caller has it (a listing is the costly part of a choice)."""
    options = listed if listed is not None else legal.legal(state)
    if state.phase in ("deploy-defender", "deploy-attacker"):
        rest = [d for d in options if isinstance(d, PlaceRest)]
        return rest[0] if rest and rng.random() < 0.9 else rng.choice(options)
    if state.phase in ("fleet-defender", "fleet-attacker"):
        return options[0] if rng.random() < 0.9 else rng.choice(options)  # mostly the scenario's own fleet
    if state.phase != "move":
        return rng.choice(options)
    if state.pips > 0:
        contacts = [d for d in options if isinstance(d, Move) and d.contact is not None]
        if contacts:
            return rng.choice(contacts)
        moves = [d for d in options if isinstance(d, Move) and d.to]
        if moves and rng.random() < 0.85:
            return min(moves, key=lambda d: (_closeness(state, d), rng.random()))
        shifts = [d for d in options if isinstance(d, (Shift, Wheel))]
        if shifts and rng.random() < 0.3:
            return rng.choice(shifts)
    drifts = [d for d in options if isinstance(d, Drift)]
    if drifts and rng.random() < 0.3:
        return rng.choice(drifts)
    return next(d for d in options if isinstance(d, End))
