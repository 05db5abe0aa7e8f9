"""Anastrophe (7.3): rake a galley, turn about and ram it from astern, as one manoeuvre.

Only a galley with an asterisked Ram Attack at Maximum Speed (7.31), and as
its whole activation: it uses no MP, follows no movement rule, and counts as
having used all its Maximum Speed MP.

Readings (docs/combat-notes.md), checked against 7.35's example:
- The Approach (7.32): the attacker faces the target head-on (its facing
  opposite the target's) with its bow in an Approach hex: the target's Bow
  hex or one of its Bow/Flank hexes ("adjacent to ... opposite the bow"), or
  one hex further out on the same line ("within two hexes of the bow"), the
  hex between being free sea.
- The Rake (7.33): from the Bow hex it is a Pass-Through (7.24: a galley
  beside the target on the side passed, which `side` names when both are
  covered); from a Bow/Flank hex it is the adjacent rake of 7.21, sweeping
  into the next flank hex on that side, which must be free.
- The Turn Around (7.34): the target's Stern hex, both Stern/Flank hexes and
  the hexes the attacker is placed on must hold no ship and be sea, and no
  other Anastrophe may have used any of them this phase (CombatRecord).
- The Sting (7.35): placed bow against the target's Stern hex from the
  Stern/Flank hex on the side opposite the rake. The target, or any enemy now
  adjacent, may avoid (play note 1); if the target is then out of the
  attacker's line the ram is Missed. The Ram counts Maximum Speed MP with no
  turn (full 7.15 bonus), -1 if the Rake failed.
- 7.36: the attacker is then Fatigued by row 7A, whatever happened; that
  replaces its 6.42 check (CombatRecord.anastrophes).

7.35's example: B is 1818-1917, the attacker 1619-1519 (its next hex, 1718,
is B's Bow hex); it passes through between B and A (1819-1918), raking B's
port side; the Turn Around hexes are 2017, 1916, 2018 and 1915; it is placed
on 1916-1915.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from msgspec.structs import replace

from engine.dice import Dice
from engine.events import Event
from engine.war_galley.galley_combat.combat_record import CombatOptions, CombatRecord
from engine.war_galley.galley_combat.diekplus import beside, passage
from engine.war_galley.galley_combat.raking import raker_refusal, resolve_rake
from engine.war_galley.galley_combat.ramming import (
    FirepotsHook,
    MarkerPlaced,
    RamMissed,
    RamResult,
    Retreat,
    ram_geometry,
    rammer_refusal,
    resolve_ram,
    target_refusal,
    to_cruise,
)
from engine.war_galley.galley_combat.reactions import ReactionFireHook, ReactionOrders, fire_back, respond_to_move
from engine.war_galley.map_and_galleys import charts as tables
from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.charts import Charts
from engine.war_galley.map_and_galleys.galley import Colour, Galley, GalleyId, MoveRecord
from engine.war_galley.map_and_galleys.hexes import Hex, direction_to, neighbour
from engine.war_galley.map_and_galleys.position import Around, Position, Side
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.moving import Refused
from engine.war_galley.movement.speed import speed_limit

Battlefield = Mapping[GalleyId, Galley]


class Route(NamedTuple):
    """How an Anastrophe goes: the rake, the hexes swept, where the attacker ends, the Turn Around hexes."""

    pass_through: bool  # Diekplus (True) or adjacent rake (False)
    rake_side: Side  # the target's side raked
    swept: tuple[Hex, ...]  # hexes crossed before the Turn Around, the target's own left out
    placement: Position
    turn_around: frozenset[Hex]


class Placed(Event, frozen=True, kw_only=True):
    """7.34: the attacker turned about and was placed to ram."""

    galley: GalleyId
    position: Position


class AnastropheDone(NamedTuple):
    galleys: dict[GalleyId, Galley]
    events: list[Event]
    record: CombatRecord
    crippled: bool
    result: RamResult | None  # None: Missed (the target avoided)


def placement(target: Position, rake_side: Side, double: bool) -> Position:
    """7.35: bow in the target's Stern/Flank hex opposite the rake, pointing at its stern."""
    stern_flank = target.around(Around.STERN_FLANK, rake_side.other)
    facing = direction_to(stern_flank, target.stern)
    assert facing is not None
    return Position(stern_flank, facing, double)


