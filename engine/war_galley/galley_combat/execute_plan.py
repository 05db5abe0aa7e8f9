"""Running a movement plan with combat, step by step with the dice (6.13, 7.1-7.3, 6.5, 6.7).

The plan has been checked (engine.war_galley.galley_combat.combat_steps.check_combat_plan)
before this runs; after the first die nothing raises.
"""

from __future__ import annotations

from collections.abc import Mapping

from msgspec.structs import replace

from engine.dice import Dice
from engine.events import Event
from engine.war_galley.galley_combat.anastrophe import resolve_anastrophe
from engine.war_galley.galley_combat.combat_record import CombatOptions, CombatRecord
from engine.war_galley.galley_combat.combat_steps import (
    _STEP_RULES,
    AfterStepHook,
    OFF_THE_MAP,
    MPExpended,
    PassedThrough,
    PlanEnd,
    PlanHalted,
    PlanOutcome,
    _at,
    _Context,
    _mover,
    check_combat_plan,
    describe_step,
)
from engine.war_galley.galley_combat.diekplus import clear_of_ships, pass_through_plan
from engine.war_galley.galley_combat.raking import RakeMissed, rake_pass, rake_refusal, resolve_rake
from engine.war_galley.galley_combat.ramming import (
    FirepotsHook,
    RamMissed,
    RamResult,
    ram_mp_used,
    ram_refusal,
    resolve_ram,
)
from engine.war_galley.galley_combat.reactions import ReactionFireHook, ReactionOrders, fire_back, respond_to_move
from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.charts import Charts
from engine.war_galley.map_and_galleys.galley import Aground, Colour, End, Galley, GalleyId, MoveRecord, Removal
from engine.war_galley.map_and_galleys.position import Position, Side
from engine.war_galley.movement.moving import (
    Ending,
    LeftMap,
    Leg,
    MarkerRemoved,
    RanAground,
    Refused,
    Stepped,
    advance,
    begin,
)
from engine.war_galley.movement.speed import wind_mp
from engine.war_galley.movement.steps import Anastrophe, BowFlank, PassThrough, Plan, Rake, Ram, Step

# --- running ---------------------------------------------------------------------------


class _Run:
    """One plan's execution: the battlefield as it changes, the mover's progress, the events."""

    def __init__(self, board: Board, galleys: Mapping[GalleyId, Galley], plan: Plan, charts: Charts, dice: Dice,
                 reactions: Mapping[Colour, ReactionOrders], options: CombatOptions, record: CombatRecord,
                 firepots: FirepotsHook | None, reaction_fire: ReactionFireHook | None,
                 reaction_firepots: FirepotsHook | None = None) -> None:
        self.ctx = _Context(board, charts, options, record, plan, galleys[plan.galley])
        self.dice, self.reactions = dice, reactions
        self.firepots, self.reaction_fire, self.reaction_firepots = firepots, reaction_fire, reaction_firepots
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

    def wind(self) -> int:
        """The MP the wind gives the mover (6.22, 6.25), with its sails as they are when it moves."""
        return wind_mp(self.ctx.start, self.ctx.options.wind, self.leg.sails_up)

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
        # 7.25: the Pass-Through rakes "during" the 2 MP through the line; its roll waits only for the galley to
        # stand clear. The move that clears it cannot give the galley just passed an Avoidance that undoes it.
        self.rake_when_clear()
        response = respond_to_move(ctx.board, self.field, self.id, before, ctx.charts, self.dice, self.record,
                                   self.reactions, ctx.options, mover_faced=self.leg.faced,
                                   firepots=self.reaction_firepots)
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
        if after.ended is Ending.EXITED and (self.pending is not None or isinstance(step, PassThrough)) \
                and self.ctx.options.rules_version >= 2:  # refused by the check; a reaction may bring it about
            return self.halt(number, step, OFF_THE_MAP)
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
            if after.ended is Ending.AGROUND:
                self.rake_when_clear()  # 7.25: aground beyond the line is clear of ships; the pass was made
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
        self.field, more, self.ram, self.record = resolve_ram(
            ctx.board, self.field, self.id, step.target, ctx.charts, self.dice, self.record,
            mp_used=ram_mp_used(ctx.start, self.leg.spent, ctx.options.wind, self.leg.sails_up),
            turns=self.leg.turns, retreat=step.retract, firepots=self.firepots,
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
                                                          leg.faced, self.wind())}
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
    reaction_firepots: FirepotsHook | None = None,
) -> tuple[dict[GalleyId, Galley], list[Event], PlanOutcome]:
    """Run `plan` with the dice; IllegalOrder (before any die) if it is illegal as things stand.

    `after_step(number, galleys, record)` is called after each step taken (and
    the reactions to it) while the galley goes on: the turn code's Missile
    Fire during movement (8.42). It returns the galleys, its events and the record.
    `reaction_firepots`: the firepots of a galley ramming the mover in reaction (8.53 with 6.7).
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
    run = _Run(board, galleys, plan, charts, dice, orders, options, record, firepots, reaction_fire, reaction_firepots)
    for number, step in enumerate(plan.steps, 1):
        if not run.take(number, step):
            break
        if after_step is not None:
            field, more, run.record = after_step(number, dict(run.field), run.record)
            run.field = dict(field)
            run.events += more
    return run.finish()
