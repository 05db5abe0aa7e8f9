"""Close combat: each side's die plus combat value and modifiers; beaten or doubled.

Fragment: the combat values; +1 for the general's element in contact; +1 for
galleys supported by a second rank of galleys and fighting galleys to their
front. Base: -1 for each flank overlapped, and for each enemy against a flank or the rear; the lower total is beaten, and
doubled if its total is half the winner's or less; equal totals: no result.
"""

from __future__ import annotations

from typing import Literal

from engine.fleets import space
from engine.fleets.elements import Element
from engine.fleets.state import State

Outcome = Literal["tie", "beaten", "doubled"]


def factors(state: State, a: Element, opponent: Element) -> tuple[int, list[str]]:
    """a's combat value and modifiers against `opponent`, with the words of each."""
    rules = state.rules
    n = rules.numbers
    t = rules.type(a.type)
    total, words = t.cv, [f"{t.code} {t.cv:+d}"]
    if a.general:
        total += n.general_bonus
        words.append(f"general {n.general_bonus:+d}")
    rear = space.supporter(state, a)
    if t.kind == "galley" and rules.type(opponent.type).kind == "galley" and rear is not None \
            and rules.type(rear.type).kind == "galley":
        total += n.rear_support
        words.append(f"second rank {n.rear_support:+d}")
    behind = len(space.side_attackers(state, a))
    if behind:
        total -= n.overlap_penalty * behind
        words.append(f"enemy on flank or rear {-n.overlap_penalty * behind:+d}")
    flanks = space.overlapped_flanks(state, a, opponent)
    if flanks:
        total -= n.overlap_penalty * flanks
        words.append(f"overlapped {-n.overlap_penalty * flanks:+d}")
    return total, words


def outcome(mine: int, theirs: int) -> Outcome:
    """Mine against theirs, from the loser's side: beaten if lower, doubled if half or less."""
    if mine >= theirs:
        return "tie"
    return "doubled" if 2 * mine <= theirs else "beaten"
