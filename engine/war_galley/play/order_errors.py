"""Names checked before the rules: a decision naming a galley or commander that is not there is refused
for that reason, and an error in a multi-galley activation names the galley it is about.

Without these checks a well-formed id absent from the battle (`R4-9`) reached
the rules as a lookup error, and a misspelt name was refused for a rule it
never reached (a misspelt galley in `squadrons:` "is not in range of two
commanders", a misspelt commander "is not first or second in a Line Astern").
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.war_galley.map_and_galleys.galley import GalleyId
from engine.war_galley.turn import activation, scenario_play
from engine.war_galley.turn.decisions import Activate, AnyDecision, Reactions, Squadrons, Transfer
from engine.war_galley.turn.movement_segment import orders_of
from engine.war_galley.turn.references import galley_ids
from engine.war_galley.turn.state import GameState


def galleys_named(value: Any) -> tuple[GalleyId, ...]:
    """Every galley id anywhere in a decision."""
    return galley_ids(value)


def check_names(state: GameState, decision: AnyDecision) -> None:
    """IllegalOrder naming the first galley or commander the decision names that is not where it says."""
    for gid in galleys_named(decision):
        if not state.has_galley(gid):
            raise IllegalOrder("4.1", f"{gid} is not a galley of this battle")
    if isinstance(decision, Reactions):
        for override in decision.orders.overrides:
            galley = state.galley(override.galley)
            if state.controller(galley) != decision.side:
                raise IllegalOrder("6.5", f"{override.galley} is the enemy's galley: standing "
                                          "reactions are ordered for your own galleys only")
    mentioned: list[str] = []
    if isinstance(decision, Squadrons):
        mentioned = [*decision.line_astern, *(name for _, name in decision.assign)]
        for gid, _ in decision.assign:
            if state.controller(state.galley(gid)) != decision.side:
                raise IllegalOrder("5.24", f"{gid} is the enemy's galley: assign your own")
    elif isinstance(decision, Transfer):
        mentioned = [decision.commander]
    names = {c.name for c in state.commanders_of(decision.side)} if mentioned else set()
    for name in mentioned:
        if name not in names:
            raise IllegalOrder("5.1", f"{name!r} is not a commander of {decision.side} "
                                      f"(commanders: {', '.join(sorted(names)) or 'none'})")


def about_galley(state: GameState, decision: Activate, error: IllegalOrder) -> IllegalOrder:
    """The error with the galley it is about in front, found by checking the galleys' orders one more
    at a time in their order of play (the first galley whose orders fail is the one)."""
    try:
        members = [g for k in (decision.squadron, decision.also) if k for g in state.squadron(k).galleys]
        sequence = orders_of(decision, members).sequence
    except (IllegalOrder, KeyError):
        return error
    for n in range(1, len(sequence) + 1):
        keep = set(sequence[:n])
        partial = replace(
            decision, plans=tuple(p for p in decision.plans if p.galley in keep), refloat=(),
            disengage=tuple(g for g in decision.disengage if g in keep),
            fire=tuple(m for m in decision.fire if m.order.galley in keep),
            grapple=tuple(o for o in decision.grapple if o.galley in keep),
            firepots=tuple(g for g in decision.firepots if g in keep))
        try:
            activation.check_activate(scenario_play.check(state, partial), partial)
        except IllegalOrder:
            gid = str(sequence[n - 1])
            if error.reason.startswith(gid):
                return error
            return IllegalOrder(error.rule, f"{gid}: {error.reason}")
    return error
