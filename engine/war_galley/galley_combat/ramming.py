"""Ramming (7.1): who may ram whom, the Ramming Table with the DRM of 7.15, the results of 7.16.

Eligibility (`ram_refusal`) is three questions:

- the rammer (7.11, 7.13, 7.12): Ram Attack above 0, one attempt per turn,
  not Crippled, Fatigued or at Half Speed, not immobile (a Rammed, Fouled,
  Grappled or aground galley may not move, 6.37, so it may not ram either),
  no facing change without moving at any time that turn;
- the target: an enemy galley on the map, not aground (6.36);
- the geometry (7.12): the rammer's bow hex is a hex of the target, and the
  rammer's bow lies in one of the target's flank hexes (bow/flank, midship
  flank or stern/flank), never its bow or stern hex.

`resolve_ram` rolls and applies 7.16. Every result stops the rammer; the
caller ends its movement (and with it the announced-MP obligation, 6.13).
"Missed" (the target avoided, 7.16) is not a roll: the target is no longer
where the ram needs it, and the caller lets the rammer move on.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple

from msgspec.structs import replace

from engine.dice import Dice
from engine.events import DieRolled, Event
from engine.war_galley.galley_combat.combat_record import CombatOptions, CombatRecord
from engine.war_galley.map_and_galleys import charts as tables
from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.charts import Charts, RamOutcome
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.map_and_galleys.hexes import Hex, neighbour
from engine.war_galley.map_and_galleys.occupancy import exact_view
from engine.war_galley.map_and_galleys.position import Around, Position, Side
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.moving import Leg, Mover, Refused, advance, surroundings
from engine.war_galley.movement.speed import Wind, excess_over_cruise, sail_bonus
from engine.war_galley.movement.steps import Retreat

__all__ = ["Retreat"]  # defined with the steps (engine.war_galley.movement.steps), re-exported here

Battlefield = Mapping[GalleyId, Galley]

# A hook rolled "as part of a Ram Attempt ... but before resolving the Ram" (8.53): given the
# battlefield, rammer and target, it returns the battlefield and its events. The manpower
# rules decide inside it whether the rammer carries firepots and wants to use them.
FirepotsHook = Callable[[Battlefield, GalleyId, GalleyId, Dice], tuple[Battlefield, list[Event]]]


class RamResult(enum.Enum):
    COLLIDED = "collided"  # "No/C"
    RETRACTED = "retracted"  # rammed, the rammer got free
    FOULED = "fouled"  # rammed, the rammer stuck fast


class RamResolved(Event, frozen=True, kw_only=True):
    """A Ram attempt's result (7.16); `reaction`: a Defensive Reaction Ram (6.7)."""

    rammer: GalleyId
    target: GalleyId
    result: RamResult
    reaction: bool = False


class RamMissed(Event, frozen=True, kw_only=True):
    """7.16 Missed: the target used Avoidance and is out of the ram's way; the rammer moves on."""

    rammer: GalleyId
    target: GalleyId


class MarkerPlaced(Event, frozen=True, kw_only=True):
    """A marker put on a galley, or a counter flipped: "Rammed", "Half Speed", "Cruise Speed"..."""

    galley: GalleyId
    marker: str


class Retracted(Event, frozen=True, kw_only=True):
    """7.16: the rammer is free of its victim; `backwatered` if it could back off one hex."""

    galley: GalleyId
    position: Position
    backwatered: bool


def id_key(galley_id: GalleyId) -> tuple[str, str, int]:
    """A total order of galley ids (colour, type, number), so every scan is replayable."""
    return (galley_id.colour.value, galley_id.type.value, galley_id.number)


def by_id(galleys: Iterable[Galley]) -> list[Galley]:
    return sorted(galleys, key=lambda g: id_key(g.id))


def enemies_near(battlefield: Battlefield, mover: Galley) -> list[Galley]:
    """The enemy galleys on the map with a hex next to one of `mover`'s, by id: every galley that can be
    `adjacent` to it (touching) and perhaps a few that overlap it (being passed through, 7.24).

    Only these can avoid it (6.51), ram it in reaction (6.7: the reacting galley's bow is next to the
    Bow hex the mover entered) or fire back at it (8.42), so the reactions look no further: sorting every
    galley on the map after every step was once most of a replay's time. They are found from the hexes
    around the mover in the battlefield's index of who fills each hex (map_and_galleys.occupancy, the one
    movement uses), kept while the other galleys stay the same (a galley's steps move only itself).
    """
    position = mover.position
    if position is None:
        return []
    galleys = tuple(battlefield.values())
    side = mover.controller
    view = exact_view(galleys, mover)
    if view is None:  # two counters share a hex (passing through, 7.24): the index would hide one
        near = position.near
        found = [other for other in galleys
                 if other.id != mover.id and other.position is not None
                 and not near.isdisjoint(other.position.hexes) and other.controller is not side]
    else:
        occupied, _ = view
        found = [battlefield[gid] for gid in dict.fromkeys(map(occupied.get, position.near)) if gid is not None]
        found = [other for other in found if other.controller is not side]
    return by_id(found) if len(found) > 1 else found


