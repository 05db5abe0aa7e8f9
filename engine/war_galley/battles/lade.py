"""Lade's Treachery and Cowardice (scenario book, Lade, Special Rules; an option).

"The first time that either the Samos or Lesbos squadron is activated, the
player rolls the die. The result is the number of galleys in that squadron
that must, when they move, turn around and move off the northern edge of
the map." The first Activate of such a squadron names no orders: it rolls
the die (every check first) and the activation goes on with the orders in
the next decision, as after a Double Activation roll (5.42). READINGS: the
fleeing galleys are the squadron's galleys in ID order, lowest first (the
book does not say who chooses); "when they move" is read as: any plan a
fleeing galley is given must take its bow nearer the northern edge, or off
it; it may stay put. Having sailed off, they count for nobody (9.1, and
"do not count for victory").
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.events import DieRolled, Event
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId, Removal
from engine.war_galley.turn.extra import flag, mark, marked
from engine.war_galley.turn.hooks import Params, SpecialRule, hook
from engine.war_galley.turn.state import GameState, PendingActivation, galley_key

RULE = "Lade, Treachery and Cowardice"


@hook("begin", "treachery")
def begin(state: GameState, params: Params, decision: Any, dice: Any) -> tuple[GameState, list[Event]] | None:
    from engine.war_galley.turn.activation import allowed
    from engine.war_galley.turn.decisions import Activate
    if not isinstance(decision, Activate) or state.current is not None:
        return None
    if decision.squadron not in params["squadrons"] or f"treachery:{decision.squadron}" in state.extra.flags:
        return None
    if (decision.squadron, decision.also) not in allowed(state, decision.side) or state.to_move != decision.side:
        return None  # the ordinary checks refuse it
    if decision.plans or decision.refloat or decision.also:
        raise IllegalOrder(RULE, f"the first activation of {decision.squadron} rolls for its deserters first: "
                                 f"write `activate {decision.squadron}` with no orders, then give the orders")
    natural = dice.d6(f"Lade treachery {decision.squadron}")
    members = sorted(state.squadron(decision.squadron).galleys, key=galley_key)
    fleeing = members[:natural]
    state = flag(state, f"treachery:{decision.squadron}")
    state = mark(state, "fleeing", fleeing)
    events: list[Event] = [
        DieRolled(rule=RULE, table=f"Treachery ({decision.squadron})", natural=natural,
                  outcome=f"{len(fleeing)} galleys turn and flee north"),
        SpecialRule(rule=RULE, special="treachery",
                    text=f"{', '.join(str(g) for g in fleeing)} must turn around and move off the northern edge"),
    ]
    return replace(state, current=PendingActivation((decision.squadron,))), events


def _northward(params: Params) -> int:
    return 1 if params.get("exit_edge", "xx28") == "xx28" else -1


@hook("move", "treachery")
def check(state: GameState, params: Params, before: Galley, plan: Any, moved: Galley) -> None:
    if before.id not in marked(state, "fleeing") or before.position is None:
        return
    if moved.removed is Removal.EXITED:
        return
    sign = _northward(params)
    if moved.position is None or (moved.position.bow.row - before.position.bow.row) * sign <= 0:
        raise IllegalOrder(RULE, f"{before.id} flees: it may only move toward the northern edge and off it")


def fleeing(state: GameState) -> list[GalleyId]:
    return marked(state, "fleeing")


def announce_first(state: GameState, squadron: str) -> bool:
    """The activation of `squadron` must first roll for its deserters (no orders in that decision)."""
    from engine.war_galley.turn.hooks import named
    return state.current is None and any(
        squadron in p["squadrons"] and f"treachery:{squadron}" not in state.extra.flags
        for p in named(state, "treachery"))


@hook("announce", "treachery")
def _announces(state: GameState, params: Params, squadron: str) -> bool:
    """The deserters' roll opens this squadron's activation (engine.war_galley.turn.hooks.begin_wanted)."""
    return announce_first(state, squadron)
