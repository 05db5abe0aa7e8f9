"""The compulsory drift: 100p downwind, facing kept, for every element that does not move with PIPs.

Fragment: elements in front contact drag their enemy along; drifting elements
end slightly separated (1p) from others unless they began in front contact;
drifting onto land or a reef destroys; a drift is never taken back. Our
readings (docs/fleets-rules.md 5.10-5.12): a drift stops 1p short of a base in
its path that will not drift itself; an element drifting off an open table edge
leaves the battle (lost). From version 2 a friend in the way that has yet to
drift or move drifts first ("All elements of the moving fleet must drift
100p"), so the order the player drifts in never shortens a drift, and an enemy
against a flank or rear drifts along too ("Enemy elements in contact with
drifting ships remain in contact and drift along").
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


def drift(state: State, ident: str, drifting: frozenset[str] = frozenset()) -> tuple[State, list[Drifted]]:
    """Drift one element (and the enemy in contact with it), after any friend in its way that must drift too
    (version 2). The caller has checked it may drift; the events are in the order the drifts were made.

    `drifting`: the elements whose drift waits on this one. A friend among them is not "yet to drift"
    here: it drifts as soon as this one has (bases each in the other's way, a ring of them downwind,
    sent this into endless recursion: `pbem legal` failed with an internal error in a Salamis demo)."""
    element = state.element(ident)
    assert element is not None
    members = _dragged(state, element)
    unit, reach = _unit_and_reach(state)
    events: list[Drifted] = []
    if state.rules.at_least("2"):
        waiting = drifting | {m.id for m in members}
        for first in _in_the_way(state, members, unit, reach):
            if first not in waiting and state.element(first) is not None and first not in state.done:
                state, more = drift(state, first, waiting)
                events.extend(more)
        element = state.element(ident)
        assert element is not None
        members = _dragged(state, element)
    state, event = _drift_one(state, element, members, unit, reach)
    return state, events + [event]


def _dragged(state: State, element: Element) -> list[Element]:
    """The drifting element and the enemies in contact with it: the enemy in front contact (version 1), any
    enemy touching it front to flank or rear either way (version 2)."""
    partner = space.front_partner(state, element)
    members = [element] + ([partner] if partner is not None else [])
    if state.rules.at_least("2"):
        members += [e for _, e in space.side_attackers(state, element) if e not in members]
        members += [e for e in state.elements if e.side != element.side and e not in members
                    and any(a.id == element.id for _, a in space.side_attackers(state, e))]
    return members


def _in_the_way(state: State, members: list[Element], unit: tuple[int, int], reach: int) -> list[str]:
    """Friends of the moving fleet, yet to move or drift, whose bases the full drift would run into, nearest
    downwind first (so each clears the way for the next)."""
    ids = [m.id for m in members]
    hit: list[str] = []
    for m in members:
        end = (m.x + unit[0] * reach, m.y + unit[1] * reach)
        hit += [i for i in space.path_hits_elements(state, m.centre, end, ids) if i not in hit]
    mine = [e for e in state.elements if e.id in hit and e.side == state.moving and e.id not in state.done]
    return [e.id for e in sorted(mine, key=lambda e: (-(e.x * unit[0] + e.y * unit[1]), e.id))]


def _drift_one(state: State, element: Element, members: list[Element], unit: tuple[int, int],
               reach: int) -> tuple[State, Drifted]:
    ident = element.id
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
    if len(members) == 1 and not state.rules.at_least("4"):
        while t > 0 and _grouped(_placed(state, members, unit, t), _at(element, unit, t)):
            t -= 1  # fragment: drifted elements no longer form a legal group (versions 1-3: shortened to part it)
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
    if state.rules.at_least("4") and space.front_partner(state, element) is None:
        after = _a_hair_apart(after, ident)
    return after, Drifted([m.id for m in members], unit[0] * t, unit[1] * t, wrecked, gone)


def _a_hair_apart(state: State, ident: str) -> State:
    """Version 4: the drifted element ends "slightly separated from any other elements, so as not to form a legal
    group anymore" (fragment) by less than a pace: the full drift is kept and every friend it would now form a
    group with is recorded a hair apart from it (state.apart, read by space.linked)."""
    state = space.standing_apart(state)
    moved = state.element(ident)
    if moved is None:  # wrecked or gone
        return state
    friends = [e for e in state.elements if e.id != ident and space.linked(state, moved, e)]
    if not friends:
        return state
    return msgspec.structs.replace(state, apart=state.apart + tuple((moved, f) for f in friends))


def _at(element: Element, unit: tuple[int, int], t: int) -> Element:
    return element.moved(element.x + unit[0] * t, element.y + unit[1] * t)


def _placed(state: State, members: list[Element], unit: tuple[int, int], t: int) -> State:
    for m in members:
        state = replace_element(state, _at(m, unit, t))
    return state
