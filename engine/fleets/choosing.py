"""The open sea battle's set-up before the terrain (version 3, docs/fleets-rules.md 1.5), as DBA players expect
it: the attacker decided by aggression dice, then each fleet chosen from the five types, a twelve-element army
with one general's element.

Scenario `choose = true` (scenarios/fleets/open-sea.toml) starts the game in phase "aggression" (automatic: both
dice, the higher attacks, a tie is diced again), then "fleet-defender" and "fleet-attacker": each player names his
fleet, as many elements as the scenario's fleet (its list is the example offered), any of the rules' types. The
defender names his first, since he then lays out the terrain and the attacker, naming second, sees only a fleet.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.fleets.decisions import ChooseFleet
from engine.fleets.elements import Element
from engine.fleets.errors import IllegalOrder
from engine.fleets.events import AggressionRolled, Event, FleetChosen
from engine.fleets.state import Side, State

RULE = "rules 1.5, open sea"
PHASES = ("aggression", "fleet-defender", "fleet-attacker")


def choosing(state: State) -> str:
    return state.defender if state.phase == "fleet-defender" else state.attacker


def size(state: State, side: str) -> int:
    return sum(1 for e in state.to_place if e.side == side)


def roll_aggression(state: State, dice: Any) -> tuple[State, Event]:
    """Both players dice; the higher is the attacker (DBA: the invader); equal dice are rolled again."""
    first, second = state.sides
    pairs: list[list[int]] = []
    while not pairs or pairs[-1][0] == pairs[-1][1]:
        pairs.append([dice.d6(f"aggression: {first.key}"), dice.d6(f"aggression: {second.key}")])
    attacker, defender = (first.key, second.key) if pairs[-1][0] > pairs[-1][1] else (second.key, first.key)
    state = msgspec.structs.replace(state, attacker=attacker, defender=defender, phase="fleet-defender")
    return state, AggressionRolled([s.key for s in state.sides], pairs, attacker)


def check_fleet(state: State, order: ChooseFleet) -> tuple[State, Event]:
    side = choosing(state)
    mine = [e for e in state.to_place if e.side == side]
    codes = {t.code for t in state.rules.types}
    if len(order.types) != len(mine):
        raise IllegalOrder(RULE, f"a fleet of {len(mine)} elements, not {len(order.types)}")
    for code in order.types:
        if code not in codes:
            raise IllegalOrder(RULE, f"no element type {code!r} (types: {', '.join(t.code for t in state.rules.types)})")
    if not 1 <= order.general <= len(order.types):
        raise IllegalOrder(RULE, f"the general's element is one of the {len(order.types)}: general 1 to {len(order.types)}")
    prefix = mine[0].id.rstrip("0123456789")
    chosen = [Element(f"{prefix}{n}", code, side, 0, 0, 0, n == order.general) for n, code in enumerate(order.types, 1)]
    sides = tuple(Side(s.key, s.name, f"{prefix}{order.general}", len(chosen)) if s.key == side else s
                  for s in state.sides)
    rest = tuple(e for e in state.to_place if e.side != side)
    after = "fleet-attacker" if state.phase == "fleet-defender" else ("terrain" if state.terrain is None else "wind-pick")
    state = msgspec.structs.replace(state, sides=(sides[0], sides[1]), to_place=rest + tuple(chosen), phase=after)
    return state, FleetChosen(side, list(order.types), order.general)


def examples(state: State) -> list[ChooseFleet]:
    """Fleets to list (any other may be written): the scenario's, all Liburnians, a heavy and a mixed one."""
    side = choosing(state)
    mine = [e for e in state.to_place if e.side == side]
    n = len(mine)
    codes = [t.code for t in state.rules.types]
    default = ChooseFleet([e.type for e in mine], next((i for i, e in enumerate(mine, 1) if e.general), 1))
    mixed = [codes[i * len(codes) // n] for i in range(n)]
    return [default, ChooseFleet(["Lib"] * n), ChooseFleet(["Cat"] * (n // 2) + ["Lib"] * (n - n // 2)),
            ChooseFleet(mixed)]
