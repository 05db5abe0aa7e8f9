"""Transports (scenario book: Catana, Salamis, Ecnomus).

- Catana: the transports have no manpower (M 0); they move as one squadron
  without a commander in any one activation; they may not leave the map nor
  come within `coast_distance` hexes of the coast (read: no hex of any
  position along the move, docs/rules-notes.md).
- Salamis: Demetrius' transports board with their printed M3 and may not
  ram, rake or Pass-Through.
- Ecnomus, option 1 (`ignore`): no transports; Squadron III moves at most
  2 MP on turn 1 (Cruise). Option 2 (`towed`): the transports are one
  Command Squadron without a SqC, and the Romans activate at most 4 Command
  Squadrons a turn; a towing galley (the galley directly ahead of its
  transport at set-up) has its Speeds halved (rounding up) and may not end
  adjacent to an enemy; announcing more MP than that cuts the tow, which
  costs 1 MP (so at most its speed less one). A towing galley that moves
  drags its transport into the hex directly astern when that hex is free
  sea, else the tow parts. A transport that moves casts off its tow.
  Transports are worth `vp` each; transports exiting the south edge count
  for Carthage only in pairs, one pair per Carthaginian galley exited along
  the south edge (which gives Rome nothing and does not return). The
  transports "must exit to the south": off any other edge is refused.
"""

from __future__ import annotations

import math
from typing import Any

from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.events import Event
from engine.war_galley.map_and_galleys.galley import (
    Galley,
    GalleyId,
    GalleyType,
    Removal,
    format_galley_id,
    parse_galley_id,
)
from engine.war_galley.map_and_galleys.hexes import distance
from engine.war_galley.map_and_galleys.position import Around
from engine.war_galley.movement.moving import Stepped, check_plan, surroundings
from engine.war_galley.movement.speed import speed_limit
from engine.war_galley.movement.steps import PassThrough, Rake, Ram
from engine.war_galley.turn.extra import edge_beyond, group_galleys, mark, new_exits, side_galleys, unmark, with_extra
from engine.war_galley.turn.hooks import Params, SpecialRule, hook
from engine.war_galley.turn.state import Award, GameState, Squadron


def _transports(state: GameState, params: Params) -> list[GalleyId]:
    if "group" in params:
        return group_galleys(state, params["group"])
    return [g.id for g in side_galleys(state, params["side"]) if g.id.type is GalleyType.TRANSPORT]


@hook("setup", "transports_no_manpower")
def no_manpower(state: GameState, params: Params, facts: Params) -> GameState:
    for g in side_galleys(state, params["side"]):
        if g.id.type is GalleyType.TRANSPORT:
            state = state.with_galley(replace(g, ratings=replace(g.ratings, manpower=0)))
    return state


@hook("squadrons", "transport_squadron")
def squadron(state: GameState, params: Params, side: str, formed: tuple[Squadron, ...]) -> tuple[Squadron, ...]:
    if side != params["side"]:
        return formed
    mine = {g for g in _transports(state, params) if state.galley(g).position is not None}
    if not mine:
        return formed
    rest = tuple(replace(s, galleys=tuple(g for g in s.galleys if g not in mine)) for s in formed)
    rest = tuple(s for s in rest if s.galleys)
    ordered = tuple(g for s in formed for g in s.galleys if g in mine)
    return (*rest, Squadron("Transports", side, ordered, None, leaderless=True))


@hook("move", "transports_restricted")
def restricted(state: GameState, params: Params, before: Galley, plan: Any, moved: Galley) -> None:
    if before.id not in _transports(state, params):
        return
    rule = "Catana, Transports"
    if moved.removed is Removal.EXITED and not params.get("may_exit", False):
        raise IllegalOrder(rule, f"{before.id}: the transports may not move off the map")
    gap = int(params.get("coast_distance", 2))
    coast = [h for h in state.board.land if not state.board.map.contains(h)]
    around = surroundings(state.board, state.galleys, before, state.wind, state.turn, state.charts)
    for leg in check_plan(around, before, plan)[1:]:
        for h in leg.position.hexes:
            if any(distance(h, c) <= gap for c in coast):
                raise IllegalOrder(rule, f"{before.id}: the transports may not come within {gap} hexes of the coast")


