"""The table and its terrain: coasts, islands, reefs, peninsulas, shallows, and the fragment's open-water tests.

All land is axis-aligned rectangles (an island's string line is laid straight
along each side, so shallows are the land grown by their depth). A coast is a
table edge with land beyond it and shallows of its own depth inside the table.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.fleets.elements import Numbers
from engine.fleets.errors import IllegalOrder
from engine.fleets.geometry import Rect, point_rect_gap_sq, rect_gap_sq

Edge = Literal["N", "E", "S", "W"]
EDGES: tuple[Edge, ...] = ("N", "E", "S", "W")
PieceKind = Literal["island", "reef", "peninsula"]
RULE = "rules 2, terrain"


class Coast(msgspec.Struct, frozen=True, array_like=True):
    edge: Edge
    shallows: int = 0


class Piece(msgspec.Struct, frozen=True, array_like=True):
    kind: PieceKind
    land: Rect
    shallows: int = 0


class Terrain(msgspec.Struct, frozen=True):
    size: int
    coasts: tuple[Coast, ...]
    pieces: tuple[Piece, ...] = ()

    def coast_edges(self) -> tuple[str, ...]:
        return tuple(c.edge for c in self.coasts)

    @property
    def bounds(self) -> Rect:
        return Rect(0, 0, self.size, self.size)


def coast_land(size: int, edge: str) -> Rect:
    """The land beyond a coast edge (as deep as the table, so nothing leaves across it)."""
    return {
        "N": Rect(-size, size, 2 * size, 2 * size),
        "S": Rect(-size, -size, 2 * size, 0),
        "E": Rect(size, -size, 2 * size, 2 * size),
        "W": Rect(-size, -size, 0, 2 * size),
    }[edge]


def coast_shallows(size: int, coast: Coast) -> Rect:
    s = coast.shallows
    return {
        "N": Rect(0, size - s, size, size),
        "S": Rect(0, 0, size, s),
        "E": Rect(size - s, 0, size, size),
        "W": Rect(0, 0, s, size),
    }[coast.edge]


def land(terrain: Terrain) -> list[Rect]:
    """Everything an element is destroyed by drifting or recoiling onto, and may not move onto."""
    return [p.land for p in terrain.pieces] + [coast_land(terrain.size, c.edge) for c in terrain.coasts]


def shallows(terrain: Terrain) -> list[Rect]:
    """The areas inside the string lines (land included: a leg over land is refused anyway)."""
    return [p.land.grown(p.shallows) for p in terrain.pieces] + [
        coast_shallows(terrain.size, c) for c in terrain.coasts
    ]


def _union_length(intervals: list[tuple[int, int]]) -> int:
    total, reach = 0, None
    for lo, hi in sorted(intervals):
        if reach is None or lo > reach:
            total += hi - lo
            reach = hi
        elif hi > reach:
            total += hi - reach
            reach = hi
    return total


def open_water_across(terrain: Terrain, axis: str) -> int:
    """The least open water on any line across the table perpendicular to an edge.

    axis "x": lines x = c (perpendicular to the N and S edges); "y": lines y = c.
    The value is constant between breakpoints, so it is taken at each midpoint
    (coordinates doubled to stay whole). A line that runs inside a coast's own
    shallows strip, along that coast, is not a line across open water and is
    skipped (docs/fleets-rules.md, reading of the open-water test).
    """
    size = terrain.size
    zones = shallows(terrain)
    along = [c for c in terrain.coasts if (c.edge in ("E", "W")) == (axis == "x")]
    cuts = sorted({0, size} | {min(max(getattr(z, f), 0), size) for z in zones for f in (("x0", "x1") if axis == "x" else ("y0", "y1"))})
    worst = size
    for a, b in zip(cuts, cuts[1:]):
        if a == b:
            continue
        mid2 = a + b  # doubled midpoint
        if any(_inside_strip(size, c, mid2) for c in along):
            continue
        blocked = []
        for z in zones:
            lo, hi = (z.x0, z.x1) if axis == "x" else (z.y0, z.y1)
            if 2 * lo < mid2 < 2 * hi:
                plo, phi = (z.y0, z.y1) if axis == "x" else (z.x0, z.x1)
                plo, phi = max(plo, 0), min(phi, size)
                if phi > plo:
                    blocked.append((plo, phi))
        worst = min(worst, size - _union_length(blocked))
    return worst


def _inside_strip(size: int, coast: Coast, mid2: int) -> bool:
    if coast.edge in ("W", "S"):
        return mid2 < 2 * coast.shallows
    return mid2 > 2 * (size - coast.shallows)


def check_terrain(terrain: Terrain, numbers: Numbers) -> None:
    """Every limit of the fragment's terrain paragraph; raises IllegalOrder naming the first one broken."""
    size = terrain.size
    edges = terrain.coast_edges()
    if not 1 <= len(edges) <= 2 or len(set(edges)) != len(edges):
        raise IllegalOrder(RULE, "the defender declares one edge, or two different edges, to be coast")
    allowed = numbers.pieces_one_coast if len(edges) == 1 else numbers.pieces_two_coasts
    if len(terrain.pieces) > allowed:
        raise IllegalOrder(RULE, f"with {len(edges)} coast edge(s) at most {allowed} island(s), reef(s) or peninsula(s)")
    for coast in terrain.coasts:
        if not 0 <= coast.shallows <= numbers.shallows_max:
            raise IllegalOrder(RULE, f"coast {coast.edge}: shallows extend 0-{numbers.shallows_max}p from land, not {coast.shallows}p")
    for n, piece in enumerate(terrain.pieces, 1):
        _check_piece(terrain, piece, n, numbers)
    for axis, edges_named in (("x", "N and S"), ("y", "E and W")):
        water = open_water_across(terrain, axis)
        if water < numbers.open_water:
            raise IllegalOrder(RULE, f"a line across the table from the {edges_named} edges has only {water}p of open water "
                               f"(at least {numbers.open_water}p)")
    centre = size // 2
    for zone in shallows(terrain):
        if point_rect_gap_sq(centre, centre, zone) < numbers.centre_clear ** 2:
            raise IllegalOrder(RULE, f"land or shallows within {numbers.centre_clear}p of the centre of the table")
    zones = shallows(terrain)
    base = numbers.base_width
    for i, a in enumerate(zones):
        for b in zones[i + 1:]:
            gap = rect_gap_sq(a, b)
            if 0 < gap < base * base:
                raise IllegalOrder(RULE, f"a gap between shallows narrower than one base width ({base}p)")


