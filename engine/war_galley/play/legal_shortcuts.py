"""The shortcuts in the legal-action listing (engine.war_galley.play.shortcuts): complete, legal examples of each.

Built from the same generators as the plain decisions: an Individual
Squadron's alternatives are activations the listing offers in the state each
Crew check result leaves; the standing Speed Level choice is offered on a
squadron's plain choice; boarding is declared with each listed activation
that grapples, for its grapplers and their targets; a transfer is offered
with the listing's own next decision for either result of its die.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.war_galley.manpower_combat.manpower_orders import BoardingParty
from engine.war_galley.play import shortcuts, transfer_orders
from engine.war_galley.play.transfer_orders import Apply
from engine.war_galley.turn import command, standing
from engine.war_galley.turn.decisions import Activate, AnyDecision, FollowUp, Individual, Speed, Standing, Transfer
from engine.war_galley.turn.sequence import Due, decision_due
from engine.war_galley.turn.state import GameState


def individual_examples(state: GameState, plain: list[Individual],
                        activations: Callable[[GameState, Due], list[AnyDecision]]) -> list[AnyDecision]:
    """Per galley, the Crew check with both alternatives: the listing's boldest activation for each result."""
    out: list[AnyDecision] = []
    for decision in plain:
        try:
            outcomes = shortcuts.crew_outcomes(state, decision)
        except IllegalOrder:
            continue
        chosen: dict[bool, Activate] = {}
        for free, after in outcomes.items():
            due = decision_due(after)
            if due is None or due.kind != "activate":
                continue
            listed = [a for a in activations(after, due) if isinstance(a, Activate)]
            if listed:
                chosen[free] = max(listed, key=lambda a: (len(a.plans), len(a.fire) + len(a.grapple)))
        if chosen:
            out.append(Individual(side=decision.side, galley=decision.galley,
                                  if_free=chosen.get(True), if_held=chosen.get(False)))
    return out


def speed_examples(plain: list[Speed]) -> list[AnyDecision]:
    """The first squadron's plain choices, with the rest of the side's squadrons at Cruise."""
    if not plain:
        return []
    first = plain[0]
    return [Speed(side=first.side, squadron=first.squadron, maximum=first.maximum, rest="cruise"),
            Speed(side=first.side, squadron=first.squadron, maximum=first.maximum, rest="max")]


def transfer_examples(state: GameState, plain: list[Transfer], listed: list[AnyDecision],
                      apply: Apply) -> list[AnyDecision]:
    """The first transfer that can have them, with the side's next decision for either result of its die
    (5.52): the first of the listing's own decisions (an activation that acts before one that does nothing)
    that the result allows. One example shows the form (the demo player makes its own, agent.choose):
    each costs a check of every candidate on both results' states, a quarter of a listing each."""
    candidates = sorted((d for d in listed if isinstance(d, FollowUp.__args__)),  # type: ignore[attr-defined]
                        key=lambda d: isinstance(d, Activate) and d == shortcuts.plain(d) and not _acts(d))
    for decision in plain:
        try:
            outcomes = transfer_orders.outcomes(state, decision)
        except IllegalOrder:
            continue
        chosen: dict[bool, AnyDecision] = {}
        for done, after in outcomes.items():
            for candidate in candidates:
                try:
                    transfer_orders.check_follow_up(after, candidate, done, apply)
                except IllegalOrder:
                    continue
                chosen[done] = candidate
                break
        if chosen:
            return [replace(decision, if_done=chosen.get(True), if_failed=chosen.get(False))]
    return []


def _acts(decision: Activate) -> bool:
    """Whether an activation orders anything (5.41: one without orders still counts as activated)."""
    return bool(decision.plans or decision.refloat or decision.disengage or decision.fire or decision.grapple)


def standing_examples(state: GameState, side: str, kind: str) -> list[AnyDecision]:
    """Standing orders (engine.war_galley.turn.standing). Forming squadrons when the opponent has formed
    his (or forms them by range, with nothing to choose), nothing reaches the side before the initiative
    roll: its choice if it wins, for this turn, is the default (3.2). Then the orders from now on:
    squadrons by range, itself first, every squadron Cruise, or Maximum; and 'ask' once any is set."""
    other = state.other(side)
    out: list[AnyDecision] = []
    settled = other in state.squadrons_done or not command.needs_decision(state, other) \
        or standing.squadrons_by_range(state, other)  # the opponent's squadrons are known, or formed by range
    if kind == "squadrons" and settled:
        out += [Standing(side=side, first=first, this_turn=True) for first in (side, other)]
    if kind in ("deploy", "squadrons", "individual"):
        out += [Standing(side=side, squadrons=True, first=side, speed=level) for level in standing.SPEEDS]
    if any(f.startswith(f"{standing.PREFIX}{side}:") for f in state.extra.flags):
        out.append(Standing(side=side))
    # like the reactions' offers (legal_combat.reaction_examples): never the orders already given, a
    # decision that changes nothing (a player driving the listing would give it again and again)
    return [d for d in out if not (isinstance(d, Standing) and standing.in_force(state, d))]


def board_examples(listed: list[AnyDecision]) -> list[AnyDecision]:
    """Each listed activation with grapples, its grapplers declared to board their targets (8.21)."""
    out: list[AnyDecision] = []
    for decision in listed:
        if isinstance(decision, Activate) and decision.grapple and decision.board is None:
            parties = tuple(BoardingParty(o.galley, o.target) for o in decision.grapple)
            out.append(Activate(**{**{f: getattr(decision, f) for f in decision.__struct_fields__},
                                   "board": parties}))
    return out


__all__ = ["individual_examples", "speed_examples", "transfer_examples", "standing_examples", "board_examples"]
