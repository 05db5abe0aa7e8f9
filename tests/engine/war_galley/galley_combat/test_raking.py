"""Raking Oars (7.2): the pass of 7.21, who may rake, the Rake Table, 7.27's DRM, 7.28's Crippling."""

from __future__ import annotations

import pytest

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.galley_combat.combat_record import CombatRecord
from engine.war_galley.galley_combat.combat_steps import PlanEnd
from engine.war_galley.galley_combat.raking import (
    RakeResolved,
    rake_modifiers,
    rake_pass,
    rake_refusal,
    resolve_rake,
)
from engine.war_galley.map_and_galleys.charts import rake_range
from engine.war_galley.map_and_galleys.galley import Aground, End
from engine.war_galley.map_and_galleys.position import Side, parse_position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.moving import MarkerRemoved
from tests.engine.war_galley.combat_support import CHARTS, fleet, gid, of, play, rolls, ship

MAX = SpeedSide.MAXIMUM
TARGET = "3015-3016"  # facing up; starboard bow/flank 3114, flank 3115, stern/flank 3116


def target(**kw: object):
    return ship("R5-1", TARGET, **kw)


def raker(where_: str = "3114-3113", **kw: object):
    return ship("G3-1", where_, **kw)


# --- 7.21: the pass ---


def test_a_pass_along_a_double_target_from_its_bow_flank_or_stern_flank_hex() -> None:
    t = parse_position(TARGET)
    assert rake_pass(parse_position("3114-3113"), parse_position("3115-3114"), t) is Side.STARBOARD
    assert rake_pass(parse_position("3116-3117"), parse_position("3115-3116"), t) is Side.STARBOARD
    assert rake_pass(parse_position("2914-2913"), parse_position("2915-2914"), t) is Side.PORT


def test_no_pass_into_a_bow_flank_hex_or_from_further_off() -> None:
    t = parse_position(TARGET)
    assert rake_pass(parse_position("3115-3116"), parse_position("3114-3115"), t) is None  # ends at bow/flank
    assert rake_pass(parse_position("3215-3216"), parse_position("3115-3215"), t) is None  # came from outside


def test_a_single_hex_target_from_flank_hex_to_flank_hex() -> None:
    t = parse_position("3015/0")  # starboard bow/flank 3114, stern/flank 3115
    assert rake_pass(parse_position("3114/3"), parse_position("3115/3"), t) is Side.STARBOARD
    assert rake_pass(parse_position("3115/0"), parse_position("3114/0"), t) is Side.STARBOARD
    assert rake_pass(parse_position("3214/4"), parse_position("3114/4"), t) is None


# --- 7.22, 6.23, 6.36: who may not ---


@pytest.mark.parametrize(("status", "rule"), [({"crippled": frozenset({Side.PORT})}, "7.22"), ({"fatigue": 2}, "7.22"),
                                              ({"half_speed": True}, "7.22"), ({"sails_up": True}, "6.23")])
def test_galleys_that_may_not_rake(status: dict, rule: str) -> None:
    refusal = rake_refusal(raker(**status), target())
    assert refusal is not None and refusal.rule == rule


def test_aground_galleys_may_not_be_raked() -> None:
    refusal = rake_refusal(raker(), target(aground=Aground(End.BOW, 1)))
    assert refusal is not None and refusal.rule == "6.36"


# --- 7.26, 7.27 ---


def mods(r, t, **kw: object) -> dict[str, int]:
    return {why.split(" ", 1)[1]: value for why, value in rake_modifiers(CHARTS, r, t, **kw)}


def test_7_27_a_quadrireme_raking_a_quinquereme_at_maximum() -> None:
    """The example: Maximum 6 against Maximum 7 is -1 for the raking quadrireme."""
    quadrireme = ship("G4-1", "3114-3113", cruise=4, maximum=6, speed=MAX)
    quinquereme = target(cruise=4, maximum=7, speed=MAX)
    assert mods(quadrireme, quinquereme) == {"slower: Speed 6 against 7": -1}


def test_speeds_are_the_printed_sides_in_use() -> None:
    assert mods(raker(maximum=6, speed=MAX), target(cruise=4)) == {"faster: Speed 6 against 4": 1}
    assert mods(raker(cruise=4), target(cruise=4, maximum=7)) == {}


