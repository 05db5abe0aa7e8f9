"""A decoded decision refers only to things in the battle: its galleys, commanders and sides.

`decisions.from_json` checks a decision's shape; the rules then look up the
galleys, commanders and sides it names. A validly signed file may name a
galley that is not in the battle (G5-99) or a commander nobody has, and a
lookup would fail as a KeyError: a crash instead of a refusal. So every name
is checked here, once, before any rule sees the decision, and refused with
the rules' own error (IllegalOrder).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
from msgspec.structs import astuple

from engine.errors import IllegalOrder
from engine.memo import by_identity
from engine.war_galley.map_and_galleys.galley import GalleyId
from engine.war_galley.turn.decisions import (
    Activate,
    AnyDecision,
    Deploy,
    Double,
    Initiative,
    Speed,
    Squadrons,
    Transfer,
)
from engine.war_galley.turn.state import GameState


@by_identity()
def galley_ids(value: Any) -> tuple[GalleyId, ...]:
    """Every GalleyId anywhere inside a decoded decision (its structs, tuples, lists and sets), in order.

    Asked of every decision twice (here and by play.order_errors), so it is kept for the decision
    (immutable) and walked without a generator per value: the nested generators were most of the check.
    """
    found: list[GalleyId] = []
    stack = [value]
    while stack:  # depth first, fields and items left to right: the order the recursive walk had
        item = stack.pop()
        if isinstance(item, GalleyId):
            found.append(item)
        elif isinstance(item, msgspec.Struct):
            stack.extend(reversed(astuple(item)))
        elif isinstance(item, (tuple, list, frozenset, set)):
            stack.extend(reversed(tuple(item)))
    return tuple(found)


def _commander_names(decision: AnyDecision) -> Iterator[str]:
    """The commanders a decision names."""
    if isinstance(decision, Transfer):
        yield decision.commander
    if isinstance(decision, Squadrons):
        yield from decision.line_astern
        yield from (name for _, name in decision.assign)
    if isinstance(decision, Deploy):
        yield from (name for name, _ in decision.commanders)


def _squadron_names(decision: AnyDecision) -> Iterator[str]:
    """The squadrons a decision names (a commander's, or an Individual Squadron galley's: 5.2, 5.3)."""
    if isinstance(decision, (Speed, Activate)):
        yield decision.squadron
    if isinstance(decision, Activate) and decision.also is not None:
        yield decision.also
    if isinstance(decision, Double):
        yield decision.other


def check(decision: AnyDecision, state: GameState) -> None:
    """IllegalOrder unless every galley, commander and side the decision names is in this battle."""
    sides = [info.key for info in state.sides]
    named_sides = [decision.side] + ([decision.first] if isinstance(decision, Initiative) else [])
    for side in named_sides:
        if side not in sides:
            raise IllegalOrder("decision", f"no side {side!r} in this battle (sides: {', '.join(sides)})")
    for galley_id in galley_ids(decision):
        if not state.has_galley(galley_id):
            raise IllegalOrder("decision", f"no galley {galley_id} in this battle")
    named = list(_commander_names(decision))
    commanders = {c.name for c in state.commanders} if named else set()
    for name in named:
        if name not in commanders:
            raise IllegalOrder("decision", f"no commander {name!r} in this battle")
    named = list(_squadron_names(decision))
    squadrons = {s.key for s in state.squadrons} if named else set()
    for name in named:
        if name not in squadrons:
            known = ", ".join(sorted(squadrons)) or "none formed yet"
            raise IllegalOrder("5.2", f"no squadron {name!r} now (squadrons: {known})")
