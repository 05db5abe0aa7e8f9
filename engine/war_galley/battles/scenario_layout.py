"""Where a scenario puts things: the slots of a deployment group, its lines expanded.

Hexes and positions are read with the engine's one notation
(`map_and_galleys.hexes`, `map_and_galleys.position`) on the battle's joined
map (`scenario.ScenarioMap.joined`): the scenario book's `N3719`, `2319-2320`,
`2319/0` are the orders' notation too.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.errors import NotationError
from engine.war_galley.battles.scenario import Deploy, Line, Scenario, Side
from engine.war_galley.map_and_galleys.hexes import Hex, MapSpec
from engine.war_galley.map_and_galleys.manifest import CounterKey, expand_galleys
from engine.war_galley.map_and_galleys.position import Position, format_position, parse_position


def expand_line(line: Line, map_: MapSpec) -> list[Position]:
    """The positions a Line helper stands for, first to last."""
    first = parse_position(line.first, map_)
    last = parse_position(line.last, map_)
    name = f"line {line.first}..{line.last}"
    if first.facing != last.facing:
        raise NotationError(f"{name}: first and last face differently")
    (fc, fr), (lc, lr) = (first.bow.col, first.bow.row), (last.bow.col, last.bow.row)
    skip = {map_.parse(h) for h in line.skip}
    bows: list[Hex]
    if fr == lr:  # bows along one row: line abreast
        step = line.step or 1
        sign = 1 if lc >= fc else -1
        if (lc - fc) % step:
            raise NotationError(f"{name}: columns not a multiple of step {step}")
        bows = [Hex(c, fr) for c in range(fc, lc + sign, sign * step)]
    elif fc == lc:  # bows along one column: line astern
        step = line.step or (2 if first.double else 1)
        sign = 1 if lr >= fr else -1
        if (lr - fr) % step:
            raise NotationError(f"{name}: rows not a multiple of step {step}")
        bows = [Hex(fc, r) for r in range(fr, lr + sign, sign * step)]
    else:
        raise NotationError(f"{name}: bows share neither a row nor a column")
    out = [Position(bow, first.facing, first.double) for bow in bows if bow not in skip]
    for p in out:
        if not all(map_.contains(h) for h in p.hexes):
            raise NotationError(f"{name}: {format_position(p, map_)} is off the map")
    return out


def group_slots(group: Deploy, map_: MapSpec) -> list[Position]:
    """A group's fixed slots: its positions then its expanded lines."""
    slots = [parse_position(p, map_) for p in group.positions]
    for line in group.lines:
        slots.extend(expand_line(line, map_))
    return slots


class Placement(NamedTuple):
    side: str
    galley: CounterKey
    position: Position
    group: str


def fixed_placements(scenario: Scenario, map_: MapSpec | None = None) -> list[Placement]:
    """Galleys the book places exactly (groups with assign = "in_order")."""
    map_ = map_ or scenario.map.joined()
    out: list[Placement] = []
    for side in scenario.sides:
        for group in side.deploy:
            if group.zone is not None or group.assign != "in_order" or not group.galleys:
                continue
            slots = group_slots(group, map_)
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
