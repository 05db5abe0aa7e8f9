"""Wind direction: the defender's point, both dice, and upwind / downwind / wind astern by angle.

The eight points around the table, clockwise seen from above with north up:
N, NE, E, SE, S, SW, W, NW (sides and corners alternate). The wind comes FROM
its point and blows straight across to the opposite one.
"""

from __future__ import annotations

from engine.fleets.geometry import Vec, within_45, within_90

POINTS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
# Where each point lies, seen from the table centre (a unit step; corners are diagonal).
OFFSET: dict[str, Vec] = {
    "N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
    "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1),
}


def rolled(start: str, attacker_die: int, defender_die: int) -> str:
    """The attacker's die counts clockwise, the defender's counter-clockwise, one per side or corner."""
    return POINTS[(POINTS.index(start) + attacker_die - defender_die) % len(POINTS)]


def blowing(source: str) -> Vec:
    """The direction the wind blows (from its point toward the opposite one)."""
    dx, dy = OFFSET[source]
    return (-dx, -dy)


def downwind(direction: Vec, source: str) -> bool:
    """Up to and including 90 degrees off the direction of the wind."""
    return within_90(direction, blowing(source))


def upwind(direction: Vec, source: str) -> bool:
    """More than 90 degrees off the direction of the wind."""
    return not downwind(direction, source)


def astern(direction: Vec, source: str) -> bool:
    """Directly or diagonally downwind: up to and including 45 degrees off the wind."""
    return within_45(direction, blowing(source))


def drift_step(source: str, distance: int) -> Vec:
    """A drift of `distance` paces in the wind's direction, in whole paces.

    Along a side the step is exact; along a diagonal each component is
    distance / sqrt 2 rounded to the nearest pace (100p -> 71, 71).
    """
    dx, dy = blowing(source)
    if dx and dy:
        k = _nearest_over_root2(distance)
        return (dx * k, dy * k)
    return (dx * distance, dy * distance)


def _nearest_over_root2(d: int) -> int:
    # k = round(d / sqrt 2): the k minimising |2k^2 - d^2| (exact in integers)
    from math import isqrt

    k = isqrt(d * d // 2)
    return min((k, k + 1), key=lambda c: abs(2 * c * c - d * d))
