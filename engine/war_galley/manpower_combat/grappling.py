"""Grappling (8.1): the active galley throws its lines at the end of its movement.

Who may try (8.11, 8.13, 7.16): a galley at Cruise Speed, at the end of its
movement, once per turn, against an enemy ship with which it shares a common
flank hexside; a galley Fouled with the enemy may grapple it whatever the
hexsides (8.11 "[and see 7.16]"), and so may a rammer that Retracted without
backwatering (7.16 play note: "adjacency is the only requirement"); a
Rammed galley only the galleys it is Fouled with (7.16); a rammer that
Collided not that turn (7.16). Harpax galleys reach two hexes (devices).

The roll (8.12): 1d6 plus the DRM against the grappler's Crew on the
Grappling Table. Success grapples both ships (pairwise `grappled_with`);
a Harpax grapple at two hexes then pulls the target alongside.

Reading (docs/manpower-notes.md): the opposite-direction DRM is not applied
to a Harpax grapple at two hexes. Naulochus' example says the Pompeians head
the opposite way yet counts only the Harpax's +1 (Crew 2: 3-6); 8.12's
penalty is for ships passing alongside.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

import msgspec
from msgspec.structs import replace

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import DieRolled, Event
from engine.war_galley.manpower_combat.battlefield import Field, Resolution, by_id, enemies, resolved
from engine.war_galley.manpower_combat.devices import (
    Device,
    corvus_applies,
    corvus_rule,
    harpax_drm,
    harpax_pulls,
    harpax_range,
)
from engine.war_galley.manpower_combat.manpower_orders import GrappleOrder
from engine.war_galley.map_and_galleys.charts import RollRange, grapple_range, grapple_result
from engine.war_galley.map_and_galleys.contact import common_flank_hexsides, touches
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.map_and_galleys.ratings import SpeedSide


class GrappleLine(msgspec.Struct, frozen=True):
    """Who grappled whom, and with which device: 8.32's device DRM needs it later (disengage)."""

    grappler: GalleyId
    target: GalleyId
    device: Device | None = None

    def joins(self, a: GalleyId, b: GalleyId) -> bool:
        return {self.grappler, self.target} == {a, b}


class Grappled(Event, frozen=True, kw_only=True):
    """8.12: a success; both ships are Grappled."""

    line: GrappleLine
    distance: int


class GrappleFailed(Event, frozen=True, kw_only=True):
    galley: GalleyId
    target: GalleyId


class HarpaxPulled(Event, frozen=True, kw_only=True):
    """Naulochus: the target is pulled sideways alongside its grappler."""

    galley: GalleyId
    source: Position
    to: Position


class GrappleOption(NamedTuple):
    """A grapple the galley may try: the range, the device helping, the DRM and the roll it needs."""

    target: GalleyId
    distance: int
    device: Device | None
    modifiers: tuple[tuple[str, int], ...]
    needed: RollRange
    pulls: tuple[Position, ...]  # Harpax at two hexes: where the target may be pulled


def _may_try(field: Field, grappler: Galley, attempted: Collection[GalleyId]) -> None:
    if grappler.id in attempted:
        raise IllegalOrder("8.13", f"{grappler.id} has already tried to grapple this turn")
    if grappler.speed is not SpeedSide.CRUISE:
        raise IllegalOrder("8.11", f"{grappler.id} is at Maximum Speed: galleys at Maximum may not grapple")
    if grappler.collided_with:
        raise IllegalOrder("7.16", f"{grappler.id} Collided this turn and may not attempt to grapple")


def _reach(field: Field, grappler: Galley, target: Galley, retracted_from: Collection[GalleyId]) -> int | None:
    """How far the lines must go (1 or 2), or None if the target is out of reach."""
    assert grappler.position is not None and target.position is not None
    if grappler.rammed and target.id not in grappler.fouled_with:
        return None  # 7.16: a Rammed galley grapples only those it is Fouled with
    if target.id in grappler.fouled_with:
        return 1
    if target.id in retracted_from and touches(grappler.position, target.position):
        return 1
    if common_flank_hexsides(grappler.position, target.position):
        return 1
    return harpax_range(field.devices, grappler, target, field.occupied())


def grapple_modifiers(
    field: Field, grappler: Galley, target: Galley, distance: int
) -> tuple[Device | None, tuple[tuple[str, int], ...]]:
    """8.12's DRM (cumulative) and the scenario device's, with the device that helps."""
    table = field.charts.grappling.modifiers
    drm: list[tuple[str, int]] = []
    if target.crippled or target.fouled_with or target.grappled_with:
        drm.append(("target Crippled, Fouled or Grappled", table.target_crippled_fouled_grappled))
    if target.sails_up:
        drm.append(("target under Sail", table.target_under_sail))
    assert grappler.position is not None and target.position is not None
    opposite = target.position.facing == (grappler.position.facing + 3) % 6
    worn = target.fatigued or bool(target.crippled) or target.half_speed
    if opposite and not worn and distance == 1:
        drm.append(("target moving the opposite way", table.target_opposite_direction))
    if grappler.sails_up:
        drm.append(("grappler under Sail", table.grappler_under_sail))
    device: Device | None = None
    harpax = harpax_range(field.devices, grappler, target, field.occupied())
    choices: list[tuple[int, Device, str]] = []
    if distance == 1 and corvus_applies(field.devices, grappler, target):
        choices.append((corvus_rule(field.devices).grapple_drm, Device.CORVUS, "Corvus"))
    if harpax is not None and harpax == distance:
        where = "adjacent" if distance == 1 else "at two hexes"
        choices.append((harpax_drm(field.devices, distance), Device.HARPAX, f"Harpax {where}"))
    if choices:
        value, device, name = max(choices, key=lambda c: c[0])  # the better device helps
        drm.append((name, value))
    return device, tuple(drm)


