"""Missile Fire (8.4), Flame Missiles included (8.51-8.52).

When (8.42): the active galley once in its own Movement Segment, during or
after moving (`FireTiming.MOVING` / `AFTER_MOVEMENT`); an inactive galley once
per phase as Reaction Fire (`REACTION`) during the enemy's Movement Segment
(the Squadron Phase of 5.41: each enemy activation may be answered anew),
only at a galley that fired at it or at an adjacent enemy galley attempting
to Grapple, Ram or Rake. Reaction Fire answering fire is simultaneous with
it: pass both volleys to one `resolve_fire` call and neither sees the other's
Depletions (8.42, 8.63).

Where (8.41, 8.46, 8.52): adjacent, or two hexes with a clear hex between
(no ship in it); regular missiles only through the firer's flank hexsides,
Flame Missiles through any hexside but at one hex only.

How much (8.43): a galley fires with all its Manpower (an M0 galley still
fires, on the "0" column, 8.64). After movement it may split its M among
several targets, no part below M1, so an M1 galley never splits.

The roll (8.44-8.45): 1d6 plus every DRM of 8.44, on the firing Manpower's
column: nothing, D, or D/F (the F only for Flame Missiles, then the F roll,
engine.war_galley.manpower_combat.fire). Actium's flame-throwers turn that side's D into D/F when it
fires flame. Depletions are applied after the whole call (8.63).

Reading (docs/manpower-notes.md): "galleys that are attempting to Grapple,
Ram, or Rake" need not be attempting it against the reacting galley itself;
adjacency is what 8.42 asks.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping, Sequence
from typing import NamedTuple

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import DieRolled, Event
from engine.war_galley.manpower_combat.battlefield import Field, Resolution, by_id, enemies
from engine.war_galley.manpower_combat.depletion import apply_depletions
from engine.war_galley.manpower_combat.devices import flame_capable
from engine.war_galley.manpower_combat.fire import ignite, roll_flame
from engine.war_galley.manpower_combat.manpower_orders import FireOrder
from engine.war_galley.manpower_combat.towers import height_drm
from engine.war_galley.map_and_galleys.charts import MissileResult, missile_column, missile_result
from engine.war_galley.map_and_galleys.contact import ALL_SIDES, FLANKS, adjacent, line_range
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId


class FireTiming(enum.Enum):
    MOVING = "moving"  # the active galley, during its movement
    AFTER_MOVEMENT = "after movement"  # the active galley, movement finished: may split (8.43)
    REACTION = "reaction"  # an inactive galley in the enemy's Movement Segment


class Provocation(enum.Enum):
    """What an enemy galley did that allows Reaction Fire at it (8.42)."""

    FIRED = "fired at it"
    GRAPPLE = "attempting to Grapple"
    RAM = "attempting to Ram"
    RAKE = "attempting to Rake"


class PlannedShot(NamedTuple):
    target: GalleyId
    manpower: int
    flame: bool
    distance: int
    modifiers: tuple[tuple[str, int], ...]


class Volley(NamedTuple):
    """A checked fire order: the firer, when, and each shot with its column, range and DRM."""

    galley: GalleyId
    timing: FireTiming
    shots: tuple[PlannedShot, ...]


class MissileHit(Event, frozen=True, kw_only=True):
    """8.45: a shot's result (`"-"`, `"D"` or `"D/F"`)."""

    galley: GalleyId
    target: GalleyId
    manpower: int
    flame: bool
    result: str


def missile_modifiers(field: Field, firer: Galley, target: Galley, distance: int) -> tuple[tuple[str, int], ...]:
    """Every DRM of 8.44 that applies."""
    table = field.charts.missile.modifiers
    drm: list[tuple[str, int]] = []
    if firer.ratings.engines:
        drm.append(("engines (E)", table.engines))
    height = height_drm(field.devices, firer, target, table.height_advantage, table.height_disadvantage)
    if height:
        drm.append(("Height Advantage" if height > 0 else "Height Disadvantage", height))
    if firer.sails_up:
        drm.append(("firer under Sail", table.under_sail))
    if firer.towers_jettisoned:
        drm.append(("Towers jettisoned", table.jettisoned_towers))
    if target.rammed or target.grappled_with or target.fouled_with or target.crippled:
        drm.append(("target Rammed, Grappled, Fouled or Crippled", table.target_rammed_grappled_fouled_crippled))
    if distance == 2:
        drm.append(("two hexes away", table.range_two_hexes))
    return tuple(drm)


