"""The Sequence of Play (3.1) as a state machine: who decides next, and the automatic steps.

`advance` runs the automatic steps (A Wind, B squadrons with nothing to
choose, C the initiative roll, D squadrons with no speed choice, the
phase-pass of E and F, G Status Resolution, H Victory) until a player must
decide or the game is over. `decision_due` says who decides what; it is the
single place `pending` and `advance` agree on.

Phase B (5.24 play note): players form squadrons one after the other, the
side with the lower-rated (or no) Admiral first, ties by scenario order.
Phase D (6.12): by squadron, alternating from the side going first; squadrons
with no galley able to use Maximum Speed are set to Cruise at once and take
no turn. E and F (5.41): alternating; a side with none left lets the other
finish alone.
"""

from __future__ import annotations

from typing import NamedTuple

from msgspec.structs import replace

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import DieRolled, Event
from engine.memo import by_identity
from engine.war_galley.map_and_galleys.charts import wind_change
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.speed import Wind, maximum_barred
from engine.war_galley.turn import command, entry, hooks, standing, victory
from engine.war_galley.turn.activation import squadrons_left
from engine.war_galley.turn.commanders import max_barred_by_commander
from engine.war_galley.turn.decisions import Initiative, Speed, Squadrons
from engine.war_galley.turn.initiative import active_admirals, choose_first, roll_initiative
from engine.war_galley.turn.state import PHASE_NAMES, GameState, Phase, PhaseBegan, Segment, Squadron
from engine.war_galley.turn.status import status_phase


class WindChanged(Event, frozen=True, kw_only=True):
    wind: Wind | None  # None: Dead Calm


class SpeedChosen(Event, frozen=True, kw_only=True):
    side: str
    squadron: str
    maximum: tuple[GalleyId, ...]
    automatic: bool = False
    why: str = ""  # automatic: why no galley of it may use Maximum (rule and cause)
    standing: bool = False  # by the side's standing order (engine.war_galley.turn.standing)


class Due(NamedTuple):
    side: str
    kind: str
    prompt: str


# --- who decides ---------------------------------------------------------------------


def squadron_order(state: GameState) -> list[str]:
    """Phase B's order: the lower-rated (or no) Admiral declares first (5.24 play note)."""
    def best(side: str) -> int:
        admirals = active_admirals(state, side)
        return admirals[0].rating if admirals else -1

    return sorted((s.key for s in state.sides), key=best)


def may_go_maximum(state: GameState, galley: Galley) -> bool:
    return (galley.position is not None and maximum_barred(galley) is None
            and max_barred_by_commander(state, galley.id) is None and hooks.maximum_barred(state, galley) is None)


def maximum_refusal(state: GameState, galley: Galley) -> str:
    """Why a galley may not use Maximum Speed, with its rule ("" if it may)."""
    if galley.position is None:
        return f"{galley.id} is not on the map"
    barred = maximum_barred(galley)
    if barred is not None:
        return f"{barred.reason} ({barred.rule})"
    commander = max_barred_by_commander(state, galley.id)
    if commander is not None:
        return (f"{galley.id} carries {commander.name}, newly transferred: Cruise until he resumes his "
                "normal ratings (5.52)")
    hook = hooks.maximum_barred(state, galley)
    return f"{hook[1]} ({hook[0]})" if hook is not None else ""


def speed_choices(state: GameState, squadron: Squadron) -> list[GalleyId]:
    return [g for g in squadron.galleys if may_go_maximum(state, state.galley(g))]


def _speed_left(state: GameState, side: str) -> list[Squadron]:
    return [s for s in state.squadrons if s.side == side and s.key not in state.speed_set]


