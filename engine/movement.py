"""Moving a galley (6.13, 6.2, 6.3, 6.6, 7.28): one step at a time, by one set of primitives.

`advance(mover, leg, step)` is the only place a step's rules live. It returns
the galley's progress after the step, or a `Refused` naming the rule that
forbids it. Everything else uses it: `check_plan` and `move` replay a plan
through it (raising `IllegalOrder` on the first refusal), and the planner
(`engine.planner`) generates options by trying every step kind with it.

A `Leg` is a galley's progress through one activation: where it is, what it
has spent and what it has done that later steps depend on (6.21 sails first,
6.33 backwater excludes forward motion and Facing Change, 7.15 turns made).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from typing import NamedTuple

import msgspec
from msgspec.structs import replace

from engine.board import Board, Water
from engine.errors import IllegalOrder
from engine.events import Event
from engine.galley import Aground, End, Galley, GalleyId, GalleyType, MoveRecord, Removal
from engine.hexes import DIRECTIONS, Hex, neighbour, neighbours
from engine.position import Position, Side
from engine.ratings import SpeedSide
from engine.speed import Limit, Wind, maximum_barred, speed_limit
from engine.steps import (
    Backwater,
    BowFlank,
    FacingChange,
    Forward,
    Half,
    LowerSails,
    Plan,
    RaiseSails,
    Step,
    TurnAround,
)


class Refused(NamedTuple):
    """Why a step (or plan) may not be taken: the rule section and the reason."""

    rule: str
    reason: str

    def error(self) -> IllegalOrder:
        return IllegalOrder(self.rule, self.reason)


class Ending(enum.Enum):
    """Why a galley's movement stopped before its announced MP were spent (6.13)."""

    AGROUND = "aground"  # 6.31
    EXITED = "exited"  # left the map (9.1)


class Surroundings(msgspec.Struct, frozen=True):
    """What a moving galley meets: the board, the other galleys' hexes, the wind and the turn.

    Build it with `surroundings()`. `occupied` maps every hex another galley
    fills (6.6); `enemy_near` holds every hex adjacent to an enemy galley, for
    6.21 and 6.35.
    """

    board: Board
    occupied: dict[Hex, GalleyId]
    enemy_near: frozenset[Hex]
    wind: Wind | None = None
    turn: int = 1


def surroundings(
    board: Board, galleys: Iterable[Galley], mover: Galley, wind: Wind | None = None, turn: int = 1
) -> Surroundings:
    """The surroundings of `mover` among `galleys` (it may be among them)."""
    occupied: dict[Hex, GalleyId] = {}
    enemy_near: set[Hex] = set()
    for other in galleys:
        if other.id == mover.id or other.position is None:
            continue
        for h in other.position.hexes:
            occupied[h] = other.id
            if other.controller is not mover.controller:
                enemy_near.update(neighbours(h))
    return Surroundings(board, occupied, frozenset(enemy_near), wind, turn)


class Leg(msgspec.Struct, frozen=True):
    """A galley's progress through one activation's movement.

    `announced` is the announced MP when checking a plan; None when the
    planner explores every announcement, `budget` then being the speed limit.
    """

    position: Position
    sails_up: bool
    budget: int
    announced: int | None = None
    spent: int = 0
    started: bool = False  # a step other than raising/lowering sails was taken (6.21)
    sail_set: bool = False  # sails raised or lowered this activation
    advanced: bool = False  # forward motion or Facing Change: no Backwater now (6.33)
    backwatered: bool = False  # no forward motion or Facing Change now (6.33)
    faced: bool = False  # changed facing without moving, Turn Around included (7.12)
    turns: int = 0  # Bow/Flank hexes entered (7.15)
    ended: Ending | None = None
    aground_end: End | None = None


class Mover:
    """The moving galley with what its steps keep asking: speed side, markers, surroundings."""

    def __init__(self, surroundings: Surroundings, galley: Galley) -> None:
        self.surroundings = surroundings
        self.galley = galley
        self.speed = galley.speed
        self.crippled = galley.crippled
        self.tremiola = galley.id.type is GalleyType.TREMIOLA
        self._limits: dict[bool, Limit] = {}

    def limit(self, sails_up: bool) -> Limit:
        """The speed limit when movement starts with sails up or down (6.22 uses the start facing)."""
        if sails_up not in self._limits:
            self._limits[sails_up] = speed_limit(
                self.galley, self.speed, self.surroundings.wind, sails_up=sails_up
            )
        return self._limits[sails_up]

    def enemy_adjacent(self, position: Position) -> bool:
        near = self.surroundings.enemy_near
        return any(h in near for h in position.hexes)