def turn_around_hexes(target: Position, placed: Position) -> frozenset[Hex]:
    """7.34: the target's Stern and both Stern/Flank hexes, and the hexes of the placed attacker."""
    around = {target.around(Around.STERN)} | {target.around(Around.STERN_FLANK, s) for s in Side}
    return frozenset(around | set(placed.hexes))


def route(
    battlefield: Battlefield, attacker: Galley, target: Galley, side: Side | None = None
) -> Route | Refused:
    """The Anastrophe `attacker` would make on `target` (7.32-7.35), or why its position allows none."""
    assert attacker.position is not None and target.position is not None
    pos, tpos = attacker.position, target.position
    head_on = tpos.facing.opposite
    if pos.facing != head_on:
        return Refused("7.32", f"{attacker.id} must face {target.id} head-on, bow to bow")
    approach: dict[Hex, Side | None] = {tpos.around(Around.BOW): None}
    approach.update({tpos.around(Around.BOW_FLANK, s): s for s in Side})
    lead: tuple[Hex, ...] = ()
    entry = pos.bow if pos.bow in approach else None
    if entry is None:
        for h in approach:
            if pos.bow == neighbour(h, tpos.facing):
                entry, lead = h, (h,)
    if entry is None:
        return Refused("7.32", f"{attacker.id} is not in, or one hex beyond, an Approach hex of {target.id}")
    flank_side = approach[entry]
    if flank_side is None:
        covered = beside(battlefield, target)
        if side is None:
            if len(covered) != 1:
                return Refused("7.33", f"say which side of {target.id} to pass through (7.24)" if covered
                               else f"no galley beside {target.id} to pass between: Diekplus impossible (7.24)")
            side = next(iter(covered))
        elif side not in covered:
            return Refused("7.24", f"no galley beside {target.id} on its {side.value} side to pass between")
        swept = lead + tuple(h for h in passage(Position(entry, head_on, False)) if h not in tpos.hexes)
    else:
        if side is not None and side is not flank_side:
            return Refused("7.33", f"from that Bow/Flank hex {attacker.id} can only rake the {flank_side.value} side")
        side = flank_side
        swept = lead + (neighbour(entry, head_on),)
    placed = placement(tpos, side, attacker.ratings.double)
    return Route(flank_side is None, side, swept, placed, turn_around_hexes(tpos, placed))


def anastrophe_refusal(
    board: Board,
    battlefield: Battlefield,
    attacker: Galley,
    target_id: GalleyId,
    charts: Charts,
    record: CombatRecord = CombatRecord(),
    *,
    side: Side | None = None,
    announced: int | None = None,
    options: CombatOptions = CombatOptions(),
) -> Refused | Route:
    """The route if `attacker` may make an Anastrophe on `target_id` now, else why not (7.31-7.34)."""
    if attacker.position is None:
        return Refused("9.1", f"{attacker.id} is not on the map")
    if not attacker.ratings.maximum.anastrophe:
        return Refused("7.31", f"{attacker.id} has no asterisked Ram Attack: no Anastrophe")
    if attacker.speed is not SpeedSide.MAXIMUM:
        return Refused("7.31", "an Anastrophe is made only at Maximum Speed")
    if announced is not None:
        limit = speed_limit(attacker, SpeedSide.MAXIMUM, options.wind).mp
        if announced != limit:
            return Refused("7.31", f"an Anastrophe uses all {limit} MP of Maximum Speed: announce {limit}")
    # 7.3 "supersedes normal movement and facing change rules": 7.12's facing bar does not apply.
    refusal = rammer_refusal(charts, attacker, replace(record, faced=frozenset())) or raker_refusal(attacker)
    target = battlefield.get(target_id)
    if refusal is None:
        if target is None:
            return Refused("7.3", f"{target_id} is not in this battle")
        refusal = target_refusal(attacker, target)
    if refusal is not None:
        return refusal
    assert target is not None
    found = route(battlefield, attacker, target, side)
    if isinstance(found, Refused):
        return found
    ships = {h: o.id for o in battlefield.values() if o.id != attacker.id and o.position for h in o.position.hexes}
    for h in found.swept:
        if h in ships or not board.is_sea(h):
            return Refused("7.33", f"{board.map.format(h)} is not free sea for the Rake")
    for h in sorted(found.turn_around):
        if h in ships:
            return Refused("7.34", f"Turn Around hex {board.map.format(h)} holds {ships[h]}")
        if not board.is_sea(h):
            return Refused("7.34", f"Turn Around hex {board.map.format(h)} is not sea")
        if h in record.turn_around_hexes:
            return Refused("7.34", f"Turn Around hex {board.map.format(h)} was used by another Anastrophe this phase")
    return found


