"""A transfer with the side's next decision for either result of its die (5.52): one file, not two.

`transfer Drusus to GL2-2 => transferred: activate Drusus: ... => stays: activate Drusus: ...`

5.52 rolls the die and the side goes on deciding on its own turn (the
transfer changes no phase), so all it learns in between is the die: the
follow-ups lose nothing the rules give him. Each is checked before the die
by the rules' own `apply`, on the state its result leaves (the transfer run
with a forced face of each result, engine.dice.ForcedDice); the one the die
picks is then carried out with the same file's dice. A result left out is
decided after the die, in the next file, as without the shortcut.
"""

from __future__ import annotations

from collections.abc import Callable

from msgspec.structs import replace

from engine.dice import Dice, ForcedDice, NoDice
from engine.errors import IllegalOrder
from engine.events import Event
from engine.war_galley.turn import commanders, sequence
from engine.war_galley.turn.decisions import AnyDecision, Transfer
from engine.war_galley.turn.state import GameState

Apply = Callable[[GameState, AnyDecision, Dice], tuple[GameState, list[Event]]]
WORDS = {True: "transferred", False: "stays"}  # the notation's names of the two results


def plain(decision: Transfer) -> Transfer:
    return replace(decision, if_done=None, if_failed=None)


def outcomes(state: GameState, decision: Transfer) -> dict[bool, GameState]:
    """The state each result of the die leaves (True: he transfers); IllegalOrder if the transfer is."""
    out: dict[bool, GameState] = {}
    for face in range(1, 7):
        after, events = commanders.transfer(state, plain(decision), ForcedDice(face))
        out.setdefault(any(isinstance(e, commanders.Transferred) for e in events), after)
        if len(out) == 2:  # both results seen: the faces left give one of the same two states
            break
    return out


def check_follow_up(state: GameState, follow: AnyDecision, done: bool, apply: Apply) -> None:
    """IllegalOrder unless `follow` passes every check of `apply` before its first die, on `state`."""
    word = WORDS[done]
    due = sequence.decision_due(state)
    if due is None or follow.side != due.side or isinstance(follow, Transfer):
        raise IllegalOrder("5.52", f"{word}: not a decision of the same side's turn (phase B, D, E or F)")
    try:
        apply(state, follow, NoDice())
    except NoDice.Needed:
        pass  # checked whole: it would roll now
    except IllegalOrder as exc:
        raise IllegalOrder(exc.rule, f"{word}: {exc.reason}") from None


def check(state: GameState, decision: Transfer, apply: Apply) -> dict[bool, GameState]:
    found = outcomes(state, decision)
    for done, follow in ((True, decision.if_done), (False, decision.if_failed)):
        if follow is not None and done in found:
            check_follow_up(found[done], follow, done, apply)
    return found


def transfer(state: GameState, decision: Transfer, dice: Dice, apply: Apply) -> tuple[GameState, list[Event]]:
    if decision.if_done is None and decision.if_failed is None:
        return commanders.transfer(state, decision, dice)
    check(state, decision, apply)
    # Dice from here on: each follow-up was checked against the state its result leaves.
    state, events = commanders.transfer(state, plain(decision), dice)
    done = any(isinstance(e, commanders.Transferred) for e in events)
    follow = decision.if_done if done else decision.if_failed
    if follow is None:
        return state, events
    state, more = apply(state, follow, dice)
    return state, [*events, *more]
