"""An activation under the battle's special rules: the rules' start, the activation itself, their aftermath.

`activate` stands where engine.war_galley.play.dispatch dispatches an Activate decision:

1. a rule may act first (Lade's treachery rolls, having checked everything);
2. galleys waiting off the map that have a plan are put at their entry start
   (engine.war_galley.turn.entry), one queue place after another, so that the movement rules
   move them on like any galley; the special rules check every plan
   (engine.war_galley.turn.hooks.check_move), all before any die;
3. engine.war_galley.turn.activation carries the activation out;
4. a waiting galley its plan left off the map waits on; the rules read what
   happened (exits, run-aground VP, anchors raised, the command limit, the
   Treasure Ship).
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import Event
from engine.war_galley.map_and_galleys.galley import GalleyId
from engine.war_galley.movement.moving import move, surroundings
from engine.war_galley.turn import activation, entry, extra, hooks
from engine.war_galley.turn.decisions import Activate
from engine.war_galley.turn.state import GameState


def _placed(state: GameState, decision: Activate) -> tuple[GameState, list[GalleyId]]:
    """The state with each planned waiting galley at its entry start, and those galleys.

    A queue's later galleys stand at the same start as the ones before them:
    off the map no hex is shared with a galley on it, and each enters the
    map only once the one ahead has moved on (6.6 is checked as it enters).
    """
    entering: list[GalleyId] = []
    sim = state
    for plan in decision.plans:
        queue = entry.queue_of(sim, plan.galley)
        if queue is None:
            continue
        placed = entry.prepare(sim, sim.galley(plan.galley), now=False)
        sim = sim.with_galley(placed)
        head = replace(queue, galleys=queue.galleys[1:], entered=queue.entered + 1)
        sim = replace(sim, extra=replace(sim.extra, queues=tuple(head if q == queue else q for q in sim.extra.queues)))
        entering.append(plan.galley)
    if entering:  # the queues as they were: `settle` moves each galley that made it on
        sim = replace(sim, extra=replace(sim.extra, queues=state.extra.queues))
    return sim, entering


def check(state: GameState, decision: Activate) -> GameState:
    """The rules' checks of every plan (IllegalOrder), and the state the activation starts from."""
    sim, entering = _placed(state, decision)
    trial = sim
    # Each galley is moved on the board the earlier plans leave only if something looks at where it
    # ends: a rule watching moves, or 6.6 for entering galleys (below). Else the plan alone is judged.
    moving = bool(entering) or hooks.watches_moves(sim)
    for plan in decision.plans:
        galley = trial.galley(plan.galley)
        if galley.position is None:
            continue
        if not moving:
            hooks.check_move(trial, galley, plan, None)
            continue
        try:
            moved, _ = move(surroundings(trial.board, trial.galleys, galley, trial.wind, trial.turn, trial.charts), galley, plan)
        except IllegalOrder:
            moved = galley  # refused by the movement rules themselves: engine.war_galley.turn.activation says why
        hooks.check_move(trial, galley, plan, moved)
        trial = trial.with_galley(moved)
    if entering:
        seen: dict[object, GalleyId] = {}
        for g in trial.galleys:
            for h in (g.position.hexes if g.position is not None else ()):
                if trial.board.map.contains(h):
                    if h in seen:
                        raise IllegalOrder("6.6", f"{g.id} and {seen[h]} would share {trial.board.map.format(h)}: "
                                                  "a galley comes on only when the one ahead has moved off")
                    seen[h] = g.id
    return sim if entering else state


def acceptable(state: GameState, decision: Activate) -> bool:
    """Whether the activation passes every check `activate` makes before a die: the special rules,
    entry, and the whole activation from the state it starts in (for the legal-action listing,
    whose entry plans are added after engine.war_galley.play.legal_combat checked the rest)."""
    try:
        if hooks.begin_wanted(state, decision):
            return not (decision.plans or decision.refloat or decision.also)
        activation.check_activate(check(state, decision), decision)
    except IllegalOrder:
        return False
    return True


def activate(state: GameState, decision: Activate, dice: Dice, *, checked: bool = False) -> tuple[GameState, list[Event]]:
    """The activation from `state`; `checked`: the caller has just run `check_activate` on the state
    `check` returns for this very state (the check is pure: running it twice only costs time)."""
    begun = hooks.begin(state, decision, dice)
    if begun is not None:
        return begun
    keys = (decision.squadron, decision.also) if decision.also else (decision.squadron,)
    before = state
    start = check(state, decision)
    entering = [g for g in (p.galley for p in decision.plans) if entry.queue_of(state, g) is not None]
    if not checked:
        activation.check_activate(start, decision)  # everything before the first die
    state, events = activation.apply_activate(start, decision, dice, checked=True)
    for gid in entering:
        state = entry.settle(state, gid)
    for q in before.extra.queues:  # galleys that did not come on are off the map again
        for gid in q.galleys:
            g = state.galley(gid)
            if gid not in entering and g.position is not None:
                state = state.with_galley(replace(g, position=None))
    state = extra.record_exits(state, before, events)
    state, more = hooks.after(state, keys, before, events)
    return state, events + more


def with_entries(state: GameState, decision: Activate, variant: int) -> Activate:
    """A listed activation with plans bringing on the squadron's waiting galleys (variants 1 and 2)."""
    if variant == 0 or state.current is not None and state.current.squadrons != (decision.squadron,):
        return decision
    keys = (decision.squadron, decision.also) if decision.also else (decision.squadron,)
    members = [g for k in keys for g in state.squadron(k).galleys]
    if not any(entry.queue_of(state, g) is not None for g in members):
        return decision
    sim = state
    for plan in decision.plans:
        galley = sim.galley(plan.galley)
        try:
            moved, _ = move(surroundings(sim.board, sim.galleys, galley, sim.wind, sim.turn, sim.charts), galley, plan)
        except IllegalOrder:
            return decision
        sim = sim.with_galley(moved)
    _, plans = entry.entry_plans(sim, members)
    return replace(decision, plans=(*decision.plans, *plans)) if plans else decision
