"""Fire (8.5): Flame Missiles' F roll, Firepots, On Fire and the Firefight in G/2.

- The F roll (8.51): after a D/F from Flame Missiles, 1d6 in the charts'
  range (4-6) sets the target On Fire; a scenario may narrow it (Tauris'
  wet weather: 5-6, `Devices.flame_ignites`). Missile Fire is engine.war_galley.manpower_combat.missiles.
- Firepots (8.53): a firepot-armed galley about to Ram may roll first,
  before the Ram is resolved; 5-6 sets the target On Fire
  (`drop_firepots`, for engine.war_galley.galley_combat.ramming).
- The Firefight (8.54): in G/2 each galley that was On Fire when the
  segment began rolls on the Firefight Table (with the scenario's DRM,
  Tauris -1). The rolls are simultaneous; then fires go out, galleys burn
  out and sink, and spreading fires set every galley Grappled or Fouled
  with them On Fire. Those catch fire now and first roll in the next G/2
  (8.54 play note): the caller needs no bookkeeping, as only galleys On
  Fire before this call roll.

Reading (docs/manpower-notes.md): a galley that sinks by fire leaves the
map (`Removal.SUNK`) and its grapples and Fouls are cut; 7.17's "so do any
galleys Grappled or fouled with it" belongs to the Rammed roll in G/4, and
the `SankByFire` event names the partners should the sinking rule want
them. The VP (9.1) are the victory rules': `SankByFire` says whose it was.
"""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import DieRolled, Event
from engine.war_galley.manpower_combat.battlefield import Field, Resolution, by_id, enemies, resolved
from engine.war_galley.manpower_combat.devices import firepot_armed, ignition_range
from engine.war_galley.map_and_galleys.charts import FireOutcome, RollRange, d6_in_range, firefight_result
from engine.war_galley.map_and_galleys.galley import Colour, Galley, GalleyId, Removal


class SetOnFire(Event, frozen=True, kw_only=True):
    """8.54: the ship is On Fire. `cause`: flame missiles, firepots or spread."""

    galley: GalleyId
    cause: str


class FireOut(Event, frozen=True, kw_only=True):
    galley: GalleyId


class SankByFire(Event, frozen=True, kw_only=True):
    """8.54, 9.1: burnt out and sunk. `controller` held it; the other side may count the VP."""

    galley: GalleyId
    controller: Colour
    partners: frozenset[GalleyId]  # Grappled or Fouled with it when it sank


def flame_range(field: Field) -> RollRange:
    """The F roll's range: the charts' (8.51), narrowed by the scenario's weather."""
    return ignition_range(field.devices, field.charts.fixed.flame.ignites)


def firepot_range(field: Field) -> RollRange:
    return ignition_range(field.devices, field.charts.fixed.firepots.ignites)


def ignite(galley: Galley, cause: str, rule: str = "8.54") -> tuple[Galley, list[Event]]:
    """Set a galley On Fire (nothing new if it already burns)."""
    if galley.on_fire:
        return galley, []
    return replace(galley, on_fire=True), [SetOnFire(rule=rule, galley=galley.id, cause=cause)]


def roll_flame(field: Field, target: Galley, dice: Dice) -> tuple[bool, DieRolled]:
    """8.51: the second roll after a D/F with Flame Missiles."""
    needed = flame_range(field)
    roll = dice.d6(f"8.51 fire roll on {target.id}")
    success = d6_in_range(field.charts, roll, needed)
    return success, DieRolled(rule="8.51", table=f"Flame: {needed} sets On Fire", natural=roll,
                              outcome="On Fire" if success else "no effect")


