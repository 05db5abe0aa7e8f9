"""Every example of shared/rules/geometry.md, and the rulebook's movement examples, as tests."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.war_galley.map_and_galleys.hexes import SINGLE_SHEET, Direction, Hex, direction_to, neighbour
from engine.war_galley.map_and_galleys.position import Around, Position, Side, double_at, parse_position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.speed import Wind, speed_limit, wind_astern
from tests.engine.war_galley.movement_support import around, at, galley, run, where


def hx(text: str) -> Hex:
    return SINGLE_SHEET.parse(text)


# --- Galleys (geometry.md "Galleys") ---


def test_2319_2320_is_bow_2319_stern_2320() -> None:
    position = parse_position("2319-2320")
    assert position.bow == hx("2319") and position.stern == hx("2320")
    assert position.facing is Direction.UP


def test_the_eight_hexes_around_a_double_galley() -> None:
    p = parse_position("2319-2320")
    d, bow, stern = p.facing, p.bow, p.stern
    assert p.around(Around.BOW) == neighbour(bow, d)
    for side in Side:
        s = side.delta
        assert p.around(Around.BOW_FLANK, side) == neighbour(bow, d + s)
        assert p.around(Around.FLANK, side) == neighbour(bow, d + 2 * s) == neighbour(stern, d + s)
        assert p.around(Around.STERN_FLANK, side) == neighbour(stern, d + 2 * s)
    assert p.around(Around.STERN) == neighbour(stern, d + 3)
    assert len(p.adjacent()) == 8 and not p.adjacent() & set(p.hexes)


def test_the_six_hexes_around_a_single_galley() -> None:
    p = parse_position("2319/2")
    h, d = p.bow, p.facing
    assert p.around(Around.BOW) == neighbour(h, d)
    for side in Side:
        assert p.around(Around.BOW_FLANK, side) == neighbour(h, d + side.delta)
        assert p.around(Around.STERN_FLANK, side) == neighbour(h, d + 2 * side.delta)
    assert p.around(Around.STERN) == neighbour(h, d + 3)
    assert len(p.adjacent()) == 6


# --- Moves (6.32-6.35) ---


def test_6_32_bow_flank_from_2319_2320() -> None:
    """6.32's example: 2319-2320 moving bow/flank ends 2419-2319 (or 2219-2319)."""
    g = galley("G5-1", "2319-2320")
    assert where(run("G5-1 cruise 1: S", g)[0]) == "2419-2319"
    assert where(run("G5-1 cruise 1: P", g)[0]) == "2219-2319"


def test_6_34_bow_flank_from_4022_4023() -> None:
    """6.34's example: 4022-4023 moving bow/flank ends 4121-4022."""
    g = galley("G5-1", "4022-4023")
    assert where(run("G5-1 cruise 1: S", g)[0]) == "4121-4022"


def test_6_34_facing_change_of_4022_4023() -> None:
    """6.34's example: 4022-4023 changes facing without moving to 4122-4023 (the stern hex
    stays, the bow half swings), 1 MP; swinging the stern instead keeps the bow on 4022."""
    g = galley("G5-1", "4022-4023")
    assert where(run("G5-1 cruise 1: TSB", g)[0]) == "4122-4023"
    assert where(run("G5-1 cruise 1: TSS", g)[0]) == "4022-3922"


def test_backwater_is_the_mirror_of_bow_flank() -> None:
    """Backwatering into the starboard stern/flank hex undoes a move into the starboard
    bow/flank hex (6.32's example run backwards); the port one swings the bow to starboard."""
    g = galley("G5-1", "2419-2319")
    assert where(run("G5-1 cruise 2: BS", g)[0]) == "2319-2320"
    port, _ = run("G5-1 cruise 2: BP", g)
    assert where(port) == "2319-2219"
    assert port.position is not None and port.position.facing is Direction.DOWN_RIGHT
    assert where(run("G5-1 cruise 2: B", g)[0]) == "2319-2220"


