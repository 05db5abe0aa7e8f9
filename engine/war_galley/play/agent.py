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
declared with the grapples, a transfer with its next decision for either
result of its die.
"""

from __future__ import annotations

from typing import Any, Protocol

from msgspec.structs import replace

from engine.war_galley.play import legal as legal_actions
from engine.errors import IllegalOrder
from engine.war_galley.play import chain, notation, transfer_orders
from engine.war_galley.play.shortcuts import plain, uses_shortcut
from engine.war_galley.turn import standing
from engine.war_galley.turn.decisions import (
    AcceptHalt,
    Activate,
    Decision,
    FollowUp,
    Individual,
    ProposeHalt,
    Reactions,
    Speed,
    Standing,
    Transfer,
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


def choose(state: GameState, side: str, rng: Rng, halt_after: int = HALT_AFTER, shortcuts: bool = True,
           advance: bool = False, chained: bool = True, listed: list[Decision] | None = None) -> Decision:
    """`shortcuts`: the orders that lose nothing, offered by default; `advance`: every advance order too
    (standing orders for phases B-D, boarding declared with the grapples), giving up the chance to answer.
    `listed`: legal(state), if the caller has it (a listing is the costly part of a choice)."""
    options = listed if listed is not None else legal_actions.legal(state)
    decision = _choose(options, state, side, rng, halt_after, shortcuts, advance)
    if shortcuts and isinstance(decision, Transfer):  # its next decision for either result of the die (5.52)
        follow: dict[bool, Decision] = {}
        for done, after in transfer_orders.outcomes(state, transfer_orders.plain(decision)).items():
            kinds = FollowUp.__args__  # type: ignore[attr-defined]
            options = [o for o in legal_actions.legal(after) if isinstance(o, kinds)]
            if options:
                follow[done] = _choose(options, after, side, rng, halt_after, shortcuts, advance)
        return replace(decision, if_done=follow.get(True), if_failed=follow.get(False))
    if shortcuts and chained and isinstance(decision, Individual) and uses_shortcut(decision):
        return _with_next(state, decision, side, rng, halt_after, advance)
    return decision


def _with_next(state: GameState, decision: Individual, side: str, rng: Rng, halt_after: int,
               advance: bool) -> Individual:
    """The galley's activation and, while the side's next galley follows at once, the next ones' too (5.31),
    up to chain.MOST_GALLEYS: each chosen in the state its Crew check leaves free, the chain checked once."""
    links = [decision]
    at = state
    while len(links) < chain.MOST_GALLEYS and links[-1].if_free is not None and links[-1].if_held is not None:
        try:
            at = chain.next_states(at, links[-1])[0]
        except IllegalOrder:
            break
        then = choose(at, side, rng, halt_after, True, advance, chained=False)
        if not isinstance(then, Individual):
            break
        links.append(then)
    while len(links) > 1:  # the longest chain whose every galley's orders hold in every state the dice leave
        candidate = links[-1]
        for link in reversed(links[:-1]):
            candidate = replace(link, then=candidate)
        try:
            chain.check(state, candidate)
            return candidate
        except IllegalOrder:
            links.pop()
    return decision


def _choose(options: list[Any], state: GameState, side: str, rng: Rng, halt_after: int, shortcuts: bool,
            advance: bool = False) -> Decision:
    for option in options:
        if isinstance(option, AcceptHalt):
            return option
    if state.turn > halt_after and state.halt_proposed is None:
        return ProposeHalt(side=side)
    # a transfer's follow-ups are the player's own choices in each result's state (choose, above)
    options = [transfer_orders.plain(o) if isinstance(o, Transfer) else o for o in options]
    options = list(dict.fromkeys(options))
    orders = [o for o in options if isinstance(o, Standing)]
    options = [o for o in options if not isinstance(o, Standing)]
    if dict(state.reactions).get(side) is not None:  # given once: each change would be a file asking nothing
        options = [o for o in options if not isinstance(o, Reactions)] or options
    chosen = _standing(orders, state, side, rng, shortcuts, advance)
    if chosen is not None:
        return chosen
    if not advance:  # boarding declared before the grapples are known gives up their result (8.21)
        options = [o for o in options if not (isinstance(o, Activate) and o.board is not None)]
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


def _standing(orders: list[Standing], state: GameState, side: str, rng: Rng, shortcuts: bool,
              advance: bool) -> Standing | None:
    """The standing order a player takes: with `advance`, orders from now on, once; by default, the
    initiative choice for this turn where nothing reaches him before the roll (3.2)."""
    mine = any(f.startswith(f"{standing.PREFIX}{side}:") and "@" not in f for f in state.extra.flags)
    if advance and not mine:
        lasting = [o for o in orders if not o.this_turn and (o.squadrons or o.first or o.speed)]
        if lasting:
            return rng.choice(lasting)  # type: ignore[no-any-return]
    if shortcuts and not mine and standing.first(state, side) is None:
        this_turn = [o for o in orders if o.this_turn]
        if this_turn:
            return rng.choice(this_turn)  # type: ignore[no-any-return]
    return None


def choose_json(state: GameState, side: str, rng: Rng, shortcuts: bool = True) -> Any:
    return to_json(choose(state, side, rng, shortcuts=shortcuts))
