"""Where elements are relative to each other and the terrain: paths, front contact, groups, overlaps, support."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from engine.fleets.elements import Element
from engine.fleets.geometry import UNIT, Vec, inside, overlaps, square, sweep_overlaps
from engine.fleets.state import State
from engine.fleets.table import land, shallows


def path_hits_elements(state: State, start: Vec, end: Vec, exclude: Iterable[str]) -> list[str]:
    """Ids of elements (other than `exclude`) whose base the sliding base would overlap."""
    skip = set(exclude)
    return [e.id for e in state.elements if e.id not in skip and sweep_overlaps(start, end, state.half, e.footprint(state.half))]


def path_hits_land(state: State, start: Vec, end: Vec) -> bool:
    assert state.terrain is not None
    return any(sweep_overlaps(start, end, state.half, r) for r in land(state.terrain))


def path_in_shallows(state: State, start: Vec, end: Vec) -> bool:
    assert state.terrain is not None
    return any(sweep_overlaps(start, end, state.half, r) for r in shallows(state.terrain))


def on_table(state: State, x: int, y: int) -> bool:
    assert state.terrain is not None
    return inside(square(x, y, state.half), state.terrain.bounds)


def front_partner(state: State, a: Element) -> Element | None:
    """The enemy in front-to-front contact with `a`: facing it, front edges together, fully lined up."""
    base = 2 * state.half
    fx, fy = UNIT[a.heading]
    for b in state.elements:
        if b.side != a.side and b.heading == (a.heading + 180) % 360 and (b.x, b.y) == (a.x + fx * base, a.y + fy * base):
            return b
    return None


def contacts(state: State, side: str) -> list[tuple[Element, Element]]:
    """Every front contact, as (element of `side`, enemy), in `side`'s element order."""
    out = []
    for a in state.elements:
        if a.side == side and (b := front_partner(state, a)) is not None:
            out.append((a, b))
    return out


def linked(state: State, a: Element, b: Element) -> bool:
    """Two friends that can move as one group: same facing, edge to edge and corner to corner, and not left a
    hair apart by a drift (version 4, see `apart`)."""
    if a.side != b.side or a.heading != b.heading:
        return False
    base = 2 * state.half
    dx, dy = abs(b.x - a.x), abs(b.y - a.y)
    return (dx, dy) in ((base, 0), (0, base)) and not (state.apart and hair_apart(state, a, b))


def hair_apart(state: State, a: Element, b: Element) -> bool:
    """Version 4 (docs/fleets-rules.md 5.10): a drift left `a` and `b` "slightly separated ... so as not to form
    a legal group anymore", and both still stand as they did then. The separation is less than a pace: it parts
    the group and nothing else."""
    return (a, b) in state.apart or (b, a) in state.apart


def standing_apart(state: State) -> State:
    """The state without the pairs that have lapsed: a base gone, moved or turned since its drift."""
    keep = tuple(p for p in state.apart if all(state.element(e.id) == e for e in p))
    return state if keep == state.apart else msgspec.structs.replace(state, apart=keep)


def forget_apart(state: State, ids: Iterable[str]) -> State:
    """The state without the pairs of elements that were moved with PIPs (even back to where they stood)."""
    gone = set(ids)
    keep = tuple(p for p in state.apart if not any(e.id in gone for e in p))
    return state if keep == state.apart else msgspec.structs.replace(state, apart=keep)


def connected(state: State, members: list[Element]) -> bool:
    if not members:
        return False
    seen = {members[0].id}
    frontier = [members[0]]
    while frontier:
        cur = frontier.pop()
        for m in members:
            if m.id not in seen and linked(state, cur, m):
                seen.add(m.id)
                frontier.append(m)
    return len(seen) == len(members)


def supported(state: State, a: Element) -> bool:
    """A friend of the same facing directly behind, its front edge on a's rear edge, lined up."""
    return supporter(state, a) is not None


def supporter(state: State, a: Element) -> Element | None:
    """The friend that supports `a` (see `supported`), if any."""
    base = 2 * state.half
    fx, fy = UNIT[a.heading]
    for r in state.elements:
        if r.side == a.side and r.heading == a.heading and (r.x, r.y) == (a.x - fx * base, a.y - fy * base):
            return r
    return None


def overlapped_flanks(state: State, a: Element, opponent: Element) -> int:
    """Flanks of `a` overlapped: an enemy beside a's opponent, facing the same way, front corner on a's front corner,
    not itself in front contact."""
    base = 2 * state.half
    fx, fy = UNIT[a.heading]
    px, py = fy, -fx  # a's right
    count = 0
    for sign in (1, -1):
        spot = (opponent.x + sign * px * base, opponent.y + sign * py * base)
        for g in state.elements:
            if g.side != a.side and g.id != opponent.id and g.heading == opponent.heading and (g.x, g.y) == spot:
                if front_partner(state, g) is None:
                    count += 1
                break
    return count


def footprint_clear(state: State, x: int, y: int, exclude: Iterable[str] = ()) -> bool:
    """No base or land overlaps a base centred at x, y."""
    assert state.terrain is not None
    sq = square(x, y, state.half)
    skip = set(exclude)
    if any(overlaps(sq, r) for r in land(state.terrain)):
        return False
    return not any(e.id not in skip and overlaps(sq, e.footprint(state.half)) for e in state.elements)


# An element's edges as quarter turns from its facing: front 0, right 1, rear 2, left 3.
EDGE_TURNS = {"front": 0, "right": 1, "rear": 2, "left": 3}


def edge_spot(state: State, target: Element, edge: str) -> tuple[Vec, int]:
    """Where an enemy's centre is, and its facing, when its front edge is lined up against `edge` of target."""
    base = 2 * state.half
    outward = (target.heading + 90 * EDGE_TURNS[edge]) % 360
    ox, oy = UNIT[outward]
    return (target.x + ox * base, target.y + oy * base), (outward + 180) % 360


def side_attackers(state: State, target: Element) -> list[tuple[str, Element]]:
    """Enemies with their front edge lined up against target's flank or rear, as (edge, enemy)."""
    out = []
    for edge in ("right", "rear", "left"):
        spot, facing = edge_spot(state, target, edge)
        for e in state.elements:
            if e.side != target.side and (e.x, e.y) == spot and e.heading == facing:
                out.append((edge, e))
    return out