def resolve_anastrophe(
    board: Board,
    galleys: Battlefield,
    attacker_id: GalleyId,
    target_id: GalleyId,
    charts: Charts,
    dice: Dice,
    record: CombatRecord,
    reactions: Mapping[Colour, ReactionOrders],
    options: CombatOptions = CombatOptions(),
    *,
    side: Side | None = None,
    retreat: Retreat = Retreat.STERN,
    announced: int | None = None,
    firepots: FirepotsHook | None = None,
    reaction_fire: ReactionFireHook | None = None,
) -> AnastropheDone:
    """The whole Anastrophe: Rake, Turn Around, Sting, Fatigue. IllegalOrder before any die if barred."""
    field = dict(galleys)
    attacker = field[attacker_id]
    found = anastrophe_refusal(board, field, attacker, target_id, charts, record, side=side,
                               announced=announced, options=options)
    if isinstance(found, Refused):
        raise found.error()
    start = attacker.position
    mp = speed_limit(attacker, SpeedSide.MAXIMUM, options.wind).mp
    events: list[Event] = []
    field, more, record = fire_back(field, target_id, attacker_id, "rake", dice, record, reactions, reaction_fire)
    events += more
    field, more, crippled, record = resolve_rake(field, attacker_id, target_id, found.rake_side, charts, dice,
                                                 record, sails_up=False)
    events += more
    field[attacker_id] = replace(field[attacker_id], position=found.placement,
                                 moved=MoveRecord(mp, mp, 0, False, False))
    record = replace(record, turn_around_hexes=record.turn_around_hexes | found.turn_around)
    events.append(Placed(rule="7.34", galley=attacker_id, position=found.placement))
    response = respond_to_move(board, field, attacker_id, start, charts, dice, record, reactions, options,
                               reaction_rams=False)
    field, record = response.galleys, response.record
    events += response.events
    target = field[target_id]
    result: RamResult | None = None
    if target.position is None or ram_geometry(found.placement, target.position) is not None:
        events.append(RamMissed(rule="7.16", rammer=attacker_id, target=target_id))
    else:
        field, more, record = fire_back(field, target_id, attacker_id, "ram", dice, record, reactions, reaction_fire)
        events += more
        field, more, result, record = resolve_ram(
            board, field, attacker_id, target_id, charts, dice, record, mp_used=mp, turns=0,
            failed_anastrophe_rake=not crippled, retreat=retreat, firepots=firepots, options=options, check=False,
        )
        events += more
    attacker = field[attacker_id]
    level = tables.fatigue_result(charts, attacker.crew, 0, anastrophe=True)
    if level > attacker.fatigue:
        events.append(MarkerPlaced(rule="7.36", galley=attacker_id, marker=f"Fatigued F-{level}"))
        attacker = replace(attacker, fatigue=level)
    field[attacker_id] = to_cruise(attacker, events, "6.12")
    record = replace(record, anastrophes=record.anastrophes | {attacker_id})
    return AnastropheDone(field, events, record, crippled, result)
