"""Artillery Towers (8.47-8.48): Height Advantage, the ram DRM, jettisoning (engine.war_galley.manpower_combat.towers)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.war_galley.manpower_combat.devices import Devices
from engine.war_galley.manpower_combat.towers import (
    JettisonTowers,
    TowersJettisoned,
    after_move,
    height_advantage,
    ram_drm,
    towered,
    with_scenario_towers,
)
from engine.war_galley.map_and_galleys.board import OPEN_SEA
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.moving import check_plan, move, surroundings
from engine.war_galley.movement.speed import speed_limit
from engine.war_galley.movement.steps import Forward, Plan, RaiseSails
from tests.engine.war_galley.manpower_support import charts, ship

TALL = ship("G5-1", "2010-2011", towers=True, cruise=4, maximum=5)
LOW = ship("R5-2", "2110-2111")


def plan(*steps, mp: int, speed: SpeedSide = SpeedSide.CRUISE) -> Plan:
    return Plan(TALL.id, speed, mp, tuple(steps))


def around(galley=TALL):
    return surroundings(OPEN_SEA, [galley], galley, charts=charts())


def test_height_advantage_over_ships_without_towers() -> None:
    assert height_advantage(Devices(), TALL, LOW)
    assert not height_advantage(Devices(), LOW, TALL)
    assert not height_advantage(Devices(), TALL, replace(LOW, ratings=replace(LOW.ratings, towers=True)))
    assert not height_advantage(Devices(height_advantage=False), TALL, LOW)  # Actium
    assert not height_advantage(Devices(), replace(TALL, towers_jettisoned=True), LOW)


def test_towers_subtract_one_when_ramming() -> None:
    assert ram_drm(charts(), TALL) == -1
    assert ram_drm(charts(), LOW) == 0
    assert ram_drm(charts(), replace(TALL, towers_jettisoned=True)) == 0


def test_jettison_costs_one_mp_in_a_plan() -> None:
    legs = check_plan(around(), TALL, plan(Forward(), JettisonTowers(), Forward(), mp=3))
    assert [leg.spent for leg in legs] == [0, 1, 2, 3]
    with pytest.raises(IllegalOrder) as err:
        check_plan(around(), TALL, plan(Forward(), Forward(), JettisonTowers(), mp=2))
    assert err.value.rule == "8.48"


def test_jettison_is_no_movement() -> None:
    """It does not start the movement (6.21's sail steps may still come) nor is it forward motion."""
    check_plan(around(), TALL, plan(JettisonTowers(), mp=1))
    legs = check_plan(around(), TALL, plan(JettisonTowers(), Forward(), mp=2))
    assert not legs[1].started and legs[2].started


def test_no_towers_nothing_to_jettison() -> None:
    with pytest.raises(IllegalOrder) as err:
        check_plan(around(LOW), LOW, Plan(LOW.id, SpeedSide.CRUISE, 1, (JettisonTowers(),)))
    assert err.value.rule == "8.48"
    gone = replace(TALL, towers_jettisoned=True)
    with pytest.raises(IllegalOrder):
        check_plan(around(gone), gone, plan(JettisonTowers(), mp=1))


def test_after_the_move_the_towers_are_gone_and_maximum_rises() -> None:
    moved, _ = move(around(), TALL, plan(JettisonTowers(), Forward(), mp=2))
    after, events = after_move(moved, plan(JettisonTowers(), Forward(), mp=2))
    assert after.towers_jettisoned and not towered(after)
    assert isinstance(events[0], TowersJettisoned)
    assert speed_limit(after, SpeedSide.MAXIMUM).mp == TALL.ratings.maximum.speed + 1
    untouched, none = after_move(moved, plan(Forward(), mp=1))
    assert untouched == moved and none == []


def test_towers_go_over_the_side_only_once() -> None:
    with pytest.raises(IllegalOrder):
        after_move(TALL, plan(JettisonTowers(), JettisonTowers(), mp=2))


def test_scenario_towers_cost_one_maximum_speed() -> None:
    towered_now = with_scenario_towers(LOW)
    assert towered_now.ratings.towers
    assert towered_now.ratings.maximum.speed == LOW.ratings.maximum.speed - 1
    assert with_scenario_towers(TALL) == TALL


def test_plans_with_a_jettison_encode_and_name_the_step() -> None:
    import msgspec

    encoded = msgspec.json.encode(plan(JettisonTowers(), RaiseSails(), mp=2))
    assert b"JettisonTowers" in encoded


def test_8_48_the_jettison_cost_is_the_rules_datas() -> None:
    """A bundle that makes jettisoning cost 2 MP is honoured by the step rule."""
    own = charts()
    own = replace(own, fixed=replace(own.fixed, towers=replace(own.fixed.towers, jettison_mp=2)))
    there = surroundings(OPEN_SEA, [TALL], TALL, charts=own)
    with pytest.raises(IllegalOrder, match="costs 2 MP"):
        check_plan(there, TALL, plan(JettisonTowers(), mp=1))
    check_plan(there, TALL, plan(JettisonTowers(), mp=2))