def test_turn_around_swaps_bow_and_stern() -> None:
    g = galley("G5-1", "2319-2320")
    assert where(run("G5-1 cruise 2: TA", g)[0]) == "2320-2319"
    single = galley("GL-1", "2319/1")
    assert where(run("GL-1 cruise 2: TA", single)[0]) == "2319/4"


# --- the rulebook's examples as test vectors ---


def test_7_28_diekplus_geometry() -> None:
    """2512-2413 goes 2 MP ahead to 2711-2612, A's bow hex; 2 MP through puts it on
    2910-2811 (on top of A), 2 MP more end at 3109-3010. With 5 MP it ends on A."""
    a = parse_position("2811-2910")
    g = at(galley("G3-1", "2512-2413", maximum=6), SpeedSide.MAXIMUM)
    two, _ = run("G3-1 max 2: F F", g)
    assert where(two) == "2711-2612"
    assert two.position is not None and two.position.bow == a.around(Around.BOW)
    assert where(run("G3-1 max 4: F F F F", g)[0]) == "2910-2811"
    assert where(run("G3-1 max 6: F F F F F F", g)[0]) == "3109-3010"
    five, _ = run("G3-1 max 5: F F F F F", g)
    assert five.position is not None and set(five.position.hexes) & set(a.hexes)


def test_7_28_without_pass_through_the_enemy_line_blocks() -> None:
    """Pass-Through (7.24) is a later rule; without it stacking (6.6) stops the move at A."""
    a = galley("R5-1", "2811-2910")
    g = at(galley("G3-1", "2512-2413"), SpeedSide.MAXIMUM)
    with pytest.raises(IllegalOrder, match="6.6"):
        run("G3-1 max 6: F F F F F F", g, [a])


def test_7_35_anastrophe_hexes() -> None:
    """B: bow 1818, stern 1917. The attacker at 1619-1519 has B's bow hex 1718 ahead;
    B's Turn Around hexes are 2017 (stern) and 1916, 2018 (stern/flank); the attacker
    ends at 1916-1915 with its bow against B's stern."""
    b = double_at(hx("1818"), hx("1917"))
    attacker = parse_position("1619-1519")
    assert attacker.around(Around.BOW) == hx("1718")
    assert b.around(Around.BOW) == hx("1718")
    assert b.around(Around.STERN) == hx("2017")
    assert {b.around(Around.STERN_FLANK, side) for side in Side} == {hx("1916"), hx("2018")}
    placed = parse_position("1916-1915")
    assert placed.around(Around.BOW) == b.stern == hx("1917")


def test_naulochus_harpax_pull_shares_a_flank_hexside() -> None:
    """Fiver 2118-2219; the Liburnian pulled to 2218-2318 shares a flank hexside with it."""
    fiver = parse_position("2118-2219")
    liburnian = parse_position("2218-2318")
    flank_kinds = {Around.BOW_FLANK, Around.FLANK, Around.STERN_FLANK}
    fiver_flanks = {h for kind, _, h in fiver.surrounding() if kind in flank_kinds}
    liburnian_flanks = {h for kind, _, h in liburnian.surrounding() if kind in flank_kinds}
    shared = [
        (mine, theirs)
        for mine in fiver.hexes
        for theirs in liburnian.hexes
        if direction_to(mine, theirs) is not None and theirs in fiver_flanks and mine in liburnian_flanks
    ]
    assert shared


def test_drepanum_play_note_path() -> None:
    """Drepanum's play note: bow in 6016 pointing into 5915, 4 MP at Cruise:
    5915, 5815, 5814, 5813 (a turn to starboard at 5815)."""
    g = replace(galley("G5-11", None), position=Position(hx("6016"), Direction.UP_LEFT))
    assert g.position is not None and g.position.around(Around.BOW) == hx("5915")
    moved, events = run("G5-11 cruise 4: F F S F", g)
    hexes = [e.position.bow for e in events if hasattr(e, "position")]
    assert [SINGLE_SHEET.format(h) for h in hexes] == ["5915", "5815", "5814", "5813"]
    assert where(moved) == "5813-5814"