def drop_firepots(field: Field, rammer_id: GalleyId, target_id: GalleyId, dice: Dice) -> Resolution:
    """8.53: the firepot roll of a galley attempting to Ram, made before the Ram is resolved.

    For engine.war_galley.galley_combat.ramming: call it when the player chooses firepots with a ram
    attempt, then resolve the ram on the returned galleys.
    """
    rammer = field.galley(rammer_id, "8.53")
    target = field.galley(target_id, "8.53")
    if not firepot_armed(field.devices, rammer):
        raise IllegalOrder("8.53", f"{rammer_id} is not Firepot-armed in this battle")
    if not enemies(rammer, target):
        raise IllegalOrder("8.53", f"{target_id} is not an enemy ship")
    needed = firepot_range(field)
    roll = dice.d6(f"8.53 firepots {rammer_id} -> {target_id}")
    success = d6_in_range(field.charts, roll, needed)
    events: list[Event] = [DieRolled(rule="8.53", table=f"Firepots: {needed} sets On Fire", natural=roll,
                                     outcome="On Fire" if success else "no effect")]
    if not success:
        return resolved(field, [], events)
    target, lit = ignite(target, "firepots", "8.53")
    return resolved(field, [target], events + lit)


def _partners(galley: Galley) -> frozenset[GalleyId]:
    return galley.grappled_with | galley.fouled_with


def _cut_loose(galleys: dict[GalleyId, Galley], sunk: Galley) -> None:
    for partner_id in _partners(sunk):
        partner = galleys[partner_id]
        galleys[partner_id] = replace(
            partner,
            grappled_with=partner.grappled_with - {sunk.id},
            fouled_with=partner.fouled_with - {sunk.id},
        )


def firefight(field: Field, dice: Dice, *, galleys: Iterable[GalleyId] | None = None) -> Resolution:
    """G/2 (8.54): every galley On Fire now (or those of `galleys`) rolls, in id order."""
    chosen = None if galleys is None else set(galleys)
    rolling = sorted(
        (g.id for g in field.galleys.values()
         if g.on_fire and g.position is not None and (chosen is None or g.id in chosen)),
        key=by_id,
    )
    drm = (("scenario", field.devices.firefight_drm),) if field.devices.firefight_drm else ()
    events: list[Event] = []
    results = {}
    for galley_id in rolling:
        natural = dice.d6(f"8.54 firefight {galley_id}")
        result = firefight_result(field.charts, natural + sum(v for _, v in drm))
        results[galley_id] = result
        spread = ", spreads" if result.spreads else ""
        events.append(DieRolled(rule="8.54", table=field.charts.firefight.name, natural=natural,
                                modifiers=drm, outcome=f"{result.fire.value}{spread}"))
    # Spread first, while the burning galley still holds its partners. A
    # partner catches fire unless it burns on itself; one that put its own
    # fire out this segment catches it again.
    caught: set[GalleyId] = set()
    for galley_id in rolling:
        if not results[galley_id].spreads:
            continue
        for partner_id in sorted(_partners(field.galleys[galley_id]), key=by_id):
            partner = field.galleys[partner_id]
            own = results.get(partner_id)
            burns_on = partner.on_fire and (own is None or own.fire is not FireOutcome.OUT)
            if partner.position is None or burns_on or partner_id in caught:
                continue
            caught.add(partner_id)
            events.append(SetOnFire(rule="8.54", galley=partner_id, cause=f"spread from {galley_id}"))
    updated = dict(field.galleys)
    for galley_id in sorted(caught, key=by_id):
        updated[galley_id] = replace(updated[galley_id], on_fire=True)
    for galley_id in rolling:
        outcome = results[galley_id].fire
        galley = updated[galley_id]
        if outcome is FireOutcome.OUT and galley_id not in caught:
            updated[galley_id] = replace(galley, on_fire=False)
            events.append(FireOut(rule="8.54", galley=galley_id))
        elif outcome is FireOutcome.SUNK:
            events.append(SankByFire(rule="8.54", galley=galley_id, controller=galley.controller,
                                     partners=_partners(galley)))
            _cut_loose(updated, galley)
            updated[galley_id] = replace(updated[galley_id], position=None, removed=Removal.SUNK, on_fire=False,
                                         grappled_with=frozenset(), fouled_with=frozenset())
    return Resolution(updated, events)

