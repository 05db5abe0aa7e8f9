"""What a move costs in PIPs: DBA 2.2's command distance (version 2, docs/fleets-rules.md 5.4).

DBA 2.2 practice, which the fragment leaves to the land game ("Battles between
fleets are fought just like battles between armies"): moving an element or a
group costs 1 PIP, 1 more if any of its elements is more than 1200p from its
general's element, or once the general's element is lost. Distance is between
the nearest points of the two bases, compared exactly in integers.
"""

from __future__ import annotations

from engine.fleets.elements import Element
from engine.fleets.state import State

RULE = "rules 5.4, command"


def gap(state: State, a: Element, b: Element) -> tuple[int, int]:
    """The distance between two square bases along x and along y (0 where they overlap or touch)."""
    base = 2 * state.half
    return max(0, abs(a.x - b.x) - base), max(0, abs(a.y - b.y) - base)


def beyond(state: State, a: Element, general: Element, reach: int) -> bool:
    dx, dy = gap(state, a, general)
    return dx * dx + dy * dy > reach * reach


def pip_cost(state: State, members: list[Element]) -> tuple[int, str]:
    """The PIPs moving `members` (one element or a group) costs now, and why any extra."""
    if not state.rules.at_least("2"):
        return 1, ""
    n = state.rules.numbers
    general = state.element(state.side(state.moving).general)
    if general is None:
        return 1 + n.command_extra_pip, "the general's element is lost"
    far = [m.id for m in members if beyond(state, m, general, n.command_range)]
    if far:
        return 1 + n.command_extra_pip, f"{far[0]} is more than {n.command_range}p from its general"
    return 1, ""