def _check_piece(terrain: Terrain, piece: Piece, n: int, numbers: Numbers) -> None:
    r, size = piece.land, terrain.size
    what = f"{piece.kind} {n}"
    if r.width <= 0 or r.height <= 0:
        raise IllegalOrder(RULE, f"{what}: give its south-west and north-east corners")
    if not (0 <= r.x0 and r.x1 <= size and 0 <= r.y0 and r.y1 <= size):
        raise IllegalOrder(RULE, f"{what}: must lie on the table (0-{size}p)")
    length, width = max(r.width, r.height), min(r.width, r.height)
    if length > numbers.piece_length:
        raise IllegalOrder(RULE, f"{what}: {length}p long; each must be {numbers.piece_length}p or less in length")
    if width * numbers.width_den > length * numbers.width_num:
        raise IllegalOrder(RULE, f"{what}: {width}p wide is more than two-thirds of its {length}p length")
    if not 0 <= piece.shallows <= numbers.shallows_max:
        raise IllegalOrder(RULE, f"{what}: shallows extend 0-{numbers.shallows_max}p from land, not {piece.shallows}p")
    on_coast = {"W": r.x0 == 0, "E": r.x1 == size, "S": r.y0 == 0, "N": r.y1 == size}
    if piece.kind == "peninsula" and not any(on_coast[e] for e in terrain.coast_edges()):
        raise IllegalOrder(RULE, f"{what}: a peninsula must run out from a coast edge")