@pytest.mark.parametrize(
    "marker, pointing, direction",
    [
        ("1000", "1100", Direction.DOWN_RIGHT),  # Drepanum/Aegatian, and Actium's N1000 -> N1100
        ("6028", "5927", Direction.UP_LEFT),  # Ecnomus
        ("6000", "5900", Direction.DOWN_LEFT),  # Chios
        ("1028", "1127", Direction.UP_RIGHT),  # Side
    ],
)
def test_scenario_wind_markers_point_across_a_hexside(marker: str, pointing: str, direction: Direction) -> None:
    assert direction_to(hx(marker), hx(pointing)) is direction


def test_aegatian_wind_is_on_the_carthaginian_stern_flank() -> None:
    """Aegatian Isles: wind 1000 -> 1100 "into the stern/flank hexsides of the Carthaginians",
    who come from the xx00 edge heading for the Roman xx28 edge (facing DOWN)."""
    wind = Wind(direction_to(hx("1000"), hx("1100")) or Direction.UP)
    assert wind_astern(wind, Direction.DOWN)
    assert not wind_astern(wind, Direction.UP)


def test_ecnomus_wind_is_at_the_back_of_the_roman_fleet() -> None:
    """Ecnomus: wind 6028 -> 5927 "at the back of Roman fleet", whose line astern
    3712-3713, 3814-3815 ... heads for the North map (facing UP)."""
    wind = Wind(direction_to(hx("6028"), hx("5927")) or Direction.UP)
    roman = parse_position("3712-3713")
    assert roman.facing is Direction.UP and wind_astern(wind, roman.facing)


# --- 6.13, 6.37, 6.43, 6.44: the speed examples (more in test_speed.py) ---


def test_6_13_liburnian_announces_3_of_its_4_and_spends_them() -> None:
    lib = galley("RL2-1", "3010-3011", cruise=4)
    assert speed_limit(lib, SpeedSide.CRUISE).mp == 4
    moved, _ = run("RL2-1 cruise 3: F P F", lib)
    assert moved.moved is not None and moved.moved.spent == 3
    with pytest.raises(IllegalOrder, match="6.13"):
        run("RL2-1 cruise 3: F P", lib)


def test_6_37_play_note() -> None:
    """Cruise 4, F1 and Half Speed: up to 2 MP. At F3: only 1 MP."""
    assert speed_limit(galley("G5-1", "3010-3011", fatigue=1, half_speed=True), SpeedSide.CRUISE).mp == 2
    assert speed_limit(galley("G5-1", "3010-3011", fatigue=3, half_speed=True), SpeedSide.CRUISE).mp == 1


def test_6_43_uses_5_of_6_at_maximum() -> None:
    g = at(galley("G5-1", "3010-3011", cruise=4, maximum=6, crew=3), SpeedSide.MAXIMUM)
    assert speed_limit(g, SpeedSide.MAXIMUM).mp == 6
    moved, _ = run("G5-1 max 5: F F F F F", g)
    assert moved.moved is not None and moved.moved.spent == 5
    run("G5-1 max 6: F F F F F F", g)


def test_6_44_f2_leaves_a_highest_speed_of_2() -> None:
    g = galley("G5-1", "3010-3011", cruise=4, maximum=6, fatigue=2)
    assert speed_limit(g, SpeedSide.CRUISE).mp == 2
    assert speed_limit(g, SpeedSide.MAXIMUM).mp == 0
    with pytest.raises(IllegalOrder, match="6.44"):
        run("G5-1 cruise 3: F F F", g)


def test_surroundings_ignore_the_mover_itself() -> None:
    g = galley("G5-1", "3010-3011")
    assert around(g).occupied == {}
