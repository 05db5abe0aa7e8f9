"""Tournament play (10.0): fleets built to a points budget, committed in secret, then set up.

Flow (docs/orders.md, "Tournament"):
1. Each side commits its fleet (`commit fleet: VALUE`), the first side then
   the second; neither is shown until both are committed.
2. Each side opens it (`open fleet`); the fleet is checked against the
   budget and joins the game.
3. "Players roll the die to determine who has the Initiative": the roll of
   3.2, 1d6 plus the Admiral's Initiative Rating (5.12), ties roll again. The
   loser sets up first, every galley within `within` (8) hexes of his map
   edge (read: the xx00 edge, rows 00-08); the winner deploys within 8 hexes
   of the opposite edge (rows 20-28) and/or holds galleys off the map to bring
   them in through xx28 edge hexes (`enter 3028`, engine.war_galley.turn.entry),
   and has the first turn's Initiative.
Victory as 9.1 with the VP the budget sets.

Every number 10.0 fixes (the budgets, their VP and Squadron Leaders, the +1
for a T and for an E, the 8 hexes) is data: the tournament file's
`[fleet_building]` and `[deployment]` (scenarios/war_galley/tournament.toml),
so a player's own file is honoured.

A fleet is written `GALLEYS; admiral NAME; leaders NAME, NAME`, e.g.
`5#50-53, cat3#26; admiral Agrippa; leaders Agricola, Drusus`: galley runs of
the side's colour from the counter manifest, one Admiral (free) and at most
the budget's Squadron Leaders (free), named from the
commanders' ratings (scenarios/war_galley/commanders.toml, first found in book order).
A galley costs M + Crew + Ram Defense (its Cruise side), +1 for a T and +1
for an E (the 10.0 example: M2, Crew 3, Ram Defense 8 = 13).
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
from msgspec.structs import replace

from engine.dice import Dice
from engine.errors import IllegalOrder, RulesDataError
from engine.events import DieRolled, Event
from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.galley import Colour, Equipment, Galley, GalleyId, GalleyType
from engine.war_galley.map_and_galleys.hexes import MapSpec
from engine.war_galley.map_and_galleys.manifest import Commander, CounterKey, decode_toml, expand_galleys
from engine.war_galley.map_and_galleys.ratings import Ratings
from engine.war_galley.map_and_galleys.rulesdata import load_rules_data, parse
from engine.war_galley.turn.hooks import always
from engine.war_galley.turn.state import (
    CommanderState,
    Commitment,
    DeployGroup,
    DeployTask,
    GameState,
    ScenarioState,
    SideInfo,
    Zone,
)

RULE = "10.0"
LABEL = "fleet"


class TournamentSide(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    name: str
    colour: str


class Budget(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One Fleet-Building Points level (10.0): its VP for a win and how many Squadron Leaders it picks."""

    points: int
    vp: int
    squadron_leaders: int


