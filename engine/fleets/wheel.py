"""Group wheels (version 3, docs/fleets-rules.md 5.4), DBA 2.2 practice the fragment assumes ("Galleys may move as
a group straight backward (no wheeling or oblique moves)" says ordinary group moves may wheel).

A group wheels a quarter turn about one front corner of its front rank (the corner on the side it wheels to),
then may go on straight ahead in its new facing. The wheel is measured, as DBA measures it, by the distance the
outer front corner travels: a quarter circle whose radius is the group's width. With the four facings of 5.2 a
wheel is always a quarter turn (rules 5.4 says why).

Everything is exact in integers. The region a wheel sweeps is exact too: a rectangle body W wide and D deep
turning 90 degrees about its front corner P sweeps exactly the points on the body's side of P (not beyond P
toward the turn), between D behind P's front line and W ahead of it, within the radius of its far rear corner
(sqrt(W^2 + D^2)) -- each radius r of the body covers an arc that the turn widens by 90 degrees. A group that is
not a full rectangle is checked by its bounding rectangle, which can only refuse more.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from engine.fleets import command, movement, space, wind as winds, zoc
from engine.fleets.decisions import Wheel
from engine.fleets.elements import Element
from engine.fleets.errors import IllegalOrder
from engine.fleets.events import Moved
from engine.fleets.geometry import UNIT, Rect, Vec, overlaps, point_rect_gap_sq, sweep_overlaps
from engine.fleets.state import State, replace_element
from engine.fleets.table import land, shallows

RULE = "rules 5.4, group wheel"
# pi to 40 places, so the quarter circle is rounded up exactly (no float); pi times any width is never whole
PI_NUM, PI_DEN = 31415926535897932384626433832795028841971, 10**40


def quarter_arc(width: int) -> int:
    """The outer front corner's travel in a quarter wheel of a group `width` paces wide, rounded up."""
    return -(-PI_NUM * width // (2 * PI_DEN))


class Sweep(msgspec.Struct, frozen=True):
    """The region a wheel sweeps: on the `toward` side of the pivot, from `depth` behind it to `width` ahead
    (along `front`), within sqrt(width^2 + depth^2) of it."""

    pivot: Vec
    toward: Vec  # unit vector from the pivot along the front rank, into the group
    front: Vec
    width: int
    depth: int

    @property
    def radius_sq(self) -> int:
        return self.width * self.width + self.depth * self.depth

    def _strip(self, reach: int) -> Rect:
        px, py = self.pivot
        pts = [(px + self.toward[0] * t + self.front[0] * v, py + self.toward[1] * t + self.front[1] * v)
               for t in (0, reach) for v in (-self.depth, self.width)]
        return Rect(min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))

    def overlaps(self, other: Rect) -> bool:
        """Positive-area overlap with `other`: the strip clipped to it, then its nearest point inside the disc."""
        strip = self._strip(self.width + self.depth)  # beyond the radius: the disc test bounds it
        if not overlaps(strip, other):
            return False
        clip = Rect(max(strip.x0, other.x0), max(strip.y0, other.y0), min(strip.x1, other.x1), min(strip.y1, other.y1))
        return point_rect_gap_sq(self.pivot[0], self.pivot[1], clip) < self.radius_sq

    def within(self, bounds: Rect) -> bool:
        """The whole region on the table: its reach along `toward` is the radius, attained ahead of no one."""
        strip = self._strip(0)
        if not (bounds.x0 <= strip.x0 and strip.x1 <= bounds.x1 and bounds.y0 <= strip.y0 and strip.y1 <= bounds.y1):
            return False
        px, py = self.pivot
        room = {(1, 0): bounds.x1 - px, (-1, 0): px - bounds.x0, (0, 1): bounds.y1 - py, (0, -1): py - bounds.y0}[self.toward]
        return room >= 0 and room * room >= self.radius_sq


def _right(front: Vec) -> Vec:
    return (front[1], -front[0])


def plan(state: State, members: list[Element], to: str) -> tuple[Sweep, list[Element], int]:
    """The wheel's sweep, the members where it leaves them (new facing), and its measured distance."""
    half = state.half
    heading = members[0].heading
    f = UNIT[heading]
    r = _right(f)
    along = [m.x * r[0] + m.y * r[1] for m in members]
    ahead = [m.x * f[0] + m.y * f[1] for m in members]
    width = max(along) - min(along) + 2 * half
    depth = max(ahead) - min(ahead) + 2 * half
    front_line = max(ahead) + half
    side = max(along) + half if to == "right" else min(along) - half
    # the pivot in world coordinates: front_line along f, side along r (f and r are axis units)
    pivot = (f[0] * front_line + r[0] * side, f[1] * front_line + r[1] * side)
    toward = (-r[0], -r[1]) if to == "right" else r
    moved = []
    for m in members:
        u = (m.x - pivot[0]) * r[0] + (m.y - pivot[1]) * r[1]
        v = (m.x - pivot[0]) * f[0] + (m.y - pivot[1]) * f[1]
        nu, nv = (v, -u) if to == "right" else (-v, u)  # a quarter turn clockwise, or counter-clockwise
        x = pivot[0] + nu * r[0] + nv * f[0]
        y = pivot[1] + nu * r[1] + nv * f[1]
        moved.append(m.moved(x, y, (heading + (90 if to == "right" else 270)) % 360))
    return Sweep(pivot, toward, f, width, depth), moved, quarter_arc(width)


