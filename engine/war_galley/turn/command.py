"""Squadrons (5.2-5.3): command range, Line Astern, and the squadrons of phase B.

Command range (5.23) is counted from any hex of the Command Ship to any hex
of the other galley, not counting the Command Ship's own hexes, traced
through friendly galleys but never through an enemy one. It is read as a
path of hexes, so land (an island in the way of signals and dispatch boats)
blocks it too, and it stays on the map.

Line Astern (5.22): a galley follows another when it lies directly astern of
it, heading the same way, its bow pointing into the other's stern (form 1) or its bow lies in one of the other's Stern/Flank
hexes (form 2, echelon). The line runs from its first galley through its
followers; the Command Ship must be first or second. Where a galley has two
followers the line goes on through the form 1 follower, else the port, else
the starboard one; but a line whose Command Ship is second runs from the
head through the Command Ship.
"""

from __future__ import annotations

from collections import deque
from typing import NamedTuple

from engine.errors import IllegalOrder
from engine.events import Event
from engine.memo import by_identity
from engine.war_galley.map_and_galleys.galley import Colour, Galley, GalleyId
from engine.war_galley.map_and_galleys.hexes import Hex, neighbours
from engine.war_galley.map_and_galleys.position import SIDES, Around
from engine.war_galley.turn import hooks
from engine.war_galley.turn.decisions import Squadrons
from engine.war_galley.turn.state import CommanderState, GameState, Squadron, galley_key


class SquadronFormed(Event, frozen=True, kw_only=True):
    """Phase B (5.24): a squadron and its galleys."""

    side: str
    squadron: str
    galleys: tuple[GalleyId, ...]
    commander: str | None
    line_astern: bool = False


@by_identity(4)
def _occupancy(galleys: tuple[Galley, ...]) -> dict[Hex, Galley]:
    return {h: g for g in galleys if g.position is not None for h in g.position.hexes}


@by_identity(16)
def _reach(state: GameState, ship_id: GalleyId, limit: int) -> tuple[frozenset[Hex], dict[Hex, int]]:
    """The Command Ship's hexes, and how far every hex is that a command path reaches within `limit` (5.23).

    A hex counts as reached when a path of at most `limit` hexes touches it,
    whatever it holds; the path goes on only through sea hexes free of enemy
    galleys. One search answers for every galley (`command_distance`).
    """
    ship = state.galley(ship_id)
    assert ship.position is not None
    occupied = _occupancy(state.galleys)
    start = frozenset(ship.position.hexes)
    is_sea = state.board.is_sea
    reached: dict[Hex, int] = {}
    frontier: deque[tuple[Hex, int]] = deque((h, 0) for h in ship.position.hexes)
    while frontier:
        h, d = frontier.popleft()
        if d >= limit:
            continue
        for n in neighbours(h):
            if n in start or n in reached:
                continue
            reached[n] = d + 1
            if not is_sea(n):
                continue
            there = occupied.get(n)
            if there is not None and there.controller is not ship.controller:
                continue  # never through an enemy galley
            frontier.append((n, d + 1))
    return start, reached


def _distance_in(start: frozenset[Hex], reached: dict[Hex, int], other: Galley) -> int | None:
    assert other.position is not None
    hexes = other.position.hexes
    if not start.isdisjoint(hexes):
        return 0
    found = [reached[h] for h in hexes if h in reached]
    return min(found) if found else None


def command_distance(state: GameState, ship: Galley, other: Galley, limit: int) -> int | None:
    """Hexes from the Command Ship to `other` (5.23), or None if more than `limit` or blocked."""
    assert ship.position is not None and other.position is not None
    start, reached = _reach(state, ship.id, limit)
    return _distance_in(start, reached, other)


def command_ship(state: GameState, commander: CommanderState) -> Galley | None:
    if commander.galley is None:
        return None
    ship = state.galley(commander.galley)
    return ship if ship.position is not None else None