# --- starting and finishing ---------------------------------------------------


def begin(mover: Mover, announced: int | None) -> Leg | Refused:
    """The galley's progress before its first step; `announced` None to explore every MP."""
    galley = mover.galley
    if galley.position is None:
        why = galley.removed.value if galley.removed else "not on the map"
        return Refused("9.1", f"{galley.id} is {why}; galleys that leave the map never return")
    if announced is not None and announced < 0:
        return Refused("6.13", f"{announced} MP: announce 0 or more")
    if mover.speed is SpeedSide.MAXIMUM:
        barred = maximum_barred(galley, sails_up=False)  # sails: judged when it starts moving
        if barred is not None:
            return Refused(barred.rule, barred.reason)
    can_toggle = galley.equipment.sails  # an optimistic bound: the start check settles it
    best = max(mover.limit(galley.sails_up).mp, mover.limit(not galley.sails_up).mp if can_toggle else 0)
    budget = best if announced is None else announced
    return Leg(galley.position, galley.sails_up, budget, announced)


def _start(mover: Mover, leg: Leg) -> Leg | Refused:
    """Movement proper begins: hold the announcement to the speed limit (6.11-6.13)."""
    if mover.speed is SpeedSide.MAXIMUM:
        # Under sail at Maximum is no speed at all, not merely 0 MP (6.22).
        barred = maximum_barred(mover.galley, sails_up=leg.sails_up)
        if barred is not None:
            return Refused(barred.rule, barred.reason)
    limit = mover.limit(leg.sails_up)
    if leg.announced is not None:
        if leg.announced > limit.mp:
            return Refused(limit.rule, f"{limit.reason}; {leg.announced} MP announced")
        return replace(leg, started=True)
    return replace(leg, started=True, budget=min(leg.budget, limit.mp))


def finish(mover: Mover, leg: Leg) -> Refused | None:
    """Whether the galley may stop here: speed limit kept, all announced MP spent (6.13)."""
    if not leg.started:
        started = _start(mover, leg)
        if isinstance(started, Refused):
            return started
        if leg.spent > started.budget:
            return Refused("6.13", f"{leg.spent} MP spent but only {started.budget} allowed")
    if leg.announced is not None and leg.ended is None and leg.spent != leg.announced:
        return Refused(
            "6.13",
            f"{mover.galley.id} spent {leg.spent} of its {leg.announced} announced MP; "
            "it must spend them all unless it rams or runs aground",
        )
    return None


# --- paying and entering -----------------------------------------------------


def _pay(mover: Mover, leg: Leg, cost: int, step: Step, *, moving: bool = True) -> Leg | Refused:
    """Spend `cost` MP; the first step that is not a sail step starts the movement."""
    if moving and not leg.started:
        started = _start(mover, leg)
        if isinstance(started, Refused):
            return started
        leg = started
    if leg.spent + cost > leg.budget:
        left = leg.budget - leg.spent
        of = f"of the {leg.announced} announced " if leg.announced is not None else ""
        return Refused("6.13", f"{describe(step)} costs {cost} MP; {left} MP {of}left")
    return replace(leg, spent=leg.spent + cost)


_ENDED = {Ending.AGROUND: "Run Aground", Ending.EXITED: "left the map"}


def _enter(mover: Mover, leg: Leg, position: Position, entered: Hex, end: End, **done: object) -> Leg | Refused:
    """Put the galley on `position`, whose `entered` hex it has just entered with its `end`.

    Sea: the hex must be free (6.6). Land or coast: the galley Runs Aground
    there (6.31). Off the map: it has left the map (9.1).
    """
    board = mover.surroundings.board
    water = board.water(entered)
    if water is Water.SEA:
        other = mover.surroundings.occupied.get(entered)
        if other is not None:
            return Refused("6.6", f"{_hex_name(board, entered)} is occupied by {other}: one counter per hex")
        return replace(leg, position=position, **done)
    if water is Water.LAND:
        return replace(leg, position=position, ended=Ending.AGROUND, aground_end=end, **done)
    return replace(leg, position=position, ended=Ending.EXITED, **done)


