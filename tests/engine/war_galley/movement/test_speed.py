"""Speed (6.1, 6.2, 6.37, 6.44, 8.48): sides, limits and the wind (engine.war_galley.movement.speed)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.war_galley.map_and_galleys.galley import Aground, Capture, End, Equipment, parse_galley_id
from engine.war_galley.map_and_galleys.hexes import DIRECTIONS, Direction
from engine.war_galley.map_and_galleys.position import Side
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.speed import (
    Wind,
    excess_over_cruise,
    maximum_barred,
    sail_bonus,
    speed_limit,
    wind_astern,
)
from tests.engine.war_galley.movement_support import galley

CRUISE, MAX = SpeedSide.CRUISE, SpeedSide.MAXIMUM
OTHER = frozenset({parse_galley_id("R5-9")})


def fiver(**status: object):  # Cruise 4, Maximum 6 unless told
    return galley("G5-1", "3010-3011", **status)


def test_printed_speeds_are_the_limits() -> None:
    g = fiver(cruise=4, maximum=7)
    assert speed_limit(g, CRUISE).mp == 4
    limit = speed_limit(g, MAX)
    assert (limit.mp, limit.rule) == (7, "6.11")


@pytest.mark.parametrize(
    "status, rule",
    [
        ({"half_speed": True}, "6.12"),
        ({"fatigue": 2}, "6.44"),
        ({"capture": Capture.CAPTURED}, "8.25"),
        ({"capture": Capture.RECAPTURED}, "8.25"),
        ({"crippled": frozenset({Side.PORT})}, "6.12"),
        ({"rammed": True}, "6.12"),
        ({"fouled_with": OTHER}, "6.12"),
        ({"grappled_with": OTHER}, "6.12"),
        ({"mast_down": True}, "6.37"),
        ({"sails_up": True}, "6.22"),
        ({"equipment": Equipment(corvus=True)}, "Corvus"),
        ({"aground": Aground(End.BOW, 1)}, "6.37"),
    ],
)
def test_who_may_not_use_maximum_speed(status: dict[str, object], rule: str) -> None:
    barred = maximum_barred(fiver(**status))
    assert barred is not None and barred.rule == rule and barred.mp == 0
    assert speed_limit(fiver(**status), MAX).mp == 0


def test_a_fresh_galley_may_use_maximum() -> None:
    assert maximum_barred(fiver()) is None


def test_a_tremiola_may_sail_at_maximum() -> None:
    """6.25: the Tremiola adds its wind to either side; sails do not bar its Maximum."""
    trm = galley("GTrm-1", "3010/0", sails_up=True)
    assert maximum_barred(trm) is None


@pytest.mark.parametrize(
    "status, mp, rule",
    [
        ({"rammed": True}, 0, "6.37"),
        ({"fouled_with": OTHER}, 0, "6.37"),
        ({"grappled_with": OTHER}, 0, "6.37"),
        ({"aground": Aground(End.BOW, 1)}, 0, "6.37"),
        ({"crippled": frozenset({Side.PORT})}, 1, "7.28"),
        ({"crippled": frozenset(Side)}, 0, "7.28"),
        ({"half_speed": True}, 2, "6.37"),
        ({"mast_down": True}, 2, "6.24"),
        ({"fatigue": 1}, 3, "6.44"),
        ({"fatigue": 3}, 1, "6.44"),
    ],
)
def test_cruise_limits(status: dict[str, object], mp: int, rule: str) -> None:
    limit = speed_limit(fiver(**status), CRUISE)
    assert (limit.mp, limit.rule) == (mp, rule)


def test_the_most_limiting_result_applies() -> None:
    """6.37's play note: Cruise 4 with F1 and Half Speed: 2 MP; at F3: 1 MP."""
    assert speed_limit(fiver(fatigue=1, half_speed=True), CRUISE).mp == 2
    assert speed_limit(fiver(fatigue=3, half_speed=True), CRUISE).mp == 1
    assert speed_limit(fiver(fatigue=3, half_speed=True, crippled=frozenset({Side.PORT})), CRUISE).mp == 1