def in_range(state: GameState, commander: CommanderState) -> tuple[GalleyId, ...]:
    """The friendly galleys within the commander's Command Range (5.23), his own ship first."""
    ship = command_ship(state, commander)
    if ship is None:
        return ()
    found = [ship.id]
    start, reached = _reach(state, ship.id, commander.range)  # one search for all his galleys
    within = reached.keys()
    for g in state.galleys_of(state.controller(ship)):
        # Within range: `_distance_in` is not None, a hex of it reached or the ship's own (asked in C).
        hexes = g.position.hexes  # type: ignore[union-attr]
        if g.id != ship.id and not (start.isdisjoint(hexes) and within.isdisjoint(hexes)):
            found.append(g.id)
    return tuple(found)


def _leads(lead: Galley, follower: Galley) -> int | None:
    """How `follower` follows `lead` in Line Astern (5.22): 0 form 1, 1/2 port/starboard echelon."""
    assert lead.position is not None and follower.position is not None
    # Form 1, "bow directly facing another galley's stern": directly astern, heading the same way
    # (a bow pointing into the stern hex from the flank is a ram position, not a line).
    if follower.position.around(Around.BOW) == lead.position.stern and follower.position.facing == lead.position.facing:
        return 0
    for n, side in enumerate(SIDES, 1):
        if follower.position.bow == lead.position.around(Around.STERN_FLANK, side):
            return n
    return None


class _Lines(NamedTuple):
    """Who may follow whom in Line Astern (5.22) among one side's galleys, in the galleys' order."""

    leaders: dict[GalleyId, list[Galley]]  # the galleys each one follows
    followers: dict[GalleyId, list[tuple[int, Galley]]]  # (form, follower) behind each one


@by_identity(8)
def _lines(galleys: tuple[Galley, ...], colour: Colour) -> _Lines:
    """Every pair `_leads` accepts. Phase B asks of every commander, once per state, so the pairs
    to ask are narrowed to those whose hexes touch as a line needs: a follower's bow-ahead hex
    is a lead's stern (form 1), or its bow a lead's stern/flank hex (form 2)."""
    friends = [g for g in galleys if g.position is not None and g.controller is colour]
    near: dict[Hex, list[Galley]] = {}
    for lead in friends:
        assert lead.position is not None
        near.setdefault(lead.position.stern, []).append(lead)
        for side in SIDES:
            near.setdefault(lead.position.around(Around.STERN_FLANK, side), []).append(lead)
    rank = {g.id: i for i, g in enumerate(friends)}
    leaders: dict[GalleyId, list[Galley]] = {}
    followers: dict[GalleyId, list[tuple[int, Galley]]] = {}
    for follower in friends:
        assert follower.position is not None
        candidates = {lead.id: lead for h in (follower.position.around(Around.BOW), follower.position.bow)
                      for lead in near.get(h, ()) if lead.id != follower.id}
        for lead in sorted(candidates.values(), key=lambda g: rank[g.id]):
            form = _leads(lead, follower)
            if form is not None:
                leaders.setdefault(follower.id, []).append(lead)
                followers.setdefault(lead.id, []).append((form, follower))
    for behind in followers.values():
        behind.sort(key=lambda pair: rank[pair[1].id])
    return _Lines(leaders, followers)


def line_astern(state: GameState, commander: CommanderState) -> tuple[GalleyId, ...]:
    """The Line Astern the commander's ship is first or second in (5.22); () if none."""
    ship = command_ship(state, commander)
    if ship is None:
        return ()
    lines = _lines(state.galleys, ship.controller)

    def leader(g: Galley) -> Galley | None:
        found = lines.leaders.get(g.id)
        return found[0] if found else None

    head: Galley | None = ship
    ahead = leader(ship)
    if ahead is not None:
        head = ahead if leader(ahead) is None or leader(ahead) == ship else None
    if head is None:
        return ()
    if head is ship:
        return line_from(state, ship)
    # 5.22 "as long as the Command Ship is either first or second in line": the line runs from the
    # head through the Command Ship, even where the head has another follower (form 1 before echelon).
    rest = line_from(state, ship) or (ship.id,)
    return (head.id, *(g for g in rest if g != head.id))


def line_from(state: GameState, head: Galley) -> tuple[GalleyId, ...]:
    """The Line Astern (5.22) behind `head`, `head` first; () if no galley follows it."""
    assert head.position is not None
    lines = _lines(state.galleys, head.controller)
    line = [head]
    ids = {head.id}
    while True:
        followers = sorted(((form, f) for form, f in lines.followers.get(line[-1].id, ()) if f.id not in ids),
                           key=lambda pair: pair[0])
        if not followers:
            break
        line.append(followers[0][1])
        ids.add(followers[0][1].id)
    return tuple(g.id for g in line) if len(line) > 1 else ()


