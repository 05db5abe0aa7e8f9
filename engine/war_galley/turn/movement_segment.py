"""The Movement Segment with combat (3.1 E/1; 6.5, 6.7, 7, 8.1, 8.3, 8.4, 8.5): each activated galley's orders.

One activation decision carries, per galley and in this order of play:

1. Grapple Disengage before moving (`disengage`, 8.32-8.34): free of every
   grapple, it has paid its MP or 2 and moves with the rest;
2. its movement plan with combat steps (engine.war_galley.galley_combat.execute_plan.execute_plan):
   Ram, Rake, Pass-Through, Anastrophe, Jettison Towers; the inactive side
   reacts by its standing orders (Avoidance, Defensive Reaction Ram,
   Reaction Fire at a rammer or raker); firepots with the Ram (8.53);
3. its Missile Fire (`fire`, 8.42): after step n of its plan (0: before it
   moves) or after its movement (may split, 8.43); each target answers with
   Reaction Fire, simultaneous, if its orders say so (fire=fired-upon);
4. a grapple attempt at the end of its movement (`grapple`, 8.11), which an
   adjacent target may answer with Reaction Fire (fire=attacked).

Galleys act one after another: those with a plan in plan order, then the
others in squadron order.

`check` refuses an illegal decision before any die: each galley's orders
are judged on the battlefield as the earlier galleys' orders would leave it
if no die went against them (disengages succeed, no one reacts, a ram ends
the rammer's movement where it rams and turns it to Cruise, no grapple
changes anything). `resolve` rolls. When a result makes a later order
impossible (the target avoided, the galley is still Grappled or Collided),
that order lapses with an `OrderLapsed` event naming the rule, and the
galley goes on with its next order.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import NamedTuple

from msgspec.structs import replace

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import Event
from engine.memo import by_identity
from engine.war_galley.galley_combat.combat_record import CombatRecord
from engine.war_galley.galley_combat.combat_steps import check_combat_plan, plan_positions
from engine.war_galley.galley_combat.execute_plan import execute_plan
from engine.war_galley.galley_combat.ramming import RamResolved, RamResult, Retracted
from engine.war_galley.galley_combat.reactions import (
    FireTrigger,
    fire_back,
    firepots_in_reaction,
    fires_flame_in_reaction,
    fires_in_reaction,
    orders_for,
)
from engine.war_galley.manpower_combat.battlefield import Field, Resolution
from engine.war_galley.manpower_combat.devices import firepot_armed
from engine.war_galley.manpower_combat.disengage import grapple_disengage
from engine.war_galley.manpower_combat.fire import drop_firepots
from engine.war_galley.manpower_combat.grappling import GrappleLine, attempt_grapple, check_grapple
from engine.war_galley.manpower_combat.manpower_orders import FireOrder, GrappleOrder, Shot
from engine.war_galley.manpower_combat.missiles import FireTiming, Provocation, Volley, check_fire, resolve_fire
from engine.war_galley.manpower_combat.towers import after_move, check_jettisons
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.leg import surroundings
from engine.war_galley.movement.speed import speed_limit
from engine.war_galley.movement.steps import Anastrophe, JettisonTowers, Plan, Ram
from engine.war_galley.turn.decisions import Activate, Missiles
from engine.war_galley.turn.state import GameState

PROVOKED = {"ram": Provocation.RAM, "rake": Provocation.RAKE, "grapple": Provocation.GRAPPLE}


class OrderLapsed(Event, frozen=True, kw_only=True):
    """A result made one of the galley's later orders impossible: it is not carried out (`rule` says why)."""

    galley: GalleyId
    order: str  # "grapple disengage", "movement", "missile fire", "grapple", "firepots", "boarding", "refloat"
    reason: str