def _hex_name(board: Board, h: Hex) -> str:
    return board.map.format(h)


# --- the step kinds ------------------------------------------------------------


def _forward(mover: Mover, leg: Leg, step: Forward) -> Leg | Refused:
    if leg.backwatered:
        return Refused("6.33", "a galley that backwaters may not move forward that turn")
    if mover.crippled:
        return Refused("6.37", "a Crippled galley may never move straight ahead")
    paid = _pay(mover, leg, 1, step)
    if isinstance(paid, Refused):
        return paid
    pos = paid.position
    new = Position(neighbour(pos.bow, pos.facing), pos.facing, pos.double)
    return _enter(mover, paid, new, new.bow, End.BOW, advanced=True)


def _bow_flank(mover: Mover, leg: Leg, step: BowFlank) -> Leg | Refused:
    if leg.backwatered:
        return Refused("6.33", "a galley that backwaters may not move forward that turn")
    if mover.crippled and step.side not in mover.crippled:
        return Refused("6.37", f"a Crippled galley moves only toward its marker: not to {step.side.value}")
    paid = _pay(mover, leg, 1, step)
    if isinstance(paid, Refused):
        return paid
    pos = paid.position
    facing = DIRECTIONS[(pos.facing + step.side.delta) % 6]
    new = Position(neighbour(pos.bow, facing), facing, pos.double)
    return _enter(mover, paid, new, new.bow, End.BOW, advanced=True, turns=paid.turns + 1)


def _backwater(mover: Mover, leg: Leg, step: Backwater) -> Leg | Refused:
    if mover.speed is SpeedSide.MAXIMUM:
        return Refused("6.33", "only a galley at Cruise Speed may Backwater")
    if mover.crippled:
        return Refused("6.37", "a Crippled galley may only move into a Bow/Flank hex")
    if leg.advanced:
        return Refused("6.33", "a galley that backwaters may use no forward motion or Facing Change that turn")
    paid = _pay(mover, leg, 2, step)
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
    return _enter(mover, paid, new, stern, End.STERN, backwatered=True)


def _facing_change(mover: Mover, leg: Leg, step: FacingChange) -> Leg | Refused:
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
    paid = _pay(mover, leg, 1, step)
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
    return _enter(mover, paid, new, entered, end, advanced=True, faced=True)


def _turn_around(mover: Mover, leg: Leg, step: TurnAround) -> Leg | Refused:
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
    paid = _pay(mover, leg, 2, step)
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


def _raise_sails(mover: Mover, leg: Leg, step: RaiseSails) -> Leg | Refused:
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
    paid = _pay(mover, leg, 0 if mover.tremiola else 1, step, moving=False)
    if isinstance(paid, Refused):
        return paid
    return replace(paid, sails_up=True, sail_set=True)


def _lower_sails(mover: Mover, leg: Leg, step: LowerSails) -> Leg | Refused:
    early = _sail_check(mover, leg)
    if early is not None:
        return early
    if not leg.sails_up:
        return Refused("6.21", f"{mover.galley.id} is not under sail")
    paid = _pay(mover, leg, 0 if mover.tremiola else 1, step, moving=False)
    if isinstance(paid, Refused):
        return paid
    return replace(paid, sails_up=False, sail_set=True)


StepRule = Callable[[Mover, Leg, Step], "Leg | Refused"]

_RULES: dict[type[Step], StepRule] = {
    Forward: _forward,  # type: ignore[dict-item]
    BowFlank: _bow_flank,  # type: ignore[dict-item]
    Backwater: _backwater,  # type: ignore[dict-item]
    FacingChange: _facing_change,  # type: ignore[dict-item]
    TurnAround: _turn_around,  # type: ignore[dict-item]
    RaiseSails: _raise_sails,  # type: ignore[dict-item]
    LowerSails: _lower_sails,  # type: ignore[dict-item]
}


def register_step(kind: type[Step], rule: StepRule) -> None:
    """Give a new step kind (a later rule: ram, rake, Pass-Through...) its rule."""
    _RULES[kind] = rule


def advance(mover: Mover, leg: Leg, step: Step) -> Leg | Refused:
    """The galley's progress after `step`, or why it may not take it."""
    if leg.ended is not None:
        return Refused("6.13", f"{mover.galley.id} has {_ENDED[leg.ended]}: it moves no further")
    rule = _RULES.get(type(step))
    if rule is None:
        return Refused("6.32", f"no rule for a {type(step).__name__} step")
    return rule(mover, leg, step)


