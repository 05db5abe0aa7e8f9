"""Movement plans with combat: the Ram, Rake, Pass-Through and Anastrophe steps, and running a plan.

The step kinds are `engine.war_galley.movement.steps.Step` subclasses (defined in engine.war_galley.movement.steps so
that plans decode; re-exported here). Each is registered with
`engine.war_galley.movement.moving.register_step` for its movement effect only (what
`movement.advance` can judge from `Surroundings`): a Ram or Rake costs no MP
and moves nothing; a Pass-Through costs 2 MP and moves two hexes dead ahead
through its target; an Anastrophe is no movement at all, so `advance` refuses
it. Their full legality needs the whole battlefield: `check_combat_plan`.

`execute_plan` runs a plan step by step with the dice:
- movement steps through `engine.war_galley.movement.moving.advance`;
- after each step that moved the galley, the inactive side reacts as its
  standing orders say (`engine.war_galley.galley_combat.reactions.respond_to_move`): Defensive
  Reaction Rams (6.7, if the game uses them), then Avoidance (6.51);
- Ram: any result ends the galley's movement and its announced-MP
  obligation (6.13); a target that avoided out of the ram's line is Missed
  and the galley goes on with the steps after the Ram (7.16);
- Rake: one attempt for the move just made, then the galley goes on (7.23);
- Pass-Through: the Rake is resolved once the galley stands clear (7.25);
- a step made illegal by a result (an avoiding galley in the way, the MP a
  failed reaction ram cost) stops the galley with a `PlanHalted` event.

Everything that can be checked is checked before the first die
(`check_combat_plan`, which raises IllegalOrder); after that no exception.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import NamedTuple

import msgspec
from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.events import Event
from engine.war_galley.galley_combat.anastrophe import anastrophe_refusal
from engine.war_galley.galley_combat.avoidance import avoidance_refusal, can_succeed
from engine.war_galley.galley_combat.combat_record import CombatOptions, CombatRecord
from engine.war_galley.galley_combat.diekplus import clear_of_ships, pass_through_plan, passage, passed
from engine.war_galley.galley_combat.kept import Kept, others
from engine.war_galley.galley_combat.raking import rake_pass, rake_refusal
from engine.war_galley.galley_combat.ramming import RamResult, ram_refusal
from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.charts import Charts
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.map_and_galleys.hexes import neighbour
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.leg import pay
from engine.war_galley.movement.moving import (
    Ending,
    Leg,
    Mover,
    Refused,
    advance,
    begin,
    finish,
    mover_for,
    register_step,
    surroundings,
)
from engine.war_galley.movement.steps import (
    Anastrophe,
    Backwater,
    BowFlank,
    CombatStep,
    FacingChange,
    Forward,
    LowerSails,
    PassThrough,
    Plan,
    RaiseSails,
    Rake,
    Ram,
    Step,
    TurnAround,
    describe,
)

_STEP_RULES: dict[type[Step], str] = {
    Backwater: "6.33", FacingChange: "6.34", TurnAround: "6.35", RaiseSails: "6.21", LowerSails: "6.21",
}

# --- the step kinds (engine.war_galley.movement.steps) ------------------------------------------------


def describe_step(step: Step) -> str:
    """Words for refusals: "ramming R5-3", "moving forward"."""
    target = getattr(step, "target", None)
    return f"{describe(step)} {target}" if isinstance(step, CombatStep) and target else describe(step)


# --- their movement effect ----------------------------------------------------------


def _ram_rule(mover: Mover, leg: Leg, step: Ram) -> Leg | Refused:
    if leg.faced:
        return Refused("7.12", "a galley that changed facing without moving this turn may not Ram")
    if mover.surroundings.occupied.get(neighbour(leg.position.bow, leg.position.facing)) != step.target:
        return Refused("7.12", f"the bow does not point at {step.target}")
    return leg


def _rake_rule(mover: Mover, leg: Leg, step: Rake) -> Leg | Refused:
    if leg.sails_up:
        return Refused("6.23", "a galley under sail may not Rake")
    return leg


def _pass_rule(mover: Mover, leg: Leg, step: PassThrough) -> Leg | Refused:
    if mover.speed is not SpeedSide.MAXIMUM:
        return Refused("7.24", "a Pass-Through needs Maximum Speed")
    if leg.backwatered:
        return Refused("6.33", "a galley that backwaters may not move forward that turn")
    paid = pay(mover, leg, mover.surroundings.fixed().pass_through.mp, step)  # 7.25
    if isinstance(paid, Refused):
        return paid
    board = mover.surroundings.board
    for h in passage(leg.position):
        occupant = mover.surroundings.occupied.get(h)
        if occupant not in (None, step.target):
            return Refused("6.6", f"{board.map.format(h)} is occupied by {occupant}")
        if occupant is None and not board.is_sea(h):
            return Refused("7.25", f"{board.map.format(h)} is not sea")
    return replace(paid, position=passed(leg.position), advanced=True)


def _anastrophe_rule(mover: Mover, leg: Leg, step: Anastrophe) -> Leg | Refused:
    return Refused("7.31", "an Anastrophe follows no movement rule; engine.war_galley.galley_combat.execute_plan.execute_plan runs it")


register_step(Ram, _ram_rule)  # type: ignore[arg-type]
register_step(Rake, _rake_rule)  # type: ignore[arg-type]
register_step(PassThrough, _pass_rule)  # type: ignore[arg-type]
register_step(Anastrophe, _anastrophe_rule)  # type: ignore[arg-type]

# --- events and outcome ------------------------------------------------------------


class PlanHalted(Event, frozen=True, kw_only=True):
    """A result made the plan's next step illegal: the galley stops here (`rule` says why)."""

    galley: GalleyId
    step: int  # 1-based, as in the order
    reason: str


