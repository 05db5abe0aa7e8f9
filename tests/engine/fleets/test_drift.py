"""Drift (fragment): 100p downwind, facing kept, for every element not moved with PIPs."""

from __future__ import annotations

import pytest

from engine.fleets import legal, play, space, text
from engine.fleets.decisions import Drift, End, Move, Shift
from engine.fleets.errors import IllegalOrder
from engine.fleets.geometry import Rect
from engine.fleets.table import Piece
from engine.fleets.ruleset import RULESET
from tests.engine.fleets.support import E, N, S, W, Forced, at, battle, el, with_phase


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
    assert at(state, "B2") == (1360, 900, N)  # the full 100p, a hair apart (version 4): no group again
    assert not space.linked(state, state.element("B1"), state.element("B2"))  # type: ignore[arg-type]
    old = battle(el("B1", "Wr", 1200, 800, N), el("B2", "Wr", 1360, 800, N), wind="S", version="3")
    old, _ = drift(drift(old, "B1")[0], "B2")
    assert at(old, "B2") == (1360, 899, N)  # versions 2 and 3: 1p short of forming a group again


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


# Issue 27's probe: "a line drifted in any order moves 100p". Fragment: "All elements of the moving fleet must
# drift 100p in the direction of the wind, maintaining their facing, unless they make a legal move using PIPs" and
# "All moves, including drifting moves, are made in any order, at the discretion of the moving player". A friend in
# the way that has yet to move or drift drifts first (version 2); from version 4 every drift keeps its full 100p and
# "All elements which drift must end slightly separated from any other elements, so as not to form a legal group
# anymore" is a separation of less than a pace: the friends stand edge to edge but are no longer a group.

LINE = [el(f"B{i}", "Cat", 600 + 160 * i, 800, N) for i in range(1, 7)]  # six abreast, the wind along the line
ORDERS = [[1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1], [3, 1, 6, 2, 5, 4], [2, 4, 6, 1, 3, 5]]  # upwind end first, ...


def _drifted(state, ids, line=LINE):  # type: ignore[no-untyped-def]
    for ident in ids:
        if ident not in state.done:
            state, _ = drift(state, ident)
    return [(state.element(e.id).x - e.x, state.element(e.id).y - e.y) for e in line]


def _no_group(state) -> bool:  # type: ignore[no-untyped-def]
    return not any(space.linked(state, a, b) for a in state.elements for b in state.elements if a != b)


@pytest.mark.parametrize("order", ORDERS)
def test_a_line_drifted_in_any_order_moves_100p(order: list[int]) -> None:
    """The wind along the line (from the west): the upwind end drifted first drifts the five in its way first."""
    state = battle(*LINE, wind="W")
    after = state
    for i in order:
        if f"B{i}" not in after.done:
            after, _ = drift(after, f"B{i}")
    assert _drifted(state, [f"B{i}" for i in order]) == [(100, 0)] * 6
    assert [at(after, f"B{i}") for i in range(1, 7)] == [(700 + 160 * i, 800, N) for i in range(1, 7)]
    assert _no_group(after)  # edge to edge, yet "slightly separated ... so as not to form a legal group anymore"


@pytest.mark.parametrize("wind", ["S", "N", "SW", "NE", "NW"])
@pytest.mark.parametrize("order", ORDERS[:3])
def test_a_line_drifted_in_any_order_moves_100p_whatever_the_wind(order: list[int], wind: str) -> None:
    """Across the line, or diagonal (71p by 71p: 100p to the nearest pace, rules 5.9), never shortened."""
    step = {"S": (0, 100), "N": (0, -100), "SW": (71, 71), "NE": (-71, -71), "NW": (71, -71)}[wind]
    state = battle(*LINE, wind=wind)
    assert _drifted(state, [f"B{i}" for i in order]) == [step] * 6


