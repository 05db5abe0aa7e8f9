"""The battle map of a report as plain data for an SVG template (issue 12).

Drawn from the geometry the rules use (engine.war_galley.map_and_galleys.hexes, engine.war_galley.map_and_galleys.position,
shared/rules/geometry.md): flat-topped hexes in vertical columns, odd
columns half a hex lower, the battle's own `MapSpec` for the printed numbers
of joined sheets. Everything here is numbers and short strings: the template
never sees an engine object, and the same state always gives the same data
(sets are sorted), so an archive re-renders byte for byte.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.map_and_galleys.hexes import FIRST_COL, FIRST_ROW, LAST_COL, LAST_ROW, Hex, MapSpec, within
from engine.war_galley.map_and_galleys.position import Position

SIZE = 20.0  # centre to corner, in SVG units (px at 100%)
ROOT3 = math.sqrt(3.0)
MARGIN = 1.2  # hexes of sea drawn around the map, for coast and the frame
# The facing's direction on the page: 0 up, then clockwise in 60 degree steps (geometry.md).
ANGLES = (-90.0, -30.0, 30.0, 90.0, 150.0, 210.0)


class Frame:
    """Where global hexes fall on the page: the map's bounds plus a margin."""

    def __init__(self, hexes: Iterable[Hex]) -> None:
        cols, rows = zip(*((h.col, h.row) for h in hexes))
        self.c0, self.c1 = min(cols), max(cols)
        self.r0, self.r1 = min(rows), max(rows)
        self.width = round((1.5 * (self.c1 - self.c0) + 2 + 2 * MARGIN) * SIZE, 1)
        self.height = round((ROOT3 * (self.r1 - self.r0 + 1.5) + 2 * MARGIN) * SIZE, 1)

    def centre(self, h: Hex) -> tuple[float, float]:
        x = (1.5 * (h.col - self.c0) + 1 + MARGIN) * SIZE
        y = (ROOT3 * (h.row - self.r0 + 0.5 + 0.5 * (h.col & 1)) + MARGIN) * SIZE
        return x, y


def _n(value: float) -> str:
    """A coordinate as short text: one decimal, no trailing zero."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _hex_path(frame: Frame, hexes: Iterable[Hex], scale: float = 1.0) -> str:
    """One SVG path drawing every hex in `hexes` (flat-topped)."""
    r = SIZE * scale
    corners = [(r * math.cos(math.radians(a)), r * math.sin(math.radians(a))) for a in range(0, 360, 60)]
    # A corner's x depends on the column only, its y on the row and the column's parity: each written
    # once (Actium's 2,958 hexes: 20 ms of a report formatting 35,000 numbers, now about 4 ms).
    xs: dict[int, list[str]] = {}
    ys: dict[tuple[int, int], list[str]] = {}
    parts = []
    for h in hexes:
        x_texts = xs.get(h.col)
        y_texts = ys.get((h.row, h.col & 1))
        if x_texts is None or y_texts is None:
            x, y = frame.centre(h)
            x_texts = xs.setdefault(h.col, [_n(x + dx) for dx, _ in corners])
            y_texts = ys.setdefault((h.row, h.col & 1), [_n(y + dy) for _, dy in corners])
        parts.append("M" + "L".join(f"{x_texts[i]} {y_texts[i]}" for i in range(6)) + "Z")
    return "".join(parts)


@lru_cache(maxsize=16)
def grid(board: Board) -> dict[str, Any]:
    """The fixed part of the map: hexes, their numbers, land, coast, the sheets' frames.

    The same for every state of a battle, so made once a process (callers must not change it)."""
    return _draw_grid(board)


def _draw_grid(board: Board) -> dict[str, Any]:
    spec = board.map
    on_map = list(spec.hexes())
    frame = Frame(on_map + [h for h in board.land if _near(spec, h)])
    land_on_map = sorted(h for h in board.land if spec.contains(h))
    coast = sorted(h for h in board.land if not spec.contains(h) and _near(spec, h))
    labels = []
    for h in on_map:
        x, y = frame.centre(h)
        labels.append([_n(x), _n(y - SIZE * 0.58), spec.format(h)])
    sheets = []
    for sheet in spec.sheets:
        cols = [c for c in range(FIRST_COL, LAST_COL + 1) if c not in sheet.hidden_cols]
        corners = [Hex(cols[0] + sheet.col_shift, FIRST_ROW + sheet.row_shift),
                   Hex(cols[-1] + sheet.col_shift, LAST_ROW + sheet.row_shift)]
        (x0, y0), (x1, y1) = frame.centre(corners[0]), frame.centre(corners[1])
        left = x0 - SIZE
        right = x1 + SIZE
        sheets.append({"letter": sheet.letter, "x": _n(left), "y": _n(y0 - SIZE * ROOT3 / 2),
                       "w": _n(right - left), "h": _n(y1 - y0 + SIZE * ROOT3),
                       "label": f"sheet {sheet.letter}" if sheet.letter else "map"})
    return {
        "width": _n(frame.width), "height": _n(frame.height), "hex_size": int(SIZE),
        "grid_path": _hex_path(frame, on_map),
        "land_path": _hex_path(frame, land_on_map),
        "coast_path": _hex_path(frame, coast),
        "labels": labels,
        "sheets": sheets,
        "joined": len(spec.sheets) > 1,
    }


def _near(spec: MapSpec, h: Hex) -> bool:
    """A coast hex worth drawing: one step beyond the map's edge."""
    return spec.contains(h) or any(spec.contains(n) for n in within(h, 1))