def fire_range(field: Field, firer: Galley, target: Galley, flame: bool) -> int | None:
    """The range of a shot (1 or 2), or None if the target cannot be fired at (8.41, 8.46, 8.52)."""
    assert firer.position is not None and target.position is not None
    if flame:
        reach, sides = field.charts.fixed.flame.max_range, ALL_SIDES
    else:
        reach, sides = field.charts.missile.max_range, FLANKS
    # Ships only block a range-2 line (8.46): a shot that is no line, or at range 1, even through an
    # empty sea needs no look at where every galley lies.
    clear = line_range(firer.position, target.position, frozenset(), max_range=reach, my_sides=sides)
    if clear != 2:
        return clear
    return line_range(firer.position, target.position, field.occupied(), max_range=reach, my_sides=sides)


def _split(order: FireOrder, firer: Galley, timing: FireTiming) -> list[int]:
    """8.43: the Manpower of each shot."""
    have = firer.manpower
    if len(order.shots) == 1:
        wanted = order.shots[0].manpower
        if wanted is not None and wanted != have:
            raise IllegalOrder("8.44", f"{firer.id} fires with its whole Manpower, M{have}, not M{wanted}")
        return [have]
    if timing is not FireTiming.AFTER_MOVEMENT:
        raise IllegalOrder("8.43", "only a galley that has finished movement may split its fire")
    if len({s.target for s in order.shots}) != len(order.shots):
        raise IllegalOrder("8.43", "split fire names each target once")
    parts = []
    for shot in order.shots:
        if shot.manpower is None:
            raise IllegalOrder("8.43", "split fire gives each target its share of Manpower (e.g. M1)")
        if shot.manpower < 1:
            raise IllegalOrder("8.43", f"you cannot split so that a shot has M{shot.manpower}")
        parts.append(shot.manpower)
    if sum(parts) != have:
        raise IllegalOrder("8.43", f"{firer.id} divides its M{have} among the targets, not M{sum(parts)}")
    return parts


def check_fire(
    field: Field,
    order: FireOrder,
    timing: FireTiming,
    *,
    already_fired: bool = False,
    provoked_by: Mapping[GalleyId, Provocation] | None = None,
    rammed_by: Collection[GalleyId] = (),
) -> Volley:
    """The volley `order` fires; IllegalOrder naming the rule that forbids it.

    `already_fired`: the galley has used this fire already (its movement
    segment's, or this Squadron Phase's Reaction Fire, 8.42). `provoked_by`: for
    Reaction Fire, the enemy galleys that fired at it or are attempting to
    Grapple, Ram or Rake. `rammed_by`: for a Rammed firer, every galley that rammed it (7.16).
    """
    firer = field.galley(order.galley, "8.41")
    if already_fired:
        raise IllegalOrder("8.42", f"{firer.id} has already used its Missile Fire for this "
                           + ("Squadron Phase" if timing is FireTiming.REACTION else "Movement Segment"))
    if not order.shots:
        raise IllegalOrder("8.41", "a fire order names a target")
    if timing is FireTiming.REACTION and len(order.shots) > 1:
        raise IllegalOrder("8.43", "Reaction Fire is at one galley; only an active galley splits its fire")
    parts = _split(order, firer, timing)
    planned = []
    for shot, manpower in zip(order.shots, parts):
        target = field.galley(shot.target, "8.41")
        if not enemies(firer, target):
            raise IllegalOrder("8.41", f"{target.id} is not an enemy ship")
        if firer.rammed and target.id not in rammed_by:
            raise IllegalOrder("7.16", f"{firer.id} is Rammed: it may fire only at a galley that rammed it, "
                               f"not {target.id}")
        if timing is FireTiming.REACTION:
            _check_reaction(firer, target, (provoked_by or {}).get(target.id))
        if shot.flame:
            _check_flame(field, firer)
        distance = fire_range(field, firer, target, shot.flame)
        if distance is None:
            if shot.flame:
                raise IllegalOrder("8.52", f"Flame Missiles reach one hex only: {target.id} is not adjacent")
            raise IllegalOrder("8.41", f"{target.id} is not within two hexes through {firer.id}'s flank hexsides "
                               "with a clear hex between (8.46)")
        planned.append(PlannedShot(target.id, manpower, shot.flame, distance,
                                   missile_modifiers(field, firer, target, distance)))
    return Volley(firer.id, timing, tuple(planned))