def grapple_options(
    field: Field,
    galley_id: GalleyId,
    *,
    attempted: Collection[GalleyId] = (),
    retracted_from: Collection[GalleyId] = (),
) -> list[GrappleOption]:
    """Every grapple `galley_id` may try now (empty if it may try none); for `legal()` listings."""
    grappler = field.galley(galley_id, "8.11")
    try:
        _may_try(field, grappler, attempted)
    except IllegalOrder:
        return []
    options = []
    for target in sorted(field.galleys.values(), key=lambda g: by_id(g.id)):
        option = _option(field, grappler, target, retracted_from)
        if option is not None:
            options.append(option)
    return options


def _option(
    field: Field, grappler: Galley, target: Galley, retracted_from: Collection[GalleyId]
) -> GrappleOption | None:
    if target.position is None or target.id == grappler.id or not enemies(grappler, target):
        return None
    if target.id in grappler.grappled_with:
        return None
    distance = _reach(field, grappler, target, retracted_from)
    if distance is None:
        return None
    pulls: tuple[Position, ...] = ()
    if distance == 2:
        assert grappler.position is not None and target.position is not None
        pulls = tuple(harpax_pulls(field.board, grappler.position, target.position, field.occupied()))
        if not pulls:
            return None  # the pull is part of the attempt: no room to pull, no attempt
    device, drm = grapple_modifiers(field, grappler, target, distance)
    return GrappleOption(target.id, distance, device, drm, grapple_range(field.charts, grappler.crew), pulls)


def check_grapple(
    field: Field,
    order: GrappleOrder,
    *,
    attempted: Collection[GalleyId] = (),
    retracted_from: Collection[GalleyId] = (),
) -> GrappleOption:
    """The option `order` takes; IllegalOrder naming the rule that forbids it."""
    grappler = field.galley(order.galley, "8.11")
    target = field.galley(order.target, "8.11")
    _may_try(field, grappler, attempted)
    if not enemies(grappler, target):
        raise IllegalOrder("8.11", f"{target.id} is not an enemy ship of {grappler.id}")
    if target.id in grappler.grappled_with:
        raise IllegalOrder("8.11", f"{grappler.id} is already Grappled with {target.id}")
    option = _option(field, grappler, target, retracted_from)
    if option is None:
        if grappler.rammed and target.id not in grappler.fouled_with:
            raise IllegalOrder("7.16", f"{grappler.id} is Rammed: it may grapple only galleys it is Fouled with")
        raise IllegalOrder(
            "8.11", f"{grappler.id} shares no common flank hexside with {target.id} (nor reaches it by Harpax)"
        )
    if option.distance == 2:
        if order.pull_to is None and len(option.pulls) > 1:
            raise IllegalOrder("Harpax", f"say where {target.id} is pulled: one of {len(option.pulls)} places")
        if order.pull_to is not None and order.pull_to not in option.pulls:
            raise IllegalOrder("Harpax", f"{target.id} cannot be pulled there: sideways, free, alongside only")
    elif order.pull_to is not None:
        raise IllegalOrder("Harpax", "only a target grappled at two hexes is pulled")
    return option


def attempt_grapple(
    field: Field,
    order: GrappleOrder,
    dice: Dice,
    *,
    attempted: Collection[GalleyId] = (),
    retracted_from: Collection[GalleyId] = (),
) -> tuple[Resolution, GrappleLine | None]:
    """Roll the grapple (8.12); on success both ships are Grappled and the line is returned.

    The caller adds `order.galley` to its attempted set (8.13) whatever the
    outcome, and keeps the returned line for the disengage DRM (8.32).
    """
    option = check_grapple(field, order, attempted=attempted, retracted_from=retracted_from)
    grappler, target = field.galleys[order.galley], field.galleys[order.target]
    natural = dice.d6(f"8.12 grapple {grappler.id} -> {target.id}")
    adjusted = natural + sum(v for _, v in option.modifiers)
    success = grapple_result(field.charts, grappler.crew, adjusted)
    events: list[Event] = [
        DieRolled(
            rule="8.12",
            table=f"{field.charts.grappling.name}, Crew {grappler.crew} needs {option.needed}",
            natural=natural,
            modifiers=option.modifiers,
            outcome="Grappled" if success else "failed",
        )
    ]
    if not success:
        events.append(GrappleFailed(rule="8.12", galley=grappler.id, target=target.id))
        return resolved(field, [], events), None
    line = GrappleLine(grappler.id, target.id, option.device)
    grappler = replace(grappler, grappled_with=grappler.grappled_with | {target.id})
    target = replace(target, grappled_with=target.grappled_with | {grappler.id})
    events.append(Grappled(rule="8.12", line=line, distance=option.distance))
    if option.distance == 2:
        assert target.position is not None
        to = order.pull_to or option.pulls[0]
        events.append(HarpaxPulled(rule="Harpax", galley=target.id, source=target.position, to=to))
        target = replace(target, position=to)
    return resolved(field, [grappler, target], events), line
