"""The battles' special rules (scenario `[[special]]`): a registry of hooks at the points of the sequence.

Every name of `engine.scenario.SPECIAL_RULES` is registered here with the
hook points where it acts (`HOOKS`); the rules live in this module (the
ones several battles share) and in `engine.specials_*` (one battle's own).
The set-up stores the rules in force (those of a chosen option only under
that option) in `state.extra.rules`; the hooks below read them there:

| point | called from | rules |
|---|---|---|
| setup | engine.setup.new_game | transports, sails, anchors, tows, fleets, approach, scenario towers |
| squadrons | phase B (engine.sequence) | line astern command, first-turn command, transport squadrons, approach |
| maximum | phase D and movement (engine.sequence) | no Maximum Speed until / first turn / sails up |
| begin | an Activate decision, before it is checked (engine.play) | Lade's treachery roll |
| move | each plan of an activation (engine.activation) | anchors, tows, transports, treachery, first-turn speed |
| after | an activation carried out (engine.play) | exits, run aground VP, anchors raised, command limit |
| command | squadrons and transfers (engine.command, engine.commanders) | separate fleets, lembi, restricted commanders |
| fatigue | 6.42 (engine.fatigue) | pestilence |
| value | 9.1 awards (engine.victory) | transport VP |
| final | the end of the game (engine.victory) | leaders survive |

The combat devices (corvus, harpax, flame_capable, no_fire, wet_fire,
all_towers, flame_throwers, towers_optional) are read by engine.devices for
the combat rules and are registered here as such; all_towers and
towers_optional also give the galleys their Towers at set-up
(engine.towers.with_scenario_towers).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.events import Event
from engine.galley import Galley, GalleyId, GalleyType
from engine.state import GameState, Phase, ScenarioState, Squadron

Params = dict[str, Any]

HOOKS: dict[str, dict[str, Callable[..., Any]]] = {}
DEVICE_RULES = ("corvus", "harpax", "flame_capable", "no_fire", "wet_fire", "all_towers", "flame_throwers",
                "towers_optional")
# Rules that need no hook of their own: the engine's default already is the book's rule.
DEFAULT_RULES = {
    "exited_no_vp": "9.1 as the engine plays it: a galley leaving the map gives nobody VP (engine.victory)",
    "minor_victory_most_vp": "9.1 halt by agreement: most VP wins (engine.victory.halt)",
    "no_admiral": "engine.setup: SideInfo.initiative_drm and double_activation",
    "keep_squadrons": "engine.setup and engine.command: each galley's home group",
    "port_start": "engine.setup (lead bows in the port hexes, not aground) and engine.entry (the others at the quay)",
}


def hook(point: str, *names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a rule's function at a hook point."""
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        for name in names:
            HOOKS.setdefault(point, {})[name] = fn
        return fn
    return register


class Rule(NamedTuple):
    name: str
    params: Params


@functools.lru_cache(maxsize=64)
def _decode(rules: tuple[tuple[str, str], ...]) -> tuple[Rule, ...]:
    return tuple(Rule(name, json.loads(params)) for name, params in rules)


def rules(state: GameState) -> tuple[Rule, ...]:
    return _decode(state.extra.rules)


def named(state: GameState, name: str) -> list[Params]:
    return [r.params for r in rules(state) if r.name == name]


def _at(state: GameState, point: str) -> Iterator[tuple[Callable[..., Any], Params]]:
    table = HOOKS.get(point, {})
    for rule in rules(state):
        fn = table.get(rule.name)
        if fn is not None:
            yield fn, rule.params


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
    return [g for g, name in state.extra.groups if name == group]


def side_galleys(state: GameState, side: str) -> list[Galley]:
    colour = state.side(side).colour
    return [g for g in state.galleys if g.id.colour is colour]


class SpecialRule(Event, frozen=True, kw_only=True):
    """A scenario special rule acted: which, and what it did."""

    special: str
    text: str


# --- the hook points --------------------------------------------------------------------------


def setup(state: GameState, active: list[tuple[str, Params]], facts: Params) -> GameState:
    """Store the rules in force and let each change the opening state (`facts`: the scenario's groups and fleets)."""
    stored = tuple((name, json.dumps(params, sort_keys=True)) for name, params in active)
    state = with_extra(state, rules=stored)
    for fn, params in _at(state, "setup"):
        state = fn(state, params, facts)
    return state


def squadrons(state: GameState, side: str, formed: tuple[Squadron, ...]) -> tuple[Squadron, ...]:
    for fn, params in _at(state, "squadrons"):
        formed = fn(state, params, side, formed)
    return tuple(s for s in formed if s.galleys or s.commander is not None)


def maximum_barred(state: GameState, galley: Galley) -> tuple[str, str] | None:
    for fn, params in _at(state, "maximum"):
        why = fn(state, params, galley)
        if why is not None:
            return why
    return None


