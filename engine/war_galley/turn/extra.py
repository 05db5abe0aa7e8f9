"""What a battle's special rules keep in `state.extra` between decisions: marks, flags, groups, exits.

The hook functions of engine.war_galley.battles read and change the game
only through these and engine.war_galley.turn.hooks.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from engine.events import Event
from engine.memo import by_identity
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.turn.state import GameState
from engine.war_galley.map_and_galleys.position import Position


def with_extra(state: GameState, **changes: Any) -> GameState:
    return replace(state, extra=replace(state.extra, **changes))


def marked(state: GameState, mark: str) -> list[GalleyId]:
    return [g for m, g in state.extra.marked if m == mark]


def mark(state: GameState, name: str, galleys: list[GalleyId]) -> GameState:
    return with_extra(state, marked=(*state.extra.marked, *((name, g) for g in galleys)))


def unmark(state: GameState, name: str, galleys: list[GalleyId]) -> GameState:
    gone = set(galleys)
    return with_extra(state, marked=tuple((m, g) for m, g in state.extra.marked if not (m == name and g in gone)))


def flag(state: GameState, text: str) -> GameState:
    return state if text in state.extra.flags else with_extra(state, flags=(*state.extra.flags, text))


def group_galleys(state: GameState, group: str) -> list[GalleyId]:
    return list(_group_members(state.extra.groups, group))


@by_identity(8)  # the groups never change in a game; the rules ask of them at every plan and activation
def _group_members(groups: tuple[tuple[GalleyId, str], ...], group: str) -> tuple[GalleyId, ...]:
    return tuple(g for g, name in groups if name == group)


def side_galleys(state: GameState, side: str) -> list[Galley]:
    colour = state.side(side).colour
    return [g for g in state.galleys if g.id.colour is colour]


def edge_of(state: GameState, galley_id: GalleyId, events: list[Event]) -> str:
    """The map edge a galley left by (`xx00`, `xx28`, `10xx`, `60xx` of the joined map), from its last step."""
    from engine.war_galley.movement.moving import Stepped
    last = [e.position for e in events if isinstance(e, Stepped) and e.galley == galley_id]
    return edge_beyond(state, last[-1]) if last else ""


def edge_beyond(state: GameState, position: Position) -> str:
    """The map edge (`xx00`, `xx28`, `10xx`, `60xx`) a position off the map lies beyond; "" if on it."""
    map_ = state.board.map
    off = [h for h in position.hexes if not map_.contains(h)]
    if not off:
        return ""
    h = off[0]
    rows = [x.row for x in map_.hexes()]
    cols = [x.col for x in map_.hexes()]
    if h.row < min(rows):
        return "xx00"
    if h.row > max(rows):
        return "xx28"
    if h.col < min(cols):
        return "10xx"
    if h.col > max(cols):
        return "60xx"
    near = [x for x in map_.hexes() if abs(x.col - h.col) <= 1 and abs(x.row - h.row) <= 1]
    if any(x.row == min(rows) for x in near):
        return "xx00"
    if any(x.row == max(rows) for x in near):
        return "xx28"
    return "10xx" if h.col <= min(cols) else "60xx"


def record_exits(state: GameState, before: GameState, events: list[Event]) -> GameState:
    """Note every galley that left the map in this activation, and by which edge."""
    from engine.war_galley.map_and_galleys.galley import Removal
    new = []
    for g in state.galleys:
        if g.removed is Removal.EXITED and before.galley(g.id).removed is not Removal.EXITED:
            new.append((g.id, edge_of(before, g.id, events)))
    return with_extra(state, exits=(*state.extra.exits, *new)) if new else state


def new_exits(state: GameState, before: GameState) -> list[tuple[GalleyId, str]]:
    return list(state.extra.exits[len(before.extra.exits):])


def fleet_marks(state: GameState) -> list[tuple[str, GalleyId]]:
    return [(m.split(":", 1)[1], g) for m, g in state.extra.marked if m.startswith("fleet:")]
