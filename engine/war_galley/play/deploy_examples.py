"""Complete, legal deployment decisions for listings (`pbem legal`, random play): engine.war_galley.play.legal asks here.

Slots are filled in the book's order (variant 0) and in reverse (variant 1);
a commander fixed to a hex goes aboard the galley placed there. Zones are
filled from their first or last legal positions; a zone with relational
rules (engine.war_galley.battles.zones) is filled to fit them: Line Abreast along rows, a
Double Line Astern as two chains of followers, the 1st Line of `two_lines`
in its front rows and the rest behind it, commanders on the wing or column
their rule names. Galleys a group keeps off the map are listed `off`
(`behind LEAD` in port, `enter HEX` in tournament play). Every example is
checked with the set-up's own check before it is listed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.errors import IllegalOrder
from engine.war_galley.battles.deployment import _in_zone, check_deploy, deploy_notation, zone_positions
from engine.war_galley.battles.zones import _left_to_right, first_line, follows
from engine.war_galley.map_and_galleys.galley import GalleyId, format_galley_id
from engine.war_galley.map_and_galleys.hexes import Direction, Hex, distance
from engine.war_galley.map_and_galleys.position import SIDES, Around, Position
from engine.war_galley.turn.decisions import Deploy
from engine.war_galley.turn.state import DeployGroup, GameState


def examples(state: GameState, side: str) -> list[Deploy]:
    out: list[Deploy] = []
    for variant in (0, 1):
        decision = _deployment(state, side, variant)
        if decision is None or decision in out:
            continue
        try:
            check_deploy(state, decision)
        except IllegalOrder:
            continue
        out.append(decision)
    return out


def _deployment(state: GameState, side: str, variant: int) -> Deploy | None:
    task = state.deploy[0]
    placed: dict[GalleyId, Position] = {}
    texts: list[tuple[GalleyId, str]] = []
    taken: set[Hex] = set()
    commanders: list[tuple[str, GalleyId]] = []
    map_ = state.board.map
    for group in task.groups:
        pool = [g for g in group.galleys if g not in placed and g not in dict(texts)]
        for name, _ in group.commander_at:  # a galley the fixed commander may board goes first
            from engine.war_galley.turn.hooks import commander_barred
            fit = next((g for g in pool if commander_barred(state, name, g) is None), None)
            if fit is not None:
                pool.remove(fit)
                pool.insert(0, fit)
        count = len(pool) if group.count < 0 else group.count
        if group.count < 0 and variant == 1:
            count = len(pool) // 2
        chosen = pool[:count]
        if group.zone is None:
            slots = list(group.slots) if variant == 0 else list(reversed(group.slots))
            pairs = _fixed_first(state, group, list(zip(chosen, slots)))
        else:
            found = _zone_fill(state, group, chosen, taken, placed, variant)
            if found is None:
                return None
            pairs = found
        for gid, p in pairs:
            placed[gid] = p
            taken.update(p.hexes)
            texts.append((gid, deploy_notation(p, map_)))
        rest = [g for g in pool if g not in dict(pairs)]
        off = rest if group.offmap < 0 else rest[: group.offmap]
        if group.offmap < 0 and variant == 0:
            off = []
        for n, gid in enumerate(off):
            if group.offmap < 0:
                texts.append((gid, f"enter {map_.format(group.entry[(n * 7) % len(group.entry)])}"))
            elif group.zone is not None and group.zone.bow_hexes:
                lead = pairs[n % len(pairs)][0] if pairs else None
                if lead is None:
                    return None
                texts.append((gid, f"behind {format_galley_id(lead)}"))
            else:
                texts.append((gid, "off"))
        ships = [*group.aboard, *(gid for gid, _ in pairs)] or list(off)
        commanders += _commanders(state, group, dict(pairs), ships, variant)
    mine = [g.id for g in state.galleys_of(side)] + list(placed)
    for n, name in enumerate(task.anywhere):
        commanders.append((name, mine[(n * 7 + variant * 3) % len(mine)]))
    return Deploy(side=side, galleys=tuple(texts), commanders=tuple(commanders))


def _fixed_first(state: GameState, group: DeployGroup,
                 pairs: list[tuple[GalleyId, Position]]) -> list[tuple[GalleyId, Position]]:
    """A commander fixed to a hex whose rules bar some galleys (Tauris: the lead ship a quadrireme) gets one he may board."""
    from engine.war_galley.turn.hooks import commander_barred
    for name, h in group.commander_at:
        at = next((n for n, (_, p) in enumerate(pairs) if h in p.hexes), None)
        if at is None or commander_barred(state, name, pairs[at][0]) is None:
            continue
        ok = next((n for n, (g, _) in enumerate(pairs) if commander_barred(state, name, g) is None), None)
        if ok is not None:
            (a, pa), (b, pb) = pairs[at], pairs[ok]
            pairs[at], pairs[ok] = (b, pa), (a, pb)
    return pairs


def _commanders(state: GameState, group: DeployGroup, pairs: dict[GalleyId, Position], ships: list[GalleyId],
                variant: int) -> list[tuple[str, GalleyId]]:
    out: list[tuple[str, GalleyId]] = []
    fixed = dict(group.commander_at)
    wings = dict(group.params.get("commander_wings", {}))
    columns = dict(group.params.get("commander_columns", {}))
    used: set[GalleyId] = set()
    line = _left_to_right(state, first_line(state, group.params, list(pairs.values()))) if wings else []
    by_position = {p: g for g, p in pairs.items()}
    for n, name in enumerate(group.commanders):
        ship = None
        if name in fixed:
            ship = next((g for g, p in pairs.items() if fixed[name] in p.hexes), None)
        elif name in wings and line:
            ship = by_position[line[0] if wings[name] == "left" else line[-1]]
        elif name in columns:
            ship = next((g for g, p in pairs.items() if state.board.map.number(p.bow).col == int(columns[name])
                         and g not in used), None)
        if ship is None and ships:
            free = [g for g in ships if g not in used] or ships
            ship = free[(n if variant == 0 else -1 - n) % len(free)]
        if ship is None:
            continue
        used.add(ship)
        out.append((name, ship))
    return out


def _zone_fill(state: GameState, group: DeployGroup, chosen: list[GalleyId], taken: set[Hex],
               placed: dict[GalleyId, Position], variant: int) -> list[tuple[GalleyId, Position]] | None:
    zone = group.zone
    assert zone is not None
    rules = set(group.constraints)
    spots_of = {d: zone_positions(state, zone, d, taken) for d in {state.galley(g).ratings.double for g in chosen}}
    near = _near_filter(state, group, placed)
    if "double_line_astern" in rules:
        return _chains(state, group, chosen, taken, variant)
    if rules & {"line_abreast", "single_line_abreast", "two_lines"}:
        return _rows(state, group, chosen, taken, spots_of, near, variant)
    pairs = []
    busy = set(taken)
    for gid in chosen:
        spots = [p for p in spots_of[state.galley(gid).ratings.double] if near(p) and not set(p.hexes) & busy]
        if not spots:
            return None
        spot = spots[0] if variant == 0 else spots[-1]
        pairs.append((gid, spot))
        busy.update(spot.hexes)
    return pairs


def _near_filter(state: GameState, group: DeployGroup, placed: dict[GalleyId, Position]):  # type: ignore[no-untyped-def]
    if "near_galleys" not in group.constraints:
        return lambda p: True
    home = dict(state.extra.groups)
    ref = str(group.params["group"])
    others = [p for g, p in placed.items() if home.get(g) == ref or g in _group_of(state, ref)]
    reach = int(group.params.get("distance", 2))
    return lambda p: any(distance(a, b) <= reach for q in others for a in p.hexes for b in q.hexes)


def _group_of(state: GameState, name: str) -> set[GalleyId]:
    task = state.deploy[0]
    return {g for grp in task.groups if grp.name == name for g in grp.galleys}


def _rows(state: GameState, group: DeployGroup, chosen: list[GalleyId], taken: set[Hex],
          spots_of: dict[bool, list[Position]], near, variant: int) -> list[tuple[GalleyId, Position]] | None:  # type: ignore[no-untyped-def]
    """Lines abreast: fill one row, then (two lines) a second row behind it."""
    lines = 2 if "two_lines" in group.constraints else max(group.params.get("lines", [1]))
    if "single_line_abreast" in group.constraints:
        lines = 1
    facings = sorted({p.facing for ps in spots_of.values() for p in ps})
    rows = sorted({p.bow.row for ps in spots_of.values() for p in ps}, reverse=variant == 1)
    for facing in facings:
        for first in rows:
            for second in ([None] if lines == 1 else [r for r in rows if abs(r - first) >= 2] + [None]):
                got = _fill_rows(state, chosen, taken, spots_of, near, facing, [first] + ([second] if second is not None else []))
                if got is not None and _fits(state, group, got):
                    return got
    return None


def _fits(state: GameState, group: DeployGroup, pairs: list[tuple[GalleyId, Position]]) -> bool:
    from engine.war_galley.battles.zones import violation
    commanders = dict(_commanders(state, group, dict(pairs), [g for g, _ in pairs], 0))
    return violation(state, group, dict(pairs), commanders, lambda name: []) is None or \
        "near_galleys" in group.constraints


def _fill_rows(state: GameState, chosen: list[GalleyId], taken: set[Hex], spots_of: dict[bool, list[Position]],
               near, facing: Direction, rows: list[int]) -> list[tuple[GalleyId, Position]] | None:  # type: ignore[no-untyped-def]
    busy = set(taken)
    pairs = []
    for gid in chosen:
        double = state.galley(gid).ratings.double
        spot = next((p for row in rows for p in spots_of[double]
                     if p.facing == facing and p.bow.row == row and near(p) and not set(p.hexes) & busy), None)
        if spot is None:
            return None
        pairs.append((gid, spot))
        busy.update(spot.hexes)
    return pairs


def _behind(h: Hex, facing: Direction) -> Hex:
    from engine.war_galley.map_and_galleys.hexes import neighbour
    return neighbour(h, facing + 3)


def _chains(state: GameState, group: DeployGroup, chosen: list[GalleyId], taken: set[Hex],
            variant: int) -> list[tuple[GalleyId, Position]] | None:
    """Two Line Astern chains, heads chosen so that the commanders' columns hold a bow."""
    zone = group.zone
    assert zone is not None
    heads = zone_positions(state, zone, True, taken)
    heads.sort(key=lambda p: (-p.bow.col, p.bow.row) if variant == 0 else (p.bow.col, p.bow.row))
    half = (len(chosen) + 1) // 2
    busy = set(taken)
    lines: list[list[Position]] = []
    followers: dict[Position, list[Position]] = {}

    def behind(leader: Position) -> list[Position]:
        if leader not in followers:
            followers[leader] = list(_followers(state, group, leader))
        return followers[leader]

    for length in (half, len(chosen) - half):
        line = None
        dead: set[tuple[Position, int]] = set()  # shared by every head of this line: the same `busy`
        for head in heads:
            if set(head.hexes) & busy:
                continue
            line, _ = _extend(behind, [head], length, frozenset(busy), frozenset(head.hexes), dead)
            if line is not None:
                break
        if line is None:
            return None
        lines.append(line)
        for p in line:
            busy.update(p.hexes)
    positions = [p for line in lines for p in line]
    return list(zip(chosen, positions))