def _check_reaction(firer: Galley, target: Galley, provocation: Provocation | None) -> None:
    if provocation is None:
        raise IllegalOrder("8.42", f"Reaction Fire only at a galley that fired at {firer.id} "
                           "or an adjacent one attempting to Grapple, Ram or Rake")
    if provocation is not Provocation.FIRED:
        assert firer.position is not None and target.position is not None
        if not adjacent(firer.position, target.position):
            raise IllegalOrder("8.42", f"{target.id} is {provocation.value} but is not adjacent to {firer.id}")


def _check_flame(field: Field, firer: Galley) -> None:
    if firer.towers_jettisoned and firer.id in field.devices.flame_galleys:
        raise IllegalOrder("8.48", f"{firer.id} has jettisoned its Towers and may not use Flame Missiles")
    if not flame_capable(field.devices, firer):
        raise IllegalOrder("8.51", f"{firer.id} has no Flame Missile capability in this battle")


def resolve_fire(field: Field, volleys: Sequence[Volley], dice: Dice) -> Resolution:
    """Roll every shot of the (simultaneous) volleys, then apply Depletions and Fire (8.45, 8.63)."""
    events: list[Event] = []
    depletions: dict[GalleyId, int] = {}
    burning: set[GalleyId] = set()
    for volley in volleys:
        firer = field.galleys[volley.galley]
        for shot in volley.shots:
            natural = dice.d6(f"8.44 missiles {volley.galley} -> {shot.target}")
            adjusted = natural + sum(v for _, v in shot.modifiers)
            result = missile_result(field.charts, shot.manpower, adjusted)
            column = missile_column(field.charts, shot.manpower)
            if shot.flame and result is MissileResult.D and field.devices.flame_throwers is firer.controller:
                result = MissileResult.DF  # Actium: flame-throwers
            events.append(DieRolled(rule="8.44", table=f"Missile Table, column {column}", natural=natural,
                                    modifiers=shot.modifiers, outcome=result.value))
            events.append(MissileHit(rule="8.45", galley=volley.galley, target=shot.target,
                                     manpower=shot.manpower, flame=shot.flame, result=result.value))
            if result.depletes:
                depletions[shot.target] = depletions.get(shot.target, 0) + 1
            target = field.galleys[shot.target]
            if result.fire_roll(shot.flame) and not target.on_fire and shot.target not in burning:
                lit, rolled = roll_flame(field, target, dice)
                events.append(rolled)
                if lit:
                    burning.add(shot.target)
    galleys, depleted = apply_depletions(field.galleys, depletions, cause="missile fire")
    events.extend(depleted)
    for galley_id in sorted(burning, key=by_id):
        galleys[galley_id], lit_events = ignite(galleys[galley_id], "flame missiles", "8.51")
        events.extend(lit_events)
    return Resolution(galleys, events)


def fire(
    field: Field,
    order: FireOrder,
    timing: FireTiming,
    dice: Dice,
    *,
    already_fired: bool = False,
    provoked_by: Mapping[GalleyId, Provocation] | None = None,
    rammed_by: Collection[GalleyId] = (),
) -> Resolution:
    """Check and resolve one galley's fire on its own (nothing fires back at the same time)."""
    volley = check_fire(field, order, timing, already_fired=already_fired, provoked_by=provoked_by,
                        rammed_by=rammed_by)
    return resolve_fire(field, [volley], dice)
