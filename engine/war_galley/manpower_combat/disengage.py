"""Disengage (8.3): cutting grapple lines before moving, and working free of a Foul in G/1.

Grapple Disengage (8.32-8.34): in its Movement Segment, before moving, a
Grappled active galley rolls one die per galley it is Grappled to, on the
Grapple Disengage Table by its Crew, with the DRM of 8.32 and the scenario
devices'. Each "S" cuts that grapple. Free of every grapple, it has paid all
its MP or 2, whichever is less, and may move on with the rest; still held,
it cannot move. A galley below 2 MP may still try (8.32 play note).

8.32's "**" DRM, better Crew (+1) and controlling both ships (+2), never
combine: the better one counts. Better Crew counts only when the galley is
Grappled to a single ship (8.32, 8.34).

Foul Disengage (8.35): in G/1 every Fouled galley rolls once on the Foul
Disengage Table by Crew, no DRM at all; the rolls are simultaneous. A
success frees it from every galley it was Fouled with and gives it a Half
Speed marker; the partner is no longer Fouled with it either (a Foul is
between two ships) but gets no marker.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from msgspec.structs import replace

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import DieRolled, Event
from engine.war_galley.manpower_combat.battlefield import Field, Resolution, by_id, resolved
from engine.war_galley.manpower_combat.devices import Device, corvus_rule
from engine.war_galley.manpower_combat.grappling import GrappleLine
from engine.war_galley.map_and_galleys.charts import Disengage, disengage_success
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId


class GrappleCut(Event, frozen=True, kw_only=True):
    """8.33: the grapple between the two ships is gone."""

    galley: GalleyId
    partner: GalleyId


class Disengaged(Event, frozen=True, kw_only=True):
    """8.33: free of every grapple; `mp_cost` paid, `mp_left` to move with."""

    galley: GalleyId
    mp_cost: int
    mp_left: int


class StillGrappled(Event, frozen=True, kw_only=True):
    galley: GalleyId
    partners: frozenset[GalleyId]


class FoulFreed(Event, frozen=True, kw_only=True):
    """8.35: the Fouled marker becomes a Half Speed marker."""

    galley: GalleyId
    partners: frozenset[GalleyId]


class GrappleDisengage(NamedTuple):
    resolution: Resolution
    free: bool
    mp_left: int  # MP left to move with; 0 when still Grappled


def _line(lines: Collection[GrappleLine], a: GalleyId, b: GalleyId) -> GrappleLine | None:
    for line in lines:
        if line.joins(a, b):
            return line
    return None


def grapple_disengage_modifiers(
    field: Field,
    galley: Galley,
    partner: Galley,
    *,
    several: bool,
    lines: Collection[GrappleLine] = (),
    repulsed_boarding: bool = False,
) -> tuple[tuple[str, int], ...]:
    """8.32's DRM for cutting the grapple with `partner` (`several`: Grappled to more than one)."""
    table = field.charts.grapple_disengage.modifiers
    drm: list[tuple[str, int]] = []
    if repulsed_boarding:
        drm.append(("repulsed a boarding this turn", table.repulsed_boarding_this_turn))
    exclusive: list[tuple[str, int]] = []
    if partner.controller is galley.controller:
        exclusive.append(("controls both ships", table.controls_both))
    if galley.crew > partner.crew and not several:
        exclusive.append(("better Crew", table.better_crew))
    if exclusive:
        drm.append(max(exclusive, key=lambda m: m[1]))  # "Player cannot combine these"
    if galley.crippled or galley.fouled_with:
        drm.append(("Crippled or Fouled", table.crippled_or_fouled))
    line = _line(lines, galley.id, partner.id)
    if line is not None and line.device is Device.CORVUS:
        corvus = corvus_rule(field.devices)
        own = line.grappler == galley.id
        drm.append(("own Corvus" if own else "held by a Corvus",
                    corvus.own_disengage_drm if own else corvus.enemy_disengage_drm))
    elif line is not None and line.device is Device.HARPAX and line.target == galley.id and field.devices.harpax:
        drm.append(("held by a Harpax", field.devices.harpax.target_disengage_drm))
    return tuple(drm)


