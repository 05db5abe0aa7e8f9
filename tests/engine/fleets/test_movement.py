"""Moves with PIPs (fragment): speeds, -100p upwind or through shallows, +100p wind astern, galleys backing,
transports never into contact; paths checked exactly."""

from __future__ import annotations

import pytest

from engine.fleets import play
from engine.fleets.decisions import Back, Move, Shift
from engine.fleets.errors import IllegalOrder
from engine.fleets.geometry import Rect
from engine.fleets.table import Piece
from tests.engine.fleets.support import E, N, S, Forced, at, battle, el


def go(state, order):  # type: ignore[no-untyped-def]
    return play.apply(state, order, Forced())[0]


@pytest.mark.parametrize("kind,speed", [("Cat", 300), ("Lib", 400), ("Lng", 300), ("Wr", 200), ("Tr", 200)])
def test_speed_across_the_wind(kind: str, speed: int) -> None:
    state = battle(el("B1", kind, 1200, 800, N), wind="E")  # moving north, 90 degrees off a westward wind
    assert at(go(state, Move("B1", to=[[1200, 800 + speed]])), "B1") == (1200, 800 + speed, N)
    with pytest.raises(IllegalOrder, match=f"more than its {speed}p"):
        go(state, Move("B1", to=[[1200, 801 + speed]]))


@pytest.mark.parametrize("kind,speed", [("Cat", 300), ("Lib", 400), ("Lng", 300), ("Wr", 200), ("Tr", 200)])
def test_upwind_costs_100p(kind: str, speed: int) -> None:
    state = battle(el("B1", kind, 1200, 800, N), wind="N")  # heading into the wind
    go(state, Move("B1", to=[[1200, 700 + speed]]))
    with pytest.raises(IllegalOrder, match="upwind or through shallows"):
        go(state, Move("B1", to=[[1200, 701 + speed]]))


def test_even_part_of_a_move_upwind_costs_100p() -> None:
    state = battle(el("B1", "Lib", 1200, 800, E), wind="S")  # wind blows north
    go(state, Move("B1", to=[[1300, 800], [1500, 800]]))  # across the wind only: full 400p... 300p used
    with pytest.raises(IllegalOrder, match="more than its 300p"):
        go(state, Move("B1", to=[[1300, 790], [1500, 790], [1601, 790]]))  # one small leg south: upwind


def test_shallows_cost_100p() -> None:
    reef = Piece("reef", Rect(1000, 1000, 1100, 1100), 200)  # shallows reach x 900-1300
    state = battle(el("B1", "Lib", 1450, 500, N), wind="E", pieces=(reef,))
    go(state, Move("B1", to=[[1450, 900]]))  # clear of the string line (base edge at x 1370)
    near = battle(el("B1", "Lib", 1350, 500, N), wind="E", pieces=(reef,))
    go(near, Move("B1", to=[[1350, 800]]))
    with pytest.raises(IllegalOrder, match="upwind or through shallows"):
        go(near, Move("B1", to=[[1350, 801]]))


@pytest.mark.parametrize("kind,speed", [("Lng", 300), ("Wr", 200), ("Tr", 200)])
def test_ships_and_longships_with_the_wind_astern_move_100p_more(kind: str, speed: int) -> None:
    state = battle(el("B1", kind, 1200, 500, N), wind="S")  # blowing north, straight astern
    go(state, Move("B1", to=[[1200, 600 + speed]]))
    with pytest.raises(IllegalOrder, match="wind astern"):
        go(state, Move("B1", to=[[1200, 601 + speed]]))
    diagonal = battle(el("B1", kind, 1200, 500, N), wind="SW")  # 45 degrees off: still astern
    go(diagonal, Move("B1", to=[[1200, 600 + speed]]))


@pytest.mark.parametrize("kind,speed", [("Cat", 300), ("Lib", 400)])
def test_other_galleys_gain_nothing_from_the_wind(kind: str, speed: int) -> None:
    state = battle(el("B1", kind, 1200, 500, N), wind="S")
    with pytest.raises(IllegalOrder, match=f"more than its {speed}p"):
        go(state, Move("B1", to=[[1200, 501 + speed]]))


def test_only_a_move_entirely_astern_gains() -> None:
    state = battle(el("B1", "Lng", 1200, 500, N), wind="S")
    with pytest.raises(IllegalOrder, match="more than its 300p"):
        go(state, Move("B1", to=[[1300, 500], [1300, 701]]))  # the first leg is 90 degrees off the wind