@by_identity(8)  # asked many times of one state (pending, apply, listings)
def decision_due(state: GameState) -> Due | None:
    """The decision the rules wait for now, or None when automatic steps come next (or the game is over)."""
    if state.result is not None:
        return None
    secret = hooks.secret_wanted(state)
    if secret is not None:
        return Due(secret.side, secret.kind, secret.prompt)
    if state.phase is Phase.DEPLOYMENT and state.deploy:
        side = state.deploy[0].side
        return Due(side, "deploy", f"{state.side(side).name}: deploy your galleys and commanders")
    if state.phase is Phase.SQUADRONS:
        for side in squadron_order(state):
            if side not in state.squadrons_done:
                if command.needs_decision(state, side) and not standing.squadrons_by_range(state, side):
                    return Due(side, "squadrons", f"{state.side(side).name}: form your squadrons (5.24)")
                return None
    if state.phase is Phase.INITIATIVE and state.initiative is not None and state.first is None \
            and standing.first(state, state.initiative) is None:
        side = state.initiative
        return Due(side, "initiative", f"{state.side(side).name}: you won the initiative; who goes first (3.2)?")
    if state.phase is Phase.SPEED and state.to_move is not None and _speed_left(state, state.to_move) \
            and standing.speed(state, state.to_move) is None:
        side = state.to_move
        return Due(side, "speed", f"{state.side(side).name}: choose a squadron's Speed Levels (6.12)")
    if state.phase in (Phase.COMMAND, Phase.INDIVIDUAL) and state.to_move is not None:
        side = state.to_move
        name = state.side(side).name
        if state.segment is Segment.BOARDING:
            return Due(side, "board", f"{name}: the Boarding Segment (8.2): board, or not")
        if state.current is not None:
            return Due(side, "activate", f"{name}: move {' and '.join(state.current.squadrons)}")
        if state.segment is Segment.MOVEMENT:
            individual = state.phase is Phase.INDIVIDUAL
            if squadrons_left(state, side, individual):
                if individual:
                    return Due(side, "individual", f"{name}: activate an Individual Squadron galley (5.31)")
                return Due(side, "activate", f"{name}: activate a Command Squadron (5.41)")
    return None


# --- the automatic steps -----------------------------------------------------------------


def _began(state: GameState, phase: Phase, segment: Segment = Segment.NONE, rule: str = "3.1") -> tuple[GameState, Event]:
    state = replace(state, phase=phase, segment=segment)
    return state, PhaseBegan(rule=rule, turn=state.turn, phase=phase, segment=segment)


def start_turn(state: GameState) -> tuple[GameState, list[Event]]:
    state = replace(
        state, turn=state.turn + 1, squadrons=(), squadrons_done=(), initiative=None, initiative_admiral=None,
        first=None, to_move=None, speed_set=(), activated=(), double_sides=(), current=None,
    )
    state, event = _began(state, Phase.WIND)
    return state, [event]


