"""A demo player for War Galley: it plays the demo and nothing else.

It picks among `legal(state)`, favouring decisions that bring galleys into
combat (rams, rakes, grapples, boarding, missile fire), accepts an offer to
halt, and offers one itself once `halt_after` turns are played, so that a demo
game ends the way 9.1 lets real players end one: a halt by mutual agreement,
with a minor victory to the side with more VP. The randomness is the
caller's (`rng`); the rules themselves never call `random`.

With `shortcuts` (the default) it uses the orders that save a round trip
(engine.war_galley.play.shortcuts) wherever the listing offers one: an Individual Squadron's
Crew check with both alternatives, a standing Speed Level choice, boarding
declared with the grapples.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.war_galley.play import legal as legal_actions
from engine.war_galley.play import notation
from engine.war_galley.play.shortcuts import plain, uses_shortcut
from engine.war_galley.turn.decisions import (
    AcceptHalt,
    Decision,
    Individual,
    ProposeHalt,
    Reactions,
    Speed,
    to_json,
)
from engine.war_galley.turn.state import GameState

# Words of the orders notation (docs/orders.md) that mark a combat action.
COMBAT_MARKS = ("R:", "K:", "X:", "A:", "grapple", "board", "fire")
HALT_AFTER = 4


class Rng(Protocol):
    def random(self) -> float: ...

    def choice(self, seq: Any) -> Any: ...


def aggression(decision: Decision) -> int:
    """How many combat actions a decision orders (0 for a quiet one)."""
    text = notation.format_decision(decision)
    return sum(text.count(mark) for mark in COMBAT_MARKS)


def choose(state: GameState, side: str, rng: Rng, halt_after: int = HALT_AFTER, shortcuts: bool = True) -> Decision:
    options = legal_actions.legal(state)
    for option in options:
        if isinstance(option, AcceptHalt):
            return option
    if state.turn > halt_after and state.halt_proposed is None:
        return ProposeHalt(side=side)
    if not shortcuts:  # a player who writes every decision after its die
        options = [o for o in options if not uses_shortcut(o)]
    elif any(isinstance(o, (Individual, Speed)) and uses_shortcut(o) for o in options):
        # one file for the Crew check and its activation (5.31); a standing Speed Level choice (6.12)
        options = [o for o in options if uses_shortcut(o) or isinstance(o, Reactions)]
    else:  # boarding declared with the grapples (8.21): in place of the same activation without it
        twins = {plain(o) for o in options if uses_shortcut(o)}
        options = [o for o in options if o not in twins]
    quiet = [o for o in options if not isinstance(o, ProposeHalt)] or options
    weights = [1 + 4 * aggression(o) for o in quiet]
    pick = rng.random() * sum(weights)
    for option, weight in zip(quiet, weights):
        pick -= weight
        if pick < 0:
            return option
    return quiet[-1]


def choose_json(state: GameState, side: str, rng: Rng, shortcuts: bool = True) -> Any:
    return to_json(choose(state, side, rng, shortcuts=shortcuts))
