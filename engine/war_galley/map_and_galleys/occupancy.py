"""Who fills which hex, and which hexes lie next to each side's galleys (6.6 stacking, 6.21, 6.35).

A moving galley asks these of the battlefield at every step of every check
(`engine.war_galley.movement.leg.surroundings`), most often of a battlefield
it asked a moment before or one that differs from it by a galley or two: the
rules look at one galley after another while the others stand still. So the
answers for a whole battlefield are worked out once (`occupancy`), kept by
the identities of its galleys (immutable values: the same objects are the
same battlefield), patched from the last battlefield asked about when only a
few galleys changed, and each mover's view is cut from them
(`Occupancy.around`).

`scan` is the plain definition the index must agree with, galley by galley;
it also answers where the index cannot (two counters in one hex, one id
twice), so the index never has to guess what the scan would have said.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from types import MappingProxyType
from itertools import compress, count
from operator import is_not

from engine.war_galley.map_and_galleys.galley import Colour, Galley, GalleyId
from engine.war_galley.map_and_galleys.hexes import Hex
from engine.war_galley.map_and_galleys.position import Position

# A mover's view: who fills each hex but the mover (read-only), and the hexes next to its enemies.
Around = tuple[Mapping[Hex, GalleyId], frozenset[Hex]]


def scan(galleys: Iterable[Galley], mover: Galley) -> Around:
    """The hexes every galley but `mover` fills (the last listed wins a hex), and every hex next to
    a galley its opponent controls (a Captured galley changes hands, 8.25)."""
    occupied: dict[Hex, GalleyId] = {}
    near: list[frozenset[Hex]] = []
    me, side = mover.id, mover.controller
    for other in galleys:
        position = other.position
        if position is None or other.id == me:
            continue
        for h in position.hexes:
            occupied[h] = other.id
        if other.controller is not side:
            near.append(position.near)
    return occupied, frozenset().union(*near)


class Occupancy:
    """One battlefield's hexes: who fills each, and the hexes next to the galleys each side must fear.

    `placed` is each galley on the map with its controller; `filled` every hex
    a galley fills. `plain` marks a battlefield only `scan` may answer for:
    an id listed twice, or two counters in one hex (the scan's "last listed
    wins" then depends on the order, which a patch does not keep).
    """

    __slots__ = ("galleys", "placed", "filled", "plain", "_enemy_near", "_views")

    def __init__(self, galleys: tuple[Galley, ...], placed: dict[GalleyId, tuple[Position, Colour]],
                 filled: dict[Hex, GalleyId], plain: bool,
                 enemy_near: dict[Colour, frozenset[Hex]] | None = None) -> None:
        self.galleys = galleys  # held: the kept key's ids stay these galleys' while the index is kept
        self.placed, self.filled, self.plain = placed, filled, plain
        self._enemy_near = enemy_near if enemy_near is not None else {}
        self._views: dict[tuple[GalleyId, Colour], Around] = {}  # a mover asks again at every step

    @classmethod
    def build(cls, galleys: tuple[Galley, ...]) -> Occupancy:
        placed: dict[GalleyId, tuple[Position, Colour]] = {}
        filled: dict[Hex, GalleyId] = {}
        plain = False
        for galley in galleys:
            position = galley.position
            if position is None:
                continue
            gid = galley.id
            plain = plain or gid in placed
            placed[gid] = (position, galley.controller)
            for h in position.hexes:
                plain = plain or h in filled
                filled[h] = gid
        return cls(galleys, placed, filled, plain)

    def patched(self, galleys: tuple[Galley, ...], changed: list[int]) -> Occupancy:
        """The index of `galleys`, which lists the same ids as this one's and differs in the slots `changed`."""
        mine = self.galleys
        if self.plain or any(galleys[i].id != mine[i].id for i in changed):
            return Occupancy.build(galleys)
        moved = {g.id for i in changed for g in (mine[i], galleys[i]) if g.position is not None}
        if not moved:  # only galleys off the map changed: every hex and every view stands
            same = Occupancy(galleys, self.placed, self.filled, False, dict(self._enemy_near))
            same._views = dict(self._views)
            return same
        placed, filled = self.placed.copy(), self.filled.copy()
        touched: set[Colour] = set()  # the controllers whose galleys moved, came or went
        for i in changed:
            old = mine[i]
            if old.position is not None:
                del placed[old.id]
                for h in old.position.hexes:
                    del filled[h]
                touched.add(old.controller)
        for i in changed:
            new = galleys[i]
            position = new.position
            if position is None:
                continue
            controller = new.controller
            if new.id in placed:  # its id stands on the map in another slot too: only the scan may answer
                return Occupancy.build(galleys)
            placed[new.id] = (position, controller)
            for h in position.hexes:
                if h in filled:  # two counters in one hex: the scan's order decides, build plainly
                    return Occupancy.build(galleys)
                filled[h] = new.id
            touched.add(controller)
        # A side's enemy hexes stand while only that side's galleys changed (a mover and its friends).
        kept = {side: near for side, near in self._enemy_near.items() if touched <= {side}}
        patched = Occupancy(galleys, placed, filled, False, kept)
        if len(moved) == 1:
            # A mover's view is every other galley: it stands while only the mover itself has moved
            # (a plan's steps, one after another).
            (gid,) = moved
            patched._views = {key: view for key, view in self._views.items() if key[0] == gid}
        return patched

    def enemy_near(self, side: Colour) -> frozenset[Hex]:
        """Every hex next to a galley controlled by anyone but `side` (6.21, 6.35), worked out when first asked."""
        found = self._enemy_near.get(side)
        if found is None:
            found = frozenset().union(*[p.near for p, controller in self.placed.values() if controller is not side])
            self._enemy_near[side] = found
        return found

    def around(self, mover: Galley) -> Around:
        """`scan(galleys, mover)`, cut from the index: the hexes of the listed galley with the mover's id
        taken out of the filled ones. Kept per mover, and read-only since every asker shares it."""
        side = mover.controller
        key = (mover.id, side)
        found = self._views.get(key)
        if found is None:
            found = self._cut(mover, side)
            self._views[key] = found
        return found

    def _cut(self, mover: Galley, side: Colour) -> Around:
        if self.plain:
            occupied, near = scan(self.galleys, mover)
            return MappingProxyType(occupied), near
        listed = self.placed.get(mover.id)
        if listed is not None and listed[1] is not side:
            # The scan skips the listed galley; the index counted it among `side`'s enemies.
            occupied, near = scan(self.galleys, mover)
            return MappingProxyType(occupied), near
        occupied = self.filled.copy()
        if listed is not None:
            for h in listed[0].hexes:
                del occupied[h]
        return MappingProxyType(occupied), self.enemy_near(side)


_kept: dict[tuple[int, ...], Occupancy] = {}
_KEEP = 32  # a few battlefields: the one being checked, the one being resolved, a planner's trials
_PATCH = 8  # more changed galleys than this: build afresh rather than patch
_last: list[Occupancy] = []  # the index asked for last: the next battlefield is most likely a patch of it


def occupancy(galleys: Collection[Galley]) -> Occupancy:
    """The index of this battlefield, built once for a given list of galley objects (in this order)."""
    return _index(galleys, *_since_last(galleys))


def _since_last(galleys: Collection[Galley]) -> tuple[Occupancy | None, list[int] | None]:
    """The index asked for last, and the slots where `galleys` differ from its (None: not the same length)."""
    last = _last[0] if _last else None
    if last is None or len(last.galleys) != len(galleys):
        return last, None
    if last.galleys is galleys:
        return last, []
    # Compared in C, without a Python loop: most often nothing or one galley changed since.
    return last, list(compress(count(), map(is_not, last.galleys, galleys)))


def _index(galleys: Collection[Galley], last: Occupancy | None, changed: list[int] | None) -> Occupancy:
    if last is not None and changed == []:
        return last
    listed = galleys if isinstance(galleys, tuple) else tuple(galleys)
    key = tuple(map(id, listed))
    found = _kept.get(key)
    if found is None:
        found = last.patched(listed, changed) if last is not None and changed is not None and len(changed) <= _PATCH \
            else Occupancy.build(listed)
        if len(_kept) >= _KEEP:
            del _kept[next(iter(_kept))]  # the oldest
        _kept[key] = found
    _last[:] = [found]
    return found


def _stands(last: Occupancy | None, changed: list[int] | None, galleys: Collection[Galley], mover: Galley) -> bool:
    """The last index answers for `mover` among `galleys` (`standing_view`)."""
    if last is None or changed is None or last.plain or len(changed) > 1:
        return False
    if changed:
        (slot,) = changed
        listed = galleys if isinstance(galleys, tuple) else tuple(galleys)
        return listed[slot].id == last.galleys[slot].id == mover.id
    return True


def standing_view(galleys: Collection[Galley], mover: Galley) -> Around | None:
    """`occupancy(galleys).around(mover)` without indexing `galleys`, when the index asked for last
    differs from them in the mover's own slot alone (or not at all); else None.

    A mover's view is every other galley, so it stands while only the mover changes: a plan's steps,
    each a new battlefield, are answered from the index of the first, not patched step after step.
    That index is not plain (no id twice, no hex shared), so neither are the others here, and its
    cut (the listed mover's hexes taken out) is exactly the scan of `galleys`.
    """
    last, changed = _since_last(galleys)
    return last.around(mover) if last is not None and _stands(last, changed, galleys, mover) else None


def view(galleys: Collection[Galley], mover: Galley) -> Around:
    """`occupancy(galleys).around(mover)`, standing (`standing_view`) where it can."""
    last, changed = _since_last(galleys)
    if last is not None and _stands(last, changed, galleys, mover):
        return last.around(mover)
    return _index(galleys, last, changed).around(mover)


def exact_view(galleys: Collection[Galley], mover: Galley) -> Around | None:
    """The mover's view where it holds every galley the scan sees around it, else None: two counters
    share a hex (passing through, 7.24) or an id is listed twice, and the index would hide one."""
    last, changed = _since_last(galleys)
    if last is not None and _stands(last, changed, galleys, mover):
        return last.around(mover)  # the others share no hex: the cut finds every one (standing_view)
    index = _index(galleys, last, changed)
    return None if index.plain else index.around(mover)