def grapple_disengage(
    field: Field,
    galley_id: GalleyId,
    dice: Dice,
    *,
    mp_available: int,
    lines: Collection[GrappleLine] = (),
    repulsed_boarding: bool = False,
) -> GrappleDisengage:
    """8.32-8.34: one roll per partner; `mp_available` is what the galley could move if free.

    `lines` are the grapples as made (grappling.attempt_grapple) for the
    Corvus and Harpax DRM; `repulsed_boarding` whether it repulsed a boarding
    this turn.
    """
    galley = field.galley(galley_id, "8.32")
    if not galley.grappled_with:
        raise IllegalOrder("8.32", f"{galley_id} is not Grappled")
    if mp_available < 0:
        raise ValueError("MP available is never negative")
    partners = sorted(galley.grappled_with, key=by_id)
    several = len(partners) > 1
    changed: dict[GalleyId, Galley] = {}
    events: list[Event] = []
    held: set[GalleyId] = set()
    for partner_id in partners:
        partner = field.galleys[partner_id]
        drm = grapple_disengage_modifiers(
            field, galley, partner, several=several, lines=lines, repulsed_boarding=repulsed_boarding
        )
        natural = dice.d6(f"8.32 disengage {galley_id} from {partner_id}")
        adjusted = natural + sum(v for _, v in drm)
        cut = disengage_success(field.charts, Disengage.GRAPPLE, galley.crew, adjusted)
        events.append(DieRolled(rule="8.32", table=f"Grapple Disengage Table, Crew {galley.crew}",
                                natural=natural, modifiers=drm, outcome="S" if cut else "-"))
        if cut:
            changed[partner_id] = replace(partner, grappled_with=partner.grappled_with - {galley_id})
            events.append(GrappleCut(rule="8.33", galley=galley_id, partner=partner_id))
        else:
            held.add(partner_id)
    changed[galley_id] = replace(galley, grappled_with=frozenset(held))
    if held:
        events.append(StillGrappled(rule="8.33", galley=galley_id, partners=frozenset(held)))
        return GrappleDisengage(resolved(field, changed.values(), events), False, 0)
    cost = min(mp_available, field.charts.grapple_disengage.max_mp_cost)
    events.append(Disengaged(rule="8.33", galley=galley_id, mp_cost=cost, mp_left=mp_available - cost))
    return GrappleDisengage(resolved(field, changed.values(), events), True, mp_available - cost)


def foul_disengage(field: Field, dice: Dice, *, galleys: Collection[GalleyId] | None = None) -> Resolution:
    """8.35, G/1: every Fouled galley (or those of `galleys`) rolls, in id order, simultaneously."""
    rolling = sorted(
        (g.id for g in field.galleys.values()
         if g.fouled_with and g.position is not None and (galleys is None or g.id in galleys)),
        key=by_id,
    )
    events: list[Event] = []
    freed: list[GalleyId] = []
    for galley_id in rolling:
        galley = field.galleys[galley_id]
        natural = dice.d6(f"8.35 foul disengage {galley_id}")
        free = disengage_success(field.charts, Disengage.FOUL, galley.crew, natural)
        events.append(DieRolled(rule="8.35", table=f"Foul Disengage Table, Crew {galley.crew}",
                                natural=natural, outcome="S" if free else "-"))
        if free:
            freed.append(galley_id)
    updated = dict(field.galleys)
    for galley_id in freed:
        partners = field.galleys[galley_id].fouled_with
        events.append(FoulFreed(rule="8.35", galley=galley_id, partners=partners))
        for partner_id in partners:
            partner = updated[partner_id]
            updated[partner_id] = replace(partner, fouled_with=partner.fouled_with - {galley_id})
        updated[galley_id] = replace(updated[galley_id], fouled_with=frozenset(), half_speed=True)
    return Resolution(updated, events)
