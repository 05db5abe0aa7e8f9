"""Squadron Activation (5.31, 5.4, 5.42): who may activate what, and the movement segment itself.

An activation is one decision carrying every galley's orders: disengage,
movement plan with combat steps, Missile Fire, grapple
(engine.war_galley.turn.movement_segment). The whole decision is checked, each galley's
orders against the battlefield as the earlier ones would leave it if no
die went against them, before any die is rolled. Then come the dice: the
galleys act in turn (the inactive side reacting by its standing orders),
the VP and commander losses follow (engine.war_galley.turn.casualties), then the Fatigue
check of each galley that began the segment at Maximum (6.42, plans
first, +1 for a Ram and +1 for a Rake attempt; none after an Anastrophe,
7.36), then the attempts to get off the rocks (6.36) of the aground
galleys named in `refloat`. The Boarding Segment (E/2) follows if one of
the activated galleys could board; otherwise play passes (E/3).

Orders Confusion (5.42) is one roll for the squadron, its adjustment
applied to each of its galleys. A failed Individual Squadron Crew check
(5.31) flips the galley to Cruise and keeps it from moving adjacent to an
enemy, unless it starts adjacent to one: then it acts as if in command.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import DieRolled, Event
from engine.memo import by_identity
from engine.war_galley.galley_combat.combat_record import CombatRecord
from engine.war_galley.map_and_galleys.charts import double_activation, individual_activation_free, orders_confusion
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId, Removal
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.aground import extricate
from engine.war_galley.movement.moving import MarkerRemoved, surroundings
from engine.war_galley.turn import fatigue
from engine.war_galley.turn import movement_segment as segment
from engine.war_galley.turn.boarding_segment import may_board
from engine.war_galley.turn.casualties import settle
from engine.war_galley.turn.command import command_distance, command_ship
from engine.war_galley.turn.commanders import restore_after_command
from engine.war_galley.turn.decisions import Activate, Double, Individual
from engine.war_galley.turn.initiative import active_admirals
from engine.war_galley.turn.movement_segment import OrderLapsed
from engine.war_galley.turn.state import CommanderState, GameState, PendingActivation, Phase, Segment, Squadron
from engine.war_galley.turn.status import eliminate


class Activated(Event, frozen=True, kw_only=True):
    side: str
    squadrons: tuple[str, ...]


class DoubleActivation(Event, frozen=True, kw_only=True):
    side: str
    admiral: str
    other: str
    success: bool


class OrdersConfused(Event, frozen=True, kw_only=True):
    galley: GalleyId
    mp: int
    cruise_only: bool
    half_speed: bool


class CrewChecked(Event, frozen=True, kw_only=True):
    """5.31: an Individual Squadron galley free to act, or held back."""

    galley: GalleyId
    free: bool


@by_identity(8)
def squadrons_left(state: GameState, side: str, individual: bool) -> tuple[Squadron, ...]:
    """The side's squadrons of the kind not yet activated this turn (asked again and again of one state)."""
    activated = state.activated
    return tuple([s for s in _of_kind(state.squadrons, side, individual) if s.key not in activated])


@by_identity(8)  # the squadrons stand all turn (phase B forms them), one state after another
def _of_kind(squadrons: tuple[Squadron, ...], side: str, individual: bool) -> tuple[Squadron, ...]:
    return tuple([s for s in squadrons if s.side == side and s.individual == individual])


def _admiral_squadron(state: GameState, admiral: CommanderState) -> Squadron | None:
    for s in squadrons_left(state, admiral.side, False):
        if s.commander == admiral.name:
            return s
    return None


def double_options(state: GameState, side: str) -> list[tuple[str, str]]:
    """(admiral, other squadron) pairs a Double Activation may try now (5.42)."""
    if state.phase is not Phase.COMMAND or state.current is not None:
        return []
    if not state.side(side).double_activation or side in state.double_sides:
        return []
    forced = _first_admiral_rule(state, side)
    out = []
    for admiral in active_admirals(state, side):
        own = _admiral_squadron(state, admiral)
        ship = command_ship(state, admiral)
        if own is None or ship is None or (forced is not None and own.key != forced):
            continue  # 5.13: the admiral rolled for the initiative goes first; another may not double past him
        for s in squadrons_left(state, side, False):
            if s.key == own.key or s.commander is None:
                continue
            other_ship = command_ship(state, state.commander(s.commander))
            if other_ship is not None and command_distance(state, ship, other_ship, admiral.range) is not None:
                out.append((admiral.name, s.key))
    return out