def wind_phase(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """A (6.2): the scenario's wind; `variable` rolls 2d6 on the Wind Chart each turn after the first."""
    rule = state.wind_rule
    events: list[Event] = []
    # 6.2 "At the start of each new turn" the roll is made, in a Dead Calm too: the wind rises again
    # from the one the calm stilled (`stilled`), changed by the roll.
    if rule.mode in ("variable", "direction_only") and state.turn > 1 and (state.wind or state.stilled) is not None:
        natural = dice.two_d6("6.2 wind")
        change = wind_change(state.charts, natural)
        events.append(DieRolled(rule="6.2", table="Wind", natural=natural,
                                outcome="Dead Calm" if change.calm else f"strength {change.strength:+d}, "
                                                                       f"direction {change.direction:+d}"))
        base = state.wind or state.stilled
        assert base is not None
        wind: Wind | None = None
        if not change.calm:
            strength = base.strength if rule.mode == "direction_only" else max(1, base.strength + change.strength)
            wind = Wind(base.direction.turn(change.direction), strength)
        if wind != state.wind:
            state = replace(state, wind=wind, stilled=base if wind is None else None)
            events.append(WindChanged(rule="6.2", wind=wind))
    elif rule.mode == "rising" and state.wind is None and state.turn >= rule.from_turn:
        natural = dice.d6("6.2 rising wind")
        rises = natural < state.turn
        events.append(DieRolled(rule="6.2", table="Rising wind (scenario)", natural=natural,
                                outcome="the wind rises" if rises else "no wind"))
        if rises:
            state = replace(state, wind=rule.start)
            events.append(WindChanged(rule="6.2", wind=rule.start))
    state, began = _began(state, Phase.SQUADRONS)
    return hooks.command_phase(state), [*events, began]


def settle_squadrons(state: GameState, decision: Squadrons) -> tuple[GameState, list[Event]]:
    due = decision_due(state)
    if due is None or due.kind != "squadrons" or due.side != decision.side:
        raise IllegalOrder("5.24", f"{decision.side} does not form squadrons now")
    formed = _scenario_squadrons(state, decision.side, command.form(state, decision))
    state = replace(state, squadrons=(*state.squadrons, *formed), squadrons_done=(*state.squadrons_done, decision.side))
    return state, command.formed_events(formed)


def _scenario_squadrons(state: GameState, side: str, formed: tuple[Squadron, ...]) -> tuple[Squadron, ...]:
    """Phase B as the battle's rules shape it: galleys waiting to enter join their squadron (engine.war_galley.turn.entry),
    then the special rules (engine.war_galley.battles.shared)."""
    return hooks.squadrons(state, side, entry.join_squadrons(state, side, formed))


def _auto_squadrons(state: GameState, side: str) -> tuple[GameState, list[Event]]:
    return settle_squadrons_unchecked(state, command.default_assignment(state, side))


def settle_squadrons_unchecked(state: GameState, decision: Squadrons) -> tuple[GameState, list[Event]]:
    formed = _scenario_squadrons(state, decision.side, command.form(state, decision))
    state = replace(state, squadrons=(*state.squadrons, *formed), squadrons_done=(*state.squadrons_done, decision.side))
    return state, command.formed_events(formed)


def _enter_speed(state: GameState) -> tuple[GameState, list[Event]]:
    """D begins: galleys that may not use Maximum go to Cruise; squadrons without a choice are set."""
    state, began = _began(state, Phase.SPEED, rule="6.12")
    events: list[Event] = [began]
    for galley in state.galleys:
        if galley.speed is SpeedSide.MAXIMUM and not may_go_maximum(state, galley):
            state = state.with_galley(replace(galley, speed=SpeedSide.CRUISE))
    for s in state.squadrons:
        if not speed_choices(state, s):
            state = replace(state, speed_set=(*state.speed_set, s.key))
            why = "; ".join(maximum_refusal(state, state.galley(g)) for g in s.galleys) or "it has no galley"
            events.append(SpeedChosen(rule="6.12", side=s.side, squadron=s.key, maximum=(), automatic=True, why=why))
    return replace(state, to_move=state.first), events


def choose_speed(state: GameState, decision: Speed) -> tuple[GameState, list[Event]]:
    due = decision_due(state)
    if due is None or due.kind != "speed" or due.side != decision.side:
        raise IllegalOrder("6.12", f"{decision.side} does not choose Speed Levels now")
    left = {s.key: s for s in _speed_left(state, decision.side)}
    if decision.squadron not in left:
        raise IllegalOrder("6.12", f"{decision.squadron} is not a squadron of {decision.side} still to choose")
    squadron = left[decision.squadron]
    choices = speed_choices(state, squadron)
    _check_maximum(state, decision, squadron, choices)
    return _set_speed(state, decision, squadron)


def _check_maximum(state: GameState, decision: Speed, squadron: Squadron, choices: list[GalleyId]) -> None:
    for gid in decision.maximum:
        if gid not in squadron.galleys:
            raise IllegalOrder("6.12", f"{gid} is not in squadron {squadron.key}")
        if gid not in choices:
            galley = state.galley(gid)
            barred = maximum_barred(galley)
            if barred is not None:
                raise IllegalOrder(barred.rule, barred.reason)
            raise IllegalOrder("5.52", f"{gid} carries a newly transferred commander: Cruise Speed until he "
                                       "resumes his normal ratings")
    if len(set(decision.maximum)) != len(decision.maximum):
        raise IllegalOrder("6.12", "a galley is named twice")


def _set_speed(state: GameState, decision: Speed, squadron: Squadron,
               standing: bool = False) -> tuple[GameState, list[Event]]:
    for gid in squadron.galleys:
        side_up = SpeedSide.MAXIMUM if gid in decision.maximum else SpeedSide.CRUISE
        state = state.with_galley(replace(state.galley(gid), speed=side_up))
    state = replace(state, speed_set=(*state.speed_set, squadron.key))
    other = state.other(decision.side)
    state = replace(state, to_move=other if _speed_left(state, other) else decision.side)
    return state, [SpeedChosen(rule="6.12", side=decision.side, squadron=squadron.key, maximum=decision.maximum,
                               standing=standing)]


def _standing_speed(state: GameState, side: str, level: str) -> tuple[GameState, list[Event]]:
    """6.12 by the side's standing order (engine.war_galley.turn.standing): its next squadron's choice."""
    squadron = _speed_left(state, side)[0]
    maximum = tuple(speed_choices(state, squadron)) if level == "max" else ()
    return _set_speed(state, Speed(side=side, squadron=squadron.key, maximum=maximum), squadron, standing=True)


def _pass(state: GameState, individual: bool) -> GameState:
    """E/3 Phase-Pass (5.41): to the opponent if he has squadrons left, else the same side goes on."""
    assert state.to_move is not None
    other = state.other(state.to_move)
    if squadrons_left(state, other, individual):
        return replace(state, to_move=other, segment=Segment.MOVEMENT)
    return replace(state, segment=Segment.MOVEMENT)


def step(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """One automatic step; called only while `decision_due` is None and the game is not over."""
    phase = state.phase
    if phase is Phase.DEPLOYMENT:
        set_up = hooks.deployment_step(state, dice)  # tournament play's set-up roll (10.0)
        if set_up is not None:
            return set_up
        return start_turn(state)
    if phase is Phase.WIND:
        return wind_phase(state, dice)
    if phase is Phase.SQUADRONS:
        undecided = [s for s in squadron_order(state) if s not in state.squadrons_done]
        if undecided:
            return _auto_squadrons(state, undecided[0])
        state, began = _began(state, Phase.INITIATIVE, rule="3.2")
        state, events = roll_initiative(state, dice)
        return state, [began, *events]
    if phase is Phase.INITIATIVE:  # the winner has chosen, or chose in advance (engine.war_galley.turn.standing)
        if state.first is None:
            assert state.initiative is not None
            chosen = standing.first(state, state.initiative)
            return choose_first(state, Initiative(side=state.initiative, first=chosen or state.initiative))
        return _enter_speed(state)
    if phase is Phase.SPEED:
        waiting = [side for side in (state.to_move, *(x.key for x in state.sides)) if side and _speed_left(state, side)]
        level = standing.speed(state, waiting[0]) if waiting else None
        if level is not None and waiting[0] == state.to_move:
            return _standing_speed(state, waiting[0], level)
        if waiting:
            return replace(state, to_move=waiting[0]), []
        state, began = _began(state, Phase.COMMAND, Segment.MOVEMENT, "5.41")
        return replace(state, to_move=state.first), [began]
    if phase in (Phase.COMMAND, Phase.INDIVIDUAL):
        individual = phase is Phase.INDIVIDUAL
        if state.segment is Segment.PHASE_PASS:
            return _pass(state, individual), []
        assert state.to_move is not None and state.first is not None
        if squadrons_left(state, state.other(state.to_move), individual):
            return replace(state, to_move=state.other(state.to_move)), []
        if not individual:
            state, began = _began(state, Phase.INDIVIDUAL, Segment.MOVEMENT, "5.31")
            return replace(state, to_move=state.first, record=state.record.next_phase()), [began]
        state, began = _began(state, Phase.STATUS, rule="3.1")
        state, events = status_phase(state, dice)
        return state, [began, *events]
    if phase is Phase.STATUS:
        state, began = _began(state, Phase.VICTORY, rule="9.1")
        result = victory.check(state)
        if result is not None:
            state, events = victory.end(state, result)
            return state, [began, *events]
        return state, [began]
    if phase is Phase.VICTORY:
        return start_turn(state)
    raise AssertionError(f"no automatic step in {phase}")


def advance(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    while state.result is None and decision_due(state) is None:
        state, more = step(state, dice)
        events += more
    return state, events


def describe_phase(state: GameState) -> str:
    name = PHASE_NAMES[state.phase]
    return f"turn {state.turn}, {name}" + (f" ({state.segment.value})" if state.segment.value else "")