@hook("move", "boarding_transports")
def no_ram(state: GameState, params: Params, before: Galley, plan: Any, moved: Galley) -> None:
    if before.id.type is GalleyType.TRANSPORT and state.controller(before) == params["side"]:
        if any(isinstance(step, (Ram, Rake, PassThrough)) for step in plan.steps):
            raise IllegalOrder("Salamis, transports", f"{before.id}: Demetrius' transports board but may not ram or rake")


@hook("setup", "ignore_transports")
def ignore(state: GameState, params: Params, facts: Params) -> GameState:
    gone = set(group_galleys(state, params["group"]))
    state = replace(state, galleys=tuple(g for g in state.galleys if g.id not in gone))
    return with_extra(state, groups=tuple((g, n) for g, n in state.extra.groups if g not in gone))


@hook("move", "ignore_transports")
def first_turn_speed(state: GameState, params: Params, before: Galley, plan: Any, moved: Galley) -> None:
    if state.turn == 1 and before.id in group_galleys(state, params["speed_group"]):
        top = int(params.get("first_turn_speed", 2))
        if plan.mp > top:
            raise IllegalOrder("Ecnomus, Transport Option 1", f"{before.id}: Squadron III has a first-turn Speed of {top}")


@hook("maximum", "ignore_transports")
def first_turn_cruise(state: GameState, params: Params, galley: Galley) -> tuple[str, str] | None:
    if state.turn == 1 and galley.id in group_galleys(state, params["speed_group"]):
        return "Ecnomus, Transport Option 1", f"{galley.id}: a first-turn Speed of 2 (cutting the tow lines)"
    return None


def tows(state: GameState) -> dict[GalleyId, GalleyId]:
    """Towing galley -> its transport."""
    return {g: parse_galley_id(m.split(":", 1)[1]) for m, g in state.extra.marked if m.startswith("tow:")}


@hook("setup", "towed_transports")
def towed(state: GameState, params: Params, facts: Params) -> GameState:
    transports = {state.galley(t).position.bow: t for t in group_galleys(state, params["transports_group"])  # type: ignore[union-attr]
                  if state.galley(t).position is not None}
    for gid in group_galleys(state, params["towing_group"]):
        position = state.galley(gid).position
        if position is not None and position.around(Around.STERN) in transports:
            state = mark(state, f"tow:{format_galley_id(transports[position.around(Around.STERN)])}", [gid])
    return state


def _half(state: GameState, galley: Galley) -> tuple[int, int]:
    full = speed_limit(galley, galley.speed, state.wind).mp
    return math.ceil(full / 2), full


@hook("move", "towed_transports")
def towing(state: GameState, params: Params, before: Galley, plan: Any, moved: Galley) -> None:
    if before.id not in tows(state):
        return
    half, full = _half(state, before)
    rule = "Ecnomus, Tow Lines"
    if plan.mp > half:
        if plan.mp > full - int(params.get("cut_tow_mp", 1)):
            raise IllegalOrder(rule, f"{before.id} tows a transport: {half} MP, or cut the tow for 1 MP "
                                     f"and move at most {full - 1}")
        return
    if moved.position is not None and not params.get("adjacent_enemy", False):
        enemy = {h for g in state.galleys if g.position is not None and g.controller is not before.controller
                 for h in g.position.hexes}
        if moved.position.adjacent() & enemy:
            raise IllegalOrder(rule, f"{before.id} tows a transport and may not move adjacent to an enemy ship")


