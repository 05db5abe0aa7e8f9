"""Standing orders (a shortcut, docs/orders.md): decisions of phases B, C and D the side makes in advance.

`standing: squadrons by range; initiative caesarians first; speed cruise`
stands from the file that gives it until the side changes it (`standing:
ask` asks again); `this turn` in front limits it to the game turn it is
given in (`standing: this turn: initiative caesarians first`). Where one is set the rules do not ask the side: phase B
forms its squadrons by range alone (5.24, the assignment pbem would make
with no choice to settle, Line Astern declined), phase C's winner names the
side given (3.2), and in phase D each of its squadrons goes to Cruise, or
`max`: every galley that may goes to Maximum (6.12), in turn with the
opponent's. It gives up only the chance to answer what the opponent and the
dice do in between; the report shows each choice so made, as if typed.
Kept in `state.extra.flags` ("standing:SIDE:squadrons", "standing:SIDE:first=KEY",
"standing:SIDE:speed=max", "@TURN" after each for this turn only); a game without any plays
exactly as before.
"""

from __future__ import annotations

from engine.errors import IllegalOrder
from engine.war_galley.turn.decisions import Standing
from engine.war_galley.turn.extra import with_extra
from engine.war_galley.turn.state import GameState

PREFIX = "standing:"
SPEEDS = ("cruise", "max")


def _of(state: GameState, side: str, what: str) -> str | None:
    head = f"{PREFIX}{side}:{what}"
    for flag in state.extra.flags:
        text, _, turn = flag.partition("@")
        if turn and int(turn) != state.turn:
            continue  # given for another game turn only
        if text == head:
            return ""
        if text.startswith(head + "="):
            return text[len(head) + 1:]
    return None


def squadrons_by_range(state: GameState, side: str) -> bool:
    return _of(state, side, "squadrons") is not None


def first(state: GameState, side: str) -> str | None:
    return _of(state, side, "first")


def speed(state: GameState, side: str) -> str | None:
    return _of(state, side, "speed")


def check(state: GameState, decision: Standing) -> None:
    sides = [s.key for s in state.sides]
    if decision.first and decision.first not in sides:
        raise IllegalOrder("3.2", f"standing initiative: no side {decision.first!r} (sides: {', '.join(sides)})")
    if decision.speed and decision.speed not in SPEEDS:
        raise IllegalOrder("6.12", f"standing speed: {decision.speed!r}: write 'speed cruise' or 'speed max'")


def _flags(state: GameState, decision: Standing) -> list[str]:
    """The side's flags once `decision` is given (it replaces all the side had)."""
    mine = f"{PREFIX}{decision.side}:"
    until = f"@{state.turn}" if decision.this_turn else ""
    flags: list[str] = []
    if decision.squadrons:
        flags.append(f"{mine}squadrons{until}")
    if decision.first:
        flags.append(f"{mine}first={decision.first}{until}")
    if decision.speed:
        flags.append(f"{mine}speed={decision.speed}{until}")
    return flags


def in_force(state: GameState, decision: Standing) -> bool:
    """Whether the side's standing orders are already exactly `decision`'s: giving it would change nothing."""
    mine = f"{PREFIX}{decision.side}:"
    return sorted(f for f in state.extra.flags if f.startswith(mine)) == sorted(_flags(state, decision))


def set_orders(state: GameState, decision: Standing) -> GameState:
    """The side's standing orders from now on: exactly those in `decision` (none: the rules ask again)."""
    check(state, decision)
    mine = f"{PREFIX}{decision.side}:"
    flags = [f for f in state.extra.flags if not f.startswith(mine)]
    return with_extra(state, flags=tuple(flags + _flags(state, decision)))
