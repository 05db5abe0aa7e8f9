"""Personnel losses (8.6): Depletions, cumulative, Manpower never below 0.

A Depletion adds one to the galley's Depletion marker (8.61); its Manpower in
play is the printed M less the marker, never below 0 (8.62, `Galley.manpower`).
The marker keeps counting past M0 ("there is no limit to how many
Depletions a galley may incur"). Depletions act at once (8.63); simultaneous
missile fire collects them first and applies them together
(`apply_depletions`).
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec
from msgspec.structs import replace

from engine.events import Event
from engine.war_galley.manpower_combat.battlefield import by_id
from engine.war_galley.map_and_galleys.galley import Capture, Galley, GalleyId


class Depleted(Event, frozen=True, kw_only=True):
    """8.61: one or more Depletions; `manpower` is the M in play afterwards."""

    galley: GalleyId
    count: int
    depletions: int  # the marker afterwards
    manpower: int
    cause: str  # "missile fire", "boarding"


def deplete(galley: Galley, count: int = 1, *, rule: str = "8.61", cause: str = "") -> tuple[Galley, Depleted]:
    """The galley with `count` more Depletions, and the event saying so."""
    if count < 0:
        raise ValueError(f"a Depletion count is never negative: {count}")
    after = replace(galley, depletions=galley.depletions + count)
    return after, Depleted(
        rule=rule, galley=galley.id, count=count, depletions=after.depletions, manpower=after.manpower, cause=cause
    )


def apply_depletions(
    galleys: Mapping[GalleyId, Galley], counts: Mapping[GalleyId, int], *, rule: str = "8.63", cause: str = ""
) -> tuple[dict[GalleyId, Galley], list[Depleted]]:
    """Apply Depletions gathered from simultaneous fire all at once (8.63), in id order."""
    updated = dict(galleys)
    events = []
    for galley_id in sorted(counts, key=by_id):
        if counts[galley_id]:
            updated[galley_id], event = deplete(updated[galley_id], counts[galley_id], rule=rule, cause=cause)
            events.append(event)
    return updated, events


class ManpowerSummary(msgspec.Struct, frozen=True):
    """8.64: how a galley's losses stand and what they still allow."""

    manpower: int
    crew: int
    depletions: int
    may_board: bool  # at least M1 (8.21), never a Captured galley (8.25)
    may_fire: bool  # even at M0 (8.64)
    may_use_maximum: bool  # not when Captured (8.25); other limits live in engine.war_galley.movement.speed


def summary(galley: Galley, min_boarders: int = 1) -> ManpowerSummary:
    captured = galley.capture is not Capture.NONE
    return ManpowerSummary(
        manpower=galley.manpower,
        crew=galley.crew,
        depletions=galley.depletions,
        may_board=not captured and galley.manpower >= min_boarders,
        may_fire=True,
        may_use_maximum=not captured,
    )