# --- who may ram ---------------------------------------------------------------


def immobile(galley: Galley) -> str | None:
    """Why a galley may not move at all (6.37, 7.28), or None."""
    if galley.rammed:
        return "is Rammed"
    if galley.fouled_with:
        return "is Fouled"
    if galley.grappled_with:
        return "is Grappled"
    if galley.aground is not None:
        return "has Run Aground"
    if len(galley.crippled) == 2:
        return "is Crippled on both sides"
    return None


def towers_count(galley: Galley) -> bool:
    """A galley's Towers in play: printed, and not jettisoned (8.48)."""
    return galley.ratings.towers and not galley.towers_jettisoned


def rammer_refusal(charts: Charts, rammer: Galley, record: CombatRecord, *, faced: bool = False) -> Refused | None:
    """Why `rammer` may not attempt a Ram now (7.11-7.13); `faced`: it changed facing in place this move."""
    if rammer.position is None:
        return Refused("9.1", f"{rammer.id} is not on the map")
    attack = rammer.ratings.side(rammer.speed).ram_attack
    if attack < charts.ramming.min_attack:
        return Refused("7.11", f"{rammer.id} has a Ram Attack of {attack} and may not attempt to Ram")
    if rammer.id in record.ram_attempts:
        return Refused("7.11", f"{rammer.id} has already made its one Ram attempt this turn")
    for barred, why in ((bool(rammer.crippled), "Crippled"), (rammer.fatigue > 0, "Fatigued"),
                        (rammer.half_speed, "at Half Speed")):
        if barred:
            return Refused("7.13", f"{rammer.id} is {why} and may not attempt to Ram")
    stuck = immobile(rammer)
    if stuck is not None:
        return Refused("6.37", f"{rammer.id} {stuck}: it may not move, so it may not Ram")
    if faced or rammer.id in record.faced:
        return Refused("7.12", f"{rammer.id} changed facing without moving this turn and may not Ram")
    return None


def target_refusal(rammer: Galley, target: Galley, what: str = "rammed") -> Refused | None:
    """Why `target` may not be rammed (or raked) by `rammer`: friendly, off the map, aground (6.36)."""
    if target.controller is rammer.controller:
        return Refused("7.1", f"{target.id} is a friendly galley")
    if target.position is None:
        return Refused("9.1", f"{target.id} is not on the map")
    if target.aground is not None:
        return Refused("6.36", f"{target.id} has Run Aground and may not be {what}")
    return None


def flank_hexes(target: Position) -> dict[Hex, Side]:
    """The target's flank hexes (bow/flank, midship flank, stern/flank) with their side."""
    flanks = (Around.BOW_FLANK, Around.FLANK, Around.STERN_FLANK)
    return {h: side for where, side, h in target.surrounding() if where in flanks and side is not None}


def ram_geometry(rammer: Position, target: Position) -> Refused | None:
    """7.12: the rammer's bow points at the target from one of its flank hexes."""
    if neighbour(rammer.bow, rammer.facing) not in target.hexes:
        return Refused("7.12", "the rammer's bow does not point directly at the target")
    if rammer.bow not in flank_hexes(target):
        return Refused("7.12", "a galley rams only from a flank hex of its target, never its bow or stern hex")
    return None


def ram_refusal(
    charts: Charts, rammer: Galley, target: Galley, record: CombatRecord, *, faced: bool = False
) -> Refused | None:
    """Why `rammer` may not ram `target` now, or None (7.11-7.13, 6.36, 6.37)."""
    refusal = rammer_refusal(charts, rammer, record, faced=faced) or target_refusal(rammer, target)
    if refusal is not None:
        return refusal
    assert rammer.position is not None and target.position is not None
    return ram_geometry(rammer.position, target.position)


# --- the roll -------------------------------------------------------------------


def target_mobile_and_slowed(target: Galley) -> bool:
    """7.15/7.27: "mobile and at Half-Speed and/or Fatigued"."""
    return immobile(target) is None and (target.half_speed or target.fatigue > 0)