def begin(state: GameState, decision: Any, dice: Any) -> tuple[GameState, list[Event]] | None:
    for fn, params in _at(state, "begin"):
        done = fn(state, params, decision, dice)
        if done is not None:
            return done  # type: ignore[no-any-return]
    return None


def begin_wanted(state: GameState, decision: Any) -> bool:
    """A rule acts at the start of this activation (its decision may carry no orders)."""
    from engine.specials_lade import announce_first
    return bool(getattr(decision, "squadron", None)) and announce_first(state, decision.squadron)


def check_move(state: GameState, before: Galley, plan: Any, moved: Galley) -> None:
    """IllegalOrder if a special rule forbids this plan (called for each plan, before any die)."""
    for fn, params in _at(state, "move"):
        fn(state, params, before, plan, moved)


def after(state: GameState, keys: tuple[str, ...], before: GameState, events: list[Event]) -> tuple[GameState, list[Event]]:
    out: list[Event] = []
    for fn, params in _at(state, "after"):
        state, more = fn(state, params, keys, before, events)
        out += more
    return state, out


def may_command(state: GameState, commander: str, galley: GalleyId) -> bool:
    return all(fn(state, params, commander, galley) for fn, params in _at(state, "command"))


def commander_barred(state: GameState, commander: str, galley: GalleyId) -> tuple[str, str] | None:
    """Why `commander` may not be aboard `galley` (set-up, transfers)."""
    for fn, params in _at(state, "aboard"):
        why = fn(state, params, commander, galley)
        if why is not None:
            return why  # type: ignore[no-any-return]
    return None


def fatigue_modifiers(state: GameState, galley: Galley) -> list[tuple[str, int]]:
    return [m for fn, params in _at(state, "fatigue") for m in fn(state, params, galley)]


def award_value(state: GameState, galley: Galley) -> int | None:
    for fn, params in _at(state, "value"):
        vp = fn(state, params, galley)
        if vp is not None:
            return vp  # type: ignore[no-any-return]
    return None


def final_bonus(state: GameState) -> tuple[dict[str, int], list[str]]:
    """VP the rules add when the game ends (Actium's leaders), with the reasons."""
    bonus: dict[str, int] = {}
    why: list[str] = []
    for fn, params in _at(state, "final"):
        side, vp, text = fn(state, params)
        if vp:
            bonus[side] = bonus.get(side, 0) + vp
            why.append(text)
    return bonus, why


# --- rules shared by several battles ----------------------------------------------------------


@hook("setup", "sails_up_start")
def _sails_up(state: GameState, params: Params, facts: Params) -> GameState:
    """Tauris: the Caesarians start with Sails Raised."""
    for g in side_galleys(state, params["side"]):
        state = state.with_galley(replace(g, sails_up=g.equipment.sails))
    return state


@hook("setup", "all_towers", "towers_optional")
def _scenario_towers(state: GameState, params: Params, facts: Params) -> GameState:
    """Actium: every galley has Towers, those without a T lose one Maximum Speed; Naulochus'
    option: Towers on every galley but the `except_types` (Liburnians), Maximum Speed `max_speed`."""
    from engine.towers import with_scenario_towers
    max_speed = int(params.get("max_speed", params.get("max_speed_without_towers", -1)))
    excepted = {GalleyType(t) for t in params.get("except_types", [])}
    return replace(state, galleys=tuple(g if g.id.type in excepted else with_scenario_towers(g, max_speed)
                                        for g in state.galleys))


@hook("maximum", "sails_up_start", "no_max_speed_first_turn")
def _cruise_first_turn(state: GameState, params: Params, galley: Galley) -> tuple[str, str] | None:
    if state.turn <= 1 and state.controller(galley) == params["side"]:
        return "scenario", f"{galley.id}: Cruise Speed on the first turn (scenario special rule)"
    return None


@hook("maximum", "no_max_speed_until")
def _no_max_until(state: GameState, params: Params, galley: Galley) -> tuple[str, str] | None:
    """Drepanum: Romans until all are on the map; Carthaginians until all are fully in the water."""
    side = params["side"]
    if state.controller(galley) != side:
        return None
    from engine.entry import waiting
    pending = bool(waiting(state, side))
    if params.get("until") == "all_in_water":
        pending = pending or any(not state.board.is_sea(h) for g in state.galleys_of(side)
                                 for h in g.position.hexes)  # type: ignore[union-attr]
    if pending:
        return "scenario", f"{galley.id}: no Maximum Speed until every galley of the side is {'in the water' if params.get('until') == 'all_in_water' else 'on the map'} (Drepanum)"
    return None


@hook("fatigue", "pestilence")
def _pestilence(state: GameState, params: Params, galley: Galley) -> list[tuple[str, int]]:
    if state.controller(galley) == params["side"]:
        return [("pestilence (Side)", int(params.get("fatigue_drm", 1)))]
    return []