def test_target_states() -> None:
    assert mods(raker(), target(crippled=frozenset({Side.PORT}))) == {"target Crippled, Grappled or Fouled": 1}
    assert mods(raker(), target(grappled_with=frozenset({gid("G3-9")}))) == {"target Crippled, Grappled or Fouled": 1}
    assert mods(raker(), target(half_speed=True)) == {"target mobile and at Half Speed or Fatigued": 1}
    assert mods(raker(), target(fatigue=3)) == {"target mobile and at Half Speed or Fatigued": 1}
    assert mods(raker(), target(), drew_reaction_ram=True) == {"drew a Defensive Reaction Ram this phase": -1}


def test_the_rake_table_by_crews() -> None:
    r, t = raker(crew=3), target(crew=3)
    needed = rake_range(CHARTS, 3, 3)
    low = needed.low
    dice_fail = ForcedDice(1, low - 2) if low > 2 else None
    if dice_fail is not None:
        done = resolve_rake(fleet(r, t), r.id, t.id, Side.STARBOARD, CHARTS, dice_fail)
        assert not done.crippled
    done = resolve_rake(fleet(r, t), r.id, t.id, Side.STARBOARD, CHARTS, ForcedDice(6, 6))
    assert done.crippled and gid("G3-1") in done.record.rake_attempts


def test_7_28_a_raked_galley_is_crippled_on_the_side_raked() -> None:
    r, t = raker(), target(half_speed=True, fatigue=2, speed=MAX)
    field, events, crippled, _ = resolve_rake(fleet(r, t), r.id, t.id, Side.STARBOARD, CHARTS, ForcedDice(6, 6))
    hit = field[t.id]
    assert crippled and hit.crippled == {Side.STARBOARD}
    assert not hit.half_speed and hit.fatigue == 0 and hit.speed is SpeedSide.CRUISE
    assert {e.marker for e in of(events, MarkerRemoved)} == {"Half Speed", "Fatigued F-2"}


def test_a_second_rake_on_the_other_side_cripples_both() -> None:
    r, t = raker(), target(crippled=frozenset({Side.PORT}))
    field, *_ = resolve_rake(fleet(r, t), r.id, t.id, Side.STARBOARD, CHARTS, ForcedDice(6, 6))
    assert field[t.id].crippled == {Side.PORT, Side.STARBOARD}


def test_a_barred_rake_is_refused_before_any_die() -> None:
    with pytest.raises(IllegalOrder):
        resolve_rake(fleet(raker(fatigue=2), target()), gid("G3-1"), gid("R5-1"), Side.STARBOARD, CHARTS,
                     ForcedDice())


# --- in a plan: no MP, the galley keeps moving ---


def test_a_rake_in_a_plan_costs_no_mp_and_the_galley_moves_on() -> None:
    field = fleet(raker("3114-3113"), target())
    galleys, events, outcome, dice = play("G3-1 cruise 3: F K:R5-1:S F F", field, [6, 6])
    assert outcome.end is PlanEnd.COMPLETED and outcome.spent == 3 and dice.unused == []
    assert galleys[gid("R5-1")].crippled == {Side.STARBOARD}
    assert of(events, RakeResolved)[0].side is Side.STARBOARD


def test_a_rake_needs_the_pass_just_made() -> None:
    with pytest.raises(IllegalOrder) as caught:
        play("G3-1 cruise 3: F F K:R5-1 F", fleet(raker("3114-3113"), target()))
    assert caught.value.rule == "7.21"
    with pytest.raises(IllegalOrder) as caught:
        play("G3-1 cruise 3: F K:R5-1:P F F", fleet(raker("3114-3113"), target()))
    assert "starboard" in str(caught.value)


def test_one_rake_per_pass() -> None:
    with pytest.raises(IllegalOrder) as caught:
        play("G3-1 cruise 3: F K:R5-1 K:R5-1 F F", fleet(raker("3114-3113"), target()))
    assert caught.value.rule == "7.21"


def test_every_rake_counts_for_fatigue() -> None:
    _, events, outcome, _ = play("G3-1 cruise 3: F K:R5-1 F F", fleet(raker("3114-3113"), target()), [1, 1])
    assert gid("G3-1") in outcome.record.rake_attempts and rolls(events, "Rake Table")[0].natural == 2


def test_rake_record_stays_untouched_for_others() -> None:
    record = CombatRecord(rake_attempts=frozenset({gid("G3-7")}))
    _, _, outcome, _ = play("G3-1 cruise 3: F K:R5-1 F F", fleet(raker("3114-3113"), target()), [1, 1],
                            record=record)
    assert outcome.record.rake_attempts == {gid("G3-7"), gid("G3-1")}