def test_half_speed_rounds_up() -> None:
    assert speed_limit(fiver(cruise=5, half_speed=True), CRUISE).mp == 3
    assert speed_limit(fiver(cruise=5, mast_down=True), CRUISE).mp == 3


def test_fatigue_always_leaves_one_hex() -> None:
    """6.44: Cruise reduced by the F number, but the galley may always move one hex."""
    assert speed_limit(fiver(cruise=2, fatigue=4), CRUISE).mp == 1


def test_jettisoned_towers_add_one_to_maximum() -> None:
    """8.48: +1 to the printed Maximum Speed; Cruise unchanged."""
    g = galley("G5-1", "3010-3011", towers=True, maximum=5, towers_jettisoned=True)
    limit = speed_limit(g, MAX)
    assert (limit.mp, limit.rule) == (6, "8.48")
    assert speed_limit(g, CRUISE).mp == 4


def test_6_43_mp_beyond_cruise() -> None:
    """6.43: Cruise 4 using 5 MP adds +1 to the Fatigue roll; 6 MP adds +2 (also 7.15's Ram DRM)."""
    counter = fiver().ratings
    assert [excess_over_cruise(counter, mp) for mp in (3, 4, 5, 6)] == [0, 0, 1, 2]


def test_off_map_galleys_have_no_speed() -> None:
    assert speed_limit(galley("G5-1", None), CRUISE).mp == 0


# --- wind and sails ---


@given(st.sampled_from(DIRECTIONS), st.sampled_from(DIRECTIONS))
def test_wind_astern_means_stern_or_stern_flank_hexsides(wind_to: Direction, facing: Direction) -> None:
    """Wind blowing toward `wind_to` enters through the hexside opposite; it is astern when
    that hexside is the Stern (facing + 3) or a Stern/Flank (facing + 2, facing + 4)."""
    entering = (wind_to + 3) % 6
    assert wind_astern(Wind(wind_to), facing) == (entering in {(facing + k) % 6 for k in (2, 3, 4)})


def test_no_wind_in_a_dead_calm() -> None:
    assert not wind_astern(None, Direction.UP)


def test_sail_adds_one_to_cruise_with_the_wind_astern() -> None:
    """6.22: +1 to Cruise under sail with the wind into the Stern or Stern/Flank hexsides."""
    g = fiver(sails_up=True)  # facing UP
    astern, abeam = Wind(Direction.UP_LEFT), Wind(Direction.DOWN_RIGHT)
    limit = speed_limit(g, CRUISE, astern)
    assert (limit.mp, limit.rule) == (5, "6.22")
    assert speed_limit(g, CRUISE, abeam).mp == 4
    assert speed_limit(g, CRUISE, None).mp == 4
    assert speed_limit(fiver(), CRUISE, astern).mp == 4  # sails down
    assert speed_limit(g, CRUISE, astern, sails_up=False).mp == 4


def test_sail_bonus_yields_to_limits() -> None:
    """The wind's +1 is a speed adjustment like any other: the most limiting result applies."""
    g = fiver(sails_up=True, half_speed=True)
    assert speed_limit(g, CRUISE, Wind(Direction.UP)).mp == 2


def test_tremiola_adds_two_to_either_side_in_any_wind() -> None:
    """6.25: "they may always add 2 MPs for Wind Assistance ... to either Cruise or Maximum"."""
    trm = galley("GTrm-1", "3010/0", cruise=4, maximum=6, sails_up=True)
    headwind = Wind(Direction.DOWN)
    assert speed_limit(trm, CRUISE, headwind).mp == 6
    limit = speed_limit(trm, MAX, headwind)
    assert (limit.mp, limit.rule) == (8, "6.25")
    assert speed_limit(trm, MAX, None).mp == 6  # Dead Calm: no wind to use (6.2)
    assert sail_bonus(trm, MAX, headwind, False, 0) == 0  # sails lowered: no W+2


def test_a_limit_says_which_galley_and_why() -> None:
    limit = speed_limit(fiver(fatigue=2), CRUISE)
    assert limit.reason == "G5-1 is Fatigued F-2: 2 MP"
