"""Moving a galley (6.13, 6.2, 6.3, 6.6, 7.28): one step at a time, by one set of primitives.

`advance(mover, leg, step)` is the only way a step is taken: it looks up the
step kind's rule (`engine.war_galley.movement.manoeuvres`, or one a later rule registered with
`register_step`) and returns the galley's progress after the step, or a
`Refused` naming the rule that forbids it. Everything else uses it:
`check_plan` and `move` replay a plan through it (raising `IllegalOrder` on
the first refusal), and the planner (`engine.war_galley.play.planner`) generates options by
trying every step kind with it.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.events import Event
from engine.war_galley.map_and_galleys.galley import Aground, End, Galley, GalleyId, MoveRecord, Removal
from engine.war_galley.map_and_galleys.hexes import Hex
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.movement import manoeuvres
from engine.war_galley.movement.leg import (
    ENDED,
    Ending,
    Leg,
    Mover,
    Refused,
    Surroundings,
    begin,
    finish,
    surroundings,
)
from engine.war_galley.movement.speed import wind_mp
from engine.war_galley.movement.steps import (
    Backwater,
    BowFlank,
    FacingChange,
    Forward,
    LowerSails,
    Plan,
    RaiseSails,
    Step,
    TurnAround,
    describe,
)

__all__ = [
    "Ending", "Leg", "LeftMap", "MarkerRemoved", "Mover", "RanAground", "Refused", "Stepped",
    "Surroundings", "advance", "begin", "check_plan", "finish", "move", "mover_for",
    "register_step", "surroundings",
]

StepRule = Callable[[Mover, Leg, Step], "Leg | Refused"]

_RULES: dict[type[Step], StepRule] = {
    Forward: manoeuvres.forward,  # type: ignore[dict-item]
    BowFlank: manoeuvres.bow_flank,  # type: ignore[dict-item]
    Backwater: manoeuvres.backwater,  # type: ignore[dict-item]
    FacingChange: manoeuvres.facing_change,  # type: ignore[dict-item]
    TurnAround: manoeuvres.turn_around,  # type: ignore[dict-item]
    RaiseSails: manoeuvres.raise_sails,  # type: ignore[dict-item]
    LowerSails: manoeuvres.lower_sails,  # type: ignore[dict-item]
}


def register_step(kind: type[Step], rule: StepRule) -> None:
    """Give a new step kind (a later rule: ram, rake, Pass-Through...) its rule."""
    _RULES[kind] = rule


def advance(mover: Mover, leg: Leg, step: Step) -> Leg | Refused:
    """The galley's progress after `step`, or why it may not take it."""
    if leg.ended is not None:
        return Refused("6.13", f"{mover.galley.id} has {ENDED[leg.ended]}: it moves no further")
    rule = _RULES.get(type(step))
    if rule is None:
        return Refused("6.32", f"no rule for a {type(step).__name__} step")
    return rule(mover, leg, step)


# --- plans -------------------------------------------------------------------

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
    record = MoveRecord(plan.mp, last.spent, last.turns, last.backwatered, last.faced,
                        wind_mp(galley, surroundings.wind, last.sails_up))
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