# --- plans -------------------------------------------------------------------

_NAMES: dict[type[Step], str] = {
    Forward: "moving forward",
    BowFlank: "moving into a Bow/Flank hex",
    Backwater: "backwatering",
    FacingChange: "a Facing Change",
    TurnAround: "turning around",
    RaiseSails: "raising sails",
    LowerSails: "lowering sails",
}


def describe(step: Step) -> str:
    return _NAMES.get(type(step), type(step).__name__)


def mover_for(surroundings: Surroundings, galley: Galley, plan: Plan) -> Mover:
    """The mover for `plan`, after checking the plan is this galley's, at its speed side (6.12)."""
    if plan.galley != galley.id:
        raise IllegalOrder("6.13", f"the plan is for {plan.galley}, not {galley.id}")
    if plan.speed is not galley.speed:
        side = galley.speed.name.title()
        raise IllegalOrder("6.12", f"{galley.id} is at {side} Speed this turn (chosen in phase D)")
    return Mover(surroundings, galley)


def check_plan(surroundings: Surroundings, galley: Galley, plan: Plan) -> list[Leg]:
    """The galley's progress after each step of a legal plan, start first; IllegalOrder if illegal.

    The message says which step failed, e.g. "6.33: step 3 (F): a galley that
    backwaters may not move forward that turn".
    """
    mover = mover_for(surroundings, galley, plan)
    leg = begin(mover, plan.mp)
    if isinstance(leg, Refused):
        raise leg.error()
    legs = [leg]
    for number, step in enumerate(plan.steps, 1):
        leg = advance(mover, leg, step)
        if isinstance(leg, Refused):
            raise IllegalOrder(leg.rule, f"step {number} ({describe(step)}): {leg.reason}")
        legs.append(leg)
    done = finish(mover, leg)
    if done is not None:
        raise done.error()
    return legs


class Stepped(Event, frozen=True, kw_only=True):
    """A galley took one step of its plan (6.32): where it ended and MP spent so far."""

    galley: GalleyId
    step: Step
    position: Position
    spent: int


class RanAground(Event, frozen=True, kw_only=True):
    """6.31: the galley entered land or coast and is stuck there."""

    galley: GalleyId
    hex: Hex


class LeftMap(Event, frozen=True, kw_only=True):
    """9.1: the galley left the map for good."""

    galley: GalleyId


class MarkerRemoved(Event, frozen=True, kw_only=True):
    """A marker taken off because its time is up (e.g. Half Speed after the next movement, 6.37)."""

    galley: GalleyId
    marker: str


def move(surroundings: Surroundings, galley: Galley, plan: Plan) -> tuple[Galley, list[Event]]:
    """Carry out a movement plan: the galley afterwards and what happened. No dice are needed."""
    legs = check_plan(surroundings, galley, plan)
    events: list[Event] = [
        Stepped(rule=_STEP_RULES.get(type(step), "6.32"), galley=galley.id, step=step,
                position=leg.position, spent=leg.spent)
        for step, leg in zip(plan.steps, legs[1:])
    ]
    last = legs[-1]
    record = MoveRecord(plan.mp, last.spent, last.turns, last.backwatered, last.faced)
    changes: dict[str, object] = {"moved": record, "sails_up": last.sails_up, "position": last.position}
    if galley.half_speed:
        changes["half_speed"] = False
        events.append(MarkerRemoved(rule="6.37", galley=galley.id, marker="Half Speed"))
    if last.ended is Ending.AGROUND:
        assert last.aground_end is not None
        changes["aground"] = Aground(last.aground_end, surroundings.turn)
        struck = last.position.bow if last.aground_end is End.BOW else last.position.stern
        events.append(RanAground(rule="6.31", galley=galley.id, hex=struck))
    elif last.ended is Ending.EXITED:
        changes.update(position=None, removed=Removal.EXITED)
        events.append(LeftMap(rule="9.1", galley=galley.id))
    return replace(galley, **changes), events


_STEP_RULES: dict[type[Step], str] = {
    Backwater: "6.33",
    FacingChange: "6.34",
    TurnAround: "6.35",
    RaiseSails: "6.21",
    LowerSails: "6.21",
}