@lru_cache(maxsize=16)
def frame_of(board: Board) -> Frame:
    spec = board.map
    return Frame(list(spec.hexes()) + [h for h in board.land if _near(spec, h)])


def counter_shape(frame: Frame, position: Position) -> dict[str, Any]:
    """A galley counter: a hull over its hex or hexes with a pointed bow toward its facing."""
    bx, by = frame.centre(position.bow)
    angle = ANGLES[int(position.facing)]
    ux, uy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    nx, ny = -uy, ux
    half = SIZE * 0.62  # half the hull's beam
    if position.double:
        sx, sy = frame.centre(position.stern)
    else:
        sx, sy = bx, by
    back = SIZE * 0.72
    front = SIZE * 0.40
    tip = SIZE * 0.85
    if not position.double:  # a one-hex counter: as long as the hex, so its id fits
        back, front, tip = SIZE * 0.95, SIZE * 0.55, SIZE * 1.0
    ax, ay = sx - ux * back, sy - uy * back  # the stern's edge
    fx, fy = bx + ux * front, by + uy * front  # where the bow begins to narrow
    tx, ty = bx + ux * tip, by + uy * tip
    points = [
        (ax + nx * half, ay + ny * half), (fx + nx * half, fy + ny * half), (tx, ty),
        (fx - nx * half, fy - ny * half), (ax - nx * half, ay - ny * half),
    ]
    cx, cy = (ax + tx) / 2, (ay + ty) / 2
    text_angle = angle if -90 < angle <= 90 else angle - 180  # keep the words upright
    return {
        "points": " ".join(f"{_n(x)},{_n(y)}" for x, y in points),
        "x": _n(cx), "y": _n(cy), "angle": _n(text_angle),
        "bow": [_n(bx), _n(by)],
    }


def centre_text(frame: Frame, h: Hex) -> tuple[str, str]:
    x, y = frame.centre(h)
    return _n(x), _n(y)


def polyline(frame: Frame, positions: Sequence[Position]) -> str:
    """A path through the bow hexes of successive positions, repeated hexes dropped."""
    points: list[tuple[str, str]] = []
    for p in positions:
        point = centre_text(frame, p.bow)
        if not points or points[-1] != point:
            points.append(point)
    return " ".join(f"{x},{y}" for x, y in points)


def area_path(frame: Frame, hexes: Iterable[Hex], spec: MapSpec) -> str:
    """The hexes of an area (a command range, a galley's reach) that lie on the map."""
    return _hex_path(frame, sorted(h for h in set(hexes) if spec.contains(h)), scale=0.92)


def link(frame: Frame, a: Galley, b: Galley, kind: str) -> dict[str, str] | None:
    """A Fouled or Grappled link drawn between the two galleys' nearest hexes."""
    if a.position is None or b.position is None:
        return None
    pairs = [(p, q) for p in a.position.hexes for q in b.position.hexes]
    ha, hb = min(pairs, key=lambda pq: _gap(frame, *pq))
    (x1, y1), (x2, y2) = frame.centre(ha), frame.centre(hb)
    return {"x1": _n(x1), "y1": _n(y1), "x2": _n(x2), "y2": _n(y2), "kind": kind,
            "title": f"{a.id} {kind} with {b.id}"}


def _gap(frame: Frame, a: Hex, b: Hex) -> float:
    (x1, y1), (x2, y2) = frame.centre(a), frame.centre(b)
    return (x1 - x2) ** 2 + (y1 - y2) ** 2


def sorted_ids(ids: Iterable[GalleyId]) -> list[str]:
    return sorted(str(g) for g in ids)