def _extend(behind: Callable[[Position], list[Position]], line: list[Position], length: int,
            busy: frozenset[Hex], own: frozenset[Hex],
            dead: set[tuple[Position, int]]) -> tuple[list[Position] | None, bool]:
    """The line extended to `length` by followers clear of `busy` and of its own hexes (`own`), depth first in
    the followers' order; else None, and whether its own hexes turned a follower away somewhere below.

    A search that failed with no follower turned away by the line's own hexes fails from that galley with as
    many still to place whatever line came before it: it is kept in `dead` and never searched again. The first
    line found is the one the whole search finds; what this buys: Drepanum's Roman deployment listed in 1.2 s
    (54,000 searches of a Double Line Astern that cannot fit from most heads), now in milliseconds."""
    if len(line) >= length:
        return line, False
    key = (line[-1], length - len(line))
    if key in dead:
        return None, False
    own_mattered = False
    for p in behind(line[-1]):
        hexes = set(p.hexes)
        if hexes & busy:
            continue
        if hexes & own:
            own_mattered = True
            continue
        got, mattered = _extend(behind, [*line, p], length, busy, own | hexes, dead)
        if got is not None:
            return got, False
        own_mattered = own_mattered or mattered
    if not own_mattered:
        dead.add(key)
    return None, own_mattered


def _followers(state: GameState, group: DeployGroup, leader: Position) -> Iterator[Position]:
    """The positions in the zone, at sea, that follow `leader` in Line Astern (5.22), in the search's order."""
    zone = group.zone
    assert zone is not None
    facings = [Direction(f) for f in zone.facings] or list(Direction)
    for facing in facings:
        targets = [Position(_behind(leader.stern, facing), facing, True)]
        targets += [Position(leader.around(Around.STERN_FLANK, side), facing, True) for side in SIDES]
        for p in targets:
            if _in_zone(state, zone, p) is None and all(state.board.is_sea(h) for h in p.hexes) and follows(leader, p):
                yield p
