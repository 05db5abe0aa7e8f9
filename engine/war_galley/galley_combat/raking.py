"""Raking Oars (7.2): shearing off a target's oars in passing; the Rake Table and 7.27's DRM.

The pass (7.21), judged on the raking galley's bow:
- a double-sized target: the bow moves into the target's midship flank hex
  directly from the bow/flank or stern/flank hex on the same side;
- a single-hex target: the bow moves from one flank hex (bow/flank or
  stern/flank) into the adjacent flank hex on the same side;
- a Pass-Through (7.24, `engine.war_galley.galley_combat.diekplus`).
The move must be forward motion (a Bow or Bow/Flank move): backwatering
alongside is not the "passing alongside most of the length" of 7.21's play
note. Each such move allows one Rake attempt (7.23); it costs no MP and the
galley keeps moving, using all its announced MP.

7.22 and 6.23: Crippled, Fatigued, Half Speed and sailing galleys may not
rake; 6.36: aground galleys may not be raked. A successful Rake Cripples the
target on the side raked (the marker's arrow), removes its Half Speed and
Fatigue markers (7.28) and flips it to Cruise (6.12).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from msgspec.structs import replace

from engine.dice import Dice
from engine.events import DieRolled, Event
from engine.war_galley.galley_combat.combat_record import CombatRecord
from engine.war_galley.galley_combat.ramming import (
    MarkerPlaced,
    immobile,
    target_mobile_and_slowed,
    target_refusal,
    to_cruise,
)
from engine.war_galley.map_and_galleys import charts as tables
from engine.war_galley.map_and_galleys.charts import Charts
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.map_and_galleys.position import SIDES, Around, Position, Side
from engine.war_galley.movement.moving import MarkerRemoved, Refused

Battlefield = Mapping[GalleyId, Galley]


class RakeResolved(Event, frozen=True, kw_only=True):
    """A Rake attempt (7.26); `crippled` if it sheared the oars on `side`."""

    raker: GalleyId
    target: GalleyId
    side: Side
    crippled: bool


class RakeMissed(Event, frozen=True, kw_only=True):
    """No Rake after all: the target avoided (6.5) out of reach, or `reason` says what changed."""

    raker: GalleyId
    target: GalleyId
    reason: str = ""


class RakeResolution(NamedTuple):
    galleys: dict[GalleyId, Galley]
    events: list[Event]
    crippled: bool
    record: CombatRecord


def rake_pass(before: Position, after: Position, target: Position) -> Side | None:
    """The target's side raked when a bow moves from `before.bow` to `after.bow` (7.21), or None."""
    for side in SIDES:
        bow_flank = target.around(Around.BOW_FLANK, side)
        stern_flank = target.around(Around.STERN_FLANK, side)
        if target.double:
            if after.bow == target.around(Around.FLANK, side) and before.bow in (bow_flank, stern_flank):
                return side
        elif {before.bow, after.bow} == {bow_flank, stern_flank}:
            return side
    return None


def raker_refusal(raker: Galley, *, sails_up: bool | None = None) -> Refused | None:
    """Why `raker` may not attempt a Rake (7.22, 6.23), or None."""
    if raker.position is None:
        return Refused("9.1", f"{raker.id} is not on the map")
    for barred, why in ((bool(raker.crippled), "Crippled"), (raker.fatigue > 0, "Fatigued"),
                        (raker.half_speed, "at Half Speed")):
        if barred:
            return Refused("7.22", f"{raker.id} is {why} and may not attempt a Rake")
    if raker.sails_up if sails_up is None else sails_up:
        return Refused("6.23", f"{raker.id} is under sail and may not Rake")
    stuck = immobile(raker)
    if stuck is not None:
        return Refused("6.37", f"{raker.id} {stuck} and may not Rake")
    return None


def rake_refusal(raker: Galley, target: Galley, *, sails_up: bool | None = None) -> Refused | None:
    return raker_refusal(raker, sails_up=sails_up) or target_refusal(raker, target, "raked")


def printed_speed(galley: Galley) -> int:
    """7.27: the printed Speed of the side the galley is using, whatever it moved."""
    return galley.ratings.side(galley.speed).speed


def rake_modifiers(
    charts: Charts, raker: Galley, target: Galley, *, drew_reaction_ram: bool = False
) -> tuple[tuple[str, int], ...]:
    """7.27's DRM (and 6.7's), with reasons; zeros left out."""
    m = charts.rake.modifiers
    mine, theirs = printed_speed(raker), printed_speed(target)
    found: list[tuple[str, int]] = []
    if mine > theirs:
        found.append((f"7.27 faster: Speed {mine} against {theirs}", m.faster))
    if theirs > mine:
        found.append((f"7.27 slower: Speed {mine} against {theirs}", m.slower))
    if target.crippled or target.grappled_with or target.fouled_with:
        found.append(("7.27 target Crippled, Grappled or Fouled", m.target_crippled_grappled_fouled))
    if target_mobile_and_slowed(target):
        found.append(("7.27 target mobile and at Half Speed or Fatigued", m.target_half_speed_or_fatigued))
    if drew_reaction_ram:
        found.append(("6.7 drew a Defensive Reaction Ram this phase",
                      charts.ramming.modifiers.after_defensive_reaction_ram))
    return tuple((why, value) for why, value in found if value)


def resolve_rake(
    galleys: Battlefield,
    raker_id: GalleyId,
    target_id: GalleyId,
    side: Side,
    charts: Charts,
    dice: Dice,
    record: CombatRecord = CombatRecord(),
    *,
    sails_up: bool | None = None,
) -> RakeResolution:
    """Roll a Rake on `target`'s `side` (7.26) and apply 7.28; IllegalOrder before the die if barred.

    The pass itself (7.21) is the caller's to check (`rake_pass`, `engine.war_galley.galley_combat.diekplus`).
    """
    field = dict(galleys)
    raker, target = field[raker_id], field[target_id]
    refusal = rake_refusal(raker, target, sails_up=sails_up)
    if refusal is not None:
        raise refusal.error()
    modifiers = rake_modifiers(charts, raker, target, drew_reaction_ram=raker_id in record.drew_reaction_ram)
    natural = dice.two_d6(f"7.26 {raker_id} rakes {target_id}")
    adjusted = natural + sum(value for _, value in modifiers)
    needed = tables.rake_range(charts, raker.crew, target.crew)
    success = tables.rake_succeeds(charts, raker.crew, target.crew, adjusted)
    record = record.with_rake(raker_id)
    events: list[Event] = [
        DieRolled(rule="7.26", table="Rake Table", natural=natural, modifiers=modifiers,
                  outcome=f"needs {needed}: " + ("Crippled" if success else "no effect"))
    ]
    if success:
        events.append(MarkerPlaced(rule="7.28", galley=target_id, marker=f"Crippled ({side.value})"))
        if target.half_speed:
            events.append(MarkerRemoved(rule="7.28", galley=target_id, marker="Half Speed"))
        if target.fatigue:
            events.append(MarkerRemoved(rule="7.28", galley=target_id, marker=f"Fatigued F-{target.fatigue}"))
        target = replace(target, crippled=target.crippled | {side}, half_speed=False, fatigue=0)
        field[target_id] = to_cruise(target, events, "6.12")
    events.append(RakeResolved(rule="7.28" if success else "7.26", raker=raker_id, target=target_id,
                               side=side, crippled=success))
    return RakeResolution(field, events, success, record)