@hook("after", "towed_transports")
def drag(state: GameState, params: Params, keys: tuple[str, ...], before: GameState,
         events: list[Event]) -> tuple[GameState, list[Event]]:
    stepped = {e.galley for e in events if isinstance(e, Stepped)}
    out: list[Event] = []
    for gid, transport in tows(state).items():
        name = f"tow:{format_galley_id(transport)}"
        galley, boat = state.galley(gid), state.galley(transport)
        cut = transport in stepped or galley.position is None or boat.position is None
        if not cut and gid in stepped:
            half, _ = _half(before, before.galley(gid))
            astern = galley.position.around(Around.STERN)  # type: ignore[union-attr]
            busy = {h for g in state.galleys if g.position is not None and g.id != transport for h in g.position.hexes}
            if galley.moved is not None and galley.moved.announced > half:
                cut = True
            elif state.board.is_sea(astern) and astern not in busy:
                state = state.with_galley(replace(boat, position=replace(boat.position, bow=astern,  # type: ignore[arg-type]
                                                                         facing=galley.position.facing)))  # type: ignore[union-attr]
            else:
                cut = True
        if cut:
            state = unmark(state, name, [gid])
            out.append(SpecialRule(rule="Ecnomus, Tow Lines", special="towed_transports",
                                   text=f"{gid} no longer tows {transport}"))
    return state, out


@hook("after", "transport_command_limit")
def command_limit(state: GameState, params: Params, keys: tuple[str, ...], before: GameState,
                  events: list[Event]) -> tuple[GameState, list[Event]]:
    side = params["side"]
    limit = int(params.get("command_squadrons", 4))
    mine = [s for s in state.squadrons if s.side == side and not s.individual]
    done = [s.key for s in mine if s.key in state.activated]
    left = [s.key for s in mine if s.key not in state.activated]
    if len(done) < limit or not left:
        return state, []
    state = replace(state, activated=(*state.activated, *left))
    return state, [SpecialRule(rule="Ecnomus, Transport Option 2", special="transport_command_limit",
                               text=f"{limit} Command Squadrons have activated: {', '.join(left)} may not this turn")]


@hook("value", "transport_vp")
def transport_value(state: GameState, params: Params, galley: Galley) -> int | None:
    if galley.id.type is GalleyType.TRANSPORT and state.side_of(galley.id.colour) == params["side"]:
        return int(params["vp"])
    return None


@hook("move", "transport_vp")
def exit_south(state: GameState, params: Params, before: Galley, plan: Any, moved: Galley) -> None:
    """Ecnomus, Victory: "Roman transports that exit the map (they must exit to the south)"."""
    if before.id.type is not GalleyType.TRANSPORT or state.side_of(before.id.colour) != params["side"]:
        return
    if moved.removed is not Removal.EXITED:
        return
    around = surroundings(state.board, state.galleys, before, state.wind, state.turn, state.charts)
    edge = next((e for leg in check_plan(around, before, plan) if (e := edge_beyond(state, leg.position))), "")
    wanted = params.get("exit_edge", "xx28")
    if edge != wanted:
        raise IllegalOrder("Ecnomus, Victory", f"{before.id}: the transports must exit to the south ({wanted} edge), not off the {edge or 'map'} edge")


@hook("after", "transport_vp")
def transport_exits(state: GameState, params: Params, keys: tuple[str, ...], before: GameState,
                    events: list[Event]) -> tuple[GameState, list[Event]]:
    if not new_exits(state, before):
        return state, []
    side, scorer, edge = params["side"], params["scorer"], params.get("exit_edge", "xx28")
    boats = [g for g, e in state.extra.exits if e == edge and g.type is GalleyType.TRANSPORT
             and state.side_of(g.colour) == side]
    escorts = [g for g, e in state.extra.exits if e == edge and state.side_of(g.colour) == scorer]
    per = int(params.get("transports_per_exit", 2))
    counted = min(len(escorts), len(boats) // per) * per
    held = {a.galley for a in state.awards if a.kind == "exit" and a.side == scorer}
    out: list[Event] = []
    for boat in boats[:counted]:
        if boat not in held:
            vp = int(params["vp"])
            state = replace(state, awards=(*state.awards, Award(boat, scorer, "exit", vp)))
            out.append(SpecialRule(rule="Ecnomus, Victory", special="transport_vp",
                                   text=f"{boat} exited, paired with a Carthaginian exit: {vp} VP to {scorer}"))
    return state, out