class PassedThrough(Event, frozen=True, kw_only=True):
    """7.25: the galley rowed through `target`; its Rake comes once it stands clear."""

    galley: GalleyId
    target: GalleyId
    position: Position


class MPExpended(Event, frozen=True, kw_only=True):
    """MP spent without moving: the failed Defensive Reaction Ram's 1 MP (6.7)."""

    galley: GalleyId
    mp: int


# Called after each step a galley takes: (step number, galleys, record) -> (galleys, events, record).
AfterStepHook = Callable[[int, dict[GalleyId, Galley], CombatRecord],
                         tuple[Mapping[GalleyId, Galley], list[Event], CombatRecord]]


class PlanEnd(enum.Enum):
    COMPLETED = "completed"  # every step taken
    RAMMED = "rammed"  # it made its Ram attempt: movement over (6.13)
    WAS_RAMMED = "was-rammed"  # a Defensive Reaction Ram stopped it (6.7)
    HALTED = "halted"  # a result made a step illegal
    AGROUND = "aground"  # 6.31
    EXITED = "exited"  # 9.1
    ANASTROPHE = "anastrophe"  # 7.3


class PlanOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """How the plan ended, the updated CombatRecord and the MP the galley spent (for 6.42)."""

    end: PlanEnd
    record: CombatRecord
    spent: int
    steps_taken: int
    ram: RamResult | None = None
    halted: str | None = None  # "rule: reason"


# --- checking before any die -----------------------------------------------------------


class _Context(NamedTuple):
    board: Board
    charts: Charts
    options: CombatOptions
    record: CombatRecord
    plan: Plan
    start: Galley  # the mover as it began


def _at(galley: Galley, leg: Leg) -> Galley:
    return replace(galley, position=leg.position, sails_up=leg.sails_up)


# One plan is checked and run against the same other galleys several times over (the referee's check,
# the segment's own check, the run and its every step): the mover and its surroundings are kept while
# the galleys around it are the same (a few: a Ram's Missed continuation checks without its target).
_movers: Kept[Mover] = Kept(8)