@hook("after", "exit_vp")
def _exit_vp(state: GameState, params: Params, keys: tuple[str, ...], before: GameState,
             events: list[Event]) -> tuple[GameState, list[Event]]:
    """The Aegatian Isles: `vp` per galley of `side` exited off `edge`, not Crippled."""
    from engine.state import Award
    out: list[Event] = []
    for gid, edge in new_exits(state, before):
        galley = state.galley(gid)
        if state.side_of(gid.colour) != params["side"] or edge != params["edge"] or galley.crippled:
            continue
        vp = int(params["vp"])
        state = replace(state, awards=(*state.awards, Award(gid, params["side"], "exit", vp)))
        out.append(SpecialRule(rule="scenario", special="exit_vp",
                               text=f"{gid} exited off the {edge} edge: {vp} VP to {params['side']}"))
    return state, out


def edge_of(state: GameState, galley_id: GalleyId, events: list[Event]) -> str:
    """The map edge a galley left by (`xx00`, `xx28`, `10xx`, `60xx` of the joined map), from its last step."""
    from engine.movement import Stepped
    last = [e.position for e in events if isinstance(e, Stepped) and e.galley == galley_id]
    map_ = state.board.map
    off = [h for p in last[-1:] for h in p.hexes if not map_.contains(h)]
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
    from engine.galley import Removal
    new = []
    for g in state.galleys:
        if g.removed is Removal.EXITED and before.galley(g.id).removed is not Removal.EXITED:
            new.append((g.id, edge_of(before, g.id, events)))
    return with_extra(state, exits=(*state.extra.exits, *new)) if new else state


def new_exits(state: GameState, before: GameState) -> list[tuple[GalleyId, str]]:
    return list(state.extra.exits[len(before.extra.exits):])


@hook("command", "separate_fleets")
def _separate(state: GameState, params: Params, commander: str, galley: GalleyId) -> bool:
    """Chios, Myonessus: allied commanders command only their own fleet's galleys."""
    fleets = dict((g, f) for f, g in fleet_marks(state))
    own = next((f.split(":", 2)[2] for f in state.extra.flags if f.startswith(f"fleet:{commander}:")), None)
    return own is None or galley not in fleets or fleets[galley] == own


def fleet_marks(state: GameState) -> list[tuple[str, GalleyId]]:
    return [(m.split(":", 1)[1], g) for m, g in state.extra.marked if m.startswith("fleet:")]


@hook("setup", "separate_fleets")
def _fleets(state: GameState, params: Params, facts: Params) -> GameState:
    for fleet, members in facts["fleets"].items():
        if fleet in params.get("fleets", []):
            state = mark(state, f"fleet:{fleet}", members)
            for name in facts["fleet_commanders"][fleet]:
                state = flag(state, f"fleet:{name}:{fleet}")
    return state


def _types(params: Params) -> set[GalleyType]:
    return {GalleyType(t) for t in params.get("types", [])}


@hook("command", "lembi_commanders", "commander_restricted")
def _restricted(state: GameState, params: Params, commander: str, galley: GalleyId) -> bool:
    """Chios' Lembi SqCs, Tauris' Agricola: they command only galleys of the listed types."""
    names = params.get("commanders") or ([params["commander"]] if "commander" in params else [])
    if commander not in names or "types" not in params:
        return True
    return galley.type in _types(params)


@hook("aboard", "lembi_commanders", "commander_restricted", "no_command_ship")
def _aboard(state: GameState, params: Params, commander: str, galley: GalleyId) -> tuple[str, str] | None:
    names = params.get("commanders") or ([params["commander"]] if "commander" in params else [])
    if "first_galley_type" in params and commander in names:
        # Tauris: "the lead ship of his column" is a set-up rule; later transfers and 5.53 go anywhere.
        if state.phase is Phase.DEPLOYMENT and galley.type is not GalleyType(params["first_galley_type"]):
            return "scenario", f"{commander} starts on a {params['first_galley_type']} (the lead ship of his column)"
        return None
    if commander in names and "types" in params and galley.type not in _types(params):
        return "scenario", f"{commander} may command and transfer to {', '.join(sorted(params['types']))} only"
    if not names and "types" in params and galley.type in _types(params):  # no_command_ship
        fleet = params.get("fleet")
        if fleet is None or ("fleet:" + fleet, galley) in state.extra.marked:
            return "scenario", f"a {galley.type.value} may never be a Command Ship"
    return None


for _name in DEVICE_RULES:
    HOOKS.setdefault("devices", {})[_name] = lambda state, params: None  # read by engine.devices
for _name in DEFAULT_RULES:
    HOOKS.setdefault("default", {})[_name] = lambda state, params: None

# The battles' own rules register themselves on import.
from engine import (  # noqa: E402,F401
    specials_actium,
    specials_drepanum,
    specials_lade,
    specials_opening,
    specials_transports,
)

__all__ = ["HOOKS", "hook", "rules", "named", "setup", "squadrons", "maximum_barred", "begin", "check_move",
           "after", "may_command", "commander_barred", "fatigue_modifiers", "award_value", "final_bonus",
           "SpecialRule", "ScenarioState"]
