"""An Individual Squadron galley with the side's next one (5.31): `individual A: ... => then individual B: ...`.

When the opponent has no Individual Squadron galley left, 5.31's alternation
hands the side its galleys one after another; each Crew check rolls, so each
would be a file of its own and an acknowledgement. `then` gives the next
galley's activation now. It is checked before any die on every state the
first can leave: each result of its Crew check, with that result's
alternative carried out and the automatic steps after it. So each result
needs its alternative, that alternative may roll no die of its own (its
outcome would be unknown), and the rules must ask the same side for an
Individual Squadron galley next; otherwise it is refused and nothing rolls.

Each Crew check doubles the states the next galley's orders are checked on,
so a chain is at most MOST_GALLEYS galleys: at most 2**MOST_GALLEYS states
for the referee (and any verifier) to check, whatever a file nests.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import Dice, NoDice
from engine.errors import IllegalOrder
from engine.events import Event
from engine.war_galley.play import shortcuts
from engine.war_galley.turn import sequence
from engine.war_galley.turn.decisions import Individual
from engine.war_galley.turn.state import GameState


def next_states(state: GameState, decision: Individual) -> list[GameState]:
    """The states `decision` (its `then` aside) can leave, its alternatives and the automatic steps
    after them carried out; IllegalOrder if any of them is not known before the dice."""
    out = []
    for free, after in shortcuts.check_individual(state, decision).items():
        word = "free" if free else "held"
        alternative = decision.if_free if free else decision.if_held
        if alternative is None:
            raise IllegalOrder("5.31", f"then: give the '{word}' alternative too: the next galley waits for it")
        try:
            after, _ = shortcuts.activate(after, alternative, NoDice())
            after, _ = sequence.advance(after, NoDice())
        except NoDice.Needed:
            raise IllegalOrder("5.31", f"then: if {word}, the activation rolls dice of its own: decide the next "
                                       "galley after seeing them") from None
        due = sequence.decision_due(after)
        if due is None or due.kind != "individual" or due.side != decision.side:
            raise IllegalOrder("5.31", f"then: if {word}, the next Individual Squadron galley is not yours "
                                       "at once (players alternate while both have one)")
        out.append(after)
    return out


MOST_GALLEYS = 4  # a file's chain: 2 + 4 + 8 + 16 states checked at most, each galley a file saved


def length(decision: Individual) -> int:
    """How many galleys the chain activates."""
    return 1 if decision.then is None else 1 + length(decision.then)


def check(state: GameState, decision: Individual) -> None:
    """Every check of the chain before its first die."""
    if length(decision) > MOST_GALLEYS:
        raise IllegalOrder("5.31", f"then: at most {MOST_GALLEYS} Individual Squadron galleys in one "
                                   "decision (each Crew check doubles the states to check); send the rest next")
    _check(state, decision)


def _check(state: GameState, decision: Individual) -> None:
    if decision.then is None:
        shortcuts.check_individual(state, decision)
        return
    for after in next_states(state, decision):
        try:
            _check(after, decision.then)
        except IllegalOrder as exc:
            raise IllegalOrder(exc.rule, f"then {decision.then.galley}: {exc.reason}") from None


def apply(state: GameState, decision: Individual, dice: Dice) -> tuple[GameState, list[Event]]:
    if decision.then is None:
        return shortcuts.apply_individual(state, decision, dice)
    check(state, decision)
    return _apply_checked(state, decision, dice)


def _apply_checked(state: GameState, decision: Individual, dice: Dice) -> tuple[GameState, list[Event]]:
    """Dice from here on: every state below was checked (not again: each check is the chain's below it),
    and only the Crew checks roll."""
    if decision.then is None:
        return shortcuts.apply_individual(state, decision, dice)
    state, events = shortcuts.apply_individual(state, replace(decision, then=None), dice)
    state, more = sequence.advance(state, dice)  # the Phase-Pass back to the same side (5.31, 5.41)
    state, last = _apply_checked(state, decision.then, dice)
    return state, [*events, *more, *last]