def _mover(ctx: _Context, field: Mapping[GalleyId, Galley]) -> Mover:
    """The moving galley (as it began) among the others of `field`."""
    around_me = others(field, ctx.start.id)
    # What the surroundings and the speed limits are made of: the galley as it began, the board, the charts,
    # the wind and the turn.
    key = (ctx.start, ctx.board, ctx.charts, ctx.options.wind, ctx.options.turn)
    kept = _movers.find(key, around_me)
    if kept is not None:
        return kept
    around = surroundings(ctx.board, field.values(), ctx.start, ctx.options.wind, ctx.options.turn, ctx.charts)
    return _movers.keep(key, around_me, Mover(around, ctx.start))


# 7.25 (version 2): the Pass-Through "must then have sufficient MP remaining so that it reaches a hex location
# not occupied by any other ships": a galley leaving the map before it stands clear reaches none, so the move
# is refused (version 1 let it go and dropped the Rake; docs/rules-notes.md).
OFF_THE_MAP = Refused("7.25", "a Pass-Through must reach a hex clear of all ships; this one leaves the map "
                              "before the galley stands clear of the line")


def _fail(number: int, step: Step, refusal: Refused) -> IllegalOrder:
    return IllegalOrder(refusal.rule, f"step {number} ({describe_step(step)}): {refusal.reason}")


def _walk(ctx: _Context, field: dict[GalleyId, Galley], leg: Leg, first: int,
          last_move: Step | None, before: Position | None, passing: bool,
          track: list[Position | None] | None = None) -> None:
    """Check steps from index `first` as if no one reacted; a Ram also checks its Missed continuation.
    `track`: the walk from the start appends where each step leaves the galley, up to a Ram or the end of
    its movement (`plan_positions`)."""
    steps = ctx.plan.steps
    mover = _mover(ctx, field)  # the field does not change along this walk
    for index in range(first, len(steps)):
        step, number = steps[index], index + 1
        galley = _at(ctx.start, leg)
        if isinstance(step, Anastrophe):
            raise IllegalOrder("7.31", f"step {number}: an Anastrophe is the galley's sole manoeuvre")
        if isinstance(step, Ram):
            if passing:
                raise _fail(number, step, Refused("7.25", "the galley is still passing through"))
            target = field.get(step.target)
            if target is None:
                raise _fail(number, step, Refused("7.1", f"no galley {step.target} in this battle"))
            refusal = ram_refusal(ctx.charts, galley, target, ctx.record, faced=leg.faced)
            limit = mover.limit(leg.sails_up)
            if refusal is None and leg.announced is not None and leg.announced > limit.mp:
                refusal = Refused(limit.rule, f"{limit.reason}; {leg.announced} MP announced")
            if refusal is not None:
                raise _fail(number, step, refusal)
            rest = steps[index + 1:]
            may_miss = avoidance_refusal(target) is None and can_succeed(ctx.charts, target)
            owed = leg.announced is not None and leg.spent < leg.announced
            if not rest and may_miss and owed:
                raise _fail(number, step, Refused(
                    "6.13", f"if {step.target} avoids (7.16 Missed) the galley must go on spending its "
                    f"{leg.announced} MP: add the steps it takes then"))
            if rest:  # the Missed continuation: the target has gone
                vacated = {k: v for k, v in field.items() if k != step.target}
                _walk(ctx, vacated, leg, index + 1, last_move, None, passing)
            return
        if isinstance(step, Rake):
            target = field.get(step.target)
            if target is None or target.position is None:
                raise _fail(number, step, Refused("7.21", f"{step.target} is not on the map"))
            side = rake_pass(before, leg.position, target.position) if before is not None else None
            if side is None or not isinstance(last_move, (Forward, BowFlank)) or passing:
                raise _fail(number, step, Refused("7.21", f"the move just made is no pass along {step.target}"))
            if step.side is not None and step.side is not side:
                raise _fail(number, step, Refused("7.21", f"that pass rakes the {side.value} side"))
            refusal = rake_refusal(galley, target, sails_up=leg.sails_up)
            if refusal is not None:
                raise _fail(number, step, refusal)
            before = None  # one Rake a pass (7.23)
            if track is not None:  # the Rake's own step rule moves nothing, and refuses under sail
                if leg.sails_up:
                    track = None
                else:
                    track.append(leg.position)
            continue
        if isinstance(step, PassThrough):
            if passing:
                raise _fail(number, step, Refused("7.25", "the galley is still passing through"))
            found = pass_through_plan(ctx.board, field, galley, step.target, step.side, step.rake,
                                      entered_turning=isinstance(last_move, BowFlank), sails_up=leg.sails_up)
            if isinstance(found, Refused):
                raise _fail(number, step, found)
        after = advance(mover, leg, step)
        if isinstance(after, Refused):
            raise _fail(number, step, after)
        if after.ended is Ending.EXITED and (passing or isinstance(step, PassThrough)) and ctx.options.rules_version >= 2:
            raise _fail(number, step, OFF_THE_MAP)
        if track is not None:
            track.append(None if after.ended is Ending.EXITED else after.position)
            track = track if after.ended is None else None
        before, last_move, leg = leg.position, step, after
        passing = (passing or isinstance(step, PassThrough)) and not clear_of_ships(field, _at(ctx.start, leg))
    done = finish(mover, leg)
    if done is not None:
        raise done.error()
    if passing:
        raise IllegalOrder("7.25", "after a Pass-Through the galley must end its movement clear of all ships")


