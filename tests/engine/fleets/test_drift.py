"""Drift (fragment): 100p downwind, facing kept, for every element not moved with PIPs."""

from __future__ import annotations

import pytest

from engine.fleets import play, space
from engine.fleets.decisions import Drift, End, Move
from engine.fleets.errors import IllegalOrder
from engine.fleets.geometry import Rect
from engine.fleets.table import Piece
from tests.engine.fleets.support import E, N, S, Forced, at, battle, el


def drift(state, ident):  # type: ignore[no-untyped-def]
    return play.apply(state, Drift(ident), Forced())


def test_100p_in_the_direction_of_the_wind_keeping_facing() -> None:
    after, _ = drift(battle(el("B1", "Cat", 1200, 800, N), wind="E"), "B1")
    assert at(after, "B1") == (1100, 800, N)
    after, events = drift(battle(el("B1", "Cat", 1200, 800, E), wind="NE"), "B1")
    assert at(after, "B1") == (1129, 729, E) and (events[0].dx, events[0].dy) == (-71, -71)


def test_enemy_in_front_contact_drifts_along_and_stays_in_contact() -> None:
    state = battle(el("B1", "Lib", 1200, 800, N), el("R1", "Cat", 1200, 960, S), wind="W")
    after, events = drift(state, "B1")
    assert at(after, "B1") == (1300, 800, N) and at(after, "R1") == (1300, 960, S)
    assert space.front_partner(after, after.element("B1")) == after.element("R1")  # type: ignore[arg-type]
    assert events[0].ids == ["B1", "R1"]


def test_drifted_elements_end_separated_not_a_group() -> None:
    state = battle(el("B1", "Wr", 1200, 800, N), el("B2", "Wr", 1360, 800, N), wind="S")
    state, _ = drift(state, "B1")
    assert at(state, "B1") == (1200, 900, N)
    state, _ = drift(state, "B2")
    assert at(state, "B2") == (1360, 899, N)  # 1p short of forming a group again
    assert not space.linked(state, state.element("B1"), state.element("B2"))  # type: ignore[arg-type]


def test_a_drift_stops_slightly_short_of_a_base_in_its_way() -> None:
    state = battle(el("B1", "Wr", 1200, 800, N), el("R1", "Wr", 1200, 1000, E), wind="S")
    after, _ = drift(state, "B1")
    assert at(after, "B1") == (1200, 839, N)  # R1's base starts at y 920


def test_drifting_onto_land_or_a_reef_destroys() -> None:
    reef = Piece("reef", Rect(1000, 900, 1400, 1000), 0)
    state = battle(el("B1", "Lib", 1200, 850, N), wind="S", pieces=(reef,))
    after, events = drift(state, "B1")
    assert after.element("B1") is None and "B1" in after.lost and events[0].wrecked == ["B1"]
    coast = battle(el("B1", "Lib", 1200, 2300, N), wind="S")  # the N edge is coast
    after, events = drift(coast, "B1")
    assert after.element("B1") is None and events[0].wrecked == ["B1"]


def test_drifting_off_an_open_edge_leaves_the_battle() -> None:
    after, events = drift(battle(el("B1", "Lib", 100, 800, N), wind="E"), "B1")
    assert after.element("B1") is None and events[0].gone == ["B1"]


def test_a_drift_may_not_be_taken_back_nor_followed_by_a_move() -> None:
    after, _ = drift(battle(el("B1", "Lib", 1200, 800, N), wind="E"), "B1")
    with pytest.raises(IllegalOrder, match="already moved or drifted"):
        play.apply(after, Move("B1", to=[[1100, 900]]), Forced())
    with pytest.raises(IllegalOrder, match="already moved or drifted"):
        drift(after, "B1")


def test_at_the_end_every_element_not_moved_drifts() -> None:
    state = battle(el("B1", "Lib", 1200, 800, N), el("B2", "Lib", 1600, 800, N), el("R1", "Lib", 1600, 2000, S),
                   wind="E")
    state, _ = play.apply(state, Move("B1", to=[[1200, 900]]), Forced())
    state, _ = play.apply(state, End(), Forced())
    assert at(state, "B1") == (1200, 900, N) and at(state, "B2") == (1500, 800, N)
    assert at(state, "R1") == (1600, 2000, S)  # not the moving fleet
    assert state.phase == "combat"
