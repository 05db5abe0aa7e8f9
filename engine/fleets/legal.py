"""The one legal-order generator: candidate orders for the pending side, each checked by the rules' own checkers.

Geometry is continuous, so not every order can be listed: `legal` gives a
finite set of concrete, checked orders (every drift, every reachable front
contact, full and half moves ahead and toward the nearest enemy, turns, group
moves, backing galleys, end), and `kinds` says in words what else may be
written and its bounds. Validation of any order is `play.apply` itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import isqrt

from engine.fleets import choosing, deployment, play, space, wheel, wind as winds
from engine.fleets.decisions import (
    AttackFrom, Back, Decision, Drift, End, Move, Place, PlaceRest, SetTerrain, Shift, Wheel, WindFrom,
)
from engine.fleets.elements import Element
from engine.fleets.errors import FleetsError
from engine.fleets.geometry import UNIT, HEADING_NAMES, HEADINGS, length_up
from engine.fleets.movement import allowance, contact_spot
from engine.fleets.state import State
from engine.fleets.table import EDGES


class _NoDice:
    rolls: list[object] = []

    def d6(self, purpose: str) -> int:
        raise AssertionError("decisions roll no dice")  # apply never rolls; advance does


def check(state: State, decision: Decision) -> bool:
    """The rules' own verdict on a decision: `play.apply` (a drift by its precondition, since every drift
    the precondition admits can be made; carrying it out is the expensive part)."""
    try:
        if isinstance(decision, Drift) and state.phase == "move":
            play.check_drift(state, decision.id)
            return True
        play.apply(state, decision, _NoDice())
    except FleetsError:
        return False
    return True


def legal(state: State) -> list[Decision]:
    seen, out = set(), []
    for d in candidates(state):
        key = repr(d)
        if key not in seen and check(state, d):
            seen.add(key)
            out.append(d)
    return out


def terrain_examples(size: int) -> list[SetTerrain]:
    """A few terrains of the usual table, for listings and the demo (the defender may write any)."""
    q = size // 4  # (written for the usual 2400p table; each is checked before it is listed)
    out = [SetTerrain([[e, 100]]) for e in EDGES]
    out.append(SetTerrain([["S", 100]], [["island", 300, size - 600, 750, size - 300, 100],
                                         ["reef", size - 600, 500, size - 300, 700, 50]]))
    out.append(SetTerrain([["W", 100], ["E", 100]], [["island", 2 * q - 200, q - 380, 2 * q + 200, q - 120, 60]]))
    out.append(SetTerrain([["N", 100]], [["peninsula", 0, size - 500, 300, size, 100]]))
    return out


def candidates(state: State) -> Iterator[Decision]:
    p = state.phase
    if p in ("fleet-defender", "fleet-attacker"):
        yield from choosing.examples(state)
    elif p == "terrain":
        yield from terrain_examples(state.rules.numbers.table)
    elif p == "wind-pick":
        yield from (WindFrom(pt) for pt in winds.POINTS)
    elif p == "attacker-side":
        yield from (AttackFrom(e) for e in deployment.attacker_edges(state))
    elif p in ("deploy-defender", "deploy-attacker"):
        yield PlaceRest()
        try:
            rest = deployment.rest_positions(state)
        except FleetsError:
            rest = []
        for order in rest[:1]:
            yield order
            for h in HEADINGS:
                yield Place(order.id, order.x, order.y, h)
    elif p == "move":
        yield from _moves(state)
        yield End()


def _moves(state: State) -> Iterator[Decision]:
    mine = [e for e in state.elements if e.side == state.moving and e.id not in state.done]
    enemies = [e for e in state.elements if e.side != state.moving]
    for e in mine:
        yield Drift(e.id)
    if state.pips < 1:
        return
    reach = max(t.speed for t in state.rules.types) + state.rules.numbers.wind_astern_bonus
    for e in mine:
        if space.front_partner(state, e) is not None:
            if state.rules.type(e.type).kind == "galley":  # check() refuses those that cannot break off
                limit = allowance(state, e, [(e.centre, _ahead(e, -1))], backward=True).total(state.rules.numbers)
                for d in (limit, limit // 2, 100):
                    if d > 0:
                        yield Back([e.id], d)
            continue
        near = sorted(enemies, key=lambda x: (x.x - e.x) ** 2 + (x.y - e.y) ** 2)
        for rank, t in enumerate(near):
            for edge in ("front", "left", "right", "rear") if rank < 3 else ("front",):
                spot, _ = space.edge_spot(state, t, edge)
                if length_up(spot[0] - e.x, spot[1] - e.y) <= reach:
                    yield Move(e.id, contact=t.id, edge=edge)
        for frac in (1, 2):
            yield from _ahead_moves(state, e, frac)
        if near:
            yield from _toward(state, e, contact_spot(state, near[0]))
        for h in HEADINGS:
            if h != e.heading:
                yield Move(e.id, turn=h)
    for group in _groups(state, [e for e in mine if space.front_partner(state, e) is None]):
        if len(group) > 1:
            lead = group[0]
            fx, fy = UNIT[lead.heading]
            for dist in (state.rules.type(lead.type).speed, 100):
                yield Shift([g.id for g in group], fx * dist, fy * dist)
            if state.rules.at_least("3"):
                yield from _wheels(state, group)
    galleys = [e for e in mine if state.rules.type(e.type).kind == "galley"]
    for group in _groups(state, galleys):
        if len(group) > 1:
            yield Back([g.id for g in group], 100)


def _wheels(state: State, group: list[Element]) -> Iterator[Decision]:
    """Each way the group may wheel (rules 5.4), alone and with what is left of its move ahead."""
    ids = [g.id for g in group]
    slowest = min(state.rules.type(g.type).speed for g in group)
    for to in ("left", "right"):
        arc = wheel.plan(state, group, to)[2]
        yield Wheel(ids, to)
        for ahead in (slowest - arc, slowest - state.rules.numbers.upwind_or_shallows - arc, 100):
            if 0 < ahead and ahead + arc <= slowest:
                yield Wheel(ids, to, ahead)


def _ahead(e: Element, sign: int, dist: int = 100) -> tuple[int, int]:
    fx, fy = UNIT[e.heading]
    return (e.x + sign * fx * dist, e.y + sign * fy * dist)


def _ahead_moves(state: State, e: Element, frac: int) -> Iterator[Decision]:
    n = state.rules.numbers
    for dist in range(state.rules.type(e.type).speed + n.wind_astern_bonus, 0, -50):
        end = _ahead(e, 1, dist // frac)
        limit = allowance(state, e, [(e.centre, end)]).total(n)
        if dist // frac <= limit:
            d = Move(e.id, to=[list(end)])
            if check(state, d):
                yield d
                return


def _toward(state: State, e: Element, goal: tuple[int, int]) -> Iterator[Decision]:
    """As far as allowed along the straight line to a point (toward an enemy's front)."""
    dx, dy = goal[0] - e.x, goal[1] - e.y
    whole = isqrt(dx * dx + dy * dy)
    if whole == 0:
        return
    n = state.rules.numbers
    for dist in range(state.rules.type(e.type).speed + n.wind_astern_bonus, 0, -50):
        step = min(dist, whole)
        end = [e.x + dx * step // whole, e.y + dy * step // whole]
        if (end[0], end[1]) == e.centre:
            continue
        d = Move(e.id, to=[end])
        if check(state, d):
            yield d
            return


def _groups(state: State, members: list[Element]) -> list[list[Element]]:
    left = list(members)
    out = []
    while left:
        group = [left.pop(0)]
        grew = True
        while grew:
            grew = False
            for m in list(left):
                if any(space.linked(state, g, m) for g in group):
                    group.append(m)
                    left.remove(m)
                    grew = True
        out.append(group)
    return out


def kinds(state: State) -> list[str]:
    """What may be written now, with its bounds, beyond the listed examples."""
    p = state.phase
    n = state.rules.numbers
    if p in ("fleet-defender", "fleet-attacker"):
        count = choosing.size(state, choosing.choosing(state))
        return [f"fleet TYPE x {count} general N: {count} element types in order (ids 1 to {count}) from "
                f"{', '.join(t.code for t in state.rules.types)}, any mix; N the general's element (rules 1.5)"]
    if p == "terrain":
        return [f"terrain coast EDGE SHALLOWS [/ coast EDGE SHALLOWS] [/ island|reef|peninsula X0,Y0 X1,Y1 SHALLOWS]...: "
                f"pieces {n.piece_length}p long or less, width two-thirds of length or less, shallows 0-{n.shallows_max}p, "
                f"{n.pieces_one_coast} pieces with one coast, {n.pieces_two_coasts} with two"]
    if p == "wind-pick":
        return ["wind from POINT (N, NE, E, SE, S, SW, W, NW)"]
    if p == "attacker-side":
        return [f"attack from EDGE ({', '.join(deployment.attacker_edges(state))})"]
    if p in ("deploy-defender", "deploy-attacker"):
        side = deployment.deploying(state)
        z = deployment.zone(state, side)
        return [f"place ID at X,Y facing H: the whole base within {z.x0}-{z.x1} by {z.y0}-{z.y1}", "place rest"]
    if p != "move":
        return []
    out = []
    for e in state.elements:
        if e.side != state.moving or e.id in state.done:
            continue
        t = state.rules.type(e.type)
        base = f"{e.id} {t.code} at {e.x},{e.y} facing {HEADING_NAMES[e.heading]}: "
        if space.front_partner(state, e) is not None:
            breaks_off = t.kind == "galley" and (t.breaks_off or not state.rules.at_least("2"))
            out.append(base + ("in contact: drift, or back D (break off, up to "
                               f"{t.speed - n.backward_penalty}p less {n.upwind_or_shallows}p upwind or in shallows)"
                               if breaks_off else "in contact: drifts with its enemy"))
            continue
        bonus = f", {t.speed + n.wind_astern_bonus}p all with the wind astern" if t.astern_bonus else ""
        turning = "turns are free" if state.rules.at_least("3") else f"a quarter turn costs {n.pivot_quarter}p"
        out.append(base + f"drift; [turn H] [to X,Y]... [contact ID]: {t.speed}p, "
                   f"{t.speed - n.upwind_or_shallows}p if any part upwind or in shallows{bonus}; "
                   f"{turning}; legs within 90 degrees of facing")
    if state.rules.at_least("3"):
        out.append("ID ID... by DX,DY: a group straight ahead, at most half a base aside; ID ID... wheel left|right "
                   f"[ahead D]: a quarter wheel about a front corner, measured by the outer front corner's quarter circle "
                   f"({wheel.quarter_arc(2 * state.half)}p one base wide, {wheel.quarter_arc(4 * state.half)}p two), "
                   "then D ahead (rules 5.4); "
                   "an element entering a zone of control halts in it or goes on into that enemy's front (rules 5.17)")
    if state.rules.at_least("2"):
        out.append("end [fight ID ...]: drift the rest, then fight, the elements named first in that order (rules 7.1); "
                   f"a move costs 1 PIP, {1 + n.command_extra_pip} beyond {n.command_range}p of the general "
                   "or once he is lost (rules 5.4)")
    return out
