"""What a report draws: the table in screen coordinates (north up), terrain, shallows, wind, elements with facing.

A plain JSON-able dict of integers and strings, so any report machinery can
hand it to the ruleset's template (templates/fleets/table.svg.j2).
"""

from __future__ import annotations

from typing import Any

from engine.fleets import describe, space
from engine.fleets.geometry import HEADING_NAMES, UNIT
from engine.fleets.state import State
from engine.fleets.table import shallows
from engine.fleets.wind import OFFSET, blowing

MARGIN = 200  # paces of land or sea drawn around the table
GRID = 200  # a grid line every 200p (two base widths and a half), labelled in paces every other line
TEMPLATE = "fleets/table.svg.j2"


def _box(size: int, x0: int, y0: int, x1: int, y1: int) -> dict[str, int]:
    """A rectangle in SVG coordinates (y down), clipped to the drawn area."""
    lo, hi = -MARGIN, size + MARGIN
    x0, x1 = max(x0, lo), min(x1, hi)
    y0, y1 = max(y0, lo), min(y1, hi)
    return {"x": x0, "y": size - y1, "w": max(0, x1 - x0), "h": max(0, y1 - y0)}


def table_view(state: State, events: list[Any] | None = None) -> dict[str, Any]:
    size = state.terrain.size if state.terrain is not None else state.rules.numbers.table
    half = state.half
    view: dict[str, Any] = {"template": TEMPLATE, "size": size, "margin": MARGIN, "title": state.title,
                            "land": [], "shallows": [], "elements": [], "wind": None,
                            "sides": [{"key": s.key, "name": s.name, "colour": c}
                                      for s, c in zip(state.sides, ("#1f4e9c", "#a8261b"))]}
    colour = {s.key: c for s, c in zip(state.sides, ("#1f4e9c", "#a8261b"))}
    # the scale: orders are written in paces from the south-west corner, so the grid is labelled that way
    view["grid"] = [{"at": p, "label": str(p) if p % (2 * GRID) == 0 else ""} for p in range(0, size + 1, GRID)]
    if state.terrain is not None:
        t = state.terrain
        for zone in shallows(t):
            view["shallows"].append(_box(size, zone.x0, zone.y0, zone.x1, zone.y1))
        for coast in t.coasts:
            edge = {"N": (-MARGIN, size, size + MARGIN, size + MARGIN), "S": (-MARGIN, -MARGIN, size + MARGIN, 0),
                    "E": (size, -MARGIN, size + MARGIN, size + MARGIN), "W": (-MARGIN, -MARGIN, 0, size + MARGIN)}[coast.edge]
            view["land"].append({**_box(size, *edge), "kind": "coast", "label": f"coast {coast.edge}"})
        for piece in t.pieces:
            r = piece.land
            view["land"].append({**_box(size, r.x0, r.y0, r.x1, r.y1), "kind": piece.kind, "label": piece.kind})
    if state.wind is not None:
        ox, oy = OFFSET[state.wind]
        bx, by = blowing(state.wind)
        c = size // 2
        reach = size // 2 - 100
        start = (c + ox * reach, c + oy * reach)
        end = (c + bx * (reach // 3), c + by * (reach // 3))
        view["wind"] = {"x1": start[0], "y1": size - start[1], "x2": end[0], "y2": size - end[1], "label": f"wind from {state.wind}"}
    for e in state.elements:
        fx, fy = UNIT[e.heading]
        # the front edge's two corners and a point ahead: a small bow on the front
        px, py = fy, -fx
        a = (e.x + fx * half + px * half, e.y + fy * half + py * half)
        b = (e.x + fx * half - px * half, e.y + fy * half - py * half)
        tip = (e.x + fx * (half + half // 2), e.y + fy * (half + half // 2))
        bow = " ".join(f"{x},{size - y}" for x, y in (a, tip, b))
        partner = space.front_partner(state, e)
        view["elements"].append({
            "id": e.id, "type": e.type, "side": e.side, "colour": colour.get(e.side, "#333"),
            "x": e.x - half, "y": size - e.y - half, "w": 2 * half, "cx": e.x, "cy": size - e.y,
            "bow": bow, "heading": HEADING_NAMES[e.heading], "general": e.general,
            "contact": partner.id if partner else "",
        })
    view["summary"] = describe.state_summary(state)
    view["events"] = [describe.event_words(ev, state) for ev in (events or [])]
    return view
