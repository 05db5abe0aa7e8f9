"""The compulsory drift: 100p downwind, facing kept, for every element that does not move with PIPs.

Fragment: elements in front contact drag their enemy along; drifting elements
end slightly separated (1p) from others unless they began in front contact;
drifting onto land or a reef destroys; a drift is never taken back. Our
readings (docs/fleets-rules.md): a drift stops 1p short of a base in its path;
an element drifting off an open table edge leaves the battle (lost).
"""

from __future__ import annotations

import msgspec

from engine.fleets import space, wind as winds
from engine.fleets.elements import Element
from engine.fleets.events import Drifted
from engine.fleets.geometry import inside, square
from engine.fleets.state import State, remove_elements, replace_element


def _unit_and_reach(state: State) -> tuple[tuple[int, int], int]:
    assert state.wind is not None
    step = winds.drift_step(state.wind, state.rules.numbers.drift)
    reach = max(abs(step[0]), abs(step[1]))
    return (step[0] // reach if step[0] else 0, step[1] // reach if step[1] else 0), reach


def _clear(state: State, members: list[Element], unit: tuple[int, int], t: int) -> bool:
    ids = [m.id for m in members]
    for m in members:
        end = (m.x + unit[0] * t, m.y + unit[1] * t)
        if space.path_hits_elements(state, m.centre, end, ids):
            return False
    return True


def _grouped(state: State, element: Element) -> bool:
    return any(e.id != element.id and space.linked(state, element, e) for e in state.elements)


def drift(state: State, ident: str) -> tuple[State, Drifted]:
    """Drift one element (and any enemy in front contact with it). The caller has checked it may drift."""
    element = state.element(ident)
    assert element is not None
    partner = space.front_partner(state, element)
    members = [element] + ([partner] if partner is not None else [])
    unit, reach = _unit_and_reach(state)
    lo, hi = 0, reach  # largest t with a clear path, by bisection (the swept region only grows with t)
    if _clear(state, members, unit, reach):
        lo = reach
    else:
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if _clear(state, members, unit, mid):
                lo = mid
            else:
                hi = mid
        lo = max(0, lo - 1)  # comes to rest slightly separated from what stopped it
    t = lo
    if partner is None:
        while t > 0 and _grouped(_placed(state, members, unit, t), _at(element, unit, t)):
            t -= 1  # fragment: drifted elements no longer form a legal group
    wrecked, gone = [], []
    after = state
    for m in members:
        end = (m.x + unit[0] * t, m.y + unit[1] * t)
        if t and space.path_hits_land(state, m.centre, end):
            wrecked.append(m.id)
        elif not inside(square(end[0], end[1], state.half), state.terrain.bounds):  # type: ignore[union-attr]
            gone.append(m.id)
        after = replace_element(after, m.moved(*end))
    after = remove_elements(after, wrecked + gone)
    after = msgspec.structs.replace(after, done=after.done + (ident,))
    return after, Drifted([m.id for m in members], unit[0] * t, unit[1] * t, wrecked, gone)


def _at(element: Element, unit: tuple[int, int], t: int) -> Element:
    return element.moved(element.x + unit[0] * t, element.y + unit[1] * t)


def _placed(state: State, members: list[Element], unit: tuple[int, int], t: int) -> State:
    for m in members:
        state = replace_element(state, _at(m, unit, t))
    return state