def check_wheel(state: State, order: Wheel) -> tuple[State, Moved]:
    if not state.rules.at_least("3"):
        raise IllegalOrder(RULE, "fleets version 2 has no group wheel (a game begun under it keeps its rules)")
    members = movement.group_members(state, order.ids)
    pips = movement.spend(state, members)
    if order.to not in ("left", "right"):
        raise IllegalOrder(RULE, "a group wheels left or right")
    if order.ahead < 0:
        raise IllegalOrder(RULE, "go on ahead a whole number of paces, 0 or more")
    for m in members:
        if space.front_partner(state, m) is not None:
            raise IllegalOrder(RULE, f"{m.id} is in front contact: only galleys may back away")
    sweep, wheeled, arc = plan(state, members, order.to)
    ids = [m.id for m in members]
    assert state.terrain is not None
    if not sweep.within(state.terrain.bounds):
        raise IllegalOrder(RULE, "the wheel would swing off the table")
    hit = [e.id for e in state.elements if e.id not in ids and sweep.overlaps(e.footprint(state.half))]
    if hit:
        raise IllegalOrder(RULE, f"the wheel would sweep over {hit[0]}")
    if any(sweep.overlaps(rect) for rect in land(state.terrain)):
        raise IllegalOrder(RULE, "the wheel would sweep over land or a reef")
    new_front = UNIT[wheeled[0].heading]
    step = (new_front[0] * order.ahead, new_front[1] * order.ahead)
    ends = [w.moved(w.x + step[0], w.y + step[1]) for w in wheeled]
    if order.ahead:
        for w in wheeled:
            movement.check_path(state, ids, w.centre, [(w.centre, (w.x + step[0], w.y + step[1]))], w.id)
    cost = arc + order.ahead
    limit, why = min(_allowance(state, m, sweep, w, e, new_front) for m, w, e in zip(members, wheeled, ends))
    if cost > limit:
        raise IllegalOrder(RULE, f"the wheel measures {cost}p (the outer front corner's quarter circle, {arc}p"
                           + (f", then {order.ahead}p ahead" if order.ahead else "") + f"), more than {limit}p ({why})")
    after = state
    for e in ends:
        after = replace_element(after, e)
    contacts = []
    for e in ends:
        partner = space.front_partner(after, e)
        if partner is not None:
            if state.rules.type(e.type).code == "Tr":
                raise IllegalOrder("rules 5, transports", "Transports may not move into contact with enemy")
            contacts.append(partner.id)
    zoc.check(state, members, [members[0].front, new_front], contacts[0] if contacts else None)
    legs = {m.id: [sweep.overlaps] + ([_leg(state, w, e)] if order.ahead else []) for m, w, e in zip(members, wheeled, ends)}
    zoc.check_entering(state, [(m, legs[m.id], e.footprint(state.half)) for m, e in zip(members, ends)], set(contacts))
    after = msgspec.structs.replace(after, pips=state.pips - pips, done=state.done + tuple(ids))
    return after, Moved(ids, "", cost, limit, contacts[0] if contacts else None, pips)


def _leg(state: State, start: Element, end: Element) -> Callable[[Rect], bool]:
    return lambda rect: sweep_overlaps(start.centre, end.centre, state.half, rect)


def _allowance(state: State, member: Element, sweep: Sweep, wheeled: Element, end: Element,
               new_front: Vec) -> tuple[int, str]:
    """The member's move distance (rules 5.6-5.7): a wheel goes every way from its old front to its new one, so it
    is upwind if either is, and wind astern only if both are (and any leg ahead after it)."""
    assert state.wind is not None and state.terrain is not None
    kind = state.rules.type(member.type)
    dirs = [member.front, new_front]
    up = any(winds.upwind(d, state.wind) for d in dirs) or any(sweep.overlaps(s) for s in shallows(state.terrain))
    if wheeled.centre != end.centre:
        up = up or space.path_in_shallows(state, wheeled.centre, end.centre)
    astern = kind.astern_bonus and all(winds.astern(d, state.wind) for d in dirs)
    allow = movement.Allowance(kind.speed, up, astern, False)
    return allow.total(state.rules.numbers), f"{member.id}: {movement.why(allow)}"
