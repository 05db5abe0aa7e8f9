"""A new game from a scenario, the rules data and the players' options (scenario book, set-up).

Fixed placements go on the map at once. Groups the player places (`assign =
"player"` slots, `count` pools, free `zone`s) and commanders not fixed to a
galley become one deployment decision per side, in the scenario's deploy
order, checked here against the slots or the zone.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from engine.errors import RulesDataError
from engine.war_galley import battles
from engine.war_galley.battles import scenario as sc
from engine.war_galley.battles import scenario_files, scenario_layout, tournament
from engine.war_galley.manpower_combat.devices import devices_for
from engine.war_galley.map_and_galleys import manifest
from engine.war_galley.map_and_galleys.board import Board, Edge, coast_beyond
from engine.war_galley.map_and_galleys.galley import Colour, Equipment, Galley, GalleyId, GalleyType
from engine.war_galley.map_and_galleys.hexes import Direction, Hex, MapSpec, neighbours
from engine.war_galley.map_and_galleys.manifest import Commander, CounterKey
from engine.war_galley.map_and_galleys.rulesdata import RulesData, load_rules_data, parse
from engine.war_galley.movement.speed import Wind
from engine.war_galley.turn import entry, hooks
from engine.war_galley.turn.state import (
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


def galley_id(key: CounterKey) -> GalleyId:
    return GalleyId(COLOURS[key.colour], _TYPES[key.type], key.id)


_EDGES = {"xx00": Edge.TOP, "xx28": Edge.BOTTOM, "10xx": Edge.LEFT, "60xx": Edge.RIGHT}


def board_of(scenario: sc.Scenario) -> Board:
    """The battle's board: its land hexes and coast edges (2.2, 6.31)."""
    map_ = scenario.map.joined()
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
    scenario = scenario_files.game_scenario(scenario_data, rules_data)
    chosen = _options(scenario, options)
    specials_ = _specials(scenario, chosen)
    map_ = scenario.map.joined()
    galleys: dict[GalleyId, Galley] = {}
    commanders: list[CommanderState] = []
    sides: list[SideInfo] = []
    tasks: list[DeployTask] = []
    victory = {v.side: v for v in scenario.victory.sides}
    for side in scenario.sides:
        colour = COLOURS[side.colour]
        for fleet in side.fleets:
            for group in fleet.galleys:
                for type_, number in manifest.expand_galleys([group.galleys]):
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
    for placement in scenario_layout.fixed_placements(scenario, map_):
        gid = galley_id(placement.galley)
        galleys[gid] = replace(galleys[gid], position=placement.position)
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
        for t, i in manifest.expand_galleys(group.galleys)
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
    battles.load(s.name for s in specials_)  # the modules of the rules in play register their hooks
    return hooks.setup(state, [(s.name, dict(s.params)) for s in specials_], _facts(scenario))


def _groups(scenario: sc.Scenario) -> tuple[tuple[GalleyId, str], ...]:
    """Each galley a group names, with the group (groups by count learn theirs at deployment)."""
    out = [(galley_id(CounterKey(side.colour, t, i)), group.name)
           for side in scenario.sides for group in side.deploy for t, i in manifest.expand_galleys(group.galleys)]
    return tuple(sorted(out, key=lambda kv: galley_key(kv[0])))


def _facts(scenario: sc.Scenario) -> dict[str, Any]:
    """What set-up hooks of special rules read: each fleet's galleys and commanders."""
    fleets = {f.key: [galley_id(CounterKey(side.colour, t, i)) for g in f.galleys for t, i in manifest.expand_galleys([g.galleys])]
              for side in scenario.sides for f in side.fleets}
    commanders = {f.key: list(f.commanders) for side in scenario.sides for f in side.fleets}
    return {"fleets": fleets, "fleet_commanders": commanders}


def _queues(scenario: sc.Scenario, map_: MapSpec, state: GameState) -> tuple[EntryQueue, ...]:
    """An entry queue for every group with galleys off the map (engine.war_galley.turn.entry); filled at deployment
    for groups whose waiting galleys the player picks."""
    out = []
    for side in scenario.sides:
        for group in side.deploy:
            if group.offmap is None:
                continue
            members = [galley_id(CounterKey(side.colour, t, i)) for t, i in manifest.expand_galleys(group.galleys)]
            n = group.offmap.count
            waiting = tuple(members[len(members) - n:]) if members else ()
            on_map = [g for g in members[: len(members) - n] if state.galley(g).position is not None]
            slots = scenario_layout.group_slots(group, map_)
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
    named = {gid for g in side.deploy for gid in (galley_id(CounterKey(side.colour, t, i))
                                                  for t, i in manifest.expand_galleys(g.galleys))}
    pool = tuple(galley_id(k) for k in scenario_layout.side_galleys(side) if galley_id(k) not in named)
    groups: list[DeployGroup] = []
    for group in side.deploy:
        members = tuple(galley_id(CounterKey(side.colour, t, i)) for t, i in manifest.expand_galleys(group.galleys))
        offmap = group.offmap.count if group.offmap else 0
        fixed = {h: gid for gid in members if (p := galleys[gid].position) is not None for h in p.hexes}
        for name, text in group.commander_at.items():
            at = map_.parse(text)
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
        slots = tuple(scenario_layout.group_slots(group, map_))
        zone = None
        constraints: tuple[str, ...] = ()
        params: dict[str, object] = {}
        if group.zone is not None:
            z = group.zone
            zone = Zone(z.columns, z.rows, z.sheet, tuple(z.bow_hexes), tuple(z.facings), z.bow_only, z.stern_offmap)
            constraints, params = tuple(z.constraints), dict(z.params)
        fixed_at = tuple((name, map_.parse(text))
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
