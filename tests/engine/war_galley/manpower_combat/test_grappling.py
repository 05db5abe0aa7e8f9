"""Grappling (8.1): who may try, the 8.12 DRM, pairwise grapples (engine.war_galley.manpower_combat.grappling)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.manpower_combat.grappling import (
    Grappled,
    GrappleFailed,
    attempt_grapple,
    check_grapple,
    grapple_options,
)
from engine.war_galley.manpower_combat.manpower_orders import GrappleOrder
from engine.war_galley.map_and_galleys.galley import Capture
from engine.war_galley.map_and_galleys.position import Side
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from tests.engine.war_galley.manpower_support import field, gid, link, ship

# A faces up (0); B lies alongside to starboard, same heading; C alongside, opposite heading.
A = ship("G5-1", "2010-2011")
B = ship("R5-2", "2110-2111")
B_OPPOSITE = ship("R5-2", "2111-2110")


def order(target: str = "R5-2", galley: str = "G5-1") -> GrappleOrder:
    return GrappleOrder(gid(galley), gid(target))


def drm_of(*galleys, target: str = "R5-2") -> dict[str, int]:
    options = grapple_options(field(*galleys), gid("G5-1"))
    (option,) = [o for o in options if o.target == gid(target)]
    return dict(option.modifiers)


def test_crew_3_grapples_on_3_and_both_ships_are_grappled() -> None:
    (res, line) = attempt_grapple(field(A, B), order(), ForcedDice(3))
    assert line is not None and line.grappler == A.id and line.target == B.id and line.device is None
    assert res.galleys[A.id].grappled_with == {B.id}
    assert res.galleys[B.id].grappled_with == {A.id}
    assert any(isinstance(e, Grappled) for e in res.events)


def test_a_failed_grapple_changes_nothing() -> None:
    res, line = attempt_grapple(field(A, B), order(), ForcedDice(2))
    assert line is None
    assert res.galleys[A.id] == A and res.galleys[B.id] == B
    assert isinstance(res.events[-1], GrappleFailed)
    assert res.events[0].outcome == "failed" and res.events[0].table.endswith("needs 3-6")


@pytest.mark.parametrize("crew, lowest", [(1, 5), (2, 4), (3, 3), (4, 2)])
def test_the_grappling_table_by_crew(crew: int, lowest: int) -> None:
    grappler = ship("G5-1", "2010-2011", crew=crew)
    assert attempt_grapple(field(grappler, B), order(), ForcedDice(lowest))[1] is not None
    if lowest > 1:
        assert attempt_grapple(field(grappler, B), order(), ForcedDice(lowest - 1))[1] is None


def test_galleys_at_maximum_speed_may_not_grapple() -> None:
    fast = replace(A, speed=SpeedSide.MAXIMUM)
    with pytest.raises(IllegalOrder) as err:
        attempt_grapple(field(fast, B), order(), ForcedDice(6))
    assert err.value.rule == "8.11"
    assert grapple_options(field(fast, B), A.id) == []


def test_one_grappling_attempt_per_turn() -> None:
    with pytest.raises(IllegalOrder) as err:
        check_grapple(field(A, B), order(), attempted={A.id})
    assert err.value.rule == "8.13"


def test_a_common_flank_hexside_is_needed() -> None:
    bow_to_bow = ship("R5-2", "2009-2008")  # touches A only across both bows
    with pytest.raises(IllegalOrder) as err:
        check_grapple(field(A, bow_to_bow), order())
    assert err.value.rule == "8.11"
    far = ship("R5-2", "2410-2411")
    assert grapple_options(field(A, far), A.id) == []


def test_only_enemy_ships_are_grappled() -> None:
    friend = ship("G5-2", "2110-2111")
    with pytest.raises(IllegalOrder):
        check_grapple(field(A, friend), order("G5-2"))


def test_an_inactive_galley_may_be_grappled_by_several() -> None:
    """8.13: the second grappler also gets +1 for a target already Grappled."""
    other = ship("G5-3", "2210-2211")  # on B's other side
    res, _ = attempt_grapple(field(A, B, other), order(), ForcedDice(3))
    second = field(*res.galleys.values())
    assert dict(grapple_options(second, other.id)[0].modifiers) == {"target Crippled, Fouled or Grappled": 1}
    res2, line = attempt_grapple(second, order(galley="G5-3"), ForcedDice(2))
    assert line is not None
    assert res2.galleys[B.id].grappled_with == {A.id, other.id}


@pytest.mark.parametrize(
    "target_status, expected",
    [
        ({"crippled": frozenset({Side.PORT})}, {"target Crippled, Fouled or Grappled": 1}),
        ({"fouled_with": frozenset({gid("G3-9")})}, {"target Crippled, Fouled or Grappled": 1}),
        ({"grappled_with": frozenset({gid("G3-9")})}, {"target Crippled, Fouled or Grappled": 1}),
        ({"sails_up": True}, {"target under Sail": 1}),
        ({"crippled": frozenset({Side.PORT}), "sails_up": True},
         {"target Crippled, Fouled or Grappled": 1, "target under Sail": 1}),
    ],
)
def test_target_modifiers(target_status: dict, expected: dict[str, int]) -> None:
    assert drm_of(A, replace(B, **target_status)) == expected


def test_opposite_direction_subtracts_one() -> None:
    assert drm_of(A, B_OPPOSITE) == {"target moving the opposite way": -1}


@pytest.mark.parametrize("worn", [{"fatigue": 2}, {"half_speed": True}])
def test_opposite_direction_not_when_the_target_is_worn(worn: dict) -> None:
    assert drm_of(A, replace(B_OPPOSITE, **worn)) == {}


def test_crippled_opposite_target_gets_only_the_plus_one() -> None:
    assert drm_of(A, replace(B_OPPOSITE, crippled=frozenset({Side.STARBOARD}))) == {
        "target Crippled, Fouled or Grappled": 1
    }


def test_grappler_under_sail_subtracts_one() -> None:
    assert drm_of(replace(A, sails_up=True), B) == {"grappler under Sail": -1}


def test_the_drm_add_up_to_the_roll() -> None:
    """Under sail (-1): a Crew 3 needs a natural 4."""
    sailing = replace(A, sails_up=True)
    assert attempt_grapple(field(sailing, B), order(), ForcedDice(3))[1] is None
    assert attempt_grapple(field(sailing, B), order(), ForcedDice(4))[1] is not None


def test_fouled_galleys_are_not_grappled_but_may_grapple_whatever_the_hexsides() -> None:
    """8.14 and 7.16: a rammer Fouled bow-on may still try to grapple its partner."""
    rammer = ship("G5-1", "2109-2108")  # bow 2109 against the target's bow: no flank hexside shared
    target = ship("R5-2", "2110-2111")
    rammer, target = link(rammer, target, "fouled_with")
    assert not rammer.grappled_with
    res, line = attempt_grapple(field(rammer, target), order(), ForcedDice(6))
    assert line is not None
    assert res.galleys[rammer.id].fouled_with == {target.id}  # still Fouled too


def test_a_rammed_galley_grapples_only_those_it_is_fouled_with() -> None:
    rammed = replace(A, rammed=True)
    with pytest.raises(IllegalOrder) as err:
        check_grapple(field(rammed, B), order())
    assert err.value.rule == "7.16"


def test_a_collided_rammer_may_not_grapple_that_turn() -> None:
    collided = replace(A, collided_with=frozenset({B.id}))
    with pytest.raises(IllegalOrder) as err:
        check_grapple(field(collided, B), order())
    assert err.value.rule == "7.16"


def test_a_retracted_rammer_touching_bow_on_may_grapple() -> None:
    """7.16 play note: adjacency is the only requirement for a Retracted galley."""
    rammer = ship("G5-1", "2009-2010")
    target = ship("R5-2", "2008/0")  # in the rammer's bow hex
    with pytest.raises(IllegalOrder):
        check_grapple(field(rammer, target), order("R5-2"))
    option = check_grapple(field(rammer, target), order("R5-2"), retracted_from={target.id})
    assert option.distance == 1


def test_a_captured_galley_may_grapple_on_a_six() -> None:
    """8.25 play note: Captured galleys (Crew 0) can grapple."""
    prize = replace(ship("R5-7", "2010-2011"), capture=Capture.CAPTURED)  # now Green's
    enemy = ship("R5-2", "2110-2111")
    assert prize.crew == 0
    assert attempt_grapple(field(prize, enemy), order(galley="R5-7"), ForcedDice(5))[1] is None
    assert attempt_grapple(field(prize, enemy), order(galley="R5-7"), ForcedDice(6))[1] is not None


def test_no_second_grapple_between_the_same_ships() -> None:
    a, b = link(A, B)
    with pytest.raises(IllegalOrder):
        check_grapple(field(a, b), order())


def test_a_pull_is_only_for_harpax_at_two_hexes() -> None:
    bad = GrappleOrder(A.id, B.id, pull_to=B.position)
    with pytest.raises(IllegalOrder):
        check_grapple(field(A, B), bad)


def test_the_roll_is_recorded_with_its_modifiers() -> None:
    res, _ = attempt_grapple(field(A, B_OPPOSITE), order(), ForcedDice(4))
    roll = res.events[0]
    assert roll.natural == 4 and roll.modifiers == (("target moving the opposite way", -1),)
    assert roll.adjusted == 3 and roll.outcome == "Grappled"
