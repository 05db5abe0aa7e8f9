"""Movement plans with combat: the Ram, Rake, Pass-Through and Anastrophe steps, and running a plan.

The step kinds are `engine.steps.Step` subclasses (defined in engine.steps so
that plans decode; re-exported here). Each is registered with
`engine.movement.register_step` for its movement effect only (what
`movement.advance` can judge from `Surroundings`): a Ram or Rake costs no MP
and moves nothing; a Pass-Through costs 2 MP and moves two hexes dead ahead
through its target; an Anastrophe is no movement at all, so `advance` refuses
it. Their full legality needs the whole battlefield: `check_combat_plan`.

`execute_plan` runs a plan step by step with the dice:
- movement steps through `engine.movement.advance`;
- after each step that moved the galley, the inactive side reacts as its
  standing orders say (`engine.reactions.respond_to_move`): Defensive
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

from engine.anastrophe import anastrophe_refusal, resolve_anastrophe
from engine.avoidance import avoidance_refusal, can_succeed
from engine.board import Board
from engine.charts import Charts
from engine.combat_record import CombatOptions, CombatRecord
from engine.diekplus import clear_of_ships, pass_through_plan, passage, passed
from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import Event
from engine.galley import Aground, Colour, End, Galley, GalleyId, MoveRecord, Removal
from engine.hexes import neighbour
from engine.leg import pay
from engine.movement import (
    Ending,
    LeftMap,
    Leg,
    MarkerRemoved,
    Mover,
    RanAground,
    Refused,
    Stepped,
    advance,
    begin,
    finish,
    mover_for,
    register_step,
    surroundings,
)
from engine.position import Position, Side
from engine.raking import RakeMissed, rake_pass, rake_refusal, resolve_rake
from engine.ramming import FirepotsHook, RamMissed, RamResult, ram_refusal, resolve_ram
from engine.ratings import SpeedSide
from engine.speed import sail_bonus
from engine.reactions import ReactionFireHook, ReactionOrders, fire_back, respond_to_move
from engine.steps import (
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

# --- the step kinds (engine.steps) ------------------------------------------------


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
    return Refused("7.31", "an Anastrophe follows no movement rule; engine.combat_steps.execute_plan runs it")


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


def _mover(ctx: _Context, field: Mapping[GalleyId, Galley]) -> Mover:
    around = surroundings(ctx.board, field.values(), ctx.start, ctx.options.wind, ctx.options.turn, ctx.charts)
    return Mover(around, ctx.start)


def _fail(number: int, step: Step, refusal: Refused) -> IllegalOrder:
    return IllegalOrder(refusal.rule, f"step {number} ({describe_step(step)}): {refusal.reason}")


def _walk(ctx: _Context, field: dict[GalleyId, Galley], leg: Leg, first: int,
          last_move: Step | None, before: Position | None, passing: bool) -> None:
    """Check steps from index `first` as if no one reacted; a Ram also checks its Missed continuation."""
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
        return
    leg = begin(mover, plan.mp)
    if isinstance(leg, Refused):
        raise leg.error()
    _walk(ctx, dict(galleys), leg, 0, None, None, False)


# --- running ---------------------------------------------------------------------------


class _Run:
    """One plan's execution: the battlefield as it changes, the mover's progress, the events."""

    def __init__(self, board: Board, galleys: Mapping[GalleyId, Galley], plan: Plan, charts: Charts, dice: Dice,
                 reactions: Mapping[Colour, ReactionOrders], options: CombatOptions, record: CombatRecord,
                 firepots: FirepotsHook | None, reaction_fire: ReactionFireHook | None) -> None:
        self.ctx = _Context(board, charts, options, record, plan, galleys[plan.galley])
        self.dice, self.reactions = dice, reactions
        self.firepots, self.reaction_fire = firepots, reaction_fire
        self.field = dict(galleys)
        self.record = record
        self.events: list[Event] = []
        self.id = plan.galley
        leg = begin(_mover(self.ctx, self.field), plan.mp)
        assert not isinstance(leg, Refused)  # checked
        self.leg: Leg = leg
        self.end = PlanEnd.COMPLETED
        self.ram: RamResult | None = None
        self.halted: str | None = None
        self.taken = 0
        self.avoided: set[GalleyId] = set()
        self.last_move: Step | None = None
        self.before: Position | None = None  # where the last move started, for a Rake (7.21)
        self.pending: tuple[GalleyId, Side, Position] | None = None  # Pass-Through rake, and where it began

    # -- helpers --

    def galley(self) -> Galley:
        return self.field[self.id]

    def sync(self) -> None:
        self.field[self.id] = _at(self.galley(), self.leg)

    def halt(self, number: int, step: Step, refusal: Refused) -> bool:
        reason = f"{describe_step(step)} is no longer possible: {refusal.reason}"
        self.events.append(PlanHalted(rule=refusal.rule, galley=self.id, step=number, reason=reason))
        self.end, self.halted = PlanEnd.HALTED, f"{refusal.rule}: {reason}"
        return False

    def react(self, before: Position) -> bool:
        """The inactive side's reactions to the move from `before`; False if the mover was stopped."""
        ctx = self.ctx
        response = respond_to_move(ctx.board, self.field, self.id, before, ctx.charts, self.dice, self.record,
                                   self.reactions, ctx.options, mover_faced=self.leg.faced)
        self.field, self.record = response.galleys, response.record
        self.events += response.events
        self.avoided |= response.avoided
        if response.extra_mp:
            spent = min(self.leg.spent + response.extra_mp, self.leg.budget)
            self.events.append(MPExpended(rule="6.7", galley=self.id, mp=spent - self.leg.spent))
            self.leg = replace(self.leg, spent=spent)
        if response.mover_rammed:
            self.end = PlanEnd.WAS_RAMMED
            return False
        self.rake_when_clear()
        return True

    def rake_when_clear(self) -> None:
        if self.pending is None or not clear_of_ships(self.field, self.galley()):
            return
        target_id, side, _ = self.pending
        self.pending = None
        target = self.field[target_id]
        refusal = rake_refusal(self.galley(), target, sails_up=self.leg.sails_up)
        if target_id in self.avoided or refusal is not None:
            reason = "it avoided" if target_id in self.avoided else refusal.reason if refusal else ""
            self.events.append(RakeMissed(rule="7.25", raker=self.id, target=target_id, reason=reason))
            return
        self.rake(target_id, side)

    def rake(self, target_id: GalleyId, side: Side) -> None:
        field, more, self.record = fire_back(self.field, target_id, self.id, "rake", self.dice, self.record,
                                             self.reactions, self.reaction_fire)
        self.events += more
        field, more, _, self.record = resolve_rake(field, self.id, target_id, side, self.ctx.charts, self.dice,
                                                   self.record, sails_up=self.leg.sails_up)
        self.field = field
        self.events += more

    # -- the steps --

    def take(self, number: int, step: Step) -> bool:
        if isinstance(step, Ram):
            return self.take_ram(number, step)
        if isinstance(step, Rake):
            return self.take_rake(number, step)
        if isinstance(step, PassThrough):
            found = pass_through_plan(self.ctx.board, self.field, self.galley(), step.target, step.side, step.rake,
                                      entered_turning=isinstance(self.last_move, BowFlank),
                                      sails_up=self.leg.sails_up)
            if isinstance(found, Refused):
                return self.halt(number, step, found)
        before = self.leg.position
        after = advance(_mover(self.ctx, self.field), self.leg, step)
        if isinstance(after, Refused):
            return self.halt(number, step, after)
        if isinstance(step, PassThrough):
            self.pending = (*found, before)
        self.leg, self.before, self.last_move = after, before, step
        self.sync()
        self.taken = number
        if isinstance(step, PassThrough):
            self.events.append(PassedThrough(rule="7.25", galley=self.id, target=step.target,
                                             position=after.position))
        else:
            self.events.append(Stepped(rule=_STEP_RULES.get(type(step), "6.32"), galley=self.id, step=step, position=after.position,
                                       spent=after.spent))
        if after.ended is not None:
            self.end = PlanEnd.AGROUND if after.ended is Ending.AGROUND else PlanEnd.EXITED
            return False
        return self.react(before)

    def take_ram(self, number: int, step: Ram) -> bool:
        ctx = self.ctx
        target = self.field.get(step.target)
        refusal = Refused("7.1", f"no galley {step.target}") if target is None else \
            ram_refusal(ctx.charts, self.galley(), target, self.record, faced=self.leg.faced)
        if refusal is not None:
            if step.target in self.avoided:
                self.events.append(RamMissed(rule="7.16", rammer=self.id, target=step.target))
                self.taken = number
                return True  # the ram never happened: the galley must keep moving (6.13)
            return self.halt(number, step, refusal)
        self.field, more, self.record = fire_back(self.field, step.target, self.id, "ram", self.dice, self.record,
                                                  self.reactions, self.reaction_fire)
        self.events += more
        # 7.15 vs 6.23 reading: the wind's MP (6.22, 6.25) are no head of steam; under sail the excess counts
        # over Cruise Speed plus the sail's MP ("at considerably reduced capability").
        start = ctx.start
        wind_mp = sail_bonus(start, start.speed, ctx.options.wind, self.leg.sails_up,
                             start.position.facing) if start.position is not None else 0
        self.field, more, self.ram, self.record = resolve_ram(
            ctx.board, self.field, self.id, step.target, ctx.charts, self.dice, self.record,
            mp_used=max(0, self.leg.spent - wind_mp), turns=self.leg.turns, retreat=step.retract, firepots=self.firepots,
            options=ctx.options, check=False,
        )
        self.events += more
        self.taken = number
        self.end = PlanEnd.RAMMED
        return False

    def take_rake(self, number: int, step: Rake) -> bool:
        target = self.field.get(step.target)
        side = None
        if target is not None and target.position is not None and self.before is not None:
            side = rake_pass(self.before, self.leg.position, target.position)
        if side is None or (step.side is not None and step.side is not side):
            if step.target in self.avoided:
                self.events.append(RakeMissed(rule="7.21", raker=self.id, target=step.target, reason="it avoided"))
                self.taken, self.before = number, None
                return True
            return self.halt(number, step, Refused("7.21", f"the move just made is no pass along {step.target}"))
        refusal = rake_refusal(self.galley(), self.field[step.target], sails_up=self.leg.sails_up)
        if refusal is not None:
            return self.halt(number, step, refusal)
        self.rake(step.target, side)
        self.taken, self.before = number, None
        return True

    # -- the end --

    def finish(self) -> tuple[dict[GalleyId, Galley], list[Event], PlanOutcome]:
        ctx, leg = self.ctx, self.leg
        galley = self.galley()
        if self.pending is not None and not clear_of_ships(self.field, galley):
            # 7.25: it could not end clear; the Pass-Through cannot have happened.
            origin = self.pending[2]
            self.events.append(PlanHalted(rule="7.25", galley=self.id, step=self.taken,
                                          reason="it could not end clear of all ships: back where it began the "
                                                 "Pass-Through, without its Rake"))
            galley = replace(galley, position=origin)
        changes: dict[str, object] = {"moved": MoveRecord(ctx.plan.mp, leg.spent, leg.turns, leg.backwatered,
                                                          leg.faced)}
        if ctx.start.half_speed and galley.half_speed:
            changes["half_speed"] = False
            self.events.append(MarkerRemoved(rule="6.37", galley=self.id, marker="Half Speed"))
        if leg.ended is Ending.AGROUND and galley.position is not None:
            assert leg.aground_end is not None
            changes["aground"] = Aground(leg.aground_end, ctx.options.turn)
            struck = galley.position.bow if leg.aground_end is End.BOW else galley.position.stern
            self.events.append(RanAground(rule="6.31", galley=self.id, hex=struck))
        elif leg.ended is Ending.EXITED:
            changes.update(position=None, removed=Removal.EXITED)
            self.events.append(LeftMap(rule="9.1", galley=self.id))
        self.field[self.id] = replace(galley, **changes)
        if leg.faced:
            self.record = self.record.with_faced(self.id)
        outcome = PlanOutcome(end=self.end, record=self.record, spent=leg.spent, steps_taken=self.taken,
                              ram=self.ram, halted=self.halted)
        return self.field, self.events, outcome


