"""Moves with PIPs, checked exactly: allowance by wind and shallows, each leg's path, contact, transports.

One checker per kind of move; each returns the new state and its event or raises
IllegalOrder before changing anything. The legal-order generator (legal.py) and
the demo player use these same checkers.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from engine.fleets import command, space, wind as winds, zoc
from engine.fleets.decisions import Back, Move, Shift
from engine.fleets.elements import Element, Numbers
from engine.fleets.errors import IllegalOrder
from engine.fleets.events import Moved
from engine.fleets.geometry import UNIT, HEADING_NAMES, Rect, Vec, length_up, quarter_turns, sweep_overlaps, within_90
from engine.fleets.state import State, replace_element

RULE = "rules 5, movement"
MAX_LEGS = 4


class Allowance(msgspec.Struct, frozen=True):
    speed: int
    upwind_or_shallows: bool
    astern: bool
    backward: bool

    def total(self, n: Numbers) -> int:
        return (self.speed - (n.upwind_or_shallows if self.upwind_or_shallows else 0)
                + (n.wind_astern_bonus if self.astern else 0)
                - (n.backward_penalty if self.backward else 0))


def allowance(state: State, element: Element, legs: list[tuple[Vec, Vec]], backward: bool = False) -> Allowance:
    """The element's move distance for this path (fragment: -100p upwind or through shallows; +100p wind astern)."""
    assert state.wind is not None
    kind = state.rules.type(element.type)
    dirs = [(b[0] - a[0], b[1] - a[1]) for a, b in legs]
    up = any(winds.upwind(d, state.wind) for d in dirs) or any(space.path_in_shallows(state, a, b) for a, b in legs)
    astern = kind.astern_bonus and bool(dirs) and all(winds.astern(d, state.wind) for d in dirs)
    return Allowance(kind.speed, up, astern, backward)


def _ready(state: State, ident: str) -> Element:
    element = state.element(ident)
    if element is None:
        raise IllegalOrder(RULE, f"no element {ident} on the table")
    if element.side != state.moving:
        raise IllegalOrder(RULE, f"{ident} is not in the moving fleet")
    if ident in state.done:
        raise IllegalOrder(RULE, f"{ident} has already moved or drifted this bound")
    return element


def spend(state: State, members: list[Element]) -> int:
    """The PIPs the move costs (command.pip_cost); refused if fewer are left."""
    if state.pips < 1:
        raise IllegalOrder("rules 5, PIPs", "no PIPs left this bound: drift the rest or end")
    cost, why = command.pip_cost(state, members)
    if cost > state.pips:
        raise IllegalOrder(command.RULE, f"this move costs {cost} PIPs ({why}), {state.pips} left")
    return cost


def check_path(state: State, moving: list[str], start: Vec, legs: list[tuple[Vec, Vec]], who: str) -> None:
    for a, b in legs:
        if a == b:
            raise IllegalOrder(RULE, f"{who}: a leg of no length")
        hit = space.path_hits_elements(state, a, b, moving)
        if hit:
            raise IllegalOrder(RULE, f"{who}: the path {a[0]},{a[1]} to {b[0]},{b[1]} runs into {hit[0]}")
        if space.path_hits_land(state, a, b):
            raise IllegalOrder(RULE, f"{who}: the path {a[0]},{a[1]} to {b[0]},{b[1]} runs onto land or a reef")
        if not space.on_table(state, *b):
            raise IllegalOrder(RULE, f"{who}: {b[0]},{b[1]} is off the table")


def contact_spot(state: State, target: Element) -> Vec:
    base = 2 * state.half
    fx, fy = UNIT[target.heading]
    return (target.x + fx * base, target.y + fy * base)