def check_combat_plan(
    board: Board,
    galleys: Mapping[GalleyId, Galley],
    plan: Plan,
    charts: Charts,
    options: CombatOptions = CombatOptions(),
    record: CombatRecord = CombatRecord(),
) -> None:
    """IllegalOrder if `plan` is illegal as things stand (no reactions assumed); needs no dice."""
    plan_positions(board, galleys, plan, charts, options, record)


def plan_positions(
    board: Board,
    galleys: Mapping[GalleyId, Galley],
    plan: Plan,
    charts: Charts,
    options: CombatOptions = CombatOptions(),
    record: CombatRecord = CombatRecord(),
) -> tuple[Position | None, ...]:
    """`check_combat_plan`, and where the legal plan leaves the galley after each step if no one reacts
    (start first; a Ram ends it; None once it has left the map, 9.1), from the check's own walk: the
    segment's check, its restricted-movement rules and the legal listing read them."""
    # The turn code checks a plan when it is given and again when it is run, and the run checks it once
    # more: a plan found legal is known legal while the galleys are the same.
    key, field = (board, plan, charts, options, record), tuple(galleys.values())
    found = _legal.find(key, field)
    if found is None:
        found = _legal.keep(key, field, _check_combat_plan(board, galleys, plan, charts, options, record))
    return found


_legal: Kept[tuple[Position | None, ...]] = Kept(8)


def _check_combat_plan(board: Board, galleys: Mapping[GalleyId, Galley], plan: Plan, charts: Charts,
                       options: CombatOptions, record: CombatRecord) -> tuple[Position | None, ...]:
    galley = galleys.get(plan.galley)
    if galley is None:
        raise IllegalOrder("6.13", f"no galley {plan.galley} in this battle")
    ctx = _Context(board, charts, options, record, plan, galley)
    mover = mover_for(_mover(ctx, galleys).surroundings, galley, plan)
    anastrophes = [step for step in plan.steps if isinstance(step, Anastrophe)]
    if anastrophes:
        if len(plan.steps) != 1:
            raise IllegalOrder("7.31", "an Anastrophe is the galley's sole manoeuvre: no other steps")
        step = anastrophes[0]
        found = anastrophe_refusal(board, galleys, galley, step.target, charts, record, side=step.side,
                                   announced=plan.mp, options=options)
        if isinstance(found, Refused):
            raise _fail(1, step, found)
        return (galley.position, found.placement)
    leg = begin(mover, plan.mp)
    if isinstance(leg, Refused):
        raise leg.error()
    track: list[Position | None] = [leg.position]
    _walk(ctx, dict(galleys), leg, 0, None, None, False, track)
    return tuple(track)
