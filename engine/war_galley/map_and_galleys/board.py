"""The playing area (2.2, 6.31, 9.1): the map's sheets, land, coast and edges.

Every global hex is one of three kinds of `Water`:

- SEA: on the map and not land; galleys may move there.
- LAND: a land/island hex the scenario puts in play, *or* a hex just beyond a
  map edge the scenario calls coast. Entering it runs the galley aground
  (6.31); the bow (or, backwatering, the stern) then lies on that hex.
- OPEN: beyond a map edge that is not coast. Entering it leaves the map; a
  galley that leaves never returns (9.1).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from functools import cached_property

import msgspec

from engine.war_galley.map_and_galleys.hexes import SINGLE_SHEET, Hex, MapSpec, neighbours


class Water(enum.Enum):
    SEA = "sea"
    LAND = "land"
    OPEN = "open"  # off the map, not coast: leaving the map


class Edge(enum.Enum):
    """A side of the whole (joined) map, in grid terms: TOP is the row-00 side."""

    TOP = "top"
    BOTTOM = "bottom"
    LEFT = "left"
    RIGHT = "right"


_SEA: dict[tuple[MapSpec, frozenset[Hex]], frozenset[Hex]] = {}


class Board(msgspec.Struct, frozen=True, forbid_unknown_fields=True, dict=True):
    """A battle's map: its sheets and its land (on-map land hexes and coast beyond edges)."""

    map: MapSpec = SINGLE_SHEET
    land: frozenset[Hex] = frozenset()

    def water(self, h: Hex) -> Water:
        if h in self.land:
            return Water.LAND
        return Water.SEA if self.map.contains(h) else Water.OPEN

    def on_map(self, h: Hex) -> bool:
        return self.map.contains(h)

    def is_sea(self, h: Hex) -> bool:
        return h in self._sea

    @cached_property
    def _sea(self) -> frozenset[Hex]:
        """The sea hexes (on the map, not land), made once per board: `is_sea` is asked millions of times.
        Every state decoded from bytes has a board of its own, equal to the others: they share one answer."""
        key = (self.map, self.land)
        found = _SEA.get(key)
        if found is None:
            found = _SEA[key] = frozenset(h for h in self.map.hexes() if h not in self.land)
        return found

    def with_land(self, hexes: Iterable[Hex]) -> Board:
        return Board(self.map, self.land | frozenset(hexes))

    def with_coast(self, edge: Edge, openings: Iterable[Hex] = ()) -> Board:
        """This board with the map edge `edge` made coast (scenario "Maps").

        `openings` are on-map edge hexes whose outer hexes stay open water
        (Actium's harbour entrance, South 1400 through North 4600): an outer
        hex next to any opening is open.
        """
        return self.with_land(coast_beyond(self.map, edge, openings))


def _beyond(map_: MapSpec, edge: Edge) -> set[Hex]:
    """The off-map hexes adjacent to the map on side `edge`."""
    on_map = list(map_.hexes())
    top, bottom = min(h.row for h in on_map), max(h.row for h in on_map)
    left, right = min(h.col for h in on_map), max(h.col for h in on_map)
    outside = {
        Edge.TOP: lambda h: h.row < top,
        Edge.BOTTOM: lambda h: h.row > bottom,
        Edge.LEFT: lambda h: h.col < left,
        Edge.RIGHT: lambda h: h.col > right,
    }[edge]
    # A neighbour is at most one row and one column away, so only the hexes of the outermost row or
    # column can touch a hex beyond it: the rest of the map (3,000 hexes at Actium) need not be asked.
    edge_line = {
        Edge.TOP: lambda h: h.row == top,
        Edge.BOTTOM: lambda h: h.row == bottom,
        Edge.LEFT: lambda h: h.col == left,
        Edge.RIGHT: lambda h: h.col == right,
    }[edge]
    return {n for h in on_map if edge_line(h) for n in neighbours(h) if not map_.contains(n) and outside(n)}


def coast_beyond(map_: MapSpec, edge: Edge, openings: Iterable[Hex] = ()) -> frozenset[Hex]:
    """The coast hexes beyond `edge`: every outer hex not next to an opening."""
    open_water = {n for h in openings for n in neighbours(h)}
    return frozenset(_beyond(map_, edge) - open_water)


OPEN_SEA = Board()
