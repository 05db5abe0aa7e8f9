"""Zones of control (version 2, docs/fleets-rules.md 5.17), DBA 2.2 practice the fragment keeps ("fought just like
battles between armies"): an element or group that begins its move within a base width in front of an enemy
may only move straight into front contact with that enemy or straight away from it; from version 3 one that
enters such a zone during its move must stop in it or go on into that enemy's front.

Reading: the zone is the square one base deep directly before the enemy's front edge; a base in it is one
overlapping it (touching its edge is not in it); an enemy in front contact exerts none (it is fighting).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.fleets import space
from engine.fleets.elements import Element
from engine.fleets.errors import IllegalOrder
from engine.fleets.geometry import UNIT, Rect, Vec, overlaps, square
from engine.fleets.state import State

RULE = "rules 5.17, zone of control"


def zone(state: State, enemy: Element) -> Rect:
    base = 2 * state.half
    fx, fy = UNIT[enemy.heading]
    return square(enemy.x + fx * base, enemy.y + fy * base, state.half)


def controlling(state: State, element: Element) -> list[Element]:
    """The enemies in whose zone `element` stands (none for an element in front contact)."""
    if not state.rules.at_least("2") or space.front_partner(state, element) is not None:
        return []
    mine = element.footprint(state.half)
    return [e for e in state.elements if e.side != element.side and space.front_partner(state, e) is None
            and overlaps(mine, zone(state, e))]


def straight_away(direction: Vec, enemy: Element) -> bool:
    """`direction` goes exactly the way the enemy faces: straight away from its front."""
    fx, fy = UNIT[enemy.heading]
    return direction[0] * fy == direction[1] * fx and direction[0] * fx + direction[1] * fy > 0


def check(state: State, members: list[Element], directions: list[Vec], contact: str | None) -> None:
    """Refuse a move of `members` (legs `directions`; `contact` the enemy it ends fronting) out of a zone other
    than into that enemy's front or straight away."""
    for m in members:
        for enemy in controlling(state, m):
            if contact == enemy.id or (directions and all(straight_away(d, enemy) for d in directions)):
                continue
            raise IllegalOrder(RULE, f"{m.id} begins within a base width in front of {enemy.id}: it may only "
                               f"move straight into contact with {enemy.id} (`{m.id} contact {enemy.id}`) or "
                               "straight away from it")


Entering = tuple[Element, list[Callable[[Rect], bool]], Rect]  # an element, whether each leg sweeps a rect, its end


def check_entering(state: State, moves: list[Entering], contacts: set[str]) -> None:
    """DBA 2.2 (version 3): an element whose move takes it into the zone of an enemy it did not begin in must halt
    there (the leg that enters is its last and it ends in the zone) or end in front contact with that enemy
    (`contacts`); so no element sails across an enemy's front."""
    if not state.rules.at_least("3"):
        return
    for element, legs, end in moves:
        begun = {e.id for e in controlling(state, element)}
        for enemy in state.elements:
            if enemy.side == element.side or enemy.id in begun or enemy.id in contacts:
                continue
            if space.front_partner(state, enemy) is not None:
                continue
            z = zone(state, enemy)
            first = next((i for i, sweeps in enumerate(legs) if sweeps(z)), None)
            if first is None or (first == len(legs) - 1 and overlaps(end, z)):
                continue
            raise IllegalOrder(RULE, f"{element.id} would enter the zone a base width in front of {enemy.id} and go on: "
                               f"an element entering it halts there or moves into contact with {enemy.id}")