def _home(state: GameState, commander: CommanderState) -> set[GalleyId] | None:
    """Lade's keep_squadrons: the galleys of the commander's deployment group, else None (no limit)."""
    if not state.side(commander.side).keep_squadrons:
        return None
    return {gid for gid, group in state.home_groups if group == commander.group}


def claims(state: GameState, side: str, line_users: tuple[str, ...] = ()) -> dict[GalleyId, list[str]]:
    """For each of the side's galleys on the map, the commanders whose squadron it may join (5.24)."""
    claim: dict[GalleyId, list[str]] = {g.id: [] for g in state.galleys_of(side)}
    for c in state.commanders_of(side):
        members = line_astern(state, c) if c.name in line_users else in_range(state, c)
        home = _home(state, c)
        for gid in members:
            if gid in claim and (home is None or gid in home or gid == c.galley) and (
                    gid == c.galley or hooks.may_command(state, c.name, gid)):
                claim[gid].append(c.name)
    for c in state.commanders_of(side):  # a Command Ship is in its own commander's squadron
        if c.galley in claim and c.name in claim[c.galley]:
            claim[c.galley] = [n for n in claim[c.galley] if state.commander(n).galley == c.galley]
    return claim


def line_options(state: GameState, side: str) -> tuple[str, ...]:
    """Commanders whose ship is first or second in a Line Astern (5.22)."""
    return tuple(c.name for c in state.commanders_of(side) if line_astern(state, c))


def needs_decision(state: GameState, side: str) -> bool:
    if line_options(state, side):
        return True
    return any(len(names) > 1 for names in claims(state, side).values())


def form(state: GameState, decision: Squadrons) -> tuple[Squadron, ...]:
    """The side's squadrons under `decision`; IllegalOrder if it does not settle every choice."""
    side = decision.side
    lines = line_options(state, side)
    for name in decision.line_astern:
        if name not in lines:
            raise IllegalOrder("5.22", f"{name}'s Command Ship is not first or second in a Line Astern")
    claim = claims(state, side, decision.line_astern)
    assigned = dict(decision.assign)
    if len(assigned) != len(decision.assign):
        raise IllegalOrder("5.24", "a galley is assigned twice")
    for gid, name in decision.assign:
        names = claim.get(gid, [])
        if len(names) < 2:
            raise IllegalOrder("5.24", f"{gid} is not in range of two commanders: nothing to assign")
        if name not in names:
            raise IllegalOrder("5.24", f"{gid} may join {' or '.join(names)}, not {name}")
    members: dict[str, list[GalleyId]] = {c.name: [] for c in state.commanders_of(side)}
    individual: list[GalleyId] = []
    for gid, names in claim.items():
        if len(names) > 1 and gid not in assigned:
            raise IllegalOrder("5.24", f"{gid} is in range of {' and '.join(names)}: say which squadron it joins")
        if not names:
            individual.append(gid)
        else:
            members[assigned.get(gid, names[0])].append(gid)
    out = [
        Squadron(name, side, tuple(sorted(gids, key=galley_key)), name, name in decision.line_astern)
        for name, gids in members.items()
        if gids
    ]
    out += [Squadron(str(gid), side, (gid,)) for gid in sorted(individual, key=galley_key)]
    return tuple(out)


def default_assignment(state: GameState, side: str, line_users: tuple[str, ...] = ()) -> Squadrons:
    """A complete phase B decision: each shared galley to the first commander that claims it."""
    claim = claims(state, side, line_users)
    assign = tuple((gid, names[0]) for gid, names in sorted(claim.items(), key=lambda kv: galley_key(kv[0])) if len(names) > 1)
    return Squadrons(side=side, line_astern=line_users, assign=assign)


def formed_events(squadrons: tuple[Squadron, ...]) -> list[Event]:
    return [
        SquadronFormed(rule="5.3" if s.individual else ("5.22" if s.line_astern else "5.24"), side=s.side,
                       squadron=s.key, galleys=s.galleys, commander=s.commander, line_astern=s.line_astern)
        for s in squadrons
    ]
