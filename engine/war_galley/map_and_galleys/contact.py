"""Where two galleys touch or see each other: hexsides, common flank hexsides, lines (4.2, 8.1, 8.4).

Rule 8 asks three geometric questions, answered here once for grappling,
Harpax, missiles and flame:

- which hexside of a galley a neighbour lies across (4.2: Bow, Bow/Flank,
  (Midship) Flank, Stern/Flank, Stern);
- whether two galleys share a *common flank hexside* (8.11): one hexside that
  is a flank hexside (any but Bow and Stern) of both;
- the range of a line from one galley to another (8.41, 8.46, Naulochus'
  Harpax): 1 when adjacent across a permitted hexside, 2 when a clear hex
  lies between them, leaving the source through a permitted hexside.

Readings (docs/manpower-notes.md): galleys that touch are at range 1 and
never at range 2 (a galley in one's bow hex cannot be shot "around the
corner"); only ships block a line (8.46), land does not.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from itertools import chain
from typing import NamedTuple

from engine.war_galley.map_and_galleys.hexes import DIRECTIONS, Hex, neighbour
from engine.war_galley.map_and_galleys.position import Around, Position

FLANKS = frozenset({Around.BOW_FLANK, Around.FLANK, Around.STERN_FLANK})
ALL_SIDES = frozenset(Around)

# Hexside of a galley hex by (direction - facing) % 6; None: the inside hexside.
_SINGLE = {0: Around.BOW, 1: Around.BOW_FLANK, 5: Around.BOW_FLANK,
           2: Around.STERN_FLANK, 4: Around.STERN_FLANK, 3: Around.STERN}
_DOUBLE_BOW = {0: Around.BOW, 1: Around.BOW_FLANK, 5: Around.BOW_FLANK,
               2: Around.FLANK, 4: Around.FLANK, 3: None}
_DOUBLE_STERN = {3: Around.STERN, 2: Around.STERN_FLANK, 4: Around.STERN_FLANK,
                 1: Around.FLANK, 5: Around.FLANK, 0: None}


def hexside(position: Position, h: Hex, direction: int) -> Around | None:
    """What the hexside of the galley's hex `h` toward `direction` is (4.2); None if inside or not its hex."""
    relative = (direction - position.facing) % 6
    if not position.double:
        return _SINGLE[relative] if h == position.bow else None
    if h == position.bow:
        return _DOUBLE_BOW[relative]
    if h == position.stern:
        return _DOUBLE_STERN[relative]
    return None


class Touch(NamedTuple):
    """One hexside two galleys share: `a`'s hex, the direction to `b`'s hex, and what it is to each."""

    mine: Hex
    direction: int
    theirs: Hex
    my_side: Around
    their_side: Around


def touches(mine: Position, theirs: Position) -> list[Touch]:
    """Every hexside the two counters share."""
    if mine.near.isdisjoint(theirs.hexes):  # in C: no hex of theirs is next to one of mine
        return []
    found = []
    for h in mine.hexes:
        for d in DIRECTIONS:
            other = neighbour(h, d)
            if other in theirs.hexes:
                my_side = hexside(mine, h, d)
                their_side = hexside(theirs, other, d + 3)
                if my_side is not None and their_side is not None:
                    found.append(Touch(h, int(d), other, my_side, their_side))
    return found


def adjacent(mine: Position, theirs: Position) -> bool:
    return bool(touches(mine, theirs))


def common_flank_hexsides(mine: Position, theirs: Position) -> list[Touch]:
    """8.11: the hexsides that are flank hexsides (not Bow nor Stern) of both galleys."""
    return [t for t in touches(mine, theirs) if t.my_side in FLANKS and t.their_side in FLANKS]


def line_range(
    mine: Position,
    theirs: Position,
    occupied: Collection[Hex],
    *,
    max_range: int,
    my_sides: frozenset[Around] = FLANKS,
    their_sides: frozenset[Around] = ALL_SIDES,
) -> int | None:
    """The range of a line from `mine` to `theirs`, or None if there is none within `max_range`.

    Range 1: the galleys share a hexside that is one of `my_sides` for the
    source and one of `their_sides` for the target. Range 2 (8.46): galleys
    that do not touch, with a hex between them that no ship fills
    (`occupied`: every galley's hexes), entered across one of `my_sides` and
    left into the target across one of `their_sides`.
    """
    contacts = touches(mine, theirs)
    if contacts:
        fits = any(t.my_side in my_sides and t.their_side in their_sides for t in contacts)
        return 1 if fits and max_range >= 1 else None
    if max_range < 2:
        return None
    return 2 if any(True for _ in clear_hexes_between(mine, theirs, occupied, my_sides, their_sides)) else None


def clear_hexes_between(
    mine: Position,
    theirs: Position,
    occupied: Collection[Hex],
    my_sides: frozenset[Around] = FLANKS,
    their_sides: frozenset[Around] = ALL_SIDES,
) -> Iterator[Hex]:
    """The clear hexes a range-2 line may pass (8.46), each adjacent to both galleys."""
    for h in mine.hexes:
        for d in DIRECTIONS:
            between = neighbour(h, d)
            if between in occupied or between in mine.hexes or between in theirs.hexes:
                continue
            if hexside(mine, h, d) not in my_sides:
                continue
            for d2 in DIRECTIONS:
                target_hex = neighbour(between, d2)
                if target_hex in theirs.hexes and hexside(theirs, target_hex, d2 + 3) in their_sides:
                    yield between
                    break


def occupied_hexes(positions: Collection[Position]) -> frozenset[Hex]:
    return frozenset(chain.from_iterable([p.hexes for p in positions]))  # no generator frame per hex


def shifted(position: Position, direction: int) -> Position:
    """The counter moved one hex toward `direction`, keeping its facing (a Harpax pull)."""
    return Position(neighbour(position.bow, direction), position.facing, position.double)


def sideways(position: Position) -> tuple[int, ...]:
    """The directions a counter may be moved "sideways": any but along its keel (Naulochus)."""
    keel = {int(position.facing), (position.facing + 3) % 6}
    return tuple(int(d) for d in DIRECTIONS if int(d) not in keel)
