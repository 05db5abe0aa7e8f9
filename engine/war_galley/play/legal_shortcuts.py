"""The shortcuts in the legal-action listing (engine.war_galley.play.shortcuts): complete, legal examples of each.

Built from the same generators as the plain decisions: an Individual
Squadron's alternatives are activations the listing offers in the state each
Crew check result leaves; the standing Speed Level choice is offered on a
squadron's plain choice; boarding is declared with each listed activation
that grapples, for its grapplers and their targets.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import IllegalOrder
from engine.war_galley.manpower_combat.manpower_orders import BoardingParty
from engine.war_galley.play import shortcuts
from engine.war_galley.turn.decisions import Activate, AnyDecision, Individual, Speed
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


def board_examples(listed: list[AnyDecision]) -> list[AnyDecision]:
    """Each listed activation with grapples, its grapplers declared to board their targets (8.21)."""
    out: list[AnyDecision] = []
    for decision in listed:
        if isinstance(decision, Activate) and decision.grapple and decision.board is None:
            parties = tuple(BoardingParty(o.galley, o.target) for o in decision.grapple)
            out.append(Activate(**{**{f: getattr(decision, f) for f in decision.__struct_fields__},
                                   "board": parties}))
    return out


__all__ = ["individual_examples", "speed_examples", "board_examples"]
