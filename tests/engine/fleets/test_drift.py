"""Drift (fragment): 100p downwind, facing kept, for every element not moved with PIPs."""

from __future__ import annotations

import pytest

from engine.fleets import play, space
from engine.fleets.decisions import Drift, End, Move
from engine.fleets.errors import IllegalOrder
from engine.fleets.geometry import Rect
from engine.fleets.table import Piece
from tests.engine.fleets.support import E, N, S, W, Forced, at, battle, el


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


# Version 2 (issue 27). Fragment: "All elements of the moving fleet must drift 100p in the direction of the
# wind, maintaining their facing, unless they make a legal move using PIPs" and "All moves, including drifting
# moves, are made in any order, at the discretion of the moving player": the order chosen may not shorten a
# drift. A friend in the way that has yet to move or drift drifts first; each drifted element still ends
# slightly separated from the next (1p: "so as not to form a legal group anymore").

LINE = [el(f"B{i}", "Cat", 600 + 160 * i, 800, N) for i in range(1, 7)]  # six abreast, the wind along the line


def _drifted(state, ids):  # type: ignore[no-untyped-def]
    for ident in ids:
        if ident not in state.done:
            state, _ = drift(state, ident)
    return [state.element(f"B{i}").x - (600 + 160 * i) for i in range(1, 7)]


@pytest.mark.parametrize("order", [[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1], [3, 1, 6, 2, 5, 4]])
def test_a_line_drifted_in_any_order_moves_the_full_drift(order: list[int]) -> None:
    state = battle(*LINE, wind="W")
    assert _drifted(state, [f"B{i}" for i in order]) == [95, 96, 97, 98, 99, 100]  # 1p apart, no group


def test_end_drifts_the_line_as_far_as_any_order() -> None:
    after, events = play.apply(battle(*LINE, wind="W"), End(), Forced())
    assert [after.element(f"B{i}").x - (600 + 160 * i) for i in range(1, 7)] == [95, 96, 97, 98, 99, 100]
    assert not any(space.linked(after, a, b) for a in after.elements for b in after.elements if a != b)


def test_drifting_the_upwind_end_drifts_the_friends_in_its_way_first() -> None:
    column = [el(f"B{i}", "Cat", 1200, 800 + 160 * i, N) for i in range(1, 4)]
    after, events = drift(battle(*column, wind="S"), "B1")
    assert [e.ids for e in events] == [["B3"], ["B2"], ["B1"]]
    assert [at(after, f"B{i}")[1] - (800 + 160 * i) for i in range(1, 4)] == [98, 99, 100]  # type: ignore[index]
    assert set(after.done) == {"B1", "B2", "B3"}


def test_a_friend_that_moved_with_pips_still_stops_a_drift_short() -> None:
    column = [el("B1", "Cat", 1200, 900, N), el("B2", "Cat", 1200, 1120, N)]
    state, _ = play.apply(battle(*column, wind="S"), Move("B2", turn=E), Forced())
    after, _ = drift(state, "B1")
    assert at(after, "B1") == (1200, 959, N)  # B2 has moved: it will not drift out of the way


def test_version_1_kept_the_order_dependent_drift() -> None:
    state = battle(*LINE, wind="W", version="1")
    assert _drifted(state, [f"B{i}" for i in range(1, 7)]) == [0, 0, 0, 0, 0, 100]


def test_an_enemy_against_a_flank_drifts_along() -> None:
    # fragment: "Enemy elements in contact with drifting ships remain in contact and drift along."
    state = battle(el("B1", "Wr", 1200, 800, N), el("R1", "Lib", 1360, 800, W), wind="S")
    after, events = drift(state, "B1")
    assert at(after, "B1") == (1200, 900, N) and at(after, "R1") == (1360, 900, W)
    assert events[0].ids == ["B1", "R1"]
    old, _ = drift(battle(el("B1", "Wr", 1200, 800, N), el("R1", "Lib", 1360, 800, W), wind="S", version="1"), "B1")
    assert at(old, "R1") == (1360, 800, W)
