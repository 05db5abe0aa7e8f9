"""Relational deployment rules (scenario `zone.constraints`, docs/scenario-schema.md).

A zone bounds each galley by itself (columns, rows, facings: engine.war_galley.battles.setup);
the constraints here relate the galleys of a group to each other, to another
group, and to their commanders. `violation` says why a group's placement
breaks one (None when it keeps them all); the set-up check raises it as an
IllegalOrder citing the scenario.

Readings (docs/rules-notes.md, Scenarios):
- *Line Abreast* (`line_abreast`, `single_line_abreast`): every galley faces
  the same way and the bows lie in at most `lines` rows (one row a line);
  "adjacent or with interval" leaves the gaps to the player.
- *Double Line Astern*: every galley but at most two (the heads) follows
  another galley of the group as 5.22 defines following (bow into its stern
  hex, or bow in one of its Stern/Flank hexes).
- *near_galleys*: each galley within `distance` hexes of a galley of `group`.
- *behind_group*: each bow at least `distance` hexes from every galley of `group`.
- *two_lines* (Side): the 1st Line is the galleys whose bows lie in the rows
  `front_rows`; every other bow is at least `distance` hexes from a 1st-Line
  bow and nearer that galley's stern than its bow (behind it).
- *commander_wings*: the 1st Line ordered left to right as the galleys face;
  the left wing is its first half, the right wing its last (the middle galley
  of an odd line is in both).
- *commander_columns*: the commander's galley has its bow in that column.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.war_galley.map_and_galleys.galley import GalleyId
from engine.war_galley.map_and_galleys.hexes import Hex, distance
from engine.war_galley.map_and_galleys.position import SIDES, Around, Position
from engine.war_galley.turn.state import DeployGroup, GameState

Positions = Mapping[GalleyId, Position]
GroupLookup = Callable[[str], list[Position]]


def follows(leader: Position, follower: Position) -> bool:
    """5.22: `follower` is in Line Astern behind `leader` (form 1 or echelon)."""
    if follower.around(Around.BOW) == leader.stern and follower.facing == leader.facing:  # form 1: directly astern
        return True
    return any(follower.bow == leader.around(Around.STERN_FLANK, side) for side in SIDES)


def _left_to_right(state: GameState, line: list[Position]) -> list[Position]:
    """Left to right as the galleys face: facing toward row 00 (0, 1, 5), left is the lower column."""
    if not line:
        return []
    up = int(line[0].facing) in (0, 1, 5)
    return sorted(line, key=lambda p: (p.bow.col if up else -p.bow.col, p.bow.row))


def first_line(state: GameState, params: Mapping[str, Any], positions: list[Position]) -> list[Position]:
    lo, hi = params.get("front_rows", (0, 28))
    return [p for p in positions if lo <= state.board.map.number(p.bow).row <= hi]


def violation(
    state: GameState,
    group: DeployGroup,
    placed: Positions,
    commanders: Mapping[str, GalleyId],
    others: GroupLookup,
) -> str | None:
    """Why the group's placement `placed` (galley -> position) breaks a constraint, or None."""
    positions = list(placed.values())
    params = group.params
    map_ = state.board.map
    for name in group.constraints:
        if name in ("line_abreast", "single_line_abreast"):
            lines = params.get("lines", [1]) if name == "line_abreast" else [1]
            if len({p.facing for p in positions}) > 1:
                return f"{name}: the galleys of a Line Abreast all face one way"
            rows = {p.bow.row for p in positions}
            if len(rows) > max(lines):
                return f"{name}: the bows lie in {len(rows)} rows, a Line Abreast of {max(lines)} line(s) in at most {max(lines)}"
        elif name == "double_line_astern":
            heads = [p for p in positions if not any(q != p and follows(q, p) for q in positions)]
            if len(heads) > 2:
                return f"{name}: {len(heads)} galleys follow no other (a Double Line Astern has two heads)"
        elif name == "near_galleys":
            near = others(str(params["group"]))
            reach = int(params.get("distance", 2))
            for gid, p in placed.items():
                if not any(distance(a, b) <= reach for q in near for a in p.hexes for b in q.hexes):
                    return f"{name}: {gid} is more than {reach} hexes from the galleys of {params['group']}"
        elif name == "behind_group":
            ahead = others(str(params["group"]))
            gap = int(params.get("distance", 2))
            for gid, p in placed.items():
                if any(distance(p.bow, h) < gap for q in ahead for h in q.hexes):
                    return f"{name}: {gid} is less than {gap} hexes from {params['group']}"
        elif name == "two_lines":
            front = first_line(state, params, positions)
            gap = int(params.get("distance", 2))
            if not front:
                return f"{name}: no galley in the 1st Line (bows in rows {params.get('front_rows')})"
            for gid, p in placed.items():
                if p in front:
                    continue
                if not any(distance(p.bow, f.bow) >= gap and distance(p.bow, f.stern) < distance(p.bow, f.bow)
                           for f in front):
                    return f"{name}: {gid} at {map_.format(p.bow)} is not {gap} hexes behind a 1st-Line galley"
        elif name == "commander_wings":
            line = _left_to_right(state, first_line(state, params, positions))
            half = (len(line) + 1) // 2
            wings = {"left": line[:half], "right": line[len(line) - half:]}
            for commander, wing in dict(params.get("commander_wings", {})).items():
                ship = commanders.get(commander)
                if ship is None or placed.get(ship) not in wings[wing]:
                    return f"{name}: {commander} starts on a galley of the {wing} wing of the 1st Line"
        elif name == "commander_columns":
            for commander, column in dict(params.get("commander_columns", {})).items():
                ship = commanders.get(commander)
                at = placed.get(ship) if ship is not None else None
                if at is None or map_.number(at.bow).col != int(column):
                    return f"{name}: {commander} starts on a galley whose bow is in the {int(column):02d}xx column"
    for commander, hex_ in group.commander_at:
        ship = commanders.get(commander)
        at = placed.get(ship) if ship is not None else None
        if at is None or hex_ not in at.hexes:
            return f"{commander} starts on the galley in {map_.format(hex_)}"
    return None


def occupied_by(positions: Mapping[GalleyId, Position]) -> dict[Hex, GalleyId]:
    return {h: gid for gid, p in positions.items() for h in p.hexes}
