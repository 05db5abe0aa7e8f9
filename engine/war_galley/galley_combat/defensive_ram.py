"""Defensive Reaction Ram (6.7, an optional rule chosen at set-up).

When an active galley moves into the Bow hex of an enemy galley, that galley
may try to ram it: it must be eligible (7.11-7.13 and the geometry of 7.12,
so the mover must be crossing its bow, not meeting it head-on) and pass a
Crew check (1d6 at most its Crew). Then it rams by 7.14-7.16:

- success: the mover is Rammed and stops at once (its announced MP no longer
  bind it); the reacting galley Retracts (backwatering straight back if it
  can) or is Fouled, as usual;
- failure: the reacting galley alone takes the Collision result (Cruise,
  Half Speed, Mast Down under sail, no Grapple this turn); the mover spends
  1 MP and moves on, with -1 on every Ram or Rake attempt that phase.

Readings (docs/combat-notes.md): the reacting galley gets no movement DRM (it
has used no MP this phase); a failed Crew check is no Ram attempt, so it may
react again later; the 1 MP comes out of the mover's announced MP and, if
none is left, costs nothing more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from msgspec.structs import replace

from engine.dice import Dice
from engine.events import DieRolled, Event
from engine.war_galley.galley_combat.combat_record import CombatOptions, CombatRecord
from engine.war_galley.galley_combat.ramming import (
    FirepotsHook,
    RamResult,
    Retreat,
    enemies_near,
    ram_refusal,
    resolve_ram,
)
from engine.war_galley.map_and_galleys import charts as tables
from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.charts import Charts
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.map_and_galleys.position import Around, Position
from engine.war_galley.movement.moving import Refused

Battlefield = Mapping[GalleyId, Galley]


class ReactionRam(NamedTuple):
    """What a Defensive Reaction Ram did; `result` None when the Crew check failed."""

    galleys: dict[GalleyId, Galley]
    events: list[Event]
    record: CombatRecord
    result: RamResult | None


def crossed_bows(battlefield: Battlefield, mover: Galley, before: Position | None) -> list[GalleyId]:
    """Enemy galleys whose Bow hex `mover` has just moved into (from `before`), by id."""
    if mover.position is None:
        return []
    new = set(mover.position.hexes) - set(before.hexes if before is not None else ())
    found = []
    # A galley whose Bow hex the mover is in has its bow next to the mover: only those near can have been crossed.
    for other in enemies_near(battlefield, mover):
        if other.position is None:
            continue
        if set(other.position.hexes) & set(mover.position.hexes):
            continue  # being passed through (7.24), not crossed
        if other.position.around(Around.BOW) in new:
            found.append(other.id)
    return found


def reaction_ram_refusal(charts: Charts, galley: Galley, mover: Galley, record: CombatRecord) -> Refused | None:
    """Why `galley` may not ram the moving `mover` in reaction, or None (6.7 with 7.11-7.13)."""
    return ram_refusal(charts, galley, mover, record)


def defensive_reaction_ram(
    board: Board,
    galleys: Battlefield,
    galley_id: GalleyId,
    mover_id: GalleyId,
    charts: Charts,
    dice: Dice,
    record: CombatRecord,
    options: CombatOptions = CombatOptions(),
    retreat: Retreat = Retreat.STERN,
    firepots: FirepotsHook | None = None,
) -> ReactionRam:
    """The Crew check and, if passed, the Ram (6.7); IllegalOrder before any die if not eligible.

    The Ram is one by 7.14-7.16, so a Firepot-armed galley may drop its firepots with it (8.53: "as part
    of a Ram Attempt ... but before resolving the Ram"): `firepots`, rolled after the Crew check passed."""
    if not options.defensive_reaction_ram:
        raise Refused("6.7", "the Defensive Reaction Ram is an optional rule this game does not use").error()
    galley, mover = galleys[galley_id], galleys[mover_id]
    refusal = reaction_ram_refusal(charts, galley, mover, record)
    if refusal is not None:
        raise refusal.error()
    roll = dice.d6(f"6.7 {galley_id} checks its Crew to ram {mover_id} in reaction")
    allowed = tables.defensive_ram_allowed(charts, galley.crew, roll)
    events: list[Event] = [
        DieRolled(rule="6.7", table="Defensive Reaction Ram", natural=roll,
                  outcome=f"needs {galley.crew} or less: " + ("rams" if allowed else "no reaction"))
    ]
    if not allowed:
        return ReactionRam(dict(galleys), events, record, None)
    field, ram_events, result, record = resolve_ram(
        board, galleys, galley_id, mover_id, charts, dice, record, reaction=True, retreat=retreat,
        options=options, check=False, firepots=firepots,
    )
    if result is RamResult.COLLIDED:
        record = replace(record, drew_reaction_ram=record.drew_reaction_ram | {mover_id})
    return ReactionRam(field, events + ram_events, record, result)