def test_end_drifts_the_line_100p_and_parts_the_group() -> None:
    state = battle(*LINE, wind="W")
    after, events = play.apply(state, End(), Forced())
    assert [after.element(f"B{i}").x - (600 + 160 * i) for i in range(1, 7)] == [100] * 6
    assert {(e.dx, e.dy) for e in events} == {(100, 0)} and _no_group(after)
    data = RULESET.state_bytes(after)  # the pairs a hair apart are part of the state, read back as written
    assert b'"apart"' in data and RULESET.state_bytes(RULESET.state_from_bytes(data)) == data


def test_a_column_drifted_from_its_upwind_end_moves_100p() -> None:
    column = [el(f"B{i}", "Cat", 1200, 800 + 160 * i, N) for i in range(1, 4)]
    after, events = drift(battle(*column, wind="S"), "B1")
    assert [e.ids for e in events] == [["B3"], ["B2"], ["B1"]]
    assert [at(after, f"B{i}")[1] - (800 + 160 * i) for i in range(1, 4)] == [100, 100, 100]  # type: ignore[index]
    assert set(after.done) == {"B1", "B2", "B3"} and _no_group(after)


def test_drifted_friends_may_not_then_move_as_a_group_until_one_is_moved_to_the_other() -> None:
    """The separation's purpose ("so as not to form a legal group anymore"): next bound they move singly. It lapses
    once either is moved with PIPs, or turned, recoiled or destroyed; moving one back into line makes a group."""
    pair = [el("B1", "Lib", 1200, 800, N, general=True), el("B2", "Lib", 1360, 800, N)]
    state, _ = play.apply(battle(*pair, wind="S"), End(), Forced())
    assert at(state, "B1") == (1200, 900, N) and at(state, "B2") == (1360, 900, N) and _no_group(state)
    nxt = with_phase(state, phase="move", done=(), pips=6)
    with pytest.raises(IllegalOrder, match=r"B1 B2 are not a group .*B1 and B2 drifted slightly separated \(rules 5.10\)"):
        play.apply(nxt, Shift(["B1", "B2"], 0, 100), Forced())
    assert not any(isinstance(d, Shift) and len(d.ids) == 2 for d in legal.legal(nxt))
    assert "B1   Lib at 1200,900 facing N (general, drifted slightly separated from B2)" in text.board(nxt)
    moved, _ = play.apply(nxt, Move("B2", to=[[1400, 900], [1360, 900]]), Forced())  # away and back into line
    assert at(moved, "B2") == (1360, 900, N) and moved.apart == ()
    assert space.linked(moved, moved.element("B1"), moved.element("B2"))  # type: ignore[arg-type]


def test_the_hair_parts_the_group_alone() -> None:
    """Less than a pace: a galley column drifted a hair apart still fights with its second rank behind it, and a
    recoil still pushes the friend behind (rules 7.2, 7.5)."""
    column = [el("B1", "Lib", 1200, 800, N, general=True), el("B2", "Lib", 1200, 640, N)]
    state, _ = play.apply(battle(*column, wind="S"), End(), Forced())
    assert at(state, "B1") == (1200, 900, N) and at(state, "B2") == (1200, 740, N) and _no_group(state)
    enemy = el("R1", "Cat", 1200, 1060, S)
    state = with_phase(state, elements=state.elements + (enemy,))
    from engine.fleets import combat
    assert "second rank +1" in combat.factors(state, state.element("B1"), enemy)[1]  # type: ignore[arg-type]
    lng = with_phase(state, elements=tuple(e if e.id != "B1" else el("B1", "Lng", 1200, 900, N, general=True)
                                           for e in state.elements))
    lng = with_phase(lng, apart=tuple((lng.element("B1"), b) for _, b in state.apart))
    after, _ = play.close_combat(lng, Forced(1, 6))  # Lng 1+2+1+1 v Cat 6+3, beaten: recoils, pushing B2 back
    assert at(after, "B1") == (1200, 740, N) and at(after, "B2") == (1200, 580, N)


