"""Wind (fragment): the defender's point, both dice, and upwind / downwind / astern by angle."""

from __future__ import annotations

import pytest

from engine.fleets import wind


def test_the_fragments_worked_example() -> None:
    # The defender sits at the south edge; "the side closest to him" is S.
    after_defender = wind.rolled("S", 0, 1)
    assert after_defender == "SE"  # "the corner nearest the defender's right elbow"
    final = wind.rolled("S", 4, 1)
    assert final == "NW"  # "the left table corner opposite the defender"
    assert wind.rolled(after_defender, 4, 0) == final  # counting side-corner-side-corner
    assert wind.blowing(final) == (1, -1)  # "blowing diagonally ... to the corner nearest the defender's right elbow"


@pytest.mark.parametrize("start", wind.POINTS)
def test_dice_count_one_point_each_around_the_eight_points(start: str) -> None:
    i = wind.POINTS.index(start)
    for a in range(1, 7):
        for d in range(1, 7):
            assert wind.rolled(start, a, d) == wind.POINTS[(i + a - d) % 8]


def test_upwind_downwind_and_astern_by_angle() -> None:
    src = "N"  # blows south, (0, -1)
    assert wind.downwind((0, -1), src) and wind.astern((0, -1), src)  # 0 degrees
    assert wind.astern((1, -1), src)  # exactly 45: "up to and including 45 degrees"
    assert not wind.astern((100, -99), src) and wind.downwind((100, -99), src)  # just over 45
    assert wind.downwind((1, 0), src) and not wind.upwind((1, 0), src)  # exactly 90: "up to and including 90"
    assert wind.upwind((100, 1), src)  # just over 90: "more than 90 degrees off"
    assert wind.upwind((0, 1), src)


def test_drift_is_100p_in_whole_paces() -> None:
    assert wind.drift_step("N", 100) == (0, -100)
    assert wind.drift_step("W", 100) == (100, 0)
    assert wind.drift_step("NE", 100) == (-71, -71)  # 100 / sqrt 2 to the nearest pace


def test_the_example_through_the_game_the_attackers_die_first() -> None:
    from engine.fleets import play
    from engine.fleets.decisions import WindFrom
    from engine.fleets.ruleset import RULESET
    from tests.engine.fleets.support import Forced

    state = RULESET.new_game(RULESET.builtin_scenario("salamis-480") or b"", RULESET.default_rules_data(), {})
    assert play.pending(state).side == "greeks"  # the defender picks the point
    state, _ = play.apply(state, WindFrom("S"), Forced())
    dice = Forced(4, 1)
    state, events = play.advance(state, dice)
    assert state.wind == "NW" and [p for p, _ in dice.rolls][0].startswith("wind: attacker")
    assert "the wind comes from NW" in RULESET.describe_event(events[0])