class Orders(NamedTuple):
    """An activation's orders by galley, checked for duplicates and membership (kept for the decision and
    shared: read, never changed)."""

    plans: dict[GalleyId, Plan]
    fire: dict[GalleyId, Missiles]
    grapple: dict[GalleyId, GrappleOrder]
    disengage: frozenset[GalleyId]
    firepots: frozenset[GalleyId]
    sequence: tuple[GalleyId, ...]  # the order in which the galleys act


def _unique(ids: list[GalleyId], rule: str, what: str) -> None:
    if len(set(ids)) != len(ids):
        raise IllegalOrder(rule, f"one {what} per galley")


def orders_of(decision: Activate, members: Collection[GalleyId]) -> Orders:
    """The decision's orders by galley; IllegalOrder for a galley named twice or outside the squadron."""
    return _orders_of(decision, tuple(members))


@by_identity(4)  # worked out by the check and again by the resolution, of the same decision
def _orders_of(decision: Activate, members: tuple[GalleyId, ...]) -> Orders:
    kinds = (
        ([p.galley for p in decision.plans], "6.13", "movement plan"),
        (list(decision.disengage), "8.32", "grapple disengage"),
        ([m.order.galley for m in decision.fire], "8.42", "Missile Fire order"),
        ([o.galley for o in decision.grapple], "8.13", "grapple attempt"),
        (list(decision.firepots), "8.53", "firepots order"),
    )
    for ids, rule, what in kinds:
        _unique(ids, rule, what)
        for gid in ids:
            if gid not in members:
                raise IllegalOrder("5.41", f"{gid} is not in the activated squadron")
    planned = [p.galley for p in decision.plans]
    named = {gid for ids, _, _ in kinds for gid in ids}
    sequence = (*planned, *(g for g in members if g in named and g not in planned))
    return Orders(
        {p.galley: p for p in decision.plans}, {m.order.galley: m for m in decision.fire},
        {o.galley: o for o in decision.grapple}, frozenset(decision.disengage), frozenset(decision.firepots),
        sequence,
    )


def mp_available(state: GameState, galley: Galley, confusion: int = 0) -> int:
    """The MP `galley` could move with if free of its grapples (8.32), Orders Confusion included."""
    free = replace(galley, grappled_with=frozenset())
    return max(0, speed_limit(free, galley.speed, state.wind).mp + confusion)


def cut_grapples(field: dict[GalleyId, Galley], gid: GalleyId) -> None:
    for partner in field[gid].grappled_with:
        other = field[partner]
        field[partner] = replace(other, grappled_with=other.grappled_with - {gid})
    field[gid] = replace(field[gid], grappled_with=frozenset())


def rams(plan: Plan | None) -> bool:
    return plan is not None and any(isinstance(s, (Ram, Anastrophe)) for s in plan.steps)


def _rammers(pairs: Collection[tuple[GalleyId, GalleyId]], gid: GalleyId) -> tuple[GalleyId, ...]:
    """7.16: every galley that rammed `gid` (pairs are (target, rammer)); a galley may be rammed by several."""
    return tuple(rammer for target, rammer in pairs if target == gid)


def _retracted_from(retracted: Collection[tuple[GalleyId, GalleyId]], gid: GalleyId) -> list[GalleyId]:
    return [target for rammer, target in retracted if rammer == gid]


# --- checking -------------------------------------------------------------------------------


