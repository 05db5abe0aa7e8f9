"""The fragment's combat results table, and carrying a result out (recoil, flee, destroy, follow-up)."""

from __future__ import annotations

from typing import Literal

from engine.fleets import space, wind as winds
from engine.fleets.elements import Element
from engine.fleets.events import FollowedUp, Recoiled
from engine.fleets.geometry import UNIT, Vec, inside, square
from engine.fleets.state import State, remove_elements, replace_element

Result = Literal["recoil", "flee", "destroyed", "stands"]


def recoil_downwind(state: State, loser: Element) -> bool:
    """A recoil goes straight back; it is downwind if up to 90 degrees off the wind's direction."""
    assert state.wind is not None
    fx, fy = UNIT[loser.heading]
    return winds.downwind((-fx, -fy), state.wind)


def result(loser: str, winner: str, how: str, recoil_is_downwind: bool) -> Result:
    """The table, row by row: loser's type code, winner's type code, "beaten" or "doubled"."""
    if how == "beaten":
        if loser == "Lib":
            return "flee" if winner == "Cat" else "recoil"
        if loser in ("Cat", "Lng"):
            return "destroyed" if winner == "Lib" else "recoil"
        if loser == "Wr":
            if winner == "Lib":
                return "destroyed"
            return "recoil" if recoil_is_downwind else "stands"
        if loser == "Tr":
            return "recoil" if recoil_is_downwind else "stands"
    if how == "doubled":
        if loser in ("Lib", "Cat", "Lng"):
            return "recoil" if winner == "Tr" else "destroyed"
        if loser == "Wr":
            return "recoil" if winner == "Tr" and recoil_is_downwind else "destroyed"
        if loser == "Tr":
            return "destroyed"
    raise ValueError(f"no result for {loser} {how} by {winner}")


def _slide(state: State, element: Element, vector: Vec, exclude: list[str]) -> tuple[str, Vec]:
    """Where a forced move ends: "clear", "blocked" (by the first base), "land" or "off"."""
    end = (element.x + vector[0], element.y + vector[1])
    if space.path_hits_land(state, element.centre, end):
        return "land", end
    if not inside(square(end[0], end[1], state.half), state.terrain.bounds):  # type: ignore[union-attr]
        return "off", end
    if space.path_hits_elements(state, element.centre, end, exclude):
        return "blocked", end
    return "clear", end


def recoil(state: State, loser: Element, winner: Element) -> tuple[State, Recoiled]:
    """Straight back one base depth, facing kept. A friend of the same facing lined up behind is pushed
    back with it; any other block destroys the recoiler (base reading); land, a reef: destroyed (fragment)."""
    depth = 2 * state.half
    fx, fy = UNIT[loser.heading]
    vector = (-fx * depth, -fy * depth)
    chain = [loser]
    while True:
        fate, _ = _slide(state, chain[-1], vector, [c.id for c in chain] + [winner.id])
        behind = space.supporter(state, chain[-1])
        if fate == "blocked" and behind is not None and behind.id not in [c.id for c in chain]:
            chain.append(behind)
            continue
        break
    fates = [_slide(state, c, vector, [x.id for x in chain] + [winner.id]) for c in chain]
    if fates[0][0] == "land":
        return remove_elements(state, [loser.id]), Recoiled([loser.id], "wrecked")
    if fates[0][0] == "off":
        return remove_elements(state, [loser.id]), Recoiled([loser.id], "gone")
    if any(f[0] != "clear" for f in fates):
        return remove_elements(state, [loser.id]), Recoiled([loser.id], "destroyed")
    for c, (_, end) in zip(chain, fates):
        state = replace_element(state, c.moved(*end))
    return state, Recoiled([c.id for c in chain], "recoils")


def flee(state: State, loser: Element, winner: Element, distance: int) -> tuple[State, Recoiled]:
    """Turn about and go `distance` straight away; stops at a base in the way; land or the edge: lost."""
    fx, fy = UNIT[loser.heading]
    turned = loser.moved(loser.x, loser.y, (loser.heading + 180) % 360)
    lo, hi = 0, distance
    fate, _ = _slide(state, turned, (-fx * distance, -fy * distance), [loser.id, winner.id])
    if fate == "blocked":
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if _slide(state, turned, (-fx * mid, -fy * mid), [loser.id, winner.id])[0] == "blocked":
                hi = mid
            else:
                lo = mid
        distance = lo
        fate, _ = _slide(state, turned, (-fx * distance, -fy * distance), [loser.id, winner.id])
    if fate in ("land", "off"):
        return remove_elements(state, [loser.id]), Recoiled([loser.id], "wrecked" if fate == "land" else "gone")
    end = (loser.x - fx * distance, loser.y - fy * distance)
    return replace_element(state, turned.moved(*end)), Recoiled([loser.id], "flees")


def follow_up(state: State, winner: Element) -> tuple[State, FollowedUp | None]:
    """A ship follows its recoiling opponent one base depth, if the way is clear."""
    depth = 2 * state.half
    fx, fy = UNIT[winner.heading]
    fate, end = _slide(state, winner, (fx * depth, fy * depth), [winner.id])
    if fate != "clear":
        return state, None
    return replace_element(state, winner.moved(*end)), FollowedUp(winner.id)


def destroy(state: State, loser: Element) -> tuple[State, Recoiled]:
    return remove_elements(state, [loser.id]), Recoiled([loser.id], "destroyed")
