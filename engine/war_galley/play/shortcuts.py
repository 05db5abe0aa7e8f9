"""Shortcuts: orders that save a round trip of files the rules do not require (docs/orders.md).

Each is the player's choice, never forced, and compresses one place where
the rules let the player decide after a die or wait for an alternation:

- **Crew check alternatives** (5.31): `individual G3-12: free: ... | held: ...`
  gives the galley's activation for either result of its Crew check. Both are
  checked before the die, each against the battlefield as that result leaves
  it (a held galley at Cruise, kept from coming adjacent to an enemy); the one
  the die picks is carried out at once with the same file's dice.
- **Standing Speed Level choice** (6.12): `speed Egypt: max G3-1; rest: cruise`
  sets Egypt's speed now and, each time the alternation of phase D comes back
  to the side, its next squadron's (all Cruise, or `max`: every galley that may
  go to Maximum), so the opponent's file goes on without waiting.

- **Boarding declared with the activation** (8.21): `activate Egypt: ...;
  G3-2 grapple R5-3; then board: G3-2 R5-3` declares the Boarding Segment's
  parties now. After the movement segment, the parties whose galley is
  Grappled to its target and may board are carried out at once; the rest
  lapse (OrderLapsed). If none is left the segment is asked as usual.
  `then board nothing`: no boarding, whatever the grapples did.

The alternatives are found by the rules' own code: the Crew check is run with
each die face (engine.dice.ForcedDice) to see what each result leaves, so a
change to 5.31 changes the shortcut with it.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import Dice, ForcedDice
from engine.errors import IllegalOrder
from engine.events import Event
from engine.war_galley.map_and_galleys.charts import individual_activation_free
from engine.war_galley.turn import activation, boarding_segment, hooks, scenario_play, sequence
from engine.war_galley.turn.decisions import Activate, Boarding, Individual, Speed, Transfer
from engine.war_galley.turn.movement_segment import OrderLapsed
from engine.war_galley.turn.state import GameState, ScenarioState, Segment

STANDING_SPEED = "standing-speed:"  # an `extra.flags` entry: "standing-speed:SIDE=cruise" or "=max"
RESTS = ("cruise", "max")


# --- 5.31: the Crew check's alternatives ----------------------------------------------------------


def crew_outcomes(state: GameState, decision: Individual) -> dict[bool, GameState]:
    """The state each result of the galley's Crew check leaves (True: free to act); IllegalOrder
    if the galley may not be activated now."""
    plain = Individual(side=decision.side, galley=decision.galley)
    out: dict[bool, GameState] = {}
    # The lowest face of each result, as a walk over faces 1-6 would keep it; the other faces are told
    # apart by 5.31's own table, so the activation is applied once per result, not once per face.
    after, events = activation.apply_individual(state, plain, ForcedDice(1))  # refuses an illegal one first
    first = next(e.free for e in events if type(e).__name__ == "CrewChecked")
    out[first] = after
    crew = state.galley(decision.galley).crew
    other = next((face for face in range(2, 7) if individual_activation_free(state.charts, crew, face) != first), None)
    if other is not None:
        after, events = activation.apply_individual(state, plain, ForcedDice(other))
        out[next(e.free for e in events if type(e).__name__ == "CrewChecked")] = after
    return out


def uses_shortcut(decision: object) -> bool:
    """Whether a decision uses a shortcut (so a player who wants none can leave it out)."""
    return plain(decision) != decision


def plain(decision: object) -> object:
    """The decision without its shortcut: what a player who decides after every die would write."""
    if isinstance(decision, Individual):
        return replace(decision, if_free=None, if_held=None, then=None)
    if isinstance(decision, Speed):
        return replace(decision, rest="")
    if isinstance(decision, Activate):
        return replace(decision, board=None)
    if isinstance(decision, Transfer):  # engine.war_galley.play.transfer_orders
        return replace(decision, if_done=None, if_failed=None)
    return decision


def _check_alternative(state: GameState, decision: Activate, result: str) -> None:
    if decision.side != state.to_move:
        raise IllegalOrder("5.31", f"if {result}: the activation is not the same side's")
    try:
        if hooks.begin_wanted(state, decision):
            raise IllegalOrder("5.31", "the battle's special rules want a decision of their own first")
        activation.check_activate(scenario_play.check(state, decision), decision)
        check_board(state, decision)
    except IllegalOrder as exc:
        raise IllegalOrder(exc.rule, f"if {result}: {exc.reason}") from None


def check_individual(state: GameState, decision: Individual) -> dict[bool, GameState]:
    """Every check before the Crew check's die, alternatives included; the outcomes' states."""
    outcomes = crew_outcomes(state, decision)
    for free, alternative in ((True, decision.if_free), (False, decision.if_held)):
        if alternative is None:
            continue
        if alternative.squadron != str(decision.galley) or alternative.also is not None:
            raise IllegalOrder("5.31", f"if {'free' if free else 'held'}: the activation is {decision.galley}'s")
        if free in outcomes:  # a result no face gives (e.g. Crew 6) needs no check
            _check_alternative(outcomes[free], alternative, "free" if free else "held")
    return outcomes


def apply_individual(state: GameState, decision: Individual, dice: Dice) -> tuple[GameState, list[Event]]:
    if not uses_shortcut(decision):
        return activation.apply_individual(state, decision, dice)
    outcomes = check_individual(state, decision)
    # Dice from here on: the alternative was checked against the state this result leaves.
    plain = Individual(side=decision.side, galley=decision.galley)
    state, events = activation.apply_individual(state, plain, dice)
    free = next(e.free for e in events if type(e).__name__ == "CrewChecked")
    chosen = decision.if_free if free else decision.if_held
    if chosen is None:
        return state, events
    checked = outcomes.get(free)
    if checked is not None and checked == state:
        # The very state the alternative was checked against (equal to the die's): go on from it
        # without checking the activation again.
        state, more = activate(checked, chosen, dice, checked=True)
    else:
        state, more = activate(state, chosen, dice)
    return state, [*events, *more]


# --- 8.21: boarding declared with the activation -------------------------------------------------


def check_board(state: GameState, decision: Activate) -> None:
    """Before any die: the parties are the activation's own galleys, boarding enemy galleys."""
    if decision.board is None:
        return
    members = {g for k in (decision.squadron, decision.also) if k for g in state.squadron(k).galleys}
    for party in decision.board:
        if party.galley not in members:
            raise IllegalOrder("8.21", f"then board: {party.galley} is not in the activated squadron")
        if state.controller(state.galley(party.target)) == decision.side:
            raise IllegalOrder("8.21", f"then board: {party.target} is not an enemy galley")


