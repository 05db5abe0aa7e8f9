"""Exact integer geometry in paces: vectors, rectangles, and the region a square base sweeps.

Coordinates: x grows east, y grows north, the table's south-west corner is 0,0.
Headings are compass degrees from a fixed set (0 N, 90 E, 180 S, 270 W); bases
are squares, so a base's footprint never depends on its heading. Every test is
done in integers (squared lengths, dot and cross products), never floats.
"""

from __future__ import annotations

from math import isqrt

import msgspec

HEADINGS = (0, 90, 180, 270)
UNIT = {0: (0, 1), 90: (1, 0), 180: (0, -1), 270: (-1, 0)}
HEADING_NAMES = {0: "N", 90: "E", 180: "S", 270: "W"}
HEADING_OF = {v: k for k, v in HEADING_NAMES.items()}


def placing(x: int, y: int, heading: int) -> str:
    """Where an element stands, in the notation's words: `400,120 facing N`."""
    return f"{x},{y} facing {HEADING_NAMES.get(heading, heading)}"


Vec = tuple[int, int]


class Rect(msgspec.Struct, frozen=True, array_like=True):
    """An axis-aligned rectangle x0 <= x <= x1, y0 <= y <= y1 (closed; touching is not overlapping)."""

    x0: int
    y0: int
    x1: int
    y1: int

    def grown(self, by: int) -> "Rect":
        return Rect(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    def shifted(self, dx: int, dy: int) -> "Rect":
        return Rect(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0


def square(x: int, y: int, half: int) -> Rect:
    return Rect(x - half, y - half, x + half, y + half)


def length_up(dx: int, dy: int) -> int:
    """A leg's length in whole paces, rounded up (so a measured move is never shorter than the true one)."""
    sq = dx * dx + dy * dy
    root = isqrt(sq)
    return root if root * root == sq else root + 1


def dot(a: Vec, b: Vec) -> int:
    return a[0] * b[0] + a[1] * b[1]


def within_90(a: Vec, b: Vec) -> bool:
    """Angle between a and b is 90 degrees or less."""
    return dot(a, b) >= 0


def within_45(a: Vec, b: Vec) -> bool:
    """Angle between a and b is 45 degrees or less: cos >= 1/sqrt 2, i.e. 2 dot^2 >= |a|^2 |b|^2 with dot >= 0."""
    d = dot(a, b)
    return d >= 0 and 2 * d * d >= dot(a, a) * dot(b, b)


def overlaps(a: Rect, b: Rect) -> bool:
    """Positive-area overlap (edges or corners touching do not count)."""
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def touches(a: Rect, b: Rect) -> bool:
    """Closed rectangles meet (overlap or share boundary)."""
    return a.x0 <= b.x1 and b.x0 <= a.x1 and a.y0 <= b.y1 and b.y0 <= a.y1


def inside(inner: Rect, outer: Rect) -> bool:
    return outer.x0 <= inner.x0 and inner.x1 <= outer.x1 and outer.y0 <= inner.y0 and inner.y1 <= outer.y1


def rect_gap_sq(a: Rect, b: Rect) -> int:
    """Squared distance between two rectangles (0 if they meet)."""
    dx = max(0, a.x0 - b.x1, b.x0 - a.x1)
    dy = max(0, a.y0 - b.y1, b.y0 - a.y1)
    return dx * dx + dy * dy


def point_rect_gap_sq(x: int, y: int, r: Rect) -> int:
    dx = max(0, r.x0 - x, x - r.x1)
    dy = max(0, r.y0 - y, y - r.y1)
    return dx * dx + dy * dy


def _corners(r: Rect) -> list[Vec]:
    return [(r.x0, r.y0), (r.x1, r.y0), (r.x1, r.y1), (r.x0, r.y1)]


def sweep_overlaps(start: Vec, end: Vec, half: int, other: Rect) -> bool:
    """Does a square of half-size `half` sliding straight from start to end overlap `other` (positive area)?

    The swept region is the convex hull of the two end squares; by the separating
    axis theorem two convex polygons are apart iff some edge normal separates
    them. Candidate axes: x, y and the normal of the path. Separation with touching
    (projections meeting at one value) counts as apart.
    """
    # the bounding box first: most bases are nowhere near the path
    if (max(start[0], end[0]) + half <= other.x0 or other.x1 <= min(start[0], end[0]) - half
            or max(start[1], end[1]) + half <= other.y0 or other.y1 <= min(start[1], end[1]) - half):
        return False
    a, b = square(*start, half), square(*end, half)
    hull = _corners(a) + _corners(b)
    poly = _corners(other)
    dx, dy = end[0] - start[0], end[1] - start[1]
    axes: list[Vec] = [(1, 0), (0, 1)]
    if dx and dy:
        axes.append((-dy, dx))
    for axis in axes:
        p = [dot(axis, c) for c in hull]
        q = [dot(axis, c) for c in poly]
        if max(p) <= min(q) or max(q) <= min(p):
            return False
    return True


def rotate(heading: int, quarter_turns: int) -> int:
    return (heading + 90 * quarter_turns) % 360


def quarter_turns(a: int, b: int) -> int:
    """The fewest quarter turns from heading a to heading b (0, 1 or 2)."""
    d = ((b - a) // 90) % 4
    return min(d, 4 - d)


def parse_point(text: str) -> Vec:
    x, _, y = text.partition(",")
    return int(x), int(y)
