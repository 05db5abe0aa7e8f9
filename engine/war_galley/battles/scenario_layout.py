"""Where a scenario puts things: hex and position text of the battle files, lines and slots of a deployment.

The notation is the scenario book's (`N3719`, `2319-2320`, `2319/0`), on the
joined map of the scenario's sheets.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from engine.war_galley.battles.scenario import Deploy, Line, Scenario, Side
from engine.war_galley.map_and_galleys import hexes
from engine.war_galley.map_and_galleys.manifest import CounterKey, expand_galleys

# Map sheet extent (geometry.md): columns 10..60, rows 00..28.
COLUMNS = range(10, 61)
ROWS = range(0, 29)

# ---------------------------------------------------------------- hexes


class HexRef(NamedTuple):
    sheet: str
    col: int
    row: int


def parse_hex_ref(text: str) -> HexRef:
    """`"N3719"` -> HexRef("N", 37, 19). Checks the sheet extent."""
    m = re.match(r"^([A-Z]?)(\d{2})(\d{2})$", text)
    if m is None:
        raise ValueError(f"{text!r} is not a hex (CCRR, or a sheet letter and CCRR)")
    ref = HexRef(m.group(1), int(m.group(2)), int(m.group(3)))
    if ref.col not in COLUMNS or ref.row not in ROWS:
        raise ValueError(f"{text!r} is off the map sheet (columns 10-60, rows 00-28)")
    return ref


def format_hex_ref(h: HexRef) -> str:
    return f"{h.sheet}{h.col:02d}{h.row:02d}"


def neighbour(col: int, row: int, d: int) -> tuple[int, int]:
    """The grid's one neighbour rule (engine.war_galley.map_and_galleys.hexes, geometry.md), on plain joined-map coordinates."""
    h = hexes.neighbour(hexes.Hex(col, row), d % 6)
    return h.col, h.row


class Placed(NamedTuple):
    """A parsed position: bow hex, stern hex (None for single-hex), facing."""

    bow: HexRef
    stern: HexRef | None
    facing: int


def parse_position(text: str, offsets: dict[str, tuple[int, int]] | None = None) -> Placed:
    """`"2319-2320"` (bow first) or `"2319/0"`. The halves must be adjacent.

    `offsets` maps sheet letters to their (column, row) offset on the joined
    map, so that halves on two overlapping sheets can be checked.
    """
    offsets = offsets or {"": (0, 0)}
    if "/" in text:
        hex_text, d = text.split("/")
        return Placed(parse_hex_ref(hex_text), None, int(d))
    bow_text, stern_text = text.split("-")
    bow = parse_hex_ref(bow_text)
    if not re.match(r"^[A-Z]", stern_text):
        stern_text = bow.sheet + stern_text  # the stern inherits the bow's sheet letter
    stern = parse_hex_ref(stern_text)
    b, s = to_global(bow, offsets), to_global(stern, offsets)
    for k in range(6):
        if neighbour(b[0], b[1], k) == s:
            return Placed(bow, stern, (k + 3) % 6)
    raise ValueError(f"position {text!r}: bow and stern hexes are not adjacent")


def to_global(h: HexRef, offsets: dict[str, tuple[int, int]]) -> tuple[int, int]:
    if h.sheet not in offsets:
        raise ValueError(f"hex {format_hex_ref(h)}: no map sheet {h.sheet!r} in this scenario")
    dc, dr = offsets[h.sheet]
    return h.col + dc, h.row + dr


def from_global(col: int, row: int, offsets: dict[str, tuple[int, int]], prefer: str) -> HexRef:
    """The sheet-local name of a joined-map hex, preferring sheet `prefer`."""
    order = [prefer] + [s for s in offsets if s != prefer]
    for sheet in order:
        dc, dr = offsets[sheet]
        if col - dc in COLUMNS and row - dr in ROWS:
            return HexRef(sheet, col - dc, row - dr)
    raise ValueError(f"column {col}, row {row} is on no map sheet")


def format_position(p: Placed) -> str:
    if p.stern is None:
        return f"{format_hex_ref(p.bow)}/{p.facing}"
    return f"{format_hex_ref(p.bow)}-{format_hex_ref(p.stern)}"


# ---------------------------------------------------------------- expansion


class Slot(NamedTuple):
    group: str
    index: int
    position: str  # normalized, bow first


def expand_line(line: Line, offsets: dict[str, tuple[int, int]], double: bool = True) -> list[str]:
    """The positions a Line helper stands for, first to last, normalized."""
    first = parse_position(line.first, offsets)
    last = parse_position(line.last, offsets)
    if first.facing != last.facing:
        raise ValueError(f"line {line.first}..{line.last}: first and last face differently")
    fc, fr = to_global(first.bow, offsets)
    lc, lr = to_global(last.bow, offsets)
    skip = {to_global(parse_hex_ref(h), offsets) for h in line.skip}
    bows: list[tuple[int, int]]
    if fr == lr:  # bows along one row: line abreast
        step = line.step or 1
        sign = 1 if lc >= fc else -1
        if (lc - fc) % step:
            raise ValueError(f"line {line.first}..{line.last}: columns not a multiple of step {step}")
        bows = [(c, fr) for c in range(fc, lc + sign, sign * step)]
    elif fc == lc:  # bows along one column: line astern
        step = line.step or (2 if first.stern is not None else 1)
        sign = 1 if lr >= fr else -1
        if (lr - fr) % step:
            raise ValueError(f"line {line.first}..{line.last}: rows not a multiple of step {step}")
        bows = [(fc, r) for r in range(fr, lr + sign, sign * step)]
    else:
        raise ValueError(f"line {line.first}..{line.last}: bows share neither a row nor a column")
    out: list[str] = []
    prefer = first.bow.sheet
    for c, r in bows:
        if (c, r) in skip:
            continue
        bow = from_global(c, r, offsets, prefer)
        if first.stern is None:
            out.append(format_position(Placed(bow, None, first.facing)))
        else:
            sc, sr = neighbour(c, r, first.facing + 3)
            out.append(format_position(Placed(bow, from_global(sc, sr, offsets, bow.sheet), first.facing)))
    return out


def group_slots(group: Deploy, offsets: dict[str, tuple[int, int]]) -> list[str]:
    """A group's fixed slots: its positions then its expanded lines, normalized."""
    slots = [format_position(parse_position(p, offsets)) for p in group.positions]
    for line in group.lines:
        slots.extend(expand_line(line, offsets))
    return slots


class Placement(NamedTuple):
    side: str
    galley: CounterKey
    position: str
    group: str


def fixed_placements(scenario: Scenario) -> list[Placement]:
    """Galleys the book places exactly (groups with assign = "in_order")."""
    offsets = scenario.map.offsets()
    out: list[Placement] = []
    for side in scenario.sides:
        for group in side.deploy:
            if group.zone is not None or group.assign != "in_order" or not group.galleys:
                continue
            slots = group_slots(group, offsets)
            for (type_, id_), pos in zip(expand_galleys(group.galleys), slots):
                out.append(Placement(side.key, CounterKey(side.colour, type_, id_), pos, group.name))
    return out


def side_galleys(side: Side) -> list[CounterKey]:
    return [
        CounterKey(side.colour, t, i)
        for fleet in side.fleets
        for g in fleet.galleys
        for t, i in expand_galleys([g.galleys])
    ]


def occupied_hexes(position: str, offsets: dict[str, tuple[int, int]]) -> list[tuple[int, int]]:
    p = parse_position(position, offsets)
    hexes = [to_global(p.bow, offsets)]
    if p.stern is not None:
        hexes.append(to_global(p.stern, offsets))
    return hexes
