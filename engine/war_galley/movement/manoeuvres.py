"""The rules of each kind of movement step (6.21-6.25, 6.32-6.35, 6.37, 7.28).

Each rule takes the mover, its progress so far and the step, and returns the
progress after the step or a `Refused` naming the rule that forbids it. The
geometry is geometry.md's: the bow leads forward, the stern leads backwater,
a Facing Change swings one half of a double counter.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.war_galley.map_and_galleys.board import Water
from engine.war_galley.map_and_galleys.galley import End
from engine.war_galley.map_and_galleys.hexes import DIRECTIONS, neighbour
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.leg import Leg, Mover, Refused, enter, pay
from engine.war_galley.movement.steps import (
    Backwater,
    BowFlank,
    FacingChange,
    Forward,
    Half,
    LowerSails,
    RaiseSails,
    TurnAround,
)

# What the rules below refuse whatever else the galley has done, for the planner to leave out untried
# (engine.war_galley.play.planner; tests/engine/war_galley/play/test_planner_actium.py holds them to the rules):
# the steps a galley at Maximum Speed never takes (6.33 Backwater, 6.34 Facing Change, 6.35 Turn Around),
# each rule's first refusal; and the sail steps, refused once movement has started (6.21, `_sail_check`).
CRUISE_ONLY: tuple[type, ...] = (Backwater, FacingChange, TurnAround)
BEFORE_MOVING: tuple[type, ...] = (RaiseSails, LowerSails)


def forward(mover: Mover, leg: Leg, step: Forward) -> Leg | Refused:
    if leg.backwatered:
        return Refused("6.33", "a galley that backwaters may not move forward that turn")
    if mover.crippled:
        return Refused("6.37", "a Crippled galley may never move straight ahead")
    paid = pay(mover, leg, mover.costs.forward, step)
    if isinstance(paid, Refused):
        return paid
    pos = paid.position
    new = Position(neighbour(pos.bow, pos.facing), pos.facing, pos.double)
    return enter(mover, paid, new, new.bow, End.BOW, advanced=True)


def bow_flank(mover: Mover, leg: Leg, step: BowFlank) -> Leg | Refused:
    if leg.backwatered:
        return Refused("6.33", "a galley that backwaters may not move forward that turn")
    if mover.crippled and step.side not in mover.crippled:
        return Refused("6.37", f"a Crippled galley moves only toward its marker: not to {step.side.value}")
    paid = pay(mover, leg, mover.costs.bow_flank, step)
    if isinstance(paid, Refused):
        return paid
    pos = paid.position
    facing = DIRECTIONS[(pos.facing + step.side.delta) % 6]
    new = Position(neighbour(pos.bow, facing), facing, pos.double)
    return enter(mover, paid, new, new.bow, End.BOW, advanced=True, turns=paid.turns + 1)


def backwater(mover: Mover, leg: Leg, step: Backwater) -> Leg | Refused:
    if mover.speed is SpeedSide.MAXIMUM:
        return Refused("6.33", "only a galley at Cruise Speed may Backwater")
    if mover.crippled:
        return Refused("6.37", "a Crippled galley may only move into a Bow/Flank hex")
    if leg.advanced:
        return Refused("6.33", "a galley that backwaters may use no forward motion or Facing Change that turn")
    paid = pay(mover, leg, mover.costs.backwater, step)
    if isinstance(paid, Refused):
        return paid
    pos = paid.position
    delta = 0 if step.side is None else step.side.delta
    # The stern leads into the Stern hex (d+3) or a Stern/Flank hex (port d+4, starboard d+2);
    # the galley pivots so its stern faces the hex it enters (6.32).
    heading = (pos.facing + 3 - delta) % 6
    facing = DIRECTIONS[(heading + 3) % 6]
    stern = neighbour(pos.stern, heading)
    new = Position(pos.stern, facing, True) if pos.double else Position(stern, facing, False)
    return enter(mover, paid, new, stern, End.STERN, backwatered=True)


def facing_change(mover: Mover, leg: Leg, step: FacingChange) -> Leg | Refused:
    if mover.speed is SpeedSide.MAXIMUM:
        return Refused("6.34", "only a galley at Cruise Speed may change facing without moving")
    if leg.sails_up:
        return Refused("6.34", "a galley under sail may not change facing without moving")
    if leg.backwatered:
        return Refused("6.33", "a galley that backwaters may not change facing that turn")
    if mover.crippled and step.side not in mover.crippled:
        return Refused("7.28", f"a Crippled galley turns only toward its marker: not to {step.side.value}")
    pos = leg.position
    if pos.double and step.swing is None:
        return Refused("6.34", "a double counter changes facing by swinging its bow or its stern half")
    if not pos.double and step.swing is not None:
        return Refused("6.34", "a single counter turns in its hex; it has no half to swing")
    paid = pay(mover, leg, mover.costs.facing_change, step)
    if isinstance(paid, Refused):
        return paid
    facing = DIRECTIONS[(pos.facing + step.side.delta) % 6]
    if not pos.double:
        return replace(paid, position=Position(pos.bow, facing, False), advanced=True, faced=True)
    if step.swing is Half.STERN:
        new = Position(pos.bow, facing, True)
        entered, end = new.stern, End.STERN
    else:
        new = Position(neighbour(pos.stern, facing), facing, True)
        entered, end = new.bow, End.BOW
    if mover.surroundings.board.water(entered) is Water.OPEN:
        return Refused("6.34", "a Facing Change is made without moving: it cannot leave the map")
    return enter(mover, paid, new, entered, end, advanced=True, faced=True)


def turn_around(mover: Mover, leg: Leg, step: TurnAround) -> Leg | Refused:
    if mover.speed is SpeedSide.MAXIMUM:
        return Refused("6.35", "galleys at Maximum Speed may not Turn Around")
    if leg.sails_up:
        return Refused("6.35", "galleys under sail may not Turn Around")
    if leg.backwatered:
        return Refused("6.33", "a galley that backwaters may not change facing that turn")
    if mover.crippled:
        return Refused("7.28", "a Crippled galley turns only toward its marker")
    if mover.enemy_adjacent(leg.position):
        return Refused("6.35", "a galley may not Turn Around with an enemy galley adjacent")
    paid = pay(mover, leg, mover.costs.turn_around, step)
    if isinstance(paid, Refused):
        return paid
    pos = paid.position
    facing = DIRECTIONS[(pos.facing + 3) % 6]
    return replace(paid, position=Position(pos.stern, facing, pos.double), advanced=True, faced=True)


def _sail_check(mover: Mover, leg: Leg) -> Refused | None:
    if leg.started:
        return Refused("6.21", "sails are raised or lowered before any movement")
    if leg.sail_set:
        return Refused("6.21", "sails are raised or lowered once, before moving")
    return None


def raise_sails(mover: Mover, leg: Leg, step: RaiseSails) -> Leg | Refused:
    galley = mover.galley
    early = _sail_check(mover, leg)
    if early is not None:
        return early
    if leg.sails_up:
        return Refused("6.21", f"{galley.id} is already under sail")
    if not galley.equipment.sails:
        return Refused("6.21", f"{galley.id} carries no sails in this battle")
    if galley.mast_down or galley.masts_lost:
        return Refused("6.22", f"{galley.id} has had Masts Down: no sails for the rest of the battle")
    if mover.surroundings.wind is None:
        return Refused("6.2", "in a Dead Calm no galley may use the wind")
    if mover.speed is SpeedSide.MAXIMUM and not mover.tremiola:
        return Refused("6.22", "a galley at Maximum Speed may not raise sails")
    if mover.enemy_adjacent(leg.position):
        return Refused("6.21", "a galley may not raise sails while adjacent to an enemy galley")
    paid = pay(mover, leg, mover.sail_cost(raising=True), step, moving=False)
    if isinstance(paid, Refused):
        return paid
    return replace(paid, sails_up=True, sail_set=True)


def lower_sails(mover: Mover, leg: Leg, step: LowerSails) -> Leg | Refused:
    early = _sail_check(mover, leg)
    if early is not None:
        return early
    if not leg.sails_up:
        return Refused("6.21", f"{mover.galley.id} is not under sail")
    paid = pay(mover, leg, mover.sail_cost(raising=False), step, moving=False)
    if isinstance(paid, Refused):
        return paid
    return replace(paid, sails_up=False, sail_set=True)
