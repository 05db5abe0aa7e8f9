"""The special rules several battles share (scenario `[[special]]`), registered at the core's hook points.

The hook points themselves are engine.war_galley.turn.hooks; one battle's
own rules live in its module (actium, drepanum, lade, opening, transports).
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.events import Event
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId, GalleyType
from engine.war_galley.turn.extra import flag, fleet_marks, mark, new_exits, side_galleys
from engine.war_galley.turn.hooks import HOOKS, Params, SpecialRule, hook
from engine.war_galley.turn.state import GameState, Phase

DEVICE_RULES = ("corvus", "harpax", "flame_capable", "no_fire", "wet_fire", "all_towers", "flame_throwers",
                "towers_optional")
# Rules that need no hook of their own: the engine's default already is the book's rule.
DEFAULT_RULES = {
    "exited_no_vp": "9.1 as the engine plays it: a galley leaving the map gives nobody VP (engine.war_galley.turn.victory)",
    "minor_victory_most_vp": "9.1 halt by agreement: most VP wins (engine.war_galley.turn.victory.halt)",
    "no_admiral": "engine.war_galley.battles.setup: SideInfo.initiative_drm and double_activation",
    "keep_squadrons": "engine.war_galley.battles.setup and engine.war_galley.turn.command: each galley's home group",
    "port_start": "engine.war_galley.battles.setup (lead bows in the port hexes, not aground) and engine.war_galley.turn.entry (the others at the quay)",
}


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
    from engine.war_galley.manpower_combat.towers import with_scenario_towers
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
    from engine.war_galley.turn.entry import waiting
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
    from engine.war_galley.turn.state import Award
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


@hook("command", "separate_fleets")
def _separate(state: GameState, params: Params, commander: str, galley: GalleyId) -> bool:
    """Chios, Myonessus: allied commanders command only their own fleet's galleys."""
    fleets = dict((g, f) for f, g in fleet_marks(state))
    own = next((f.split(":", 2)[2] for f in state.extra.flags if f.startswith(f"fleet:{commander}:")), None)
    return own is None or galley not in fleets or fleets[galley] == own


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
    HOOKS.setdefault("devices", {})[_name] = lambda state, params: None  # read by engine.war_galley.manpower_combat.devices
for _name in DEFAULT_RULES:
    HOOKS.setdefault("default", {})[_name] = lambda state, params: None