def _first_admiral_rule(state: GameState, side: str) -> str | None:
    """5.13: with several admirals, the one rolled for initiative goes first if his side chose to."""
    if state.initiative != side or state.first != side or state.initiative_admiral is None:
        return None
    if len(active_admirals(state, side)) < 2:
        return None
    if any(state.squadron(k).side == side for k in state.activated if any(s.key == k for s in state.squadrons)):
        return None
    own = _admiral_squadron(state, state.commander(state.initiative_admiral))
    return own.key if own else None


def allowed(state: GameState, side: str) -> list[tuple[str, str | None]]:
    """The (squadron, second squadron) an Activate decision may name now."""
    if state.current is not None:
        keys = state.current.squadrons
        return [(keys[0], keys[1] if len(keys) > 1 else None)]
    if state.phase is not Phase.COMMAND:
        return []
    forced = _first_admiral_rule(state, side)
    if forced is not None:
        return [(forced, None)]
    return [(s.key, None) for s in squadrons_left(state, side, False)]


def _check_turn(state: GameState, side: str, *phases: Phase) -> None:
    if state.phase not in phases or state.to_move != side:
        raise IllegalOrder("5.41", f"it is not {side}'s activation now")


def apply_double(state: GameState, decision: Double, dice: Dice) -> tuple[GameState, list[Event]]:
    _check_turn(state, decision.side, Phase.COMMAND)
    pairs = double_options(state, decision.side)
    admiral_name = next((a for a, other in pairs if other == decision.other), None)
    if admiral_name is None:
        raise IllegalOrder("5.42", f"no Double Activation with {decision.other} now: it needs the Admiral's own "
                                   "squadron, a Command Squadron whose Command Ship is within his range, "
                                   "and one attempt a turn")
    admiral = state.commander(admiral_name)
    own = _admiral_squadron(state, admiral)
    assert own is not None
    natural = dice.d6("5.42 double activation")
    success = double_activation(state.charts, admiral.rating, natural)
    events: list[Event] = [
        DieRolled(rule="5.42", table=f"Double Activation (Initiative {admiral.rating})", natural=natural,
                  outcome="Success" if success else "Failure: Orders Confusion"),
        DoubleActivation(rule="5.42", side=decision.side, admiral=admiral.name, other=decision.other,
                         success=success),
    ]
    state = replace(state, double_sides=(*state.double_sides, decision.side))
    if success:
        return replace(state, current=PendingActivation((own.key, decision.other), double=True)), events
    natural = dice.d6("5.42 orders confusion")
    result = orders_confusion(state.charts, natural)
    events.append(DieRolled(rule="5.42", table="Orders Confusion", natural=natural,
                            outcome=_confusion_words(result.mp, result.cruise_only, result.half_speed)))
    confusion = []
    for gid in state.squadron(decision.other).galleys:
        galley = state.galley(gid)
        changes: dict[str, object] = {}
        if result.cruise_only:
            changes["speed"] = SpeedSide.CRUISE
        if result.half_speed:
            changes.update(half_speed=True, speed=SpeedSide.CRUISE)
        if changes:
            state = state.with_galley(replace(galley, **changes))  # type: ignore[arg-type]
        if result.mp:
            confusion.append((gid, result.mp))
        events.append(OrdersConfused(rule="5.42", galley=gid, mp=result.mp, cruise_only=result.cruise_only,
                                     half_speed=result.half_speed))
    return replace(state, current=PendingActivation((decision.other,), tuple(confusion))), events


def _confusion_words(mp: int, cruise_only: bool, half: bool) -> str:
    parts = [f"{mp:+d} MP"] if mp else []
    parts += ["Cruise Speed only"] if cruise_only else []
    parts += ["Half Speed"] if half else []
    return ", ".join(parts) or "no effect"


def apply_individual(state: GameState, decision: Individual, dice: Dice) -> tuple[GameState, list[Event]]:
    _check_turn(state, decision.side, Phase.INDIVIDUAL)
    key = str(decision.galley)
    if state.current is not None:
        raise IllegalOrder("5.31", f"finish the activation of {state.current.squadrons[0]} first")
    if key not in [s.key for s in squadrons_left(state, decision.side, True)]:
        raise IllegalOrder("5.31", f"{key} is not an Individual Squadron of {decision.side} left to activate")
    galley = state.galley(decision.galley)
    natural = dice.d6(f"5.31 individual activation {key}")
    free = individual_activation_free(state.charts, galley.crew, natural)
    events: list[Event] = [
        DieRolled(rule="5.31", table=f"Individual Squadron (Crew {galley.crew})", natural=natural,
                  outcome="free to act" if free else "Cruise Speed, not adjacent to an enemy"),
        CrewChecked(rule="5.31", galley=galley.id, free=free),
    ]
    restricted = False
    if not free:
        if galley.position is None:  # gone from the map since phase B: near no enemy
            restricted = True
        else:
            near = surroundings(state.board, state.galleys, galley, state.wind, state.turn).enemy_near
            restricted = not any(h in near for h in galley.position.hexes)
        if restricted:
            state = state.with_galley(replace(galley, speed=SpeedSide.CRUISE))
    return replace(state, current=PendingActivation((key,), restricted=restricted)), events


