"""The battlefield index (occupancy) answers as the plain scan does, whatever the battlefield and its changes.

The index is kept and patched from one battlefield to the next, so the
property runs a random sequence of battlefields through it: galleys moving,
leaving the map, captured, crowding into one hex, listed twice, and movers
that are not (or no longer) the listed galley with their id.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from engine.war_galley.map_and_galleys import occupancy as occ
from engine.war_galley.map_and_galleys.board import OPEN_SEA
from engine.war_galley.map_and_galleys.galley import Capture, Galley
from engine.war_galley.map_and_galleys.hexes import DIRECTIONS, Hex
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.movement.leg import surroundings
from tests.engine.war_galley.movement_support import galley

NAMES = ("G5-1", "G5-2", "GL-3", "G3-4", "R5-1", "R5-2", "RL-3", "R4-4")
BASE = tuple(galley(name, None) for name in NAMES)

# A small patch of sea, so that counters touch, crowd and share hexes often.
hexes = st.builds(Hex, st.integers(10, 14), st.integers(10, 14))
facings = st.sampled_from(DIRECTIONS)


@st.composite
def placed(draw: st.DrawFn, base: Galley) -> Galley:
    """`base` somewhere on the patch (or off the map), perhaps Captured."""
    position = draw(st.none() | st.builds(Position, hexes, facings, st.just(base.ratings.double)))
    capture = draw(st.sampled_from(Capture))
    return replace(base, position=position, capture=capture)


@st.composite
def battlefields(draw: st.DrawFn) -> list[tuple[tuple[Galley, ...], Galley]]:
    """A run of battlefields, each a few changes from the one before, with a mover asking of it."""
    field = [draw(placed(base)) for base in BASE]
    runs = []
    for _ in range(draw(st.integers(1, 12))):
        for _ in range(draw(st.integers(0, 3))):
            slot = draw(st.integers(0, len(field) - 1))
            field[slot] = draw(placed(BASE[slot]))
        listed = list(field)
        if draw(st.booleans()):  # an id listed twice now and then
            listed.append(draw(placed(BASE[draw(st.integers(0, len(BASE) - 1))])))
        if draw(st.booleans()):  # the battlefield without one galley (a rammer's Missed continuation)
            del listed[draw(st.integers(0, len(listed) - 1))]
        choice = draw(st.integers(0, len(listed)))
        # The mover: a listed galley, or a galley with a listed id as it stood elsewhere (its start).
        mover = listed[choice] if choice < len(listed) else draw(placed(BASE[draw(st.integers(0, len(BASE) - 1))]))
        runs.append((tuple(listed), mover))
    return runs


@settings(max_examples=120, deadline=None)
@given(battlefields(), st.booleans())
def test_index_agrees_with_the_scan(runs: list[tuple[tuple[Galley, ...], Galley]], as_dict: bool) -> None:
    for listed, mover in runs:
        # Asked as the rules ask: a state's tuple, or a battlefield dict's values (ids unique then).
        galleys = {g.id: g for g in listed}.values() if as_dict else listed
        occupied, near = occ.occupancy(galleys).around(mover)
        expected_occupied, expected_near = occ.scan(galleys, mover)
        assert dict(occupied) == expected_occupied
        assert near == expected_near
        around = surroundings(OPEN_SEA, galleys, mover)
        assert dict(around.occupied) == expected_occupied and around.enemy_near == expected_near
        seen, near = occ.view(galleys, mover)
        assert dict(seen) == expected_occupied and near == expected_near
        exact = occ.exact_view(galleys, mover)  # None only where the index cannot say (plain)
        assert exact is None and occ.occupancy(galleys).plain or exact is not None and dict(exact[0]) == expected_occupied


@settings(max_examples=120, deadline=None)
@given(battlefields(), st.data())
def test_a_view_standing_while_only_the_mover_moves_agrees_with_the_scan(
        runs: list[tuple[tuple[Galley, ...], Galley]], data: st.DataObject) -> None:
    """A plan's steps: the battlefield asked about last, then the same with the mover's own slot changed
    (moved, off the map, captured, onto another's hex) is answered from the first index, as the scan does."""
    for listed, _ in runs:
        index = occ.occupancy(listed)
        slot = data.draw(st.integers(0, len(listed) - 1))
        stepped = data.draw(placed(BASE[NAMES.index(str(listed[slot].id))]))
        after = (*listed[:slot], stepped, *listed[slot + 1:])
        view = occ.standing_view(after, stepped)
        if index.plain or sum(g.id == stepped.id for g in listed) > 1:
            continue  # the view may or may not stand; the index answers then (the property above)
        assert view is not None
        occupied, near = view
        assert (dict(occupied), near) == occ.scan(after, stepped)
        exact = occ.exact_view(after, stepped)
        assert exact is not None and (dict(exact[0]), exact[1]) == occ.scan(after, stepped)
        other = listed[(slot + 1) % len(listed)]
        if other.id != stepped.id:
            assert occ.standing_view(after, other) is None  # the mover changed: another galley's view does not stand


def test_a_captured_galley_counts_for_its_captor() -> None:
    """8.25: the Green galley Red has Captured is Red's; its neighbours are no threat to Red's movers."""
    red = galley("R5-1", "1212-1213")
    taken = galley("G5-1", "1012-1013", capture=Capture.CAPTURED)
    green = galley("G5-2", "1412-1413")
    field = (red, taken, green)
    _, near = occ.occupancy(field).around(red)
    assert near == green.position.near  # type: ignore[union-attr]
    occupied, near = occ.occupancy(field).around(green)
    assert set(occupied) == {*red.position.hexes, *taken.position.hexes}  # type: ignore[union-attr]
    assert near == red.position.near | taken.position.near  # type: ignore[union-attr]


def test_the_view_is_read_only() -> None:
    """Every mover asking of one battlefield shares its view: nobody may write into it."""
    field = (galley("R5-1", "1212-1213"), galley("G5-1", "1012-1013"))
    occupied, _ = occ.occupancy(field).around(field[0])
    with pytest.raises(TypeError):
        occupied[Hex(1, 1)] = field[1].id  # type: ignore[index]
    assert Hex(1, 1) not in occ.occupancy(field).around(field[0])[0]
