"""The deployment decision (scenario book, set-up): each side places its galleys and commanders.

`check_deploy` checks a whole Deploy decision against the scenario's zones,
fixed placements and relational constraints before anything moves;
`apply_deploy` places the galleys (and queues those waiting off the map).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.events import Event
from engine.war_galley.battles import zones
from engine.war_galley.battles.setup import galley_id
from engine.war_galley.map_and_galleys.galley import GalleyId, format_galley_id, parse_galley_id
from engine.war_galley.map_and_galleys.hexes import Direction, Hex, MapSpec
from engine.war_galley.map_and_galleys.position import Position, format_position, parse_position
from engine.war_galley.turn import entry, hooks
from engine.war_galley.turn.decisions import Deploy
from engine.war_galley.turn.state import DeployGroup, DeployTask, EntryQueue, GameState, Zone, galley_key


class Deployed(Event, frozen=True, kw_only=True):
    """Set-up: a side has placed its galleys and commanders."""

    side: str
    galleys: tuple[tuple[GalleyId, str], ...]
    commanders: tuple[tuple[str, GalleyId], ...]


# --- the deployment decision -------------------------------------------------------------


def _in_zone(state: GameState, zone: Zone, position: Position) -> str | None:
    """Why `position` is outside `zone` (None if inside)."""
    map_ = state.board.map
    if zone.facings and int(position.facing) not in zone.facings:
        return f"facing {int(position.facing)}: the zone allows facings {list(zone.facings)}"
    hexes = position.hexes[:1] if zone.bow_only else position.hexes
    for h in hexes:
        if not map_.contains(h):
            return f"{map_.format(h)} is off the map"
        number = map_.number(h)
        if zone.sheet is not None and number.sheet != zone.sheet:
            return f"{map_.format(h)} is not on sheet {zone.sheet}"
        if zone.columns is not None and not zone.columns[0] <= number.col <= zone.columns[1]:
            return f"{map_.format(h)} is outside columns {zone.columns[0]}-{zone.columns[1]}"
        if zone.rows is not None and not zone.rows[0] <= number.row <= zone.rows[1]:
            return f"{map_.format(h)} is outside rows {zone.rows[0]:02d}-{zone.rows[1]:02d}"
    if zone.bow_hexes and position.bow not in _bow_hexes(zone, map_):
        return f"the bow must be in one of {', '.join(zone.bow_hexes)}"
    if not zone.stern_offmap and not map_.contains(position.stern):
        return "the stern is off the map"
    return None


@lru_cache(maxsize=32)  # asked for each position a listing tries (zone_positions: every hex of the map)
def _bow_hexes(zone: Zone, map_: MapSpec) -> frozenset[Hex]:
    """The hexes a zone's bows must be in, read in the battle's notation."""
    return frozenset(map_.parse(text) for text in zone.bow_hexes)


def deploy_notation(position: Position, map_: MapSpec) -> str:
    """A deployment position as written: bow first; `BOW/FACING` when the stern lies off the map
    (Catana's Syracusans enter with their sterns off the edge)."""
    if position.double and not map_.contains(position.stern):
        return f"{map_.format(position.bow)}/{int(position.facing)}"
    return format_position(position, map_)


def _deploy_position(state: GameState, galley_id: GalleyId, text: str) -> Position:
    position = parse_position(text, state.board.map)
    if state.has_galley(galley_id) and "/" in text and state.galley(galley_id).ratings.double:
        position = Position(position.bow, position.facing, True)  # BOW/FACING for a double counter
    return position


def _named_bow(task: DeployTask, position: Position, h: Hex, state: GameState) -> bool:
    """A zone's listed bow hexes may be land: Drepanum's galleys start bow in port."""
    if h != position.bow:
        return False
    return any(group.zone is not None and h in _bow_hexes(group.zone, state.board.map) for group in task.groups)


def _split(state: GameState, decision: Deploy) -> tuple[dict[GalleyId, Position], dict[GalleyId, str]]:
    """The decision's galleys: those placed on the map, and those kept off it (engine.war_galley.turn.entry notation)."""
    placed: dict[GalleyId, Position] = {}
    waiting: dict[GalleyId, str] = {}
    for gid, text in decision.galleys:
        if gid in placed or gid in waiting:
            raise IllegalOrder("set-up", f"{gid} is placed twice")
        if not state.has_galley(gid):
            raise IllegalOrder("set-up", f"no galley {gid} in this battle")
        off = entry.offmap_text(text, state.board.map)
        if off is not None:
            waiting[gid] = off
        else:
            placed[gid] = _deploy_position(state, gid, text)
    return placed, waiting


def _members(task: DeployTask, placed: dict[GalleyId, Position], waiting: dict[GalleyId, str]
             ) -> list[tuple[DeployGroup, list[GalleyId], list[GalleyId]]]:
    """Each group with the galleys it takes from the decision, on the map and off it, in the order given."""
    used: set[GalleyId] = set()
    out = []
    for group in task.groups:
        mine = [gid for gid in placed if gid in group.galleys and gid not in used][: max(group.count, 0) or None]
        mine = mine if group.count != 0 else []
        used.update(mine)
        limit = None if group.offmap < 0 else group.offmap + _spare(group)
        off = [gid for gid in waiting if gid in group.galleys and gid not in used][:limit]
        used.update(off)
        out.append((group, mine, off))
    return out


def _fewest(group: DeployGroup) -> int | None:
    """The fewest of its `count` galleys the group may place, the others waiting too (Drepanum Approach)."""
    value = group.params.get("fewest")
    return int(value) if value is not None else None


def _spare(group: DeployGroup) -> int:
    """How many of the galleys the group may place it may keep off the map instead."""
    fewest = _fewest(group)
    return group.count - fewest if fewest is not None else 0


def check_deploy(state: GameState, decision: Deploy) -> None:
    """IllegalOrder unless `decision` places exactly what the side's set-up task leaves open."""
    if not state.deploy or state.deploy[0].side != decision.side:
        raise IllegalOrder("set-up", f"{decision.side} does not deploy now")
    task = state.deploy[0]
    placed, waiting = _split(state, decision)
    occupied = {h: g.id for g in state.galleys if g.position is not None for h in g.position.hexes}
    for gid, position in placed.items():
        if position.double != state.galley(gid).ratings.double:
            raise IllegalOrder("set-up", f"{gid} is a {'double' if position.double else 'single'} counter")
        for h in position.hexes:
            if h in occupied:
                raise IllegalOrder("6.6", f"{gid} at {state.board.map.format(h)}: {occupied[h]} is there")
            if state.board.map.contains(h) and not state.board.is_sea(h) and not _named_bow(task, position, h, state):
                raise IllegalOrder("6.31", f"{gid}: {state.board.map.format(h)} is land")
            occupied[h] = gid
    groups = _members(task, placed, waiting)
    used = {gid for _, mine, off in groups for gid in (*mine, *off)}
    for group, mine, off in groups:
        fewest = _fewest(group)
        if fewest is not None:
            if not fewest <= len(mine) <= group.count or len(mine) + len(off) != group.count + group.offmap:
                raise IllegalOrder("set-up", f"{group.name}: place {fewest} to {group.count} galleys and keep "
                                             f"the others off the map (`behind GALLEY`), not {len(mine)} and {len(off)}")
        elif group.count >= 0 and len(mine) != group.count:
            raise IllegalOrder("set-up", f"{group.name}: place {group.count} galleys, not {len(mine)}")
        if group.count < 0 and len(mine) + len(off) != len(group.galleys):
            raise IllegalOrder("set-up", f"{group.name}: place or hold off the map every galley of the fleet")
        if fewest is None and group.offmap >= 0 and len(off) != group.offmap:
            raise IllegalOrder("set-up", f"{group.name}: keep {group.offmap} galleys off the map "
                                         f"(`off`, `behind GALLEY`), not {len(off)}")
        for gid in mine:
            position = placed[gid]
            if group.zone is not None:
                why = _in_zone(state, group.zone, position)
                if why is not None:
                    raise IllegalOrder("set-up", f"{group.name}: {gid}: {why}")
            elif position not in group.slots:
                raise IllegalOrder("set-up", f"{group.name}: {gid} is not on one of the group's positions")
        for gid in off:
            _check_waiting(state, group, gid, waiting[gid], placed, waiting)
    if set(placed) | set(waiting) != used:
        extra = ", ".join(str(g) for g in [*placed, *waiting] if g not in used)
        raise IllegalOrder("set-up", f"galleys not to be placed now: {extra}")
    aboard_needed = {c: g for g in task.groups for c in g.commanders}
    given = dict(decision.commanders)
    wanted = set(aboard_needed) | set(task.anywhere)
    if set(given) != wanted or len(given) != len(decision.commanders):
        raise IllegalOrder("set-up", f"place exactly these commanders: {', '.join(sorted(wanted)) or 'none'}")
    side_colour = state.side(decision.side).colour
    for name, gid in decision.commanders:
        home = aboard_needed.get(name)
        if home is not None:
            ok = gid in home.aboard or gid in [g for g in (*placed, *waiting) if g in home.galleys]
            if not ok:
                raise IllegalOrder("set-up", f"{name} goes aboard a galley of {home.name}")
        elif not (state.has_galley(gid) and gid.colour is side_colour
                  and (state.galley(gid).position is not None or gid in placed)):
            raise IllegalOrder("set-up", f"{name} goes aboard a galley of his side on the map")
        why = hooks.commander_barred(state, name, gid)
        if why is not None:
            raise IllegalOrder(*why)
    _check_constraints(state, groups, placed, given)


def _check_waiting(state: GameState, group: DeployGroup, gid: GalleyId, text: str,
                   placed: dict[GalleyId, Position], waiting: dict[GalleyId, str]) -> None:
    if text.startswith("behind "):
        lead = parse_galley_id(text.split(" ", 1)[1])
        if lead not in placed or lead not in group.galleys:
            raise IllegalOrder("set-up", f"{group.name}: {gid} waits behind {lead}, which is not placed in this group")
    elif text.startswith("enter "):
        if not group.entry or state.board.map.parse(text.split(" ", 1)[1]) not in group.entry:
            raise IllegalOrder("set-up", f"{group.name}: {gid} may not enter there (entry hexes: "
                                         f"{', '.join(state.board.map.format(h) for h in group.entry) or 'none'})")
    elif group.offmap < 0 or (group.zone is not None and bool(group.zone.bow_hexes)):
        raise IllegalOrder("set-up", f"{group.name}: say where {gid} waits (`behind GALLEY` or `enter HEX`)")


def _check_constraints(state: GameState, groups: list[tuple[DeployGroup, list[GalleyId], list[GalleyId]]],
                       placed: dict[GalleyId, Position], commanders: dict[str, GalleyId]) -> None:
    def others(name: str) -> list[Position]:
        mine = [placed[g] for group, on, _ in groups if group.name == name for g in on]
        home = dict(state.extra.groups)
        return mine + [g.position for g in state.galleys if g.position is not None and home.get(g.id) == name]

    for group, mine, _ in groups:
        why = zones.violation(state, group, {g: placed[g] for g in mine}, commanders, others)
        if why is not None:
            raise IllegalOrder("set-up", f"{group.name}: {why}")


def apply_deploy(state: GameState, decision: Deploy) -> tuple[GameState, list[Event]]:
    check_deploy(state, decision)
    task = state.deploy[0]
    placed, waiting = _split(state, decision)
    for gid, position in placed.items():
        state = state.with_galley(replace(state.galley(gid), position=position))
    for name, gid in decision.commanders:
        state = state.with_commander(replace(state.commander(name), galley=gid))
    state = _queue_waiting(state, task, _members(task, placed, waiting), placed, waiting)
    state = replace(state, deploy=state.deploy[1:])
    return state, [Deployed(rule="set-up", side=decision.side, galleys=decision.galleys,
                            commanders=decision.commanders)]


def _queue_waiting(state: GameState, task: DeployTask, groups: list[tuple[DeployGroup, list[GalleyId], list[GalleyId]]],
                   placed: dict[GalleyId, Position], waiting: dict[GalleyId, str]) -> GameState:
    """The deployed groups' waiting galleys join their entry queues (engine.war_galley.turn.entry)."""
    queues = list(state.extra.queues)
    home = dict(state.extra.groups)
    for group, mine, off in groups:
        home.update({g: group.name for g in (*mine, *off)})
        template = next((q for q in queues if q.side == task.side and q.group == group.name and not q.port), None)
        slot_galley = {placed[g]: g for g in mine}
        rear = slot_galley.get(group.slots[-1]) if group.slots else (mine[-1] if mine else None)
        plain = tuple(g for g in off if waiting[g] == entry.OFF)
        if template is not None:
            i = queues.index(template)
            template = replace(template, galleys=(*template.galleys, *plain), ahead=template.ahead or rear)
            queues[i] = template
        base = template or EntryQueue(task.side, group.name, (), ())
        for lead in [g for g in mine]:
            followers = tuple(g for g in off if waiting[g] == f"behind {format_galley_id(lead)}")
            if followers:
                queues.append(replace(base, group=group.name, galleys=followers, starts=(placed[lead],),
                                      port=True, ahead=lead, entered=0))
        for h in group.entry:
            text = f"enter {state.board.map.format(h)}"
            by_hex = tuple(g for g in off if waiting[g] == text)
            if by_hex:
                facing = entry.inward(state.board.map, h)
                starts = tuple(entry.start_position(h, facing, True) for _ in (0,))
                queues.append(replace(base, galleys=by_hex, starts=starts, ahead=None, entered=0))
    extra = replace(state.extra, queues=tuple(queues), groups=tuple(sorted(home.items(), key=lambda kv: galley_key(kv[0]))))
    return replace(state, extra=extra)


def zone_positions(state: GameState, zone: Zone, double: bool, taken: Iterable[Hex]) -> list[Position]:
    """Positions in `zone` on free sea, facing the map's far side when the zone allows (for listings)."""
    busy = set(taken) | {h for g in state.galleys if g.position is not None for h in g.position.hexes}
    map_ = state.board.map
    rows = [map_.number(h).row for h in map_.hexes()]
    middle = (min(rows) + max(rows)) / 2
    bows = _bow_hexes(zone, map_)
    out = []
    for h in map_.hexes():
        if zone.facings:
            facings = [Direction(f) for f in zone.facings]
        else:
            facings = [Direction.DOWN if map_.number(h).row < middle else Direction.UP]
        for facing in facings:
            p = Position(h, facing, double)
            named = p.bow in bows
            if _in_zone(state, zone, p) is None and all(
                x not in busy and (state.board.is_sea(x) or not map_.contains(x) or (named and x == p.bow))
                for x in p.hexes
            ):
                out.append(p)
    return out