def check(state: GameState, decision: Activate, members: Collection[GalleyId],
          confusion: Mapping[GalleyId, int], restricted: bool) -> None:
    """IllegalOrder if any galley's orders are illegal (module docstring: as if no die went against them)."""
    orders = orders_of(decision, members)
    field = {g.id: g for g in state.galleys}
    charts, devices = state.charts, state.devices
    tried, fired = set(state.grapple_tried), set(state.fired)
    # The record the segment starts from (turn.activation), so that its run finds the plans judged (combat_steps
    # keeps the answers); the phase's Reaction Fire, all it clears, is no part of a plan's or a volley's legality.
    record = state.record.next_squadron_phase()
    for gid in orders.sequence:
        galley = field[gid]
        if state.controller(galley) != decision.side:
            raise IllegalOrder("8.25", f"{gid} is no longer {decision.side}'s galley")
        plan = orders.plans.get(gid)
        if gid in orders.disengage:
            if not galley.grappled_with:
                raise IllegalOrder("8.32", f"{gid} is not Grappled: nothing to disengage from")
            available = mp_available(state, galley, confusion.get(gid, 0))
            cut_grapples(field, gid)
            galley = field[gid]
            left = available - min(available, charts.grapple_disengage.max_mp_cost)
            if plan is not None and plan.mp > left:
                raise IllegalOrder("8.33", f"{gid} pays {available - left} MP to disengage: it may announce at "
                                           f"most {left} MP")
        positions: list[Position | None] = [galley.position]
        if plan is not None:
            if gid in confusion:
                allowed = max(0, speed_limit(galley, galley.speed, state.wind).mp + confusion[gid])
                if plan.mp > allowed:
                    raise IllegalOrder("5.42", f"Orders Confusion: {gid} may use at most {allowed} MP")
            check_jettisons(galley, plan)
            positions = list(plan_positions(state.board, field, plan, charts, state.combat_options(), record))
            if restricted:
                _check_restricted(state, field, galley, positions)
        if gid in orders.firepots:
            if not firepot_armed(devices, galley):
                raise IllegalOrder("8.53", f"{gid} is not Firepot-armed in this battle")
            if not rams(plan):
                raise IllegalOrder("8.53", f"firepots are dropped with a Ram attempt: {gid}'s plan has none")
        missiles = orders.fire.get(gid)
        if missiles is not None and missiles.after_step is not None:
            steps = len(plan.steps) if plan is not None else 0
            if missiles.after_step > steps:
                raise IllegalOrder("8.42", f"{gid}'s plan has {steps} steps: it cannot fire after step "
                                           f"{missiles.after_step}")
            if missiles.after_step and plan is not None and isinstance(plan.steps[0], Anastrophe):
                raise IllegalOrder("8.42", "an Anastrophe is one manoeuvre: fire before it or after it")
            here = positions[min(missiles.after_step, len(positions) - 1)]
            at = {**field, gid: replace(galley, position=here)}
            check_fire(Field(state.board, at, charts, devices), missiles.order, FireTiming.MOVING,
                       already_fired=gid in fired, rammed_by=state.rammers(gid))
        if plan is not None:
            changes: dict[str, object] = {"position": positions[-1]}
            if rams(plan):
                changes["speed"] = SpeedSide.CRUISE  # 7.16: every ram result flips the rammer to Cruise
            field[gid] = galley = replace(galley, **changes)  # type: ignore[arg-type]
        if missiles is not None and missiles.after_step is None:
            check_fire(Field(state.board, field, charts, devices), missiles.order, FireTiming.AFTER_MOVEMENT,
                       already_fired=gid in fired, rammed_by=state.rammers(gid))
        grapple = orders.grapple.get(gid)
        if grapple is not None:
            check_grapple(Field(state.board, field, charts, devices), grapple, attempted=tried,
                          retracted_from=_retracted_from(state.retracted, gid))
            tried.add(gid)


def _check_restricted(state: GameState, field: Mapping[GalleyId, Galley], galley: Galley,
                      positions: list[Position | None]) -> None:
    around = surroundings(state.board, field.values(), galley, state.wind, state.turn, state.charts)
    for number, position in enumerate(positions[1:], 1):
        if position is not None and any(h in around.enemy_near for h in position.hexes):
            raise IllegalOrder("5.31", f"step {number}: {galley.id} failed its Crew check and may not move "
                                       "adjacent to an enemy galley")


# --- resolving ------------------------------------------------------------------------------


class Outcome(NamedTuple):
    galleys: dict[GalleyId, Galley]
    events: list[Event]
    record: CombatRecord
    lines: tuple[GrappleLine, ...]
    tried: tuple[GalleyId, ...]
    fired: tuple[GalleyId, ...]
    retracted: tuple[tuple[GalleyId, GalleyId], ...]
    rammed_by: tuple[tuple[GalleyId, GalleyId], ...]