def check_move(state: State, order: Move) -> tuple[State, Moved]:
    element = _ready(state, order.id)
    pips = spend(state, [element])
    if space.front_partner(state, element) is not None:
        raise IllegalOrder(RULE, f"{order.id} is in front contact: it may only break off (`{order.id} back D`, "
                                 "galleys that may) or drift")
    heading = element.heading if order.turn is None else order.turn
    if heading not in UNIT:
        raise IllegalOrder(RULE, f"{order.id}: face N, E, S or W")
    if any(len(p) != 2 for p in order.to):
        raise IllegalOrder(RULE, f"{order.id}: waypoints are x,y")
    points: list[Vec] = [(p[0], p[1]) for p in order.to]
    target = None
    if order.contact is not None:
        target = state.element(order.contact)
        if target is None or target.side == element.side:
            raise IllegalOrder(RULE, f"{order.id}: no enemy element {order.contact} on the table")
        if state.rules.type(element.type).code == "Tr":
            raise IllegalOrder("rules 5, transports", "Transports may not move into contact with enemy")
        if order.edge not in space.EDGE_TURNS:
            raise IllegalOrder(RULE, f"{order.id}: contact an enemy's front, left, right or rear")
        spot, want = space.edge_spot(state, target, order.edge)
        if order.turn is not None and order.turn != want:
            raise IllegalOrder(RULE, f"{order.id}: contact with {target.id}'s {order.edge} means facing {HEADING_NAMES[want]}")
        heading = want
        points.append(spot)
    if len(points) > MAX_LEGS:
        raise IllegalOrder(RULE, f"{order.id}: at most {MAX_LEGS} legs")
    if not points and heading == element.heading:
        raise IllegalOrder(RULE, f"{order.id}: a move must turn or go somewhere")
    start = element.centre
    legs = list(zip([start] + points[:-1], points))
    front = UNIT[heading]
    for a, b in legs:
        if not within_90((b[0] - a[0], b[1] - a[1]), front):
            raise IllegalOrder(RULE, f"{order.id}: a leg more than 90 degrees off its facing (only galleys back, straight)")
    check_path(state, [element.id], start, legs, order.id)
    numbers = state.rules.numbers
    cost = sum(length_up(b[0] - a[0], b[1] - a[1]) for a, b in legs) + turn_cost(state, element.heading, heading)
    allow = allowance(state, element, legs)
    limit = allow.total(numbers)
    if cost > limit:
        raise IllegalOrder(RULE, f"{order.id}: the move measures {cost}p, more than its {limit}p ({why(allow)})")
    end = points[-1] if points else start
    moved = element.moved(end[0], end[1], heading)
    after = replace_element(state, moved)
    partner = space.front_partner(after, moved)
    if state.rules.type(element.type).code == "Tr" and (partner is not None or _touches_enemy_edge(after, moved)):
        raise IllegalOrder("rules 5, transports", "Transports may not move into contact with enemy")
    zoc.check(state, [element], [(b[0] - a[0], b[1] - a[1]) for a, b in legs], partner.id if partner else None)
    zoc.check_entering(state, [(element, [_sweep(state, a, b) for a, b in legs], moved.footprint(state.half))],
                       {partner.id} if partner else set())
    if target is not None and order.edge != "front" and space.front_partner(after, target) is None:
        # base: an enemy contacted on flank or rear, not already fighting to its front, turns to face
        after = replace_element(after, target.moved(target.x, target.y, (heading + 180) % 360))
        partner = target
    after = msgspec.structs.replace(after, pips=state.pips - pips, done=state.done + (element.id,))
    return after, Moved([element.id], "", cost, limit, target.id if target is not None else (partner.id if partner else None),
                        pips)


def turn_cost(state: State, before: int, after: int) -> int:
    """A single element's turn: free from version 3 (DBA 2.2: an element moving singly turns freely; rules 5.5),
    before that the arc its far corner travels, a quarter turn at a time."""
    if state.rules.at_least("3"):
        return 0
    return state.rules.numbers.pivot_quarter * quarter_turns(before, after)


def _sweep(state: State, a: Vec, b: Vec) -> Callable[[Rect], bool]:
    return lambda rect: sweep_overlaps(a, b, state.half, rect)


def _touches_enemy_edge(state: State, element: Element) -> bool:
    """Its front edge lined up against an enemy's flank or rear."""
    return any(a.id == element.id for e in state.elements if e.side != element.side for _, a in space.side_attackers(state, e))


def why(allow: Allowance) -> str:
    parts = [f"speed {allow.speed}p"]
    if allow.upwind_or_shallows:
        parts.append("-100p upwind or through shallows")
    if allow.astern:
        parts.append("+100p wind astern")
    if allow.backward:
        parts.append("-100p backward")
    return ", ".join(parts)


def group_members(state: State, ids: list[str]) -> list[Element]:
    if not ids or len(set(ids)) != len(ids):
        raise IllegalOrder(RULE, "name each element of the group once")
    members = [_ready(state, i) for i in ids]
    if len(members) > 1 and not space.connected(state, members):
        apart = [" and ".join(sorted((a.id, b.id))) for a, b in state.apart if a in members and b in members
                 and space.hair_apart(state, a, b)]
        why = f"; {', '.join(apart)} drifted slightly separated (rules 5.10)" if apart else ""
        raise IllegalOrder(RULE, f"{' '.join(ids)} are not a group (same facing, edge to edge and corner to "
                           f"corner{why})")
    return members