def activate(state: GameState, decision: Activate, dice: Dice, *, checked: bool = False) -> tuple[GameState, list[Event]]:
    """An activation (engine.war_galley.turn.scenario_play), then the Boarding Segment it declared, if any;
    `checked`: `_check_alternative` has just passed it on this very state."""
    check_board(state, decision)
    state, events = scenario_play.activate(state, plain(decision), dice, checked=checked)  # type: ignore[arg-type]
    if decision.board is None:
        return state, events
    side = decision.side
    if state.segment is not Segment.BOARDING or state.to_move != side or state.result is not None:
        events += [OrderLapsed(rule="8.21", galley=p.galley, order="boarding",
                               reason=f"no Boarding Segment: it is not Grappled to {p.target}")
                   for p in decision.board]
        return state, events
    able = {g.id: g for g in boarding_segment.boarders(state, state.boarders)}
    kept = []
    for party in decision.board:
        galley = able.get(party.galley)
        if galley is not None and party.target in [t.id for t in boarding_segment.targets(state, galley)]:
            kept.append(party)
        else:
            events.append(OrderLapsed(rule="8.21", galley=party.galley, order="boarding",
                                      reason=f"it is not Grappled to {party.target}, or may not board it"))
    if decision.board and not kept:
        return state, events  # nothing left of the plan: the player decides the segment himself
    boarding = Boarding(side=side, parties=tuple(kept))
    try:
        boarding_segment.check(state, boarding)
    except IllegalOrder as exc:  # e.g. a split the lapsed parties left uneven: the player decides
        events.append(OrderLapsed(rule=exc.rule, galley=kept[0].galley, order="boarding", reason=exc.reason))
        return state, events
    state, more = boarding_segment.apply_boarding(state, boarding, dice)
    return state, [*events, *more]


# --- 6.12: the standing Speed Level choice --------------------------------------------------------


def standing_speed(state: GameState, side: str) -> str | None:
    for flag in state.extra.flags:
        if flag.startswith(STANDING_SPEED + side + "="):
            return flag.rsplit("=", 1)[1]
    return None


def _with_flags(state: GameState, flags: tuple[str, ...]) -> GameState:
    extra: ScenarioState = replace(state.extra, flags=flags)
    return replace(state, extra=extra)


def choose_speed(state: GameState, decision: Speed) -> tuple[GameState, list[Event]]:
    """6.12 as engine.war_galley.turn.sequence plays it, then the standing choices whose turn has come."""
    if decision.rest and decision.rest not in RESTS:
        raise IllegalOrder("6.12", f"rest: {decision.rest!r}: write 'rest: cruise' or 'rest: max'")
    state, events = sequence.choose_speed(state, replace(decision, rest=""))
    if decision.rest:
        kept = tuple(f for f in state.extra.flags if not f.startswith(STANDING_SPEED + decision.side + "="))
        state = _with_flags(state, (*kept, f"{STANDING_SPEED}{decision.side}={decision.rest}"))
    while True:
        side = state.to_move
        rest = standing_speed(state, side) if side else None
        left = [s for s in state.squadrons if s.side == side and s.key not in state.speed_set]
        if rest is None or not left:
            break
        maximum = tuple(sequence.speed_choices(state, left[0])) if rest == "max" else ()
        state, more = sequence.choose_speed(state, Speed(side=side, squadron=left[0].key, maximum=maximum))
        events += more
    waiting = {s.side for s in state.squadrons if s.key not in state.speed_set}
    stale = tuple(f for f in state.extra.flags
                  if f.startswith(STANDING_SPEED) and f[len(STANDING_SPEED):].split("=")[0] not in waiting)
    if stale:
        state = _with_flags(state, tuple(f for f in state.extra.flags if f not in stale))
    return state, events
