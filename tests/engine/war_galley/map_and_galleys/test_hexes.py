"""The hex grid, hex numbers and joined map sheets (engine.war_galley.map_and_galleys.hexes, engine.war_galley.map_and_galleys.board)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError, RulesDataError
from engine.war_galley.map_and_galleys.board import OPEN_SEA, Board, Edge, Water, coast_beyond
from engine.war_galley.map_and_galleys.hexes import (
    DIRECTIONS,
    SINGLE_SHEET,
    Direction,
    Hex,
    HexNumber,
    MapSpec,
    Sheet,
    direction_to,
    distance,
    format_hex,
    neighbour,
    neighbours,
    parse_hex,
    within,
)

hexes = st.builds(Hex, st.integers(-5, 130), st.integers(-5, 70))
maps = st.sampled_from([SINGLE_SHEET, MapSpec.long_edge(), MapSpec.short_edge()])


# geometry.md's neighbour table, row by row.
TABLE = {
    0: ((0, -1), (0, -1)),
    1: ((1, -1), (1, 0)),
    2: ((1, 0), (1, 1)),
    3: ((0, 1), (0, 1)),
    4: ((-1, 0), (-1, 1)),
    5: ((-1, -1), (-1, 0)),
}


@pytest.mark.parametrize("d", range(6))
def test_neighbour_table_of_geometry_md(d: int) -> None:
    even, odd = TABLE[d]
    assert neighbour(Hex(24, 10), d) == Hex(24 + even[0], 10 + even[1])
    assert neighbour(Hex(23, 10), d) == Hex(23 + odd[0], 10 + odd[1])


@given(hexes, st.sampled_from(DIRECTIONS))
def test_neighbour_across_opposite_hexside_returns(h: Hex, d: Direction) -> None:
    assert neighbour(neighbour(h, d), d.opposite) == h
    assert direction_to(h, neighbour(h, d)) == d
    assert distance(h, neighbour(h, d)) == 1


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes, st.integers(0, 6))
def test_within_radius_counts_a_hexagon(h: Hex, radius: int) -> None:
    ring = set(within(h, radius))
    assert len(ring) == 1 + 3 * radius * (radius + 1)
    assert all(distance(h, other) <= radius for other in ring)


@given(hexes, st.integers(0, 5))
def test_within_is_every_hex_a_walk_of_radius_steps_reaches_in_column_then_row_order(h: Hex, radius: int) -> None:
    # independent of distance's formula: walked across hexsides (geometry.md's neighbour table)
    reached, frontier = {h}, {h}
    for _ in range(radius):
        frontier = {n for f in frontier for n in neighbours(f)} - reached
        reached |= frontier
    found = list(within(h, radius))
    assert set(found) == reached and found == sorted(found, key=lambda x: (x.col, x.row))
    assert all(distance(h, other) <= radius for other in found)
    assert all(distance(h, other) == radius + 1 for other in {n for f in frontier for n in neighbours(f)} - reached)


def test_distance_along_a_column_and_diagonal() -> None:
    assert distance(Hex(23, 19), Hex(23, 12)) == 7
    # Six steps down-right from an even column: three columns odd, three even.
    h = Hex(20, 10)
    for _ in range(6):
        h = neighbour(h, Direction.DOWN_RIGHT)
    assert h == Hex(26, 13)
    assert distance(Hex(20, 10), h) == 6


def test_direction_to_a_hex_that_does_not_touch_is_none() -> None:
    assert direction_to(Hex(23, 19), Hex(23, 21)) is None
    assert len(set(neighbours(Hex(23, 19)))) == 6


def test_direction_turns_wrap_round() -> None:
    assert Direction.UP.turn(-1) is Direction.UP_LEFT
    assert Direction.UP_LEFT.turn(2) is Direction.UP_RIGHT
    assert Direction.DOWN.opposite is Direction.UP


# --- hex numbers ---


@given(st.integers(0, 99), st.integers(0, 99), st.sampled_from(["", "N", "S", "A"]))
def test_hex_numbers_round_trip(col: int, row: int, sheet: str) -> None:
    number = HexNumber(col, row, sheet)
    assert parse_hex(format_hex(number)) == number


def test_hex_number_forms() -> None:
    assert parse_hex("2319") == HexNumber(23, 19)
    assert parse_hex("N3719") == HexNumber(37, 19, "N")
    assert parse_hex("n 3719") == HexNumber(37, 19, "N")  # the book writes "N 3719"
    assert format_hex(HexNumber(10, 0, "S")) == "S1000"


@pytest.mark.parametrize("text", ["", "231", "23190", "NN2319", "23-19", "2319x"])
def test_bad_hex_numbers_are_refused(text: str) -> None:
    with pytest.raises(NotationError):
        parse_hex(text)


# --- sheets ---


def test_one_sheet_is_columns_10_to_60_and_rows_00_to_28() -> None:
    assert len(list(SINGLE_SHEET.hexes())) == 51 * 29
    assert SINGLE_SHEET.contains(Hex(10, 0)) and SINGLE_SHEET.contains(Hex(60, 28))
    assert not SINGLE_SHEET.contains(Hex(9, 5)) and not SINGLE_SHEET.contains(Hex(30, 29))
    assert SINGLE_SHEET.parse("2319") == Hex(23, 19)
    with pytest.raises(NotationError):
        SINGLE_SHEET.parse("6129")
    with pytest.raises(NotationError):
        SINGLE_SHEET.parse("N2319")


@given(maps, st.data())
def test_every_map_hex_round_trips_through_its_number(map_: MapSpec, data: st.DataObject) -> None:
    h = data.draw(st.sampled_from(list(map_.hexes())))
    assert map_.locate(map_.number(h)) == h
    assert map_.parse(map_.format(h)) == h


def test_ecnomus_long_edge_join() -> None:
    """North's xx28 row lies against South's xx00 row; columns keep their parity."""
    m = MapSpec.long_edge()
    assert len(list(m.hexes())) == 2 * 51 * 29
    assert neighbour(m.parse("N1028"), Direction.DOWN) == m.parse("S1000")
    assert neighbour(m.parse("N1128"), Direction.DOWN_RIGHT) == m.parse("S1200")
    assert distance(m.parse("N3712"), m.parse("S3712")) == 29
    with pytest.raises(NotationError):
        m.parse("3712")  # a sheet letter is needed


def test_actium_short_edge_join_lays_s1000_over_n6000() -> None:
    m = MapSpec.short_edge()
    assert m.parse("S1019") == Hex(60, 19)
    # Covered by the south sheet's 1000 column, N6019 still names that hex: the book counts the
    # line "N53-N60, S11-S17" (docs/rules-notes.md). It is written as the top sheet shows it.
    assert m.parse("N6019") == m.parse("S1019") and m.format(m.parse("N6019")) == "S1019"
    with pytest.raises(NotationError):
        m.parse("S0919")  # off every sheet
    assert direction_to(m.parse("N5919"), m.parse("S1019")) is Direction.UP_RIGHT
    # The Octavian front line "from N 3719 to N 5119" and "from N 5319 to S 1719".
    assert distance(m.parse("N5319"), m.parse("S1719")) == 14
    assert len(list(m.hexes())) == (51 + 50) * 29


def test_sheets_must_keep_column_parity_and_not_overlap() -> None:
    with pytest.raises(RulesDataError):
        MapSpec((Sheet("N"), Sheet("S", col_shift=51)))
    with pytest.raises(RulesDataError):
        MapSpec((Sheet("N"), Sheet("S", col_shift=50)))  # N60xx and S10xx both shown
    with pytest.raises(RulesDataError):
        MapSpec((Sheet("N"), Sheet("N", row_shift=29)))


# --- the board ---


def test_board_waters() -> None:
    board = OPEN_SEA.with_land([Hex(30, 10)]).with_coast(Edge.RIGHT)
    assert board.water(Hex(30, 11)) is Water.SEA
    assert board.water(Hex(30, 10)) is Water.LAND
    assert board.water(Hex(61, 10)) is Water.LAND  # beyond the coastal 60xx edge
    assert board.water(Hex(9, 10)) is Water.OPEN
    assert board.water(Hex(30, -1)) is Water.OPEN


def test_coast_beyond_an_edge_is_the_ring_of_outer_hexes() -> None:
    top = coast_beyond(SINGLE_SHEET, Edge.TOP)
    # Row 00 of even columns touches row -1 of the columns either side too.
    assert top == {Hex(c, -1) for c in range(9, 62)}
    left = coast_beyond(SINGLE_SHEET, Edge.LEFT)
    assert {h.col for h in left} == {9}


def test_actium_harbour_entrance_stays_open() -> None:
    """Actium: the xx00 edge is coast except South 1400 through North 4600."""
    m = MapSpec.short_edge()
    entrance = [h for h in m.hexes() if h.row == 0 and m.parse("N4600").col <= h.col <= m.parse("S1400").col]
    board = Board(m).with_coast(Edge.TOP, openings=entrance)
    assert board.water(Hex(55, -1)) is Water.OPEN
    assert board.water(Hex(30, -1)) is Water.LAND
    assert board.water(Hex(70, -1)) is Water.LAND