class _Resolution:
    """The segment as it is resolved: the battlefield and the bookkeeping, changing galley by galley."""

    def __init__(self, state: GameState, orders: Orders, confusion: Mapping[GalleyId, int], dice: Dice) -> None:
        self.state, self.orders, self.confusion, self.dice = state, orders, confusion, dice
        self.field: dict[GalleyId, Galley] = {g.id: g for g in state.galleys}
        self.record = state.record
        self.lines = list(state.grapple_lines)
        self.tried, self.fired = list(state.grapple_tried), list(state.fired)
        self.retracted = list(state.retracted)
        self.rammed_by = list(state.rammed_by)
        self.reactions = state.reaction_orders()
        self.events: list[Event] = []

    # -- helpers --

    def battlefield(self, galleys: Mapping[GalleyId, Galley] | None = None) -> Field:
        state = self.state
        return Field(state.board, self.field if galleys is None else galleys, state.charts, state.devices)

    def take(self, resolution: Resolution) -> None:
        self.field = dict(resolution.galleys)
        self.events += resolution.events

    def lapse(self, gid: GalleyId, order: str, error: IllegalOrder) -> None:
        self.events.append(OrderLapsed(rule=error.rule, galley=gid, order=order, reason=error.reason))

    def prune_lines(self) -> None:
        """Lines whose grapple is gone (cut, sunk) are forgotten."""
        def holds(line: GrappleLine) -> bool:
            grappler = self.field.get(line.grappler)
            return grappler is not None and line.target in grappler.grappled_with

        self.lines = [line for line in self.lines if holds(line)]

    # -- the hooks the combat rules call --

    def reaction_fire(self, galleys: Mapping[GalleyId, Galley], firer: GalleyId, attacker: GalleyId, what: str,
                      dice: Dice) -> tuple[Mapping[GalleyId, Galley], list[Event]]:
        """8.42: Reaction Fire at an adjacent galley attempting to Ram, Rake or Grapple (all its M, one target)."""
        field = self.battlefield(galleys)
        volley = self.reaction_volley(field, firer, attacker, PROVOKED[what])
        if volley is None:
            return galleys, []
        resolution = resolve_fire(field, [volley], dice)
        return resolution.galleys, resolution.events

    def reaction_volley(self, field: Field, firer: GalleyId, attacker: GalleyId,
                        provocation: Provocation) -> Volley | None:
        """8.42, 8.44: `firer`'s Reaction Fire at `attacker`, all its M at one target: Flame Missiles where its
        orders ask for them and it may fire them (8.51-8.52), else regular missiles; None if it may not fire."""
        flame_first = fires_flame_in_reaction(orders_for(self.reactions, field.galleys[firer]))
        for flame in (True, False) if flame_first else (False,):
            order = FireOrder(firer, (Shot(attacker, flame=flame),))
            try:
                return check_fire(field, order, FireTiming.REACTION, provoked_by={attacker: provocation},
                                  rammed_by=_rammers(self.rammed_by, firer))
            except IllegalOrder:
                continue
        return None

    def firepots(self, galleys: Mapping[GalleyId, Galley], rammer: GalleyId, target: GalleyId,
                 dice: Dice) -> tuple[Mapping[GalleyId, Galley], list[Event]]:
        if rammer not in self.orders.firepots:
            return galleys, []
        field = self.battlefield(galleys)
        try:
            resolution = drop_firepots(field, rammer, target, dice)
        except IllegalOrder as error:
            return galleys, [OrderLapsed(rule=error.rule, galley=rammer, order="firepots", reason=error.reason)]
        return resolution.galleys, resolution.events

    def reaction_firepots(self, galleys: Mapping[GalleyId, Galley], rammer: GalleyId, target: GalleyId,
                          dice: Dice) -> tuple[Mapping[GalleyId, Galley], list[Event]]:
        """8.53 with 6.7: a Firepot-armed galley ramming the mover in reaction drops its firepots first when
        its standing orders say `firepots=with-ram` (one not armed has none to drop: nothing happens)."""
        galley = galleys[rammer]
        if not firepots_in_reaction(orders_for(self.reactions, galley)) or not firepot_armed(self.state.devices, galley):
            return galleys, []
        resolution = drop_firepots(self.battlefield(galleys), rammer, target, dice)
        return resolution.galleys, resolution.events

    # -- a galley's turn --

    def act(self, gid: GalleyId) -> None:
        orders = self.orders
        plan, missiles, grapple = orders.plans.get(gid), orders.fire.get(gid), orders.grapple.get(gid)
        free = True
        if gid in orders.disengage:
            free = self.disengage(gid)
        fired = False
        if plan is not None:
            if not free:
                self.lapse(gid, "movement", IllegalOrder("8.33", f"{gid} is still Grappled and cannot move"))
            else:
                if missiles is not None and missiles.after_step == 0:
                    self.fire(gid, missiles.order, FireTiming.MOVING)
                    fired = True
                fired = self.move(gid, plan, missiles if not fired else None) or fired
        if missiles is not None and not fired:
            timing = FireTiming.AFTER_MOVEMENT if missiles.after_step is None else FireTiming.MOVING
            self.fire(gid, missiles.order, timing)
        if grapple is not None:
            self.grapple(grapple)

    def disengage(self, gid: GalleyId) -> bool:
        galley = self.field[gid]
        if not galley.grappled_with or galley.position is None:
            self.lapse(gid, "grapple disengage", IllegalOrder("8.32", f"{gid} is no longer Grappled"))
            return True
        available = mp_available(self.state, galley, self.confusion.get(gid, 0))
        done = grapple_disengage(self.battlefield(), gid, self.dice, mp_available=available, lines=self.lines,
                                 repulsed_boarding=gid in self.state.repulsed)
        self.take(done.resolution)
        self.prune_lines()
        return done.free

    def move(self, gid: GalleyId, plan: Plan, missiles: Missiles | None) -> bool:
        """Carry out the plan; True if the galley's fire was made during it."""
        state = self.state
        try:
            check_combat_plan(state.board, self.field, plan, state.charts, state.combat_options(), self.record)
        except IllegalOrder as error:
            self.lapse(gid, "movement", error)
            return False
        made: list[bool] = []

        def fire_during(number: int, galleys: dict[GalleyId, Galley],
                        record: CombatRecord) -> tuple[Mapping[GalleyId, Galley], list[Event], CombatRecord]:
            if missiles is None or missiles.after_step != number:
                return galleys, [], record
            self.field, self.record = galleys, record
            mark = len(self.events)
            self.fire(gid, missiles.order, FireTiming.MOVING)
            made.append(True)
            more = self.events[mark:]
            del self.events[mark:]
            return self.field, more, self.record

        field, events, outcome = execute_plan(
            state.board, self.field, plan, state.charts, self.dice, self.reactions, state.combat_options(),
            record=self.record, firepots=self.firepots, reaction_fire=self.reaction_fire, after_step=fire_during,
            reaction_firepots=self.reaction_firepots if state.rules_version >= 2 else None,
        )
        self.field, self.record = dict(field), outcome.record
        self.events += events
        galley = self.field[gid]
        jettison = [n for n, step in enumerate(plan.steps) if isinstance(step, JettisonTowers)]
        if jettison and jettison[0] < outcome.steps_taken:
            galley, more = after_move(galley, plan)
            self.field[gid] = galley
            self.events += more
        self.note(events)
        return bool(made)

    def note(self, events: list[Event]) -> None:
        """Who rammed whom (7.16 fire back) and who Retracted in place (7.16 play note: may grapple)."""
        stayed: dict[GalleyId, bool] = {}
        for event in events:
            if isinstance(event, Retracted):
                stayed[event.galley] = not event.backwatered
            elif isinstance(event, RamResolved) and event.result in (RamResult.RETRACTED, RamResult.FOULED):
                if (event.target, event.rammer) not in self.rammed_by:
                    self.rammed_by.append((event.target, event.rammer))
                if event.result is RamResult.RETRACTED and stayed.get(event.rammer):
                    self.retracted.append((event.rammer, event.target))

    def fire(self, gid: GalleyId, order: FireOrder, timing: FireTiming) -> None:
        field = self.battlefield()
        try:
            volley = check_fire(field, order, timing, already_fired=gid in self.fired,
                                rammed_by=_rammers(self.rammed_by, gid))
        except IllegalOrder as error:
            self.lapse(gid, "missile fire", error)
            return
        volleys = [volley, *self.fire_back(field, volley)]
        self.take(resolve_fire(field, volleys, self.dice))
        self.fired.append(gid)

    def fire_back(self, field: Field, volley: Volley) -> list[Volley]:
        """8.42: each target whose orders say so answers, simultaneously, once a Squadron Phase."""
        answers = []
        for shot in volley.shots:
            target = self.field[shot.target]
            if shot.target in self.record.reaction_fired:
                continue
            if not fires_in_reaction(orders_for(self.reactions, target), FireTrigger.FIRED_UPON):
                continue
            answer = self.reaction_volley(field, shot.target, volley.galley, Provocation.FIRED)
            if answer is None:
                continue
            answers.append(answer)
            self.record = replace(self.record, reaction_fired=self.record.reaction_fired | {shot.target})
        return answers

    def grapple(self, order: GrappleOrder) -> None:
        gid = order.galley
        retracted_from = _retracted_from(self.retracted, gid)
        try:
            check_grapple(self.battlefield(), order, attempted=self.tried, retracted_from=retracted_from)
        except IllegalOrder as error:
            self.lapse(gid, "grapple", error)
            return
        field, more, self.record = fire_back(self.field, order.target, gid, "grapple", self.dice, self.record,
                                             self.reactions, self.reaction_fire)
        self.field = dict(field)
        self.events += more
        self.tried.append(gid)
        try:
            resolution, line = attempt_grapple(self.battlefield(), order, self.dice, attempted=(),
                                               retracted_from=retracted_from)
        except IllegalOrder as error:  # the Reaction Fire changed nothing that matters, but be exact
            self.lapse(gid, "grapple", error)
            return
        self.take(resolution)
        if line is not None:
            self.lines.append(line)

    def done(self, gid: GalleyId, after: AfterGalley | None) -> None:
        if after is not None and self.field[gid].position is not None:
            self.field[gid], more = after(self.field[gid], self.record)
            self.events += more

    def outcome(self) -> Outcome:
        self.prune_lines()
        return Outcome(self.field, self.events, self.record, tuple(self.lines), tuple(self.tried),
                       tuple(self.fired), tuple(self.retracted), tuple(self.rammed_by))


# What follows each galley's actions (version 2's Fatigue check, 6.42): the galley as it has done and the
# combat record then, to the galley and the events.
AfterGalley = Callable[[Galley, CombatRecord], tuple[Galley, list[Event]]]


def resolve(state: GameState, decision: Activate, members: Collection[GalleyId],
            confusion: Mapping[GalleyId, int], dice: Dice, after: AfterGalley | None = None) -> Outcome:
    """Roll the segment's orders galley by galley (checked beforehand by `check`); `after` each galley on the
    map has completed its actions, then after each member with none."""
    orders = orders_of(decision, members)
    run = _Resolution(state, orders, confusion, dice)
    for gid in orders.sequence:
        if run.field[gid].position is None:
            run.lapse(gid, "movement", IllegalOrder("9.1", f"{gid} is no longer on the map"))
            continue
        run.act(gid)
        run.done(gid, after)
    for gid in members:
        if gid not in orders.sequence:
            run.done(gid, after)
    return run.outcome()