def _members(state: GameState, decision: Activate) -> list[GalleyId]:
    keys = (decision.squadron, decision.also) if decision.also else (decision.squadron,)
    return [g for k in keys for g in state.squadron(k).galleys]


def check_activate(state: GameState, decision: Activate) -> None:
    """IllegalOrder if any part of the decision is illegal (engine.war_galley.turn.movement_segment.check); no dice."""
    _check_turn(state, decision.side, Phase.COMMAND, Phase.INDIVIDUAL)
    if state.phase is Phase.INDIVIDUAL and state.current is None:
        raise IllegalOrder("5.31", "name the Individual Squadron galley first (its Crew check comes before it moves)")
    if (decision.squadron, decision.also) not in allowed(state, decision.side):
        options = ", ".join(a + (f" + {b}" if b else "") for a, b in allowed(state, decision.side))
        raise IllegalOrder("5.41", f"{decision.squadron}{' + ' + decision.also if decision.also else ''} may not "
                                   f"activate now (may: {options or 'none'})")
    members = _members(state, decision)
    planned = [p.galley for p in decision.plans]
    if len(set(decision.refloat)) != len(decision.refloat):
        # 6.36: the roll is made "instead of moving the galley": one attempt a galley an activation. A second
        # one would be a roll for a galley the first may already have freed or wrecked (issue 22).
        twice = sorted({str(g) for g in decision.refloat if decision.refloat.count(g) > 1})
        raise IllegalOrder("6.36", f"{', '.join(twice)}: one attempt to get off the land per galley")
    for gid in decision.refloat:
        if gid not in members:
            raise IllegalOrder("5.41", f"{gid} is not in the activated squadron")
        galley = state.galley(gid)
        if galley.aground is None:
            raise IllegalOrder("6.36", f"{gid} has not Run Aground")
        if gid in planned:
            raise IllegalOrder("6.36", f"{gid} tries to get off the rocks instead of moving: no plan for it")
        if state.turn <= galley.aground.turn:
            raise IllegalOrder("6.36", f"{gid} ran aground this turn; it may try to get off from next turn")
    current = state.current or PendingActivation(())
    segment.check(state, decision, members, dict(current.confusion), current.restricted)


def _as_left(state: GameState, done: dict[GalleyId, Galley], before: dict[GalleyId, Galley],
             members: list[GalleyId]) -> tuple[Galley, ...]:
    """The state's galleys as the movement segment left them, each in its slot. 6.42 "the number of MP
    used" is this activation's: a member still holding the MoveRecord of an earlier one (it did not move
    now: a galley that moves is given a new one) forgets it.

    Forgotten after the segment, not before it: nothing in the segment reads a MoveRecord, and so it
    starts from the very galleys the check judged, whose answers are kept by identity (the combat
    steps' checks and movers, the occupancy index) instead of being worked out again.
    """
    galleys = tuple([done[g.id] for g in state.galleys])
    stale = {gid for gid in members if done[gid].moved is not None and done[gid].moved is before[gid].moved}
    if not stale:
        return galleys
    return tuple([replace(g, moved=None) if g.id in stale else g for g in galleys])


def _fatigue_after(state: GameState, at_max: list[GalleyId], before: dict[GalleyId, Galley],
                   dice: Dice) -> segment.AfterGalley:
    """Version 2's 6.42 check of a galley that began at Maximum, the moment it has done; an Anastrophe's
    fatigue is its own (7.36). The MP used are this activation's (a MoveRecord of an earlier one is stale)."""
    def after(galley: Galley, record: CombatRecord) -> tuple[Galley, list[Event]]:
        gid = galley.id
        if gid not in at_max or gid in record.anastrophes:
            return galley, []
        moved = None if galley.moved is before[gid].moved else galley.moved
        return fatigue.check_galley(state, galley, moved, dice, ram_attempt=gid in record.ram_attempts,
                                    rake_attempt=gid in record.rake_attempts)
    return after


