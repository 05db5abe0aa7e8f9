"""A new game from a scenario, the rules data and the players' options (scenario book, set-up).

Fixed placements go on the map at once. Groups the player places (`assign =
"player"` slots, `count` pools, free `zone`s) and commanders not fixed to a
galley become one deployment decision per side, in the scenario's deploy
order, checked here against the slots or the zone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from msgspec.structs import replace

from engine import scenario as sc
from engine.board import Board, Edge, coast_beyond
from engine.decisions import Deploy
from engine.devices import devices_for
from engine.errors import IllegalOrder, RulesDataError
from engine.events import Event
from engine import entry, specials, tournament, zones
from engine.galley import Colour, Equipment, Galley, GalleyId, GalleyType, format_galley_id, parse_galley_id
from engine.hexes import Direction, Hex, MapSpec, Sheet, format_hex, neighbours
from engine.manifest import Commander, CounterKey
from engine.position import Position, format_position, parse_position
from engine.rulesdata import RulesData, load_rules_data, parse
from engine.speed import Wind
from engine.state import (
    DEFENSIVE_REACTION_RAM,
    CommanderState,
    DeployGroup,
    DeployTask,
    EntryQueue,
    GameState,
    SideInfo,
    WindRule,
    Zone,
    galley_key,
)

COLOURS = {"red": Colour.RED, "green": Colour.GREEN}
_TYPES = {t.value: t for t in GalleyType}


class Deployed(Event, frozen=True, kw_only=True):
    """Set-up: a side has placed its galleys and commanders."""

    side: str
    galleys: tuple[tuple[GalleyId, str], ...]
    commanders: tuple[tuple[str, GalleyId], ...]


def galley_id(key: CounterKey) -> GalleyId:
    return GalleyId(COLOURS[key.colour], _TYPES[key.type], key.id)


def map_spec(scenario: sc.Scenario) -> MapSpec:
    """The joined map; a column laid under a later sheet (Actium's N60xx) is hidden."""
    sheets = scenario.map.sheets
    out = []
    for i, s in enumerate(sheets):
        hidden = {
            col
            for later in sheets[i + 1 :]
            if later.row_offset == s.row_offset
            for col in range(10, 61)
            if 10 <= col + s.column_offset - later.column_offset <= 60
        }
        out.append(Sheet(s.letter, s.column_offset, s.row_offset, frozenset(hidden)))
    return MapSpec(tuple(out))


_EDGES = {"xx00": Edge.TOP, "xx28": Edge.BOTTOM, "10xx": Edge.LEFT, "60xx": Edge.RIGHT}


def board_of(scenario: sc.Scenario) -> Board:
    """The battle's board: its land hexes and coast edges (2.2, 6.31)."""
    map_ = map_spec(scenario)
    board = Board(map_).with_land(map_.parse(h) for area in scenario.map.land for h in area.hexes)
    for coast in scenario.map.coast:
        edge = _EDGES[coast.edge]
        openings: list[Hex] = []
        if coast.gap_from is not None and coast.gap_to is not None:
            a, b = map_.parse(coast.gap_from), map_.parse(coast.gap_to)
            openings = [h for h in map_.hexes() if _between(h, a, b, edge)]
        beyond = coast_beyond(map_, edge, openings)
        if coast.sheet:
            own = {h for h in map_.hexes() if map_.number(h).sheet == coast.sheet}
            beyond = frozenset(h for h in beyond if any(n in own for n in neighbours(h)))
        board = board.with_land(beyond)
    return board


def _between(h: Hex, a: Hex, b: Hex, edge: Edge) -> bool:
    if edge in (Edge.TOP, Edge.BOTTOM):
        return h.row == a.row and min(a.col, b.col) <= h.col <= max(a.col, b.col)
    return h.col == a.col and min(a.row, b.row) <= h.row <= max(a.row, b.row)


def to_position(text: str, offsets: dict[str, tuple[int, int]]) -> Position:
    """A scenario position on the joined map, by the sheets' offsets (a hidden column's
    hexes are the hexes of the sheet laid over it)."""
    placed = sc.parse_position(text, offsets)
    col, row = sc.to_global(placed.bow, offsets)
    return Position(Hex(col, row), Direction(placed.facing), placed.stern is not None)


def _roster(scenario: sc.Scenario, side: sc.Side, rules: RulesData) -> dict[str, Commander]:
    if side.key in scenario.commanders:
        return {c.name: c for c in scenario.commanders[side.key]}
    roster = parse(rules).commanders.roster(scenario.roster or scenario.key, side.key)
    return {c.name: c for c in roster}


def _specials(scenario: sc.Scenario, options: dict[str, str]) -> list[sc.Special]:
    out = []
    for special in scenario.special:
        if special.option is not None:
            key, _, choice = special.option.partition("=")
            if options.get(key) != (choice or "on"):
                continue
        out.append(special)
    return out


# Optional rules any battle may use, chosen at set-up (the first choice is the default).
GAME_OPTIONS: dict[str, tuple[str, ...]] = {DEFENSIVE_REACTION_RAM: ("off", "on")}  # 6.7


def _options(scenario: sc.Scenario, given: dict[str, object]) -> dict[str, str]:
    known = {o.key: o for o in scenario.options}
    for key, value in given.items():
        if key in GAME_OPTIONS and key not in known:
            if str(value) not in GAME_OPTIONS[key]:
                raise RulesDataError(f"option {key}={value}: choose one of {GAME_OPTIONS[key]}")
            continue
        if key not in known:
            raise RulesDataError(f"option {key!r}: {scenario.name} has options {sorted(known) or 'none'}")
        if str(value) not in known[key].choices:
            raise RulesDataError(f"option {key}={value}: choose one of {known[key].choices}")
    chosen = {key: str(given.get(key, option.default)) for key, option in known.items()}
    chosen.update({key: str(value) for key, value in given.items() if key in GAME_OPTIONS and key not in known})
    return chosen


def new_game(scenario_data: bytes, rules_data: bytes, options: dict[str, object]) -> GameState:
    """The game before deployment decisions (or before turn 1's Wind phase when none are needed)."""
    if tournament.is_tournament(scenario_data):
        return tournament.new_game(scenario_data, rules_data, options)
    rules = load_rules_data(rules_data)
    parsed = parse(rules)
    scenario = sc.parse_scenario(scenario_data, "scenario", parsed.manifest, parsed.commanders)
    chosen = _options(scenario, options)
    specials_ = _specials(scenario, chosen)
    map_ = map_spec(scenario)
    galleys: dict[GalleyId, Galley] = {}
    commanders: list[CommanderState] = []
    sides: list[SideInfo] = []
    tasks: list[DeployTask] = []
    victory = {v.side: v for v in scenario.victory.sides}
    for side in scenario.sides:
        colour = COLOURS[side.colour]
        for fleet in side.fleets:
            for group in fleet.galleys:
                for type_, number in sc.expand_galleys([group.galleys]):
                    key = CounterKey(side.colour, type_, number)
                    ratings = parsed.manifest.ratings(key)
                    if group.crew is not None:
                        ratings = replace(ratings, crew=group.crew)
                    equipment = Equipment(
                        sails=side.key in scenario.wind.sails or "sails" in group.capabilities,
                        corvus="corvus" in group.capabilities,
                    )
                    galleys[galley_id(key)] = Galley(id=galley_id(key), ratings=ratings, equipment=equipment)
        rules_of_side = {s.name: s.params for s in specials_ if s.params.get("side") == side.key}
        no_admiral = rules_of_side.get("no_admiral", {})
        won = victory.get(side.key)
        sides.append(
            SideInfo(
                key=side.key,
                name=side.name,
                colour=colour,
                vp_needed=won.vp if won else None,
                vp_ratio=won.ratio if won else 2,
                initiative_drm=int(no_admiral.get("initiative_drm", 0)),
                double_activation=bool(no_admiral.get("double_activation", True)),
                keep_squadrons="keep_squadrons" in rules_of_side,
                sails=side.key in scenario.wind.sails,
            )
        )
        roster = _roster(scenario, side, rules)
        group_of = {name: g.name for g in side.deploy for name in g.commanders}
        for fleet in side.fleets:
            for name in fleet.commanders:
                c = roster[name]
                commanders.append(
                    CommanderState(
                        name=name,
                        side=side.key,
                        admiral=c.rank == "admiral",
                        command_range=c.command_range,
                        re_command_range=c.re_command_range,
                        initiative=c.initiative or 0,
                        re_initiative=c.re_initiative or 0,
                        group=group_of.get(name, ""),
                    )
                )
    placed_commanders: dict[str, GalleyId] = {}
    for placement in sc.fixed_placements(scenario):
        gid = galley_id(placement.galley)
        galleys[gid] = replace(galleys[gid], position=to_position(placement.position, scenario.map.offsets()))
    for side_key in scenario.deploy_order:
        task = _task(scenario, scenario.side(side_key), map_, galleys, placed_commanders)
        if task is not None:
            tasks.append(task)
    commanders = [replace(c, galley=placed_commanders.get(c.name)) for c in commanders]
    home = tuple(
        (galley_id(CounterKey(side.colour, t, i)), group.name)
        for side, info in zip(scenario.sides, sides)
        if info.keep_squadrons
        for group in side.deploy
        for t, i in sc.expand_galleys(group.galleys)
    )
    state = GameState(
        scenario=scenario.key,
        rules=rules,
        options=tuple(sorted(chosen.items())),
        sides=(sides[0], sides[1]),
        board=board_of(scenario),
        galleys=tuple(galleys.values()),
        commanders=tuple(commanders),
        wind_rule=_wind_rule(scenario, map_),
        wind=_wind_rule(scenario, map_).start if scenario.wind.mode in ("steady", "variable", "direction_only") else None,
        first_turn_initiative=scenario.initiative.side if scenario.initiative.first_turn == "side" else None,
        deploy=tuple(tasks),
        home_groups=home,
        minor_on_halt=scenario.victory.minor_on_halt,
        devices=devices_for(scenario, chosen),
    )
    state = _flagships(state, scenario)
    state = replace(state, extra=replace(state.extra, groups=_groups(scenario), queues=_queues(scenario, map_, state)))
    return specials.setup(state, [(s.name, dict(s.params)) for s in specials_], _facts(scenario))


def _groups(scenario: sc.Scenario) -> tuple[tuple[GalleyId, str], ...]:
    """Each galley a group names, with the group (groups by count learn theirs at deployment)."""
    out = [(galley_id(CounterKey(side.colour, t, i)), group.name)
           for side in scenario.sides for group in side.deploy for t, i in sc.expand_galleys(group.galleys)]
    return tuple(sorted(out, key=lambda kv: galley_key(kv[0])))


def _facts(scenario: sc.Scenario) -> dict[str, Any]:
    """What set-up hooks of special rules read: each fleet's galleys and commanders."""
    fleets = {f.key: [galley_id(CounterKey(side.colour, t, i)) for g in f.galleys for t, i in sc.expand_galleys([g.galleys])]
              for side in scenario.sides for f in side.fleets}
    commanders = {f.key: list(f.commanders) for side in scenario.sides for f in side.fleets}
    return {"fleets": fleets, "fleet_commanders": commanders}


def _queues(scenario: sc.Scenario, map_: MapSpec, state: GameState) -> tuple[EntryQueue, ...]:
    """An entry queue for every group with galleys off the map (engine.entry); filled at deployment
    for groups whose waiting galleys the player picks."""
    offsets = scenario.map.offsets()
    out = []
    for side in scenario.sides:
        for group in side.deploy:
            if group.offmap is None:
                continue
            members = [galley_id(CounterKey(side.colour, t, i)) for t, i in sc.expand_galleys(group.galleys)]
            n = group.offmap.count
            waiting = tuple(members[len(members) - n:]) if members else ()
            on_map = [g for g in members[: len(members) - n] if state.galley(g).position is not None]
            slots = [to_position(p, offsets) for p in sc.group_slots(group, offsets)]
            last = slots[len(members) - n - 1] if members and slots and len(members) > n else (slots[-1] if slots else None)
            entries = [map_.parse(h) for h in group.offmap.entry] or ([last.stern] if last is not None else [])
            facing = None
            if group.offmap.facing is not None:
                facing = Direction(group.offmap.facing)
            elif last is not None:
                facing = last.facing
            starts = tuple(entry.start_position(h, facing if facing is not None else entry.inward(map_, h), True)
                           for h in entries)
            out.append(EntryQueue(side.key, group.name, waiting, starts, from_turn=group.offmap.from_turn,
                                  after=group.offmap.after, ahead=on_map[-1] if on_map else None))
    return tuple(out)


def _flagships(state: GameState, scenario: sc.Scenario) -> GameState:
    """`flagship_crew`: the galley a commander starts on has the Crew the scenario states."""
    for side in scenario.sides:
        for fleet in side.fleets:
            for name, crew in fleet.flagship_crew.items():
                ship = state.commander(name).galley
                if ship is not None:
                    g = state.galley(ship)
                    state = state.with_galley(replace(g, ratings=replace(g.ratings, crew=crew)))
    return state


def _wind_rule(scenario: sc.Scenario, map_: MapSpec) -> WindRule:
    w = scenario.wind
    start = None
    if w.marker is not None and w.toward is not None:
        a, b = map_.parse(w.marker), map_.parse(w.toward)
        direction = next((d for d in Direction if neighbours(a)[d] == b), None)
        if direction is None:
            raise RulesDataError(f"wind marker {w.marker} does not point into the adjacent hex {w.toward}")
        start = Wind(direction)
    return WindRule(w.mode, start, int(w.params.get("from_turn", 2)), str(w.params.get("roller", "")))


def _task(
    scenario: sc.Scenario,
    side: sc.Side,
    map_: MapSpec,
    galleys: dict[GalleyId, Galley],
    placed_commanders: dict[str, GalleyId],
) -> DeployTask | None:
    """What `side` still decides at set-up; commanders with nothing to choose are placed at once."""
    offsets = scenario.map.offsets()
    named = {gid for g in side.deploy for gid in (galley_id(CounterKey(side.colour, t, i))
                                                  for t, i in sc.expand_galleys(g.galleys))}
    pool = tuple(galley_id(k) for k in sc.side_galleys(side) if galley_id(k) not in named)
    groups: list[DeployGroup] = []
    for group in side.deploy:
        members = tuple(galley_id(CounterKey(side.colour, t, i)) for t, i in sc.expand_galleys(group.galleys))
        offmap = group.offmap.count if group.offmap else 0
        fixed = {h: gid for gid in members if (p := galleys[gid].position) is not None for h in p.hexes}
        for name, text in group.commander_at.items():
            at = Hex(*sc.to_global(sc.parse_hex_ref(text), offsets))
            if at in fixed:
                placed_commanders[name] = fixed[at]
        free = tuple(c for c in group.commanders if c not in placed_commanders)
        if group.zone is None and group.assign == "in_order" and group.galleys:
            on_map = tuple(g for g in members if galleys[g].position is not None)
            if not on_map:  # the whole group waits off the map: its commanders lead it in
                placed_commanders.update({c: members[0] for c in free})
                free = ()
            if len(on_map) == 1:
                placed_commanders.update({c: on_map[0] for c in free})
                free = ()
            if free:
                groups.append(DeployGroup(group.name, (), commanders=free, aboard=on_map))
            continue
        candidates = members[: len(members) - offmap] if members else pool
        place = len(candidates) if members else (group.count or 0) - offmap
        slots = tuple(to_position(p, offsets) for p in sc.group_slots(group, offsets))
        zone = None
        constraints: tuple[str, ...] = ()
        params: dict[str, object] = {}
        if group.zone is not None:
            z = group.zone
            zone = Zone(z.columns, z.rows, z.sheet, tuple(z.bow_hexes), tuple(z.facings), z.bow_only, z.stern_offmap)
            constraints, params = tuple(z.constraints), dict(z.params)
        fixed_at = tuple((name, Hex(*sc.to_global(sc.parse_hex_ref(text), offsets)))
                         for name, text in group.commander_at.items() if name in free)
        entry = tuple(map_.parse(h) for h in group.offmap.entry) if group.offmap else ()
        if group.offmap is not None and group.offmap.up_to is not None:
            # Kept in `params` (not a new DeployGroup field) so recorded states of other battles keep their hash.
            params["fewest"] = place - (group.offmap.up_to - offmap)
        groups.append(DeployGroup(group.name, candidates, slots, zone, free, count=place,
                                  offmap=offmap if not members else 0,
                                  commander_at=fixed_at,
                                  constraints=constraints, params=params, entry=entry))
    anywhere = tuple(c for c in side.commanders_anywhere if c not in placed_commanders)
    if not groups and not anywhere:
        return None
    return DeployTask(side.key, tuple(groups), anywhere)


# --- the deployment decision -------------------------------------------------------------


def _in_zone(state: GameState, zone: Zone, position: Position) -> str | None:
    """Why `position` is outside `zone` (None if inside)."""
    map_ = state.board.map
    if zone.facings and int(position.facing) not in zone.facings:
        return f"facing {int(position.facing)}: the zone allows facings {list(zone.facings)}"
    hexes = position.hexes[:1] if zone.bow_only else position.hexes
    for h in hexes:
        if not map_.contains(h):
            return f"{format_hex(map_.number(h))} is off the map"
        number = map_.number(h)
        if zone.sheet is not None and number.sheet != zone.sheet:
            return f"{format_hex(number)} is not on sheet {zone.sheet}"
        if zone.columns is not None and not zone.columns[0] <= number.col <= zone.columns[1]:
            return f"{format_hex(number)} is outside columns {zone.columns[0]}-{zone.columns[1]}"
        if zone.rows is not None and not zone.rows[0] <= number.row <= zone.rows[1]:
            return f"{format_hex(number)} is outside rows {zone.rows[0]:02d}-{zone.rows[1]:02d}"
    if zone.bow_hexes and format_hex(map_.number(position.bow)) not in zone.bow_hexes:
        return f"the bow must be in one of {', '.join(zone.bow_hexes)}"
    if not zone.stern_offmap and not map_.contains(position.stern):
        return "the stern is off the map"
    return None


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
    name = format_hex(state.board.map.number(h))
    return any(group.zone is not None and name in group.zone.bow_hexes for group in task.groups)


def _split(state: GameState, decision: Deploy) -> tuple[dict[GalleyId, Position], dict[GalleyId, str]]:
    """The decision's galleys: those placed on the map, and those kept off it (engine.entry notation)."""
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
        why = specials.commander_barred(state, name, gid)
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
    """The deployed groups' waiting galleys join their entry queues (engine.entry)."""
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
    out = []
    for h in map_.hexes():
        if zone.facings:
            facings = [Direction(f) for f in zone.facings]
        else:
            facings = [Direction.DOWN if map_.number(h).row < middle else Direction.UP]
        for facing in facings:
            p = Position(h, facing, double)
            named = format_hex(map_.number(p.bow)) in zone.bow_hexes
            if _in_zone(state, zone, p) is None and all(
                x not in busy and (state.board.is_sea(x) or not map_.contains(x) or (named and x == p.bow))
                for x in p.hexes
            ):
                out.append(p)
    return out