def test_galleys_back_straight_as_a_group_at_minus_100p() -> None:
    a, b = el("B1", "Lib", 1200, 800, N, general=True), el("B2", "Lib", 1360, 800, N)
    state = battle(a, b, wind="E")
    after = go(state, Back(["B1", "B2"], 300))
    assert at(after, "B1") == (1200, 500, N) and at(after, "B2") == (1360, 500, N)
    assert after.pips == 5  # one PIP for the group
    with pytest.raises(IllegalOrder, match="more than 300p"):
        go(state, Back(["B1", "B2"], 301))
    with pytest.raises(IllegalOrder, match="only galleys"):
        go(battle(el("B1", "Wr", 1200, 800, N)), Back(["B1"], 50))
    with pytest.raises(IllegalOrder, match="not a group"):
        go(battle(a, el("B2", "Lib", 1361, 800, N)), Back(["B1", "B2"], 100))


def test_a_galley_in_contact_may_only_back_away() -> None:
    state = battle(el("B1", "Lib", 1200, 800, N), el("R1", "Cat", 1200, 960, S), wind="E")
    with pytest.raises(IllegalOrder, match="in front contact"):
        go(state, Move("B1", turn=E))
    after = go(state, Back(["B1"], 100))
    assert at(after, "B1") == (1200, 700, N)


def test_into_front_contact_lined_up() -> None:
    state = battle(el("B1", "Lib", 1100, 700, N), el("R1", "Cat", 1200, 1000, S), wind="E")
    after, events = play.apply(state, Move("B1", contact="R1"), Forced())
    assert at(after, "B1") == (1200, 840, N) and events[0].contact == "R1"


def test_transports_may_not_move_into_contact() -> None:
    state = battle(el("B1", "Tr", 1200, 700, N), el("R1", "Cat", 1200, 960, S), wind="E")
    with pytest.raises(IllegalOrder, match="Transports may not move into contact"):
        go(state, Move("B1", contact="R1"))
    with pytest.raises(IllegalOrder, match="Transports may not move into contact"):
        go(state, Move("B1", to=[[1200, 800]]))


def test_paths_are_checked_against_bases_land_and_the_edge() -> None:
    state = battle(el("B1", "Lib", 1200, 500, N), el("B2", "Lib", 1200, 700, E), wind="E")
    with pytest.raises(IllegalOrder, match="runs into B2"):
        go(state, Move("B1", to=[[1200, 900]]))
    go(state, Move("B1", to=[[1040, 500], [1040, 740]]))  # beside it, touching its side
    island = Piece("island", Rect(1100, 900, 1300, 1100), 0)
    with pytest.raises(IllegalOrder, match="onto land"):
        go(battle(el("B1", "Lib", 1200, 500, N), pieces=(island,)), Move("B1", to=[[1200, 900]]))
    with pytest.raises(IllegalOrder, match="off the table"):
        go(battle(el("B1", "Lib", 1200, 2200, N), coasts=(), wind="E"), Move("B1", to=[[1200, 2400]]))


def test_turning_costs_a_quarter_turn_by_the_far_corner_in_versions_1_and_2() -> None:
    state = battle(el("B1", "Lib", 1200, 800, N), wind="N", version="2")  # version 3 turns freely (test_wheel.py)
    after = go(state, Move("B1", turn=E, to=[[1422, 800]]))  # 178p turn + 222p east = 400p
    assert at(after, "B1") == (1422, 800, E)
    with pytest.raises(IllegalOrder, match="measures 401p"):
        go(state, Move("B1", turn=E, to=[[1423, 800]]))
    with pytest.raises(IllegalOrder, match="more than 90 degrees off its facing"):
        go(state, Move("B1", to=[[1200, 700]]))
    go(state, Move("B1", turn=S))  # an about-face: 356p of 400p


def test_each_element_moves_once_and_each_move_costs_a_pip() -> None:
    state = battle(el("B1", "Lib", 1200, 800, N, general=True), el("B2", "Lib", 1600, 800, N), pips=1, wind="E")
    after = go(state, Move("B1", to=[[1200, 900]]))
    with pytest.raises(IllegalOrder, match="already moved"):
        go(after, Move("B1", to=[[1200, 950]]))
    with pytest.raises(IllegalOrder, match="no PIPs left"):
        go(after, Move("B2", to=[[1600, 900]]))


def test_groups_move_together_by_one_vector() -> None:
    state = battle(el("B1", "Wr", 1200, 800, N), el("B2", "Wr", 1360, 800, N), el("B3", "Wr", 1200, 640, N), wind="S")
    after = go(state, Shift(["B1", "B2", "B3"], 0, 300))  # ships with the wind astern
    assert [at(after, i) for i in ("B1", "B2", "B3")] == [(1200, 1100, N), (1360, 1100, N), (1200, 940, N)]
    with pytest.raises(IllegalOrder, match="more than 300p"):
        go(state, Shift(["B1", "B2", "B3"], 0, 301))