def ram_mp_used(rammer: Galley, spent: int, wind: Wind | None, sails_up: bool) -> int:
    """7.15's "Movement Points actually used (that phase)" for a galley that has spent `spent` MP.

    The wind's MP (6.22's +1, 6.25's +2) are no head of steam: 6.23 has a galley
    under sail ram "at considerably reduced capability (lower speeds ...)", so
    they are not counted (docs/rules-notes.md, issue 11). The wind is judged as
    the galley started its move (6.22: "starts its turn with the wind").
    """
    if rammer.position is None:
        return spent
    wind_mp = sail_bonus(rammer, rammer.speed, wind, sails_up, rammer.position.facing)
    return max(0, spent - wind_mp)


def ram_modifiers(
    charts: Charts,
    rammer: Galley,
    target: Galley,
    *,
    mp_used: int = 0,
    turns: int = 0,
    failed_anastrophe_rake: bool = False,
    drew_reaction_ram: bool = False,
) -> tuple[tuple[str, int], ...]:
    """Every DRM of 7.15 that applies (and 6.7's), each with its reason; zeros left out.

    `mp_used`: MP the rammer has spent this phase; their excess over its printed
    Cruise Speed counts only if it entered at most one Bow/Flank hex (`turns`).
    """
    m = charts.ramming.modifiers
    found: list[tuple[str, int]] = []
    excess = excess_over_cruise(rammer.ratings, mp_used)
    if excess and turns <= m.mp_bonus_max_bow_flank_turns:
        found.append((f"7.15 {excess} MP over Cruise Speed", excess * m.per_mp_over_cruise))
    if target.crippled or target.fouled_with or target.grappled_with:
        found.append(("7.15 target Crippled, Fouled or Grappled", m.target_crippled_fouled_grappled))
    if target_mobile_and_slowed(target):
        found.append(("7.15 target mobile and at Half Speed or Fatigued", m.target_half_speed_or_fatigued))
    if rammer.crew > target.crew:
        found.append(("7.15 rammer's Crew is better", m.better_crew))
    if target.speed is SpeedSide.MAXIMUM:
        found.append(("7.15 target at Maximum Speed", m.target_at_maximum))
    if target.crew > rammer.crew:
        found.append(("7.15 target's Crew is better", m.target_better_crew))
    if towers_count(rammer):
        found.append(("7.15 rammer has Towers", m.rammer_towers))
    if failed_anastrophe_rake:
        found.append(("7.35 Anastrophe after a failed Rake", m.anastrophe_failed_rake))
    if drew_reaction_ram:
        found.append(("6.7 drew a Defensive Reaction Ram this phase", m.after_defensive_reaction_ram))
    return tuple((why, value) for why, value in found if value)


# --- the results ------------------------------------------------------------------


def to_cruise(galley: Galley, events: list[Event], rule: str) -> Galley:
    """6.12: flip a galley at Maximum Speed to its Cruise side."""
    if galley.speed is SpeedSide.CRUISE:
        return galley
    events.append(MarkerPlaced(rule=rule, galley=galley.id, marker="Cruise Speed"))
    return replace(galley, speed=SpeedSide.CRUISE)


def masts_down(galley: Galley, events: list[Event]) -> Galley:
    """6.24: a galley under sail that has Collided gets Mast Down."""
    if not galley.sails_up:
        return galley
    events.append(MarkerPlaced(rule="6.24", galley=galley.id, marker="Mast Down"))
    return replace(galley, sails_up=False, mast_down=True, masts_lost=True)


def backwater_one(board: Board, battlefield: Battlefield, galley: Galley, retreat: Retreat, charts: Charts,
                  options: CombatOptions = CombatOptions()) -> Position | None:
    """Where `galley` ends backwatering one hex `retreat`-wards, or None if that hex is not free sea."""
    step = retreat.step()
    if step is None or galley.position is None:
        return None
    cruising = replace(galley, speed=SpeedSide.CRUISE, crippled=frozenset())
    around = surroundings(board, battlefield.values(), galley, options.wind, options.turn, charts)
    leg = Leg(galley.position, galley.sails_up, budget=charts.fixed.movement.backwater, started=True)  # not paid for
    after = advance(Mover(around, cruising), leg, step)
    if isinstance(after, Refused) or after.ended is not None:
        return None  # occupied, land or off the map: "if such hex is available"
    return after.position


class RamResolution(NamedTuple):
    """What `resolve_ram` returns: the battlefield after it, its events, the result, the record."""

    galleys: dict[GalleyId, Galley]
    events: list[Event]
    result: RamResult
    record: CombatRecord