def apply_activate(state: GameState, decision: Activate, dice: Dice, *, checked: bool = False) -> tuple[GameState, list[Event]]:
    """The activation (checked first unless the caller has just run `check_activate` on this very state:
    the check is pure, so running it twice only costs time)."""
    if not checked:
        check_activate(state, decision)
    keys = (decision.squadron, decision.also) if decision.also else (decision.squadron,)
    members = _members(state, decision)
    mine = [g for g in members if state.controller(state.galley(g)) == decision.side]
    at_max = [g for g in mine if state.galley(g).speed is SpeedSide.MAXIMUM]
    before = {g.id: g for g in state.galleys}
    events: list[Event] = [Activated(rule="5.41", side=decision.side, squadrons=keys)]
    slowed = [g for g in members if state.galley(g).half_speed]  # 6.37, 7.16: off at the end of this activation
    # 8.42 "once per phase" is the Squadron Phase (5.41, 5.42): each enemy activation may be answered anew.
    state = replace(state, record=state.record.next_squadron_phase())
    # Dice from here on: nothing below may refuse the decision.
    current = state.current or PendingActivation(())
    # 6.42 "The check is made after each galley completes its actions for the segment": so from version 2,
    # between one galley's dice and the next's; version 1 rolled them all after the segment (below).
    after = _fatigue_after(state, at_max, before, dice) if state.rules_version >= 2 else None
    done = segment.resolve(state, decision, members, dict(current.confusion), dice, after)
    new = replace(state, galleys=_as_left(state, done.galleys, before, members), record=done.record,
                  grapple_lines=done.lines, grapple_tried=done.tried, fired=done.fired, retracted=done.retracted,
                  rammed_by=done.rammed_by)
    events += done.events
    new, more = settle(new, done.events, before, dice)
    events += more
    # 6.43 reading: markers placed by Avoidance (6.52) or an Anastrophe (7.36) count from the next turn too.
    fresh = tuple([g.id for g in new.galleys if g.fatigue and g.fatigue > (before[g.id].fatigue if g.id in before else 0)
                   and g.id not in new.fresh_fatigue])
    new = replace(new, fresh_fatigue=(*new.fresh_fatigue, *fresh))
    # 6.42: galleys that began at Maximum, plans first; 9.1: a galley that left the map is not checked.
    order = [p.galley for p in decision.plans] + [g for g in at_max if g not in [p.galley for p in decision.plans]]
    for gid in order if after is None else ():
        galley = new.galley(gid)
        if gid not in at_max or galley.position is None or gid in new.record.anastrophes or new.result is not None:
            continue
        new, more = fatigue.check(new, gid, dice, ram_attempt=gid in new.record.ram_attempts,
                                  rake_attempt=gid in new.record.rake_attempts)
        events += more
    for gid in decision.refloat:
        galley = new.galley(gid)
        if galley.aground is None or galley.position is None:
            # Checked aground and on the map before the dice; should the segment's results have taken it off
            # the rocks or off the map, there is nothing left to get off: the attempt lapses, no die (6.36).
            events.append(OrderLapsed(rule="6.36", galley=gid, order="refloat",
                                      reason=f"{gid} is no longer aground" if galley.position is not None
                                      else f"{gid} is no longer on the map"))
            continue
        around = surroundings(new.board, new.galleys, galley, new.wind, new.turn, new.charts)
        freed, more = extricate(around, galley, new.charts, dice)
        events += more
        if freed.removed is Removal.STUCK:
            new, more = eliminate(new, gid, Removal.STUCK, "stuck for good", dice, "6.36")
            events += more
        else:
            new = new.with_galley(freed)
    # 7.16 "At the end of the next time that galley activates, remove the marker": a galley of the squadron
    # with no movement (no plan, or refloating) loses it too, not only one that moved (engine.war_galley.movement.moving).
    for gid in slowed:
        galley = new.galley(gid)
        if galley.half_speed and galley.position is not None:
            new = new.with_galley(replace(galley, half_speed=False))
            events.append(MarkerRemoved(rule="7.16", galley=gid, marker="Half Speed"))
    new, more = restore_after_command(new, keys)
    events += more
    boarding = may_board(new, mine)
    new = replace(new, activated=(*new.activated, *keys), current=None, boarders=tuple(mine) if boarding else (),
                  segment=Segment.BOARDING if boarding and new.result is None else Segment.PHASE_PASS)
    return new, events
