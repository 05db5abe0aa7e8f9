"""The hex grid (2.2, 4.2) and the printed hex numbers players write.

Geometry follows `shared/rules/geometry.md` exactly: flat-topped hexes in
vertical columns, odd columns half a hex lower (toward higher rows), the six
directions numbered clockwise from "row - 1".

Two notions of a hex:

- `Hex` is a point of one global grid. Every rule (neighbours, distance,
  positions, movement) works on it. On a one-sheet map it equals the printed
  number: `Hex(23, 19)` is hex 2319.
- `HexNumber` is what is printed on a sheet and what players write: `2319`,
  or `N3719` / `S1719` on battles that join two sheets. `MapSpec` maps one
  onto the other, so the players' notation stays as the scenario gives it.

This is the one hex notation: scenario files, orders and reports all read a
hex with `MapSpec.parse` and write it with `MapSpec.format` (a battle's
`MapSpec` comes from its file's sheets and their offsets on the joined map,
`battles.scenario.ScenarioMap.joined`); `parse(format(h)) == h` for every hex of
the map. `parse_hex`/`format_hex` are the printed number's text alone.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator

import msgspec

from engine.errors import NotationError, RulesDataError
from engine.memo import kept_property


class Direction(enum.IntEnum):
    """A hexside direction, clockwise from "row - 1" (geometry.md)."""

    UP = 0
    UP_RIGHT = 1
    DOWN_RIGHT = 2
    DOWN = 3
    DOWN_LEFT = 4
    UP_LEFT = 5

    def turn(self, hexsides: int) -> Direction:
        """The direction `hexsides` steps clockwise (negative: anticlockwise)."""
        return DIRECTIONS[(self + hexsides) % 6]

    @property
    def opposite(self) -> Direction:
        return DIRECTIONS[(self + 3) % 6]


DIRECTIONS: tuple[Direction, ...] = tuple(Direction)

# (dcol, drow) per direction, for even and odd columns (geometry.md's table).
_STEPS: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = (
    ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)),  # even column
    ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)),  # odd column
)


class Hex(msgspec.Struct, frozen=True, order=True, array_like=True, cache_hash=True):
    """A hex of the global grid: column and row (a one-sheet map's `CCRR`)."""

    col: int
    row: int

    def __str__(self) -> str:
        return f"{self.col:02d}{self.row:02d}"


# The grid's neighbour table, filled as hexes are asked about: the rules ask of the same
# few thousand hexes millions of times a game.
_NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {}


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes around `h`, in direction order 0..5."""
    found = _NEIGHBOURS.get(h)
    if found is None:
        steps = _STEPS[h.col & 1]
        found = _NEIGHBOURS[h] = tuple(Hex(h.col + dc, h.row + dr) for dc, dr in steps)
    return found


def neighbour(h: Hex, d: int) -> Hex:
    """The hex across hexside `d` of `h`."""
    found = _NEIGHBOURS.get(h)
    if found is None:
        found = neighbours(h)
    return found[d % 6]


def distance(a: Hex, b: Hex) -> int:
    """Hexes counted from `a` to `b` (0 for the same hex)."""
    # In cube coordinates, odd columns shoved down ("odd-q", the standard offset-to-cube mapping):
    # x = col, z = row - (col - (col & 1)) // 2, y = -x - z, so |dy| = |dx + dz|. Written out: the
    # listing asks some 15,000 distances, and two tuples a call were half their cost.
    dx = a.col - b.col
    dz = (a.row - (a.col - (a.col & 1)) // 2) - (b.row - (b.col - (b.col & 1)) // 2)
    return max(abs(dx), abs(dz), abs(dx + dz))


def direction_to(a: Hex, b: Hex) -> Direction | None:
    """The direction from `a` to the adjacent hex `b`; None if not adjacent."""
    dcdr = (b.col - a.col, b.row - a.row)
    steps = _STEPS[a.col & 1]
    for d in DIRECTIONS:
        if steps[d] == dcdr:
            return d
    return None


def within(h: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at most `radius` hexes from `h`, `h` included: by column, each column's rows in order."""
    z0 = h.row - (h.col - (h.col & 1)) // 2  # h's cube z (distance)
    for dx in range(-radius, radius + 1):
        col = h.col + dx
        shift = (col - (col & 1)) // 2
        # a column's hexes within the radius: |dz| <= radius and |dx + dz| <= radius
        for dz in range(max(-radius, -radius - dx), min(radius, radius - dx) + 1):
            yield Hex(col, z0 + dz + shift)


# --- printed hex numbers ---------------------------------------------------

_HEX_NUMBER = re.compile(r"\s*([A-Za-z]?)\s*(\d{2})(\d{2})\s*")


class HexNumber(msgspec.Struct, frozen=True, order=True):
    """A hex number as printed on a map sheet: `2319`, or `N3719` with the sheet letter."""

    col: int
    row: int
    sheet: str = ""


def parse_hex(text: str) -> HexNumber:
    """Read `CCRR` or `XCCRR` (`X` a sheet letter; `N 3719` is accepted too)."""
    match = _HEX_NUMBER.fullmatch(text)
    if match is None:
        raise NotationError(f"not a hex number: {text!r} (expected CCRR, e.g. 2319 or N3719)")
    letter, col, row = match.groups()
    return HexNumber(int(col), int(row), letter.upper())


def format_hex(number: HexNumber) -> str:
    return f"{number.sheet}{number.col:02d}{number.row:02d}"


# --- map sheets -------------------------------------------------------------

FIRST_COL, LAST_COL = 10, 60  # one sheet's columns (geometry.md)
FIRST_ROW, LAST_ROW = 0, 28  # one sheet's rows
SHEET_ROWS = LAST_ROW - FIRST_ROW + 1


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One map sheet and where it lies on the global grid.

    A printed hex (col, row) of this sheet is global (col + col_shift,
    row + row_shift). `col_shift` must be even so that the sheet keeps the
    grid's column parity (geometry.md). `hidden_cols` are printed columns
    covered by another sheet (Actium's 6000 column under the south sheet).
    """

    letter: str = ""
    col_shift: int = 0
    row_shift: int = 0
    hidden_cols: frozenset[int] = frozenset()

    def shows(self, col: int, row: int) -> bool:
        """Whether printed hex (col, row) of this sheet is visible."""
        return (
            FIRST_COL <= col <= LAST_COL
            and FIRST_ROW <= row <= LAST_ROW
            and col not in self.hidden_cols
        )


class MapSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, dict=True):
    """The sheets of a battle's map and how they join (2.2; scenario "Maps").

    Build one with `single()`, `long_edge()` (Ecnomus) or `short_edge()`
    (Side, Actium), or give sheets explicitly.
    """

    sheets: tuple[Sheet, ...]

    def __post_init__(self) -> None:
        if not self.sheets:
            raise RulesDataError("a map needs at least one sheet")
        letters = [sheet.letter for sheet in self.sheets]
        if len(set(letters)) != len(letters):
            raise RulesDataError(f"sheet letters repeat: {letters}")
        if len(self.sheets) > 1 and "" in letters:
            raise RulesDataError("on a map of several sheets every sheet needs a letter")
        for sheet in self.sheets:
            if sheet.col_shift % 2:
                raise RulesDataError(
                    f"sheet {sheet.letter!r} shifted by {sheet.col_shift} columns would "
                    "swap odd and even columns (geometry.md: parity stays)"
                )
        seen: set[Hex] = set()
        for h in self.hexes():
            if h in seen:
                raise RulesDataError(f"sheets overlap at global hex {h}: hide one's column")
            seen.add(h)

    @classmethod
    def single(cls) -> MapSpec:
        """One sheet, hex numbers without a letter."""
        return cls((Sheet(),))

    @classmethod
    def long_edge(cls, top: str = "N", bottom: str = "S") -> MapSpec:
        """Two sheets joined along the long edge: `top`'s xx28 row meets `bottom`'s xx00 row.

        Ecnomus: "The North edge rows should show hex numbers running 1000 -
        6000 ... The southern edge of the bottom map ... 1028-6028".
        """
        return cls((Sheet(top), Sheet(bottom, row_shift=SHEET_ROWS)))

    @classmethod
    def short_edge(cls, left: str = "N", right: str = "S") -> MapSpec:
        """Two sheets joined along the short edge, `right`'s 1000 column laid over `left`'s 6000 column.

        Actium says so outright. A plain short-edge join (Side) is read the same
        way: both edge columns are even, so only laying one over the other keeps
        the grid's column parity (see docs/rules-notes.md).
        """
        shift = LAST_COL - FIRST_COL
        return cls((Sheet(left, hidden_cols=frozenset({LAST_COL})), Sheet(right, col_shift=shift)))

    # -- conversions --

    def sheet(self, letter: str) -> Sheet:
        for sheet in self.sheets:
            if sheet.letter == letter:
                return sheet
        known = ", ".join(repr(s.letter) for s in self.sheets)
        raise NotationError(f"no map sheet {letter!r} in this battle (sheets: {known})")

    def locate(self, number: HexNumber) -> Hex:
        """The global hex of a printed hex number; NotationError if not on the map."""
        if number.sheet == "" and len(self.sheets) > 1:
            raise NotationError(
                f"{format_hex(number)} needs a sheet letter on this map "
                f"({', '.join(s.letter for s in self.sheets)})"
            )
        sheet = self.sheet(number.sheet)
        h = Hex(number.col + sheet.col_shift, number.row + sheet.row_shift)
        if not sheet.shows(number.col, number.row):
            # A column laid under another sheet still names the hex shown over it: the book
            # counts Actium's line "N53-N60, S11-S17", N60xx being S10xx.
            covered = number.col in sheet.hidden_cols and FIRST_ROW <= number.row <= LAST_ROW
            if not (covered and self.contains(h)):
                raise NotationError(f"{format_hex(number)} is not a hex of the map")
        return h

    def number(self, h: Hex) -> HexNumber:
        """The printed number of a global hex. Off-map hexes (beyond an edge, e.g. a
        coast) are numbered as if their nearest sheet went on."""
        best: tuple[int, HexNumber] | None = None
        for sheet in self.sheets:
            col, row = h.col - sheet.col_shift, h.row - sheet.row_shift
            if sheet.shows(col, row):
                return HexNumber(col, row, sheet.letter)
            gap = max(FIRST_COL - col, col - LAST_COL, 0) + max(FIRST_ROW - row, row - LAST_ROW, 0)
            if best is None or gap < best[0]:
                best = (gap, HexNumber(col, row, sheet.letter))
        assert best is not None
        return best[1]

    def contains(self, h: Hex) -> bool:
        """Whether global hex `h` is on the map."""
        return h in self._on_map

    @kept_property
    def _on_map(self) -> frozenset[Hex]:
        """Every hex some sheet shows (`hexes()` as a set, made once per map)."""
        return frozenset(self.hexes())

    def hexes(self) -> Iterator[Hex]:
        """Every hex of the map."""
        for sheet in self.sheets:
            for col in range(FIRST_COL, LAST_COL + 1):
                if col in sheet.hidden_cols:
                    continue
                for row in range(FIRST_ROW, LAST_ROW + 1):
                    yield Hex(col + sheet.col_shift, row + sheet.row_shift)

    def parse(self, text: str) -> Hex:
        """Read a hex number as written on this map into its global hex."""
        return self.locate(parse_hex(text))

    def format(self, h: Hex) -> str:
        """Write a global hex as its printed number on this map."""
        return format_hex(self.number(h))


SINGLE_SHEET = MapSpec.single()