def resolve_ram(
    board: Board,
    galleys: Battlefield,
    rammer_id: GalleyId,
    target_id: GalleyId,
    charts: Charts,
    dice: Dice,
    record: CombatRecord = CombatRecord(),
    *,
    mp_used: int = 0,
    turns: int = 0,
    faced: bool = False,
    failed_anastrophe_rake: bool = False,
    retreat: Retreat = Retreat.STERN,
    reaction: bool = False,
    firepots: FirepotsHook | None = None,
    options: CombatOptions = CombatOptions(),
    check: bool = True,
) -> RamResolution:
    """Roll a Ram attempt and apply 7.16; IllegalOrder (before any die) if it may not be made.

    `reaction`: a Defensive Reaction Ram (6.7): on a Collision only the
    non-moving rammer takes the Collision result. `check=False` skips the
    eligibility check (an Anastrophe's placement overrides 7.12's facing rule).
    """
    field = dict(galleys)
    rammer, target = field[rammer_id], field[target_id]
    if check:
        refusal = ram_refusal(charts, rammer, target, record, faced=faced)
        if refusal is not None:
            raise refusal.error()
    events: list[Event] = []
    if firepots is not None:
        fired, fire_events = firepots(field, rammer_id, target_id, dice)
        field, events = dict(fired), list(fire_events)
        rammer, target = field[rammer_id], field[target_id]
    attack = rammer.ratings.side(rammer.speed).ram_attack
    defense = target.ratings.side(target.speed).ram_defense
    modifiers = ram_modifiers(
        charts, rammer, target, mp_used=mp_used, turns=turns,
        failed_anastrophe_rake=failed_anastrophe_rake, drew_reaction_ram=rammer_id in record.drew_reaction_ram,
    )
    natural = dice.two_d6(f"7.14 {rammer_id} rams {target_id}")
    adjusted = natural + sum(value for _, value in modifiers)
    needed = tables.ram_range(charts, attack, defense)
    success = tables.ram_succeeds(charts, attack, defense, adjusted)
    record = record.with_ram(rammer_id)
    rule = "6.7" if reaction else "7.16"
    events.append(DieRolled(rule="7.14", table="Ramming Table", natural=natural, modifiers=modifiers,
                            outcome=f"needs {needed}: " + ("Rammed" if success else "No/C (Collision)")))
    if not success:
        # 6.7: after a failed reaction ram only the non-moving galley takes the Collision result.
        rammer = masts_down(to_cruise(rammer, events, "7.16"), events)
        events.append(MarkerPlaced(rule="7.16", galley=rammer_id, marker="Half Speed"))
        rammer = replace(rammer, half_speed=True, collided_with=rammer.collided_with | {target_id})
        if not reaction:
            target = masts_down(to_cruise(target, events, "7.16"), events)
        field[rammer_id], field[target_id] = rammer, target
        events.append(RamResolved(rule=rule, rammer=rammer_id, target=target_id, result=RamResult.COLLIDED,
                                  reaction=reaction))
        return RamResolution(field, events, RamResult.COLLIDED, record)
    events.append(MarkerPlaced(rule="7.16", galley=target_id, marker="Rammed"))
    target = to_cruise(replace(target, rammed=True), events, "6.12")
    outcome = tables.retraction(charts, natural, rammer.crew)
    events.append(DieRolled(rule="7.16", table="Retraction", natural=natural,
                            modifiers=(("7.16 rammer's Crew", -rammer.crew),),
                            outcome=f"Foul Range {charts.retraction.fouled}: {outcome.value}"))
    rammer = to_cruise(rammer, events, "7.16")
    if outcome is RamOutcome.FOULED:
        events.append(MarkerPlaced(rule="7.16", galley=rammer_id, marker=f"Fouled with {target_id}"))
        rammer = replace(rammer, fouled_with=rammer.fouled_with | {target_id})
        target = replace(target, fouled_with=target.fouled_with | {rammer_id})
        field[rammer_id], field[target_id] = rammer, target
        result = RamResult.FOULED
    else:
        field[rammer_id], field[target_id] = rammer, target
        moved_to = backwater_one(board, field, rammer, retreat, charts, options)
        if moved_to is not None:
            rammer = replace(rammer, position=moved_to)
            field[rammer_id] = rammer
        assert rammer.position is not None
        events.append(Retracted(rule="7.16", galley=rammer_id, position=rammer.position,
                                backwatered=moved_to is not None))
        result = RamResult.RETRACTED
    events.append(RamResolved(rule=rule, rammer=rammer_id, target=target_id, result=result, reaction=reaction))
    return RamResolution(field, events, result, record)