def _group_limit(state: State, members: list[Element], vector: Vec, backward: bool) -> tuple[int, str]:
    limits = []
    for m in members:
        end = (m.x + vector[0], m.y + vector[1])
        allow = allowance(state, m, [(m.centre, end)], backward)
        limits.append((allow.total(state.rules.numbers), f"{m.id}: {why(allow)}"))
    return min(limits)


def _finish_group(state: State, members: list[Element], vector: Vec, label: str) -> tuple[State, Moved]:
    ids = [m.id for m in members]
    zoc.check(state, members, [vector], None)
    for m in members:
        check_path(state, ids, m.centre, [(m.centre, (m.x + vector[0], m.y + vector[1]))], m.id)
    after = state
    for m in members:
        after = replace_element(after, m.moved(m.x + vector[0], m.y + vector[1]))
    contacts = []
    for m in members:
        moved = after.element(m.id)
        assert moved is not None
        partner = space.front_partner(after, moved)
        if partner is not None and space.front_partner(state, m) is None:
            if state.rules.type(m.type).code == "Tr":
                raise IllegalOrder("rules 5, transports", "Transports may not move into contact with enemy")
            contacts.append(partner.id)
    zoc.check_entering(state, [(m, [_sweep(state, m.centre, (m.x + vector[0], m.y + vector[1]))],
                                m.footprint(state.half).shifted(*vector)) for m in members], set(contacts))
    pips, _ = command.pip_cost(state, members)
    after = msgspec.structs.replace(after, pips=state.pips - pips, done=state.done + tuple(ids))
    cost = length_up(*vector)
    return after, Moved(ids, label, cost, 0, contacts[0] if contacts else None, pips)


def check_shift(state: State, order: Shift) -> tuple[State, Moved]:
    members = group_members(state, order.ids)
    spend(state, members)
    for m in members:
        if space.front_partner(state, m) is not None:
            raise IllegalOrder(RULE, f"{m.id} is in front contact: only galleys may back away")
    vector = (order.dx, order.dy)
    if vector == (0, 0):
        raise IllegalOrder(RULE, "a move of no length")
    if not within_90(vector, UNIT[members[0].heading]):
        raise IllegalOrder(RULE, "a group moves forward or obliquely, not more than 90 degrees off its facing")
    if state.rules.at_least("2") and len(members) > 1:
        _straight_ahead(state, vector, UNIT[members[0].heading])
    limit, reason = _group_limit(state, members, vector, False)
    cost = length_up(*vector)
    if cost > limit:
        raise IllegalOrder(RULE, f"the move measures {cost}p, more than {limit}p ({reason})")
    after, event = _finish_group(state, members, vector, "")
    return after, msgspec.structs.replace(event, allowance=limit)


def _straight_ahead(state: State, vector: Vec, front: Vec) -> None:
    """DBA 2.2 practice (version 2, rules 5.4): a group moves straight ahead, shifting sideways no more than half
    a base width (to line up with an enemy); it does not slide obliquely."""
    side = abs(vector[0] * front[1] - vector[1] * front[0])
    if side > state.half:
        raise IllegalOrder("rules 5.4, group moves", f"a group moves straight ahead, sideways at most half a base "
                           f"({state.half}p), not {side}p; move its elements singly to go further aside")


def check_back(state: State, order: Back) -> tuple[State, Moved]:
    members = group_members(state, order.ids)
    spend(state, members)
    for m in members:
        kind = state.rules.type(m.type)
        if kind.kind != "galley":
            raise IllegalOrder("rules 5, backward", f"{m.id}: only galleys move straight backward")
        if state.rules.at_least("2") and not kind.breaks_off and space.front_partner(state, m) is not None:
            raise IllegalOrder("rules 5.8, break-off", f"{m.id}: {kind.name} in front contact cannot break off "
                               "(only lighter galleys do, \"unlike other types\"); it drifts with its enemy")
    if order.distance < 1:
        raise IllegalOrder(RULE, "back a whole number of paces, at least 1")
    fx, fy = UNIT[members[0].heading]
    vector = (-fx * order.distance, -fy * order.distance)
    limit, reason = _group_limit(state, members, vector, True)
    if order.distance > limit:
        raise IllegalOrder("rules 5, backward", f"back {order.distance}p is more than {limit}p ({reason})")
    # an enemy in front contact is left behind: the backing galley breaks off
    after, event = _finish_group(state, members, vector, "back")
    return after, msgspec.structs.replace(event, allowance=limit)
