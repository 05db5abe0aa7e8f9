"""Off-map entry: galleys that start off the map come on in Line Astern, hex by hex, using MP.

Scenario groups with `offmap` (Lade's Chios and Miletus tails, Myonessus'
and Tauris' columns, Side's wings, Drepanum's squadrons and the galleys in
port behind their lead ships) and a tournament fleet held back (10.0) wait
in an `EntryQueue`, the next to enter first. The next galley stands *behind*
its entry hex: off the map, facing the map, so that its first Forward step
(1 MP, 6.32) brings its bow onto the entry hex, which must be free (6.6).
It then moves on as any galley does, in the same movement plan; a plan that
leaves it off the map leaves it waiting.

Entry is movement: a waiting galley moves when the squadron it belongs to
activates. In phase B (engine.war_galley.turn.sequence) the queue joins the squadron of the
galley it follows (the last of its group to enter, or its group's rear
galley at set-up), or, when its whole group waits off the map, the
squadron of the commander aboard its first galley (Drepanum's Metellus and
Pulcher). It enters at Cruise Speed: its Speed Level is chosen in phase D
only for galleys on the map. A queue may not start before its `from_turn`
nor before the group named `after` is all on the map (Drepanum). Galleys
in port (Drepanum, `port_start`) follow their lead ship: the next stands at
the quay, bow in the port hex and stern off the map, once that position is
free (docs/rules-notes.md, Scenarios).

Deployment notation for a galley that waits (docs/orders.md): `off` (behind
its group, in the order listed), `behind G5-11` (Drepanum: behind that lead
ship), `enter 3028` (tournament play: through that edge hex).
"""

from __future__ import annotations

import re

from msgspec.structs import replace

from engine.errors import IllegalOrder, NotationError
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId, Removal, format_galley_id, parse_galley_id
from engine.war_galley.map_and_galleys.hexes import Direction, Hex, MapSpec, neighbour, parse_hex
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.leg import Refused, Surroundings
from engine.war_galley.movement.moving import move, surroundings
from engine.war_galley.movement.speed import speed_limit
from engine.war_galley.movement.steps import Forward, Plan
from engine.war_galley.turn.state import EntryQueue, GameState, Squadron

OFF = "off"
_BEHIND = re.compile(r"\s*behind\s+(\S+)\s*", re.I)
_ENTER = re.compile(r"\s*enter\s+(\S+)\s*", re.I)


def offmap_text(text: str, map_: MapSpec) -> str | None:
    """A deployment position that keeps the galley off the map, normalized; None if `text` is a position."""
    if text.strip().lower() == OFF:
        return OFF
    behind = _BEHIND.fullmatch(text)
    if behind is not None:
        return f"behind {format_galley_id(parse_galley_id(behind.group(1)))}"
    enter = _ENTER.fullmatch(text)
    if enter is not None:
        try:
            return f"enter {map_.format(map_.locate(parse_hex(enter.group(1))))}"
        except (ValueError, NotationError) as exc:
            raise NotationError(f"{text!r}: {exc}") from None
    return None


def start_position(entry: Hex, facing: Direction, double: bool) -> Position:
    """Where a galley entering by `entry` with `facing` stands: its first Forward puts its bow on `entry`."""
    return Position(neighbour(entry, facing + 3), facing, double)


def inward(map_: MapSpec, entry: Hex) -> Direction:
    """The facing straight onto the map from edge hex `entry` (the longest run of map hexes ahead)."""
    def run(d: Direction) -> int:
        h, n = entry, 0
        while map_.contains(h) and n < 60:
            h, n = neighbour(h, d), n + 1
        return n if not map_.contains(neighbour(entry, d + 3)) else -1

    return max(Direction, key=lambda d: (run(d), -int(d)))


# --- the queues ------------------------------------------------------------------------


def queue_of(state: GameState, galley_id: GalleyId) -> EntryQueue | None:
    return next((q for q in state.extra.queues if galley_id in q.galleys), None)


def waiting(state: GameState, side: str) -> list[GalleyId]:
    """The side's galleys still waiting off the map."""
    return [g for q in state.extra.queues if q.side == side for g in q.galleys]


def _replace_queue(state: GameState, old: EntryQueue, new: EntryQueue) -> GameState:
    queues = tuple(new if q == old else q for q in state.extra.queues)
    return replace(state, extra=replace(state.extra, queues=queues))


def why_not_now(state: GameState, queue: EntryQueue) -> str | None:
    if state.turn < queue.from_turn:
        return f"{queue.group} may not enter before turn {queue.from_turn}"
    if queue.after is not None and any(q.galleys for q in state.extra.queues
                                       if q.side == queue.side and q.group == queue.after):
        return f"{queue.group} enters once every galley of {queue.after} is on the map"
    return None


def next_start(queue: EntryQueue) -> Position:
    return queue.starts[queue.entered % len(queue.starts)]