def execute_plan(
    board: Board,
    galleys: Mapping[GalleyId, Galley],
    plan: Plan,
    charts: Charts,
    dice: Dice,
    reactions: Mapping[Colour, ReactionOrders] | None = None,
    options: CombatOptions = CombatOptions(),
    *,
    record: CombatRecord = CombatRecord(),
    firepots: FirepotsHook | None = None,
    reaction_fire: ReactionFireHook | None = None,
    after_step: AfterStepHook | None = None,
) -> tuple[dict[GalleyId, Galley], list[Event], PlanOutcome]:
    """Run `plan` with the dice; IllegalOrder (before any die) if it is illegal as things stand.

    `after_step(number, galleys, record)` is called after each step taken (and
    the reactions to it) while the galley goes on: the turn code's Missile
    Fire during movement (8.42). It returns the galleys, its events and the record.
    """
    check_combat_plan(board, galleys, plan, charts, options, record)
    orders = reactions or {}
    first: Step | None = plan.steps[0] if plan.steps else None
    if isinstance(first, Anastrophe):
        done = resolve_anastrophe(board, galleys, plan.galley, first.target, charts, dice, record, orders, options,
                                  side=first.side, retreat=first.retract, announced=plan.mp, firepots=firepots,
                                  reaction_fire=reaction_fire)
        moved = done.galleys[plan.galley].moved
        outcome = PlanOutcome(end=PlanEnd.ANASTROPHE, record=done.record, spent=moved.spent if moved else plan.mp,
                              steps_taken=1, ram=done.result)
        return done.galleys, done.events, outcome
    run = _Run(board, galleys, plan, charts, dice, orders, options, record, firepots, reaction_fire)
    for number, step in enumerate(plan.steps, 1):
        if not run.take(number, step):
            break
        if after_step is not None:
            field, more, run.record = after_step(number, dict(run.field), run.record)
            run.field = dict(field)
            run.events += more
    return run.finish()