class FleetBuilding(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    rule: str
    towers: int  # FBP added for a "T"
    engines: int  # FBP added for an "E"
    default_budget: int
    budgets: list[Budget]


class TournamentDeployment(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    rule: str
    within: int  # "None of his galleys may be more than 8 hexes from the map edge"


class TournamentFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    schema: int
    key: str
    name: str
    title: str
    tournament: bool
    sides: list[TournamentSide]
    fleet_building: FleetBuilding
    deployment: TournamentDeployment
    note: str = ""

    def budget(self, points: int) -> Budget | None:
        return next((b for b in self.fleet_building.budgets if b.points == points), None)


def is_tournament(data: bytes) -> bool:
    return b"tournament = true" in data


def load(data: bytes, source: str = "tournament") -> TournamentFile:
    spec = decode_toml(data, TournamentFile, source)
    if len(spec.sides) != 2 or {s.colour for s in spec.sides} != {"red", "green"}:
        raise RulesDataError(f"{source}: sides: one red and one green side")
    building = spec.fleet_building
    points = [b.points for b in building.budgets]
    if not points or len(set(points)) != len(points):
        raise RulesDataError(f"{source}: fleet_building.budgets: at least one budget, each points value once (10.0)")
    numbers = [("towers", building.towers), ("engines", building.engines), ("deployment.within", spec.deployment.within)]
    numbers += [(f"budget {b.points}", min(b.points, b.vp, b.squadron_leaders)) for b in building.budgets]
    for what, value in numbers:
        if value < 0:
            raise RulesDataError(f"{source}: fleet_building: {what}: {value} is negative (10.0)")
    if building.default_budget not in points:
        raise RulesDataError(f"{source}: fleet_building.default_budget {building.default_budget} is not one of "
                             f"the budgets {points} (10.0)")
    last = _last_row(MapSpec.single())
    if 2 * spec.deployment.within >= last:
        raise RulesDataError(f"{source}: deployment.within {spec.deployment.within}: the two set-up areas would "
                             f"meet on a map of rows 00-{last:02d} (10.0)")
    return spec


def _last_row(map_: MapSpec) -> int:
    return max(map_.number(h).row for h in map_.hexes())


def cost(ratings: Ratings, towers: int = 1, engines: int = 1) -> int:
    """10.0: M + Crew + Ram Defense, plus `towers` for a T and `engines` for an E (the file's, 1 and 1)."""
    return (ratings.manpower + ratings.crew + ratings.cruise.ram_defense + (towers if ratings.towers else 0)
            + (engines if ratings.engines else 0))


def _cost(state: GameState, ratings: Ratings) -> int:
    info = _info(state)
    return cost(ratings, int(info["towers"]), int(info["engines"]))


def _info(state: GameState) -> dict[str, Any]:
    return json.loads(state.extra.tournament)  # type: ignore[no-any-return]


def _with_info(state: GameState, info: dict[str, Any]) -> GameState:
    return replace(state, extra=replace(state.extra, tournament=json.dumps(info, sort_keys=True)))


def new_game(scenario_data: bytes, rules_data: bytes, options: dict[str, object]) -> GameState:
    spec = load(scenario_data)
    building = spec.fleet_building
    unknown = set(options) - {"budget"}
    if unknown:
        raise RulesDataError(f"option {sorted(unknown)[0]!r}: tournament play has the option budget")
    text = str(options.get("budget", building.default_budget))
    level = spec.budget(int(text)) if text.isdigit() else None
    if level is None:
        raise RulesDataError(f"option budget={text}: choose one of {[b.points for b in building.budgets]} (10.0)")
    sides = tuple(SideInfo(key=s.key, name=s.name, colour=Colour.RED if s.colour == "red" else Colour.GREEN,
                           vp_needed=level.vp, sails=True) for s in spec.sides)
    state = GameState(scenario=spec.key, rules=load_rules_data(rules_data), options=(("budget", str(level.points)),),
                      sides=(sides[0], sides[1]), board=Board(MapSpec.single()), galleys=(), commanders=())
    return _with_info(state, {"budget": level.points, "leaders": level.squadron_leaders, "towers": building.towers,
                              "engines": building.engines, "within": spec.deployment.within, "setup_roll": None})


def wanted(state: GameState) -> tuple[str, str, str, str, str] | None:
    """(side, commit/open, label, prompt, rule) while the fleets are being chosen."""
    held = {c.side: c for c in state.extra.commitments if c.label == LABEL}
    for side in state.sides:
        if side.key not in held:
            return (side.key, "commit", LABEL, f"{side.name}: commit your fleet in secret (10.0): "
                    f"commit fleet: GALLEYS; admiral NAME; leaders NAMES ({_info(state)['budget']} points)", RULE)
    for side in state.sides:
        if held[side.key].value is None:
            return side.key, "open", LABEL, f"{side.name}: both fleets are committed; open fleet", RULE
    return None


class Fleet(msgspec.Struct, frozen=True):
    galleys: tuple[tuple[CounterKey, Ratings], ...]
    admiral: Commander
    leaders: tuple[Commander, ...]
    points: int


def _commander(state: GameState, name: str, rank: str) -> Commander:
    rosters = parse(state.rules).commanders.rosters
    for scenario in rosters:
        for roster in rosters[scenario].values():
            for c in roster:
                if c.name == name and c.rank == rank:
                    return c
    raise IllegalOrder(RULE, f"no {'Admiral' if rank == 'admiral' else 'Squadron Leader'} named {name!r} "
                             "in the commanders' ratings")


def read_fleet(state: GameState, side: str, value: str) -> Fleet:
    """A fleet as committed; IllegalOrder if it breaks 10.0."""
    info = _info(state)
    budget = int(info["budget"])
    parts = [p.strip() for p in value.split(";")]
    if len(parts) < 2 or not parts[1].lower().startswith("admiral "):
        raise IllegalOrder(RULE, "write the fleet as `GALLEYS; admiral NAME; leaders NAME, NAME`")
    manifest = parse(state.rules).manifest
    colour = "red" if state.side(side).colour is Colour.RED else "green"
    try:
        runs = expand_galleys([r.strip() for r in parts[0].split(",") if r.strip()])
    except ValueError as exc:
        raise IllegalOrder(RULE, str(exc)) from None
    if not runs or len(set(runs)) != len(runs):
        raise IllegalOrder(RULE, "name each galley once, at least one")
    galleys = []
    for t, i in runs:
        key = CounterKey(colour, t, i)
        if key not in manifest:
            raise IllegalOrder(RULE, f"{colour} {t}#{i} is not a counter of the game")
        galleys.append((key, manifest.ratings(key)))
    points = sum(_cost(state, r) for _, r in galleys)
    if points > budget:
        raise IllegalOrder(RULE, f"the fleet costs {points} Fleet-Building Points; the budget is {budget}")
    admiral = _commander(state, parts[1][len("admiral "):].strip(), "admiral")
    names = []
    for part in parts[2:]:
        if not part.lower().startswith("leaders "):
            raise IllegalOrder(RULE, f"{part!r}: write `leaders NAME, NAME`")
        names += [n.strip() for n in part[len("leaders "):].split(",") if n.strip()]
    allowed = int(info["leaders"])
    if len(names) > allowed or len(set(names)) != len(names) or admiral.name in names:
        raise IllegalOrder(RULE, f"at {budget} points a fleet picks at most {allowed} Squadron Leaders, each once")
    leaders = tuple(_commander(state, n, "squadron") for n in names)
    return Fleet(tuple(galleys), admiral, leaders, points)


_TYPES = {t.value: t for t in GalleyType}


def opened(state: GameState, commitment: Commitment) -> tuple[GameState, list[Event]]:
    """A fleet opened: it joins the game (checked against 10.0)."""
    fleet = read_fleet(state, commitment.side, commitment.value or "")
    others = {c.name for c in state.commanders}
    if fleet.admiral.name in others or others & {c.name for c in fleet.leaders}:
        raise IllegalOrder(RULE, "the other fleet already has a commander of that name")
    new_galleys = tuple(
        Galley(id=GalleyId(Colour.RED if key.colour == "red" else Colour.GREEN, _TYPES[key.type], key.id),
               ratings=ratings, equipment=Equipment(sails=True))
        for key, ratings in fleet.galleys)
    new_commanders = tuple(
        CommanderState(name=c.name, side=commitment.side, admiral=c.rank == "admiral", command_range=c.command_range,
                       re_command_range=c.re_command_range, initiative=c.initiative or 0,
                       re_initiative=c.re_initiative or 0, group="Fleet")
        for c in (fleet.admiral, *fleet.leaders))
    state = replace(state, galleys=(*state.galleys, *new_galleys), commanders=(*state.commanders, *new_commanders))
    info = _info(state)
    info.setdefault("points", {})[commitment.side] = fleet.points
    return _with_info(state, info), []


def setup_due(state: GameState) -> bool:
    """Both fleets are open and the set-up roll has not been made."""
    return bool(state.extra.tournament) and wanted(state) is None and _info(state)["setup_roll"] is None


def _admiral_drm(state: GameState, side: str) -> tuple[tuple[str, int], ...]:
    """3.2, 5.12: the Admiral's Initiative Rating is the DRM of the Initiative roll (no galley is placed yet)."""
    admiral = next((c for c in state.commanders_of(side) if c.admiral), None)
    return ((f"Admiral {admiral.name}'s Initiative", admiral.rating),) if admiral is not None else ()


def roll_setup(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """10.0: roll for the Initiative (3.2: 1d6 + the Admiral's Initiative, ties roll again); the loser sets up
    first, the winner opposite (or enters on turn 1)."""
    a, b = (s.key for s in state.sides)
    events: list[Event] = []
    while True:
        totals = {}
        for side in (a, b):
            mods = _admiral_drm(state, side)
            natural = dice.d6(f"10.0 set-up initiative {side}")
            totals[side] = natural + sum(v for _, v in mods)
            events.append(DieRolled(rule=RULE, table=f"Initiative ({side})", natural=natural, modifiers=mods,
                                    outcome=str(totals[side])))
        if totals[a] != totals[b]:
            break
    winner, loser = (a, b) if totals[a] > totals[b] else (b, a)
    map_ = state.board.map
    last = _last_row(map_)
    within = int(_info(state)["within"])
    edge = tuple(h for h in map_.hexes() if map_.number(h).row == last)

    def task(side: str, rows: tuple[int, int], offmap: int, entry: tuple[Any, ...]) -> DeployTask:
        colour = state.side(side).colour
        mine = tuple(g.id for g in state.galleys if g.id.colour is colour)
        names = tuple(c.name for c in state.commanders_of(side))
        group = DeployGroup("Fleet", mine, zone=Zone(rows=rows), commanders=names, count=len(mine) if offmap == 0 else -1,
                            offmap=offmap, entry=entry)
        return DeployTask(side, (group,))

    info = _info(state)
    info["setup_roll"] = {"winner": winner, "loser": loser}
    state = _with_info(state, info)
    state = replace(state, deploy=(task(loser, (0, within), 0, ()), task(winner, (last - within, last), -1, edge)),
                    first_turn_initiative=winner)
    groups = tuple((g.id, "Fleet") for g in state.galleys)
    state = replace(state, extra=replace(state.extra, groups=groups))
    return state, events


def example_values(state: GameState, side: str) -> list[str]:
    """Example fleets for listings: the side's first counters in the manifest, within budget."""
    manifest = parse(state.rules).manifest
    colour = "red" if state.side(side).colour is Colour.RED else "green"
    budget = int(_info(state)["budget"])
    runs, spent = [], 0
    for key, ratings in sorted(manifest.items(), key=lambda kv: (kv[0].type != "5", kv[0].type, kv[0].id)):
        if key.colour == colour and key.type == "5" and spent + _cost(state, ratings) <= budget // 3:
            runs.append(f"5#{key.id}")
            spent += _cost(state, ratings)
    admiral = "Agrippa" if colour == "green" else "Antony"
    return [f"{', '.join(runs)}; admiral {admiral}"]


__all__ = ["cost", "is_tournament", "load", "new_game", "wanted", "opened", "read_fleet", "roll_setup",
           "setup_due", "ScenarioState"]


@always("deployment_step")
def _set_up(state: GameState, dice: Dice) -> tuple[GameState, list[Event]] | None:
    """10.0: once both fleets are open, the set-up roll ends the deployment (engine.war_galley.turn.sequence)."""
    return roll_setup(state, dice) if setup_due(state) else None
