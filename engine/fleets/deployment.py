"""Deployment (fragment): the attacker picks a side that is not a shore side, nor upwind if he has any ships;
the defender sets up first, everything within 600p of his edge, then the attacker within 600p of his."""

from __future__ import annotations

import msgspec

from engine.fleets import space, wind as winds
from engine.fleets.decisions import Place
from engine.fleets.errors import IllegalOrder
from engine.fleets.events import Placed
from engine.fleets.geometry import UNIT, Rect, inside, overlaps, square
from engine.fleets.state import State
from engine.fleets.table import EDGES, land

RULE = "rules 4, deployment"
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
FACING_IN = {"N": 180, "S": 0, "E": 270, "W": 90}  # heading toward the table from each edge


def has_ships(state: State, side: str) -> bool:
    return any(state.rules.type(e.type).kind == "ship" for e in state.to_place + state.elements if e.side == side)


def edge_upwind(edge: str, wind: str) -> bool:
    """A side is upwind if its direction from the table centre is more than 90 degrees off the wind's."""
    return winds.upwind(winds.OFFSET[edge], wind)


def attacker_edges(state: State) -> list[str]:
    """The sides the attacker may choose. If none qualify (two coasts and an awkward wind), the upwind bar is
    dropped rather than leave no battle (our reading, docs/fleets-rules.md)."""
    assert state.terrain is not None and state.wind is not None
    shore = state.terrain.coast_edges()
    ships = has_ships(state, state.attacker)
    ok = [e for e in EDGES if e not in shore and not (ships and edge_upwind(e, state.wind))]
    return ok or [e for e in EDGES if e not in shore]


def check_attack_side(state: State, edge: str) -> None:
    assert state.terrain is not None and state.wind is not None
    if edge not in EDGES:
        raise IllegalOrder(RULE, "choose a side: N, E, S or W")
    allowed = attacker_edges(state)
    if edge in allowed:
        return
    if edge in state.terrain.coast_edges():
        raise IllegalOrder(RULE, f"{edge} is a shore side; the attacker may choose {', '.join(allowed)}")
    raise IllegalOrder(RULE, f"{edge} is upwind (wind from {state.wind}) and the attacker has ships; choose {', '.join(allowed)}")


def own_edge(state: State, side: str) -> str:
    assert state.attacker_edge is not None
    return state.attacker_edge if side == state.attacker else OPPOSITE[state.attacker_edge]


def zone(state: State, side: str) -> Rect:
    """The band within 600p of the side's edge."""
    assert state.terrain is not None
    size, depth = state.terrain.size, state.rules.numbers.deploy_depth
    return {
        "S": Rect(0, 0, size, depth), "N": Rect(0, size - depth, size, size),
        "W": Rect(0, 0, depth, size), "E": Rect(size - depth, 0, size, size),
    }[own_edge(state, side)]


def deploying(state: State) -> str:
    return state.defender if state.phase == "deploy-defender" else state.attacker


def check_place(state: State, order: Place) -> tuple[State, Placed]:
    side = deploying(state)
    element = next((e for e in state.to_place if e.id == order.id), None)
    if element is None:
        placed = state.element(order.id)
        raise IllegalOrder(RULE, f"{order.id} is already placed" if placed else f"no element {order.id} of the {side} to place")
    if element.side != side:
        raise IllegalOrder(RULE, f"{order.id} is not the {side}'s to place now")
    if order.heading not in UNIT:
        raise IllegalOrder(RULE, "face N, E, S or W")
    base = square(order.x, order.y, state.half)
    if not inside(base, zone(state, side)):
        raise IllegalOrder(RULE, f"{order.id}: the whole base must be within {state.rules.numbers.deploy_depth}p of the "
                           f"{own_edge(state, side)} edge")
    assert state.terrain is not None
    if any(overlaps(base, r) for r in land(state.terrain)):
        raise IllegalOrder(RULE, f"{order.id}: {order.x},{order.y} is on land or a reef")
    for e in state.elements:
        if overlaps(base, e.footprint(state.half)):
            raise IllegalOrder(RULE, f"{order.id}: {order.x},{order.y} overlaps {e.id}")
    new = element.moved(order.x, order.y, order.heading)
    state = msgspec.structs.replace(
        state, elements=state.elements + (new,), to_place=tuple(e for e in state.to_place if e.id != order.id)
    )
    return state, Placed(new.id, new.x, new.y, new.heading)


def rest_positions(state: State) -> list[Place]:
    """A line abreast facing the enemy edge, centred, at the front of the zone, then rows behind it, skipping land
    and bases (`place rest`)."""
    side = deploying(state)
    edge = own_edge(state, side)
    assert state.terrain is not None
    size, half, depth = state.terrain.size, state.half, state.rules.numbers.deploy_depth
    heading = FACING_IN[edge]
    inward = UNIT[heading]
    pending = [e for e in state.to_place if e.side == side]
    out: list[Place] = []
    trial = state
    laterals = sorted(range(half, size - half + 1, 2 * half), key=lambda c: (abs(c - size // 2), c))
    for row in range(depth - half, half - 1, -2 * half):
        for lateral in laterals:
            if not pending:
                return out
            if inward[1]:
                x, y = lateral, row if edge == "S" else size - row
            else:
                x, y = (row if edge == "W" else size - row), lateral
            if not space.footprint_clear(trial, x, y):
                continue
            order = Place(pending[0].id, x, y, heading)
            trial, _ = check_place(trial, order)
            out.append(order)
            pending.pop(0)
    if pending:
        raise IllegalOrder(RULE, f"no room to place {pending[0].id} in a line: place the rest by hand")
    return out

