"""Avoidance (6.5): the Crew check, forward or back, F-2, who may not, Half Speed, unlimited attempts."""

from __future__ import annotations

import pytest

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.galley_combat.avoidance import (
    AvoidDirection,
    Avoided,
    attempt_avoidance,
    avoidance_moves,
    avoidance_refusal,
    can_succeed,
)
from engine.war_galley.map_and_galleys.board import OPEN_SEA
from engine.war_galley.map_and_galleys.galley import Capture
from engine.war_galley.map_and_galleys.position import Side
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from tests.engine.war_galley.combat_support import CHARTS, fleet, gid, of, play, rolls, ship, where

FORWARD, BACK = AvoidDirection.FORWARD, AvoidDirection.BACK


def dodger(**kw: object):
    return ship("R5-1", "3015-3016", **kw)


def avoid(galley, direction, *faces: int, others=()):
    return attempt_avoidance(OPEN_SEA, fleet(galley, *others), galley.id, direction, CHARTS, ForcedDice(*faces))


def test_a_roll_at_most_crew_moves_one_hex_forward_and_fatigues_f2() -> None:
    field, events, success = avoid(dodger(crew=3, speed=SpeedSide.MAXIMUM), FORWARD, 3)
    moved = field[gid("R5-1")]
    assert success and where(moved) == "3014-3015"
    assert moved.fatigue == 2 and moved.speed is SpeedSide.CRUISE  # 6.52, 6.12
    assert of(events, Avoided)[0].fatigue == 2


def test_a_higher_roll_has_no_effect() -> None:
    field, events, success = avoid(dodger(crew=3), FORWARD, 4)
    assert not success and field[gid("R5-1")] == dodger(crew=3)
    assert rolls(events, "Avoidance")[0].outcome.endswith("failed")


def test_back_at_cruise_only() -> None:
    field, _, success = avoid(dodger(), BACK, 1)
    assert success and where(field[gid("R5-1")]) == "3016-3017"
    assert BACK not in avoidance_moves(OPEN_SEA, {}, dodger(speed=SpeedSide.MAXIMUM))
    with pytest.raises(IllegalOrder) as caught:
        avoid(dodger(speed=SpeedSide.MAXIMUM), BACK, 1)
    assert "forward only" in str(caught.value)


def test_half_speed_adds_one() -> None:
    assert not avoid(dodger(crew=3, half_speed=True), FORWARD, 3)[2]
    assert avoid(dodger(crew=3, half_speed=True), FORWARD, 2)[2]
    assert rolls(avoid(dodger(crew=3, half_speed=True), FORWARD, 2)[1], "Avoidance")[0].adjusted == 3


@pytest.mark.parametrize(("status", "rule"), [
    ({"fatigue": 2}, "6.53"), ({"crippled": frozenset({Side.PORT})}, "6.53"),
    ({"fouled_with": frozenset({gid("G5-9")})}, "6.53"), ({"grappled_with": frozenset({gid("G5-9")})}, "6.53"),
    ({"rammed": True}, "6.37"),
])
def test_who_may_not_avoid(status: dict, rule: str) -> None:
    refusal = avoidance_refusal(dodger(**status))
    assert refusal is not None and refusal.rule == rule
    with pytest.raises(IllegalOrder):
        avoid(dodger(**status), FORWARD, 1)


def test_only_into_free_sea() -> None:
    blocker = ship("G5-2", "3014-3013")
    assert FORWARD not in avoidance_moves(OPEN_SEA, fleet(blocker), dodger())
    edge = ship("R5-1", "3000-3001")  # the bow on row 00: forward is off the map
    assert FORWARD not in avoidance_moves(OPEN_SEA, {}, edge)


def test_hopeless_rolls_are_not_made() -> None:
    assert not can_succeed(CHARTS, dodger(crew=1, half_speed=True))
    assert not can_succeed(CHARTS, dodger(capture=Capture.CAPTURED))
    assert can_succeed(CHARTS, dodger(crew=1))


def test_unlimited_attempts_until_one_succeeds() -> None:
    """A galley rows along R5-1's flank: each hex it enters adjacent brings another attempt (6.54)."""
    mover = ship("G5-1", "3118-3119", cruise=4)  # facing up, down R5-1's starboard side: adjacent from F 2
    field = fleet(mover, dodger(crew=3))
    galleys, events, _, dice = play("G5-1 cruise 4: F F F F", field, [5, 4, 1], red="default: avoid=adjacent")
    attempts = rolls(events, "Avoidance")
    assert [r.natural for r in attempts] == [5, 4, 1] and dice.unused == []
    assert galleys[gid("R5-1")].fatigue == 2  # the third attempt, on the last move, got away