def test_an_element_that_began_in_frontal_contact_is_not_parted() -> None:
    """Fragment: "... unless they began the drift in frontal contact with enemy"."""
    state = battle(el("B1", "Lib", 1200, 800, N, general=True), el("R1", "Lib", 1200, 960, S),
                   el("B2", "Lib", 1360, 800, N), wind="S")
    state, _ = drift(state, "B2")
    after, _ = drift(state, "B1")  # B1 and R1 drift along together, to B2's side
    assert at(after, "B1") == (1200, 900, N) and at(after, "R1") == (1200, 1060, S) and after.apart == ()
    assert space.linked(after, after.element("B1"), after.element("B2"))  # type: ignore[arg-type]


def test_an_element_with_an_enemy_against_its_flank_alone_is_parted() -> None:
    """Only frontal contact excuses it; the flank attacker drifts along (fragment, 5.11)."""
    state = battle(el("B1", "Wr", 1200, 800, N), el("R1", "Lib", 1360, 800, W), el("B2", "Wr", 1040, 800, N),
                   wind="S")
    state, _ = drift(state, "B2")
    after, _ = drift(state, "B1")
    assert at(after, "B1") == (1200, 900, N) and at(after, "R1") == (1360, 900, W)
    assert not space.linked(after, after.element("B1"), after.element("B2"))  # type: ignore[arg-type]


def test_versions_2_and_3_shortened_the_line_a_pace_an_element() -> None:
    for version in ("2", "3"):
        state = battle(*LINE, wind="W", version=version)
        assert _drifted(state, [f"B{i}" for i in ORDERS[0]]) == [(95 + i, 0) for i in range(6)]
        after, _ = play.apply(state, End(), Forced())
        assert b'"apart"' not in RULESET.state_bytes(after)  # their states keep their bytes


def test_a_friend_that_moved_with_pips_still_stops_a_drift_short() -> None:
    column = [el("B1", "Cat", 1200, 900, N), el("B2", "Cat", 1200, 1120, N)]
    state, _ = play.apply(battle(*column, wind="S"), Move("B2", turn=E), Forced())
    after, _ = drift(state, "B1")
    assert at(after, "B1") == (1200, 959, N)  # B2 has moved: it will not drift out of the way


def test_version_1_kept_the_order_dependent_drift() -> None:
    state = battle(*LINE, wind="W", version="1")
    assert _drifted(state, [f"B{i}" for i in range(1, 7)]) == [(0, 0)] * 5 + [(100, 0)]


def test_an_enemy_against_a_flank_drifts_along() -> None:
    # fragment: "Enemy elements in contact with drifting ships remain in contact and drift along."
    state = battle(el("B1", "Wr", 1200, 800, N), el("R1", "Lib", 1360, 800, W), wind="S")
    after, events = drift(state, "B1")
    assert at(after, "B1") == (1200, 900, N) and at(after, "R1") == (1360, 900, W)
    assert events[0].ids == ["B1", "R1"]
    old, _ = drift(battle(el("B1", "Wr", 1200, 800, N), el("R1", "Lib", 1360, 800, W), wind="S", version="1"), "B1")
    assert at(old, "R1") == (1360, 800, W)


def test_bases_each_in_the_others_way_drift_without_endless_recursion() -> None:
    """A Salamis demo game (random keys) reached a bound where drifting one Greek element meant first
    drifting a friend in its way whose own drift waited on the first: `pbem legal` recursed until Python
    stopped it (an internal error). The state, as the game had it, is kept beside this test; every decision
    listed there now applies, and each drift moves its element."""
    from pathlib import Path

    data = (Path(__file__).parent / "data" / "salamis-ring-drift-state.json").read_bytes()
    state = RULESET.load_state(data, RULESET.default_rules_data())
    listed = RULESET.legal(state)
    assert listed and any(d.get("kind") == "drift" for d in listed if isinstance(d, dict))
    for decision in listed:
        RULESET.apply(state, decision, Forced(*[3] * 40))
