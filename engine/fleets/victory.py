"""Who has won (base reading): at the end of a bound, a fleet that has lost its general's element or a third
of its elements (rounded up), and more elements than the enemy, loses. At the scenario's bound limit (nightfall)
the battle is a draw from version 2 (DBA has no win on losses short of breaking a fleet); version 1 gave it to
the fleet with fewer losses."""

from __future__ import annotations

from engine.fleets.state import Side, State


def losses(state: State, side: Side) -> int:
    on_table = sum(1 for e in state.elements if e.side == side.key)
    return side.start - on_table


def broken(state: State, side: Side) -> bool:
    den = state.rules.numbers.loss_fraction_den
    threshold = -(-side.start // den)
    general_lost = side.general in state.lost
    return general_lost or losses(state, side) >= threshold


def verdict(state: State) -> str | None:
    a, b = state.sides
    la, lb = losses(state, a), losses(state, b)
    for me, you, mine, yours in ((a, b, la, lb), (b, a, lb, la)):
        if broken(state, me) and mine > yours:
            whose = "their" if state.rules.at_least("2") else "its"  # the Persians have lost *their* general
            why = f"{whose} general's element" if me.general in state.lost else f"{mine} of {me.start} elements"
            return f"{you.name} win: the {me.name} have lost {why} ({mine} lost to {yours})"
    if state.bound >= state.bound_limit:
        if state.rules.at_least("2"):
            return f"a draw at nightfall after {state.bound} bounds, neither fleet broken ({la} lost to {lb})"
        if la == lb:
            return f"a draw after {state.bound} bounds ({la} elements lost each)"
        win, lose = (a, b) if la < lb else (b, a)
        return f"{win.name} win on losses after {state.bound} bounds ({min(la, lb)} lost to {max(la, lb)})"
    return None