def prepare(state: GameState, galley: Galley, *, now: bool = True) -> Galley:
    """A waiting galley put at its entry start, ready for its plan; IllegalOrder if it may not enter now.

    `now` False: the galleys ahead may still move off the start in the same activation (the caller
    checks 6.6 once every plan is done)."""
    queue = queue_of(state, galley.id)
    if queue is None:
        return galley
    why = why_not_now(state, queue)
    if why is not None:
        raise IllegalOrder("scenario", why)
    if queue.galleys[0] != galley.id:
        raise IllegalOrder("scenario", f"{galley.id} enters in Line Astern after {queue.galleys[0]}")
    start = next_start(queue)
    busy = {h for g in state.galleys if g.position is not None and g.id != galley.id for h in g.position.hexes}
    on_map = [h for h in start.hexes if state.board.map.contains(h)]
    if now and any(h in busy for h in on_map):
        raise IllegalOrder("6.6", f"{galley.id} cannot come on: {state.board.map.format(on_map[0])} is occupied")
    return replace(galley, position=Position(start.bow, start.facing, galley.ratings.double),
                   speed=SpeedSide.CRUISE, removed=None)


def settle(state: GameState, galley_id: GalleyId) -> GameState:
    """After a waiting galley's plan: on the map it has entered; still (or again) off it, it waits on."""
    queue = queue_of(state, galley_id)
    if queue is None:
        return state
    galley = state.galley(galley_id)
    if galley.position is not None and state.board.map.contains(galley.position.bow):
        new = replace(queue, galleys=tuple(g for g in queue.galleys if g != galley_id), ahead=galley_id,
                      entered=queue.entered + 1)
        return _replace_queue(state, queue, new)
    return state.with_galley(replace(galley, position=None, removed=None, moved=None))


def surroundings_for(state: GameState, galley: Galley) -> Surroundings:
    return surroundings(state.board, state.galleys, galley, state.wind, state.turn, state.charts)


# --- phase B: the squadron a queue moves with --------------------------------------------


def join_squadrons(state: GameState, side: str, formed: tuple[Squadron, ...]) -> tuple[Squadron, ...]:
    """The side's squadrons with each queue that may enter this turn added to the squadron it follows."""
    out = list(formed)
    groups = dict(state.extra.groups)
    for queue in state.extra.queues:
        if queue.side != side or not queue.galleys or why_not_now(state, queue) is not None:
            continue
        at = None
        leader = next((c.name for c in state.commanders_of(side) if c.group == queue.group), None)
        at = next((n for n, s in enumerate(out) if leader is not None and s.commander == leader
                   and any(groups.get(g) == queue.group for g in s.galleys)), None)
        ahead = queue.ahead
        if at is None and ahead is not None and state.galley(ahead).position is not None:
            at = next((n for n, s in enumerate(out) if ahead in s.galleys), None)
        if at is None:
            aboard = next((c for c in state.commanders_of(side) if c.galley in queue.galleys), None)
            if aboard is not None:
                own = next((n for n, s in enumerate(out) if s.commander == aboard.name), None)
                if own is None:
                    out.append(Squadron(aboard.name, side, (), aboard.name))
                    own = len(out) - 1
                at = own
        if at is None:
            at = next((n for n, s in enumerate(out) for g in s.galleys
                       if groups.get(g) == queue.group and not s.individual), None)
        if at is not None:
            out[at] = replace(out[at], galleys=(*out[at].galleys, *queue.galleys))
    return tuple(out)


# --- plans for the legal-action listing ------------------------------------------------------


def entry_plans(state: GameState, members: list[GalleyId]) -> tuple[GameState, list[Plan]]:
    """Plans bringing on every waiting galley of `members` that can come on now, each as far as it can."""
    plans: list[Plan] = []
    for gid in members:
        queue = queue_of(state, gid)
        if queue is None or queue.galleys[0] != gid:
            continue
        try:
            placed = prepare(state, state.galley(gid))
        except IllegalOrder:
            continue
        around = surroundings_for(state, placed)
        top = speed_limit(placed, SpeedSide.CRUISE, state.wind).mp
        for mp in range(top, 0, -1):
            plan = Plan(gid, SpeedSide.CRUISE, mp, (Forward(),) * mp)
            try:
                moved, _ = move(around, placed, plan)
            except IllegalOrder:
                continue
            if moved.removed is not None or moved.aground is not None or moved.position is None:
                continue
            if not state.board.map.contains(moved.position.bow):
                continue
            state = settle(state.with_galley(moved), gid)
            plans.append(plan)
            break
    return state, plans


def exited(galley: Galley) -> bool:
    return galley.removed is Removal.EXITED


__all__ = ["OFF", "offmap_text", "start_position", "inward", "queue_of", "waiting", "prepare", "settle",
           "join_squadrons", "entry_plans", "why_not_now", "Refused"]
