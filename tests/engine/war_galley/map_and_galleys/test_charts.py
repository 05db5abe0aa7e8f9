"""The charts as rules data: one test per fact the rulebook fixes, the loader,
and the monotonicity the rules imply (shared/rules/charts-and-counters.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import IllegalOrder, RulesDataError
from engine.war_galley.map_and_galleys import charts as ch
from engine.war_galley.map_and_galleys.charts import (
    AgroundOutcome,
    Band,
    BoardingOutcome,
    Charts,
    Disengage,
    FireOutcome,
    MissileResult,
    RamOutcome,
    RollRange,
)

CHARTS: Charts = ch.load_default_charts()
TEXT: str = ch.default_charts_bytes().decode("utf-8")

D6 = st.integers(min_value=1, max_value=6)
TWO_D6 = st.integers(min_value=2, max_value=12)
ADJUSTED = st.integers(min_value=-6, max_value=20)
CREW = st.integers(min_value=0, max_value=4)


def replaced(old: str, new: str) -> bytes:
    """The default charts with one exact piece of text changed."""
    assert TEXT.count(old) == 1, f"{old!r} must occur once in charts.toml"
    return TEXT.replace(old, new).encode("utf-8")


# ---------------------------------------------------------------- dice (2.4)


def test_dice_are_two_six_sided_dice() -> None:
    # 2.4: "2d12" is a misprint for two six-sided dice added.
    assert CHARTS.dice.d6 == RollRange(1, 6)
    assert CHARTS.dice.two_d6 == RollRange(2, 12)


def test_adjusted_2d6_above_12_counts_as_12() -> None:
    assert ch.clamp_two_d6(CHARTS, 14) == 12
    assert ch.two_d6_in_range(CHARTS, 13, RollRange(12, 12))


def test_adjusted_2d6_below_2_fails_automatically() -> None:
    assert ch.clamp_two_d6(CHARTS, 1) is None
    assert not ch.two_d6_in_range(CHARTS, 1, RollRange(2, 12))


# ---------------------------------------------------------------- ramming (7.14)


def test_ram_attack_6_against_defense_7_needs_10_to_12() -> None:
    assert ch.ram_range(CHARTS, 6, 7) == RollRange(10, 12)


def test_ram_example_crippled_target_lets_a_9_succeed() -> None:
    # 7.14 example: +1 for a crippled target makes a 9 a 10.
    plus = CHARTS.ramming.modifiers.target_crippled_fouled_grappled
    assert not ch.ram_succeeds(CHARTS, 6, 7, 9)
    assert ch.ram_succeeds(CHARTS, 6, 7, 9 + plus)


def test_ram_attack_8_against_defense_4_needs_4_to_12() -> None:
    assert ch.ram_range(CHARTS, 8, 4) == RollRange(4, 12)


def test_ram_attack_4_against_defense_2_needs_6_to_12() -> None:
    assert ch.ram_range(CHARTS, 4, 2) == RollRange(6, 12)


@pytest.mark.parametrize("rating", range(1, 13))
def test_ram_attack_equal_to_defense_is_the_mean_8_to_12(rating: int) -> None:
    assert ch.ram_range(CHARTS, rating, rating) == RollRange(8, 12)


def test_ramming_table_is_not_symmetric_and_not_an_odds_ratio() -> None:
    # 7.14 design note: 8 vs 4 and 4 vs 2 are both 2:1 but need 4 and 6.
    assert ch.ram_needed(CHARTS, 8, 4) != ch.ram_needed(CHARTS, 4, 2)
    # One point up takes fewer pips off the mean than one point down adds.
    mean = ch.ram_needed(CHARTS, 6, 6)
    assert mean - ch.ram_needed(CHARTS, 7, 6) != ch.ram_needed(CHARTS, 6, 7) - mean


def test_ram_cell_depends_only_on_attack_minus_defense() -> None:
    # The documented fill: "absolute ramming power" against "absolute ability
    # to withstand" (7.14), read as the difference of the two ratings. The
    # open "12+" edges are left out: they stand for more than one rating.
    by_difference: dict[int, set[int]] = {}
    for attack in range(1, 12):
        for defense in range(0, 12):
            by_difference.setdefault(attack - defense, set()).add(ch.ram_needed(CHARTS, attack, defense))
    assert all(len(needs) == 1 for needs in by_difference.values())


def test_ram_attack_0_cannot_ram() -> None:
    with pytest.raises(IllegalOrder) as info:
        ch.ram_needed(CHARTS, 0, 5)
    assert info.value.rule == "7.11"


@given(st.integers(1, 40), st.integers(0, 40))
def test_ramming_table_covers_every_rating(attack: int, defense: int) -> None:
    assert 2 <= ch.ram_needed(CHARTS, attack, defense) <= 12


@given(st.integers(1, 30), st.integers(0, 30))
def test_higher_ram_attack_never_needs_a_higher_roll(attack: int, defense: int) -> None:
    assert ch.ram_needed(CHARTS, attack + 1, defense) <= ch.ram_needed(CHARTS, attack, defense)


@given(st.integers(1, 30), st.integers(0, 30))
def test_higher_ram_defense_never_needs_a_lower_roll(attack: int, defense: int) -> None:
    assert ch.ram_needed(CHARTS, attack, defense + 1) >= ch.ram_needed(CHARTS, attack, defense)


RAM_MODIFIERS = {  # 7.15, 6.7
    "per_mp_over_cruise": 1,
    "mp_bonus_max_bow_flank_turns": 1,
    "target_crippled_fouled_grappled": 1,
    "target_half_speed_or_fatigued": 1,
    "better_crew": 1,
    "target_at_maximum": -1,
    "target_better_crew": -1,
    "rammer_towers": -1,
    "anastrophe_failed_rake": -1,
    "after_defensive_reaction_ram": -1,
}


@pytest.mark.parametrize(("name", "value"), RAM_MODIFIERS.items())
def test_ram_modifiers_of_7_15(name: str, value: int) -> None:
    assert getattr(CHARTS.ramming.modifiers, name) == value


# ---------------------------------------------------------------- retraction (7.16)


def test_retraction_example_natural_9_crew_3_retracts() -> None:
    # 7.16: a natural 9 is in the Foul Range, but 9 - Crew 3 = 6 is not.
    assert ch.retraction(CHARTS, 9, 3) is RamOutcome.RETRACTED


@given(TWO_D6, CREW)
def test_retraction_fouls_on_7_to_12_after_subtracting_crew(natural: int, crew: int) -> None:
    expected = RamOutcome.FOULED if natural - crew >= 7 else RamOutcome.RETRACTED
    assert ch.retraction(CHARTS, natural, crew) is expected


def test_retraction_foul_range_is_7_to_12() -> None:
    assert CHARTS.retraction.fouled == RollRange(7, 12)


# ---------------------------------------------------------------- rake (7.26)


@given(CREW, CREW)
def test_rake_table_covers_crew_0_to_4_both_sides(raker: int, target: int) -> None:
    # 6.41 rates crews 1-4; a Captured galley (Crew 0) may still rake (8.64).
    assert 2 <= ch.rake_needed(CHARTS, raker, target) <= 12


@given(st.integers(0, 3), CREW)
def test_better_raking_crew_never_needs_a_higher_roll(raker: int, target: int) -> None:
    assert ch.rake_needed(CHARTS, raker + 1, target) <= ch.rake_needed(CHARTS, raker, target)


@given(CREW, st.integers(0, 3))
def test_better_target_crew_never_needs_a_lower_roll(raker: int, target: int) -> None:
    assert ch.rake_needed(CHARTS, raker, target + 1) >= ch.rake_needed(CHARTS, raker, target)


def test_rake_crew_5_is_outside_the_table_and_names_it() -> None:
    with pytest.raises(RulesDataError, match="'rake'"):
        ch.rake_needed(CHARTS, 5, 3)


def test_rake_modifiers_of_7_27() -> None:
    m = CHARTS.rake.modifiers
    assert (m.faster, m.slower) == (1, -1)
    assert (m.target_crippled_grappled_fouled, m.target_half_speed_or_fatigued) == (1, 1)


def test_rake_example_quadrireme_against_quinquereme() -> None:
    # 7.27: a Quadrireme (Maximum 6) raking a Quinquereme (Maximum 7) takes
    # -1, so the lowest roll that would rake without it no longer does.
    need = ch.rake_needed(CHARTS, 3, 3)
    assert ch.rake_succeeds(CHARTS, 3, 3, need)
    assert not ch.rake_succeeds(CHARTS, 3, 3, need + CHARTS.rake.modifiers.slower)


# ---------------------------------------------------------------- grappling (8.12)


def test_grapple_crew_2_succeeds_on_4_to_6() -> None:
    # Naulochus example.
    assert ch.grapple_range(CHARTS, 2) == RollRange(4, 6)
    assert not ch.grapple_result(CHARTS, 2, 3)
    assert ch.grapple_result(CHARTS, 2, 4)


def test_harpax_at_two_hexes_crew_2_grapples_on_a_natural_3() -> None:
    # Naulochus: +1 at two hexes, "a DR of 3-6 will grapple".
    harpax_two_hexes = 1
    assert [ch.grapple_result(CHARTS, 2, n + harpax_two_hexes) for n in range(1, 7)] == [
        False, False, True, True, True, True,
    ]


@pytest.mark.parametrize("crew", [3, 4])
def test_harpax_adjacent_plus_2_is_automatic_for_crew_3_and_4(crew: int) -> None:
    harpax_adjacent = 2
    assert all(ch.grapple_result(CHARTS, crew, n + harpax_adjacent) for n in range(1, 7))


def test_harpax_adjacent_plus_2_is_not_automatic_for_crew_2() -> None:
    assert not ch.grapple_result(CHARTS, 2, 1 + 2)


def test_captured_galley_crew_0_may_still_grapple() -> None:
    # 8.25 play note: Captured galleys cannot board "(although they can Grapple)".
    assert any(ch.grapple_result(CHARTS, 0, n) for n in range(1, 7))


@given(st.integers(0, 3), ADJUSTED)
def test_better_grappling_crew_never_does_worse(crew: int, adjusted: int) -> None:
    if ch.grapple_result(CHARTS, crew, adjusted):
        assert ch.grapple_result(CHARTS, crew + 1, adjusted)


@given(CREW, ADJUSTED)
def test_higher_grapple_roll_never_does_worse(crew: int, adjusted: int) -> None:
    if ch.grapple_result(CHARTS, crew, adjusted):
        assert ch.grapple_result(CHARTS, crew, adjusted + 1)


def test_grapple_modifiers_of_8_12() -> None:
    m = CHARTS.grappling.modifiers
    assert (m.target_crippled_fouled_grappled, m.target_under_sail) == (1, 1)
    assert (m.target_opposite_direction, m.grappler_under_sail) == (-1, -1)


# ---------------------------------------------------------------- boarding (8.23, 8.28)


def test_boarding_two_m2_galleys_against_m1_need_4_to_12() -> None:
    # 8.23 example: the attackers' Manpower is summed (8.22).
    assert ch.boarding_range(CHARTS, 2 + 2, 1) == RollRange(4, 12)
    assert ch.boarding_result(CHARTS, 4, 1, 3).outcome is BoardingOutcome.REPULSED
    assert ch.boarding_result(CHARTS, 4, 1, 4).outcome is BoardingOutcome.CAPTURED


@pytest.mark.parametrize("adjusted", range(9, 15))
def test_capture_on_adjusted_9_to_12_depletes_the_attacker(adjusted: int) -> None:
    result = ch.boarding_result(CHARTS, 4, 1, adjusted)
    assert result.outcome is BoardingOutcome.CAPTURED and result.attacker_depleted


@pytest.mark.parametrize("adjusted", range(4, 9))
def test_capture_below_9_does_not_deplete_the_attacker(adjusted: int) -> None:
    result = ch.boarding_result(CHARTS, 4, 1, adjusted)
    assert result.outcome is BoardingOutcome.CAPTURED and not result.attacker_depleted


@given(st.integers(1, 20), st.integers(0, 12), st.integers(-2, 13))
def test_any_repulse_depletes_the_attacker(attacker: int, defender: int, adjusted: int) -> None:
    result = ch.boarding_result(CHARTS, attacker, defender, adjusted)
    if result.outcome is BoardingOutcome.REPULSED:
        assert result.attacker_depleted


@pytest.mark.parametrize(("adjusted", "depleted"), [(2, True), (3, True), (5, True), (6, False), (11, False)])
def test_repulse_on_adjusted_2_to_5_depletes_the_defender(adjusted: int, depleted: bool) -> None:
    result = ch.boarding_result(CHARTS, 1, 4, adjusted)  # needs 12
    assert result.outcome is BoardingOutcome.REPULSED
    assert result.defender_depleted is depleted


def test_boarding_below_2_is_a_repulse_in_the_lowest_band() -> None:
    # 2.4: below 2 is outside the Capture range; for 8.28 it is the worst roll.
    result = ch.boarding_result(CHARTS, 16, 0, 2 + CHARTS.boarding.modifiers.defender_height_advantage)
    assert result.outcome is BoardingOutcome.REPULSED
    assert result.attacker_depleted and result.defender_depleted


def test_m0_galley_may_not_board() -> None:
    with pytest.raises(IllegalOrder) as info:
        ch.boarding_range(CHARTS, 0, 1)
    assert info.value.rule == "8.21"


@given(st.integers(1, 40))
def test_m0_defender_still_defends(attacker: int) -> None:
    # 8.64: "A ship with M0 may not board; it will defend, though."
    assert ch.boarding_needed(CHARTS, attacker, 0) > CHARTS.dice.two_d6.low


@given(st.integers(1, 40), st.integers(0, 40))
def test_boarding_table_covers_every_manpower(attacker: int, defender: int) -> None:
    assert 2 <= ch.boarding_needed(CHARTS, attacker, defender) <= 12


@given(st.integers(1, 15), st.integers(0, 10))
def test_more_boarders_never_need_a_higher_roll(attacker: int, defender: int) -> None:
    assert ch.boarding_needed(CHARTS, attacker + 1, defender) <= ch.boarding_needed(CHARTS, attacker, defender)


@given(st.integers(1, 15), st.integers(0, 10))
def test_more_defenders_never_need_a_lower_roll(attacker: int, defender: int) -> None:
    assert ch.boarding_needed(CHARTS, attacker, defender + 1) >= ch.boarding_needed(CHARTS, attacker, defender)


@given(st.integers(1, 5), st.integers(1, 5), st.integers(2, 3))
def test_boarding_cell_depends_on_the_odds(attacker: int, defender: int, k: int) -> None:
    # The documented fill: an odds table (the 7.14 note sets ramming apart).
    if attacker * k <= 15 and defender * k <= 9:
        assert ch.boarding_needed(CHARTS, attacker * k, defender * k) == ch.boarding_needed(
            CHARTS, attacker, defender
        )


def test_boarding_height_advantage_is_the_only_drm() -> None:
    # 8.24.
    m = CHARTS.boarding.modifiers
    assert (m.attacker_height_advantage, m.defender_height_advantage) == (1, -1)


# ---------------------------------------------------------------- missiles (8.43-8.45)


def test_missile_table_has_a_1_2_column() -> None:
    assert Band(1, 2) in CHARTS.missile.columns


def test_split_fire_of_m2_uses_the_1_2_column_for_each_m1() -> None:
    # 8.43: an M2 galley fires "using the '1-2' column, at each of two" ships.
    assert ch.missile_column(CHARTS, 1) == ch.missile_column(CHARTS, 2) == Band(1, 2)


def test_m0_galley_may_still_fire() -> None:
    # 8.64: a ship with M0 "may Missile Fire".
    assert any(ch.missile_result(CHARTS, 0, n).depletes for n in range(1, 10))


def test_missile_results_are_none_d_and_d_f() -> None:
    cells = {cell for row in CHARTS.missile.cells for cell in row}
    assert cells == {MissileResult.NONE, MissileResult.D, MissileResult.DF}


def test_fire_roll_only_on_d_f_with_flame_missiles() -> None:
    # 8.45: "The additional 'F' result applies only to galleys using Flame".
    assert MissileResult.DF.fire_roll(flame=True)
    assert not MissileResult.DF.fire_roll(flame=False)
    assert not MissileResult.D.fire_roll(flame=True)
    assert MissileResult.DF.depletes and MissileResult.D.depletes


@given(st.integers(0, 200))
def test_missile_columns_cover_every_manpower(manpower: int) -> None:
    assert ch.missile_column(CHARTS, manpower).covers(manpower)


SEVERITY = {MissileResult.NONE: 0, MissileResult.D: 1, MissileResult.DF: 2}


@given(st.integers(0, 30), ADJUSTED)
def test_more_manpower_never_fires_worse(manpower: int, adjusted: int) -> None:
    worse = SEVERITY[ch.missile_result(CHARTS, manpower, adjusted)]
    assert SEVERITY[ch.missile_result(CHARTS, manpower + 1, adjusted)] >= worse


@given(st.integers(0, 30), ADJUSTED)
def test_higher_missile_roll_never_does_worse(manpower: int, adjusted: int) -> None:
    worse = SEVERITY[ch.missile_result(CHARTS, manpower, adjusted)]
    assert SEVERITY[ch.missile_result(CHARTS, manpower, adjusted + 1)] >= worse


MISSILE_MODIFIERS = {  # 8.44; E and T effects (8.47, 8.48)
    "engines": 1,
    "height_advantage": 1,
    "height_disadvantage": -1,
    "under_sail": -1,
    "jettisoned_towers": -1,
    "target_rammed_grappled_fouled_crippled": 1,
    "range_two_hexes": -1,
}


@pytest.mark.parametrize(("name", "value"), MISSILE_MODIFIERS.items())
def test_missile_modifiers_of_8_44(name: str, value: int) -> None:
    assert getattr(CHARTS.missile.modifiers, name) == value


def test_missile_range_is_two_hexes_and_flame_one() -> None:
    assert CHARTS.missile.max_range == 2  # 8.41
    assert CHARTS.fixed.flame.max_range == 1  # 8.52


# ---------------------------------------------------------------- fatigue (6.42-6.43, 7.36)


def test_fatigue_crew_3_adjusted_4_is_no_effect() -> None:
    assert ch.fatigue_result(CHARTS, 3, 4) == 0


def test_fatigue_crew_3_adjusted_7_is_f2() -> None:
    assert ch.fatigue_result(CHARTS, 3, 7) == 2


def test_fatigue_example_of_6_43() -> None:
    # Cruise 4, Crew 3: 5 MP and a 3 is No Effect; 6 MP and a 5 is F-2.
    per_mp = CHARTS.fatigue.modifiers.per_mp_over_cruise
    assert ch.fatigue_result(CHARTS, 3, 3 + (5 - 4) * per_mp) == 0
    assert ch.fatigue_result(CHARTS, 3, 5 + (6 - 4) * per_mp) == 2
    # The other reading of "the DR was a '5'" (adjusted 5) agrees too.
    assert ch.fatigue_result(CHARTS, 3, 5) == 2


def test_fatigue_table_has_no_f1_result() -> None:
    levels = {c for row in CHARTS.fatigue.cells for c in row} | set(CHARTS.fatigue.anastrophe)
    assert 1 not in levels
    assert levels - {0}  # it does fatigue


def test_fatigue_table_with_an_f1_cell_is_rejected() -> None:
    with pytest.raises(RulesDataError, match="'fatigue'.*F-1"):
        ch.load_charts(replaced('"9"  = ["F-3"', '"9"  = ["F-1"'))


def test_anastrophe_row_7a_gives_crew_2_f3() -> None:
    assert CHARTS.fatigue.anastrophe_row == "7A"
    assert ch.fatigue_result(CHARTS, 2, 0, anastrophe=True) == 3


@pytest.mark.parametrize("crew", range(1, 5))
def test_anastrophe_always_fatigues(crew: int) -> None:
    # 7.36: "regardless of success, are automatically Fatigued".
    assert ch.fatigue_result(CHARTS, crew, 1, anastrophe=True) >= 2


def test_avoidance_gives_automatic_f2() -> None:
    assert ch.avoidance_fatigue(CHARTS) == 2  # 6.52


def test_fatigue_modifiers_of_6_42() -> None:
    m = CHARTS.fatigue.modifiers
    assert (m.per_mp_over_cruise, m.ram_attempt, m.rake_attempt) == (1, 1, 1)


@given(st.integers(1, 4), ADJUSTED)
def test_higher_fatigue_roll_never_fatigues_less(crew: int, adjusted: int) -> None:
    assert ch.fatigue_result(CHARTS, crew, adjusted + 1) >= ch.fatigue_result(CHARTS, crew, adjusted)


@given(st.integers(1, 3), ADJUSTED)
def test_better_crew_never_fatigues_more(crew: int, adjusted: int) -> None:
    assert ch.fatigue_result(CHARTS, crew + 1, adjusted) <= ch.fatigue_result(CHARTS, crew, adjusted)


# ---------------------------------------------------------------- disengage (8.32-8.35)


@pytest.mark.parametrize("kind", list(Disengage))
@pytest.mark.parametrize("crew", range(0, 5))
def test_every_crew_can_disengage_on_a_natural_roll(kind: Disengage, crew: int) -> None:
    assert any(ch.disengage_success(CHARTS, kind, crew, n) for n in range(1, 7))


@pytest.mark.parametrize("kind", list(Disengage))
@given(st.integers(0, 3), ADJUSTED)
def test_better_crew_never_disengages_worse(kind: Disengage, crew: int, adjusted: int) -> None:
    if ch.disengage_success(CHARTS, kind, crew, adjusted):
        assert ch.disengage_success(CHARTS, kind, crew + 1, adjusted)


@pytest.mark.parametrize("kind", list(Disengage))
@given(CREW, ADJUSTED)
def test_higher_disengage_roll_never_does_worse(kind: Disengage, crew: int, adjusted: int) -> None:
    if ch.disengage_success(CHARTS, kind, crew, adjusted):
        assert ch.disengage_success(CHARTS, kind, crew, adjusted + 1)


def test_disengage_results_are_s_or_nothing() -> None:
    with pytest.raises(RulesDataError, match="'foul_disengage'.*'X'"):
        ch.load_charts(replaced('"6" = ["S", "S", "S", "S", "S"]\n\n# ----', '"6" = ["S", "S", "S", "S", "X"]\n\n# ----'))


def test_foul_disengage_has_no_modifiers() -> None:
    # 8.35 play note: a `modifiers` table there is rejected, not ignored.
    with pytest.raises(RulesDataError, match="'foul_disengage'.*modifiers"):
        ch.load_charts(replaced('[foul_disengage.rows]', '[foul_disengage.modifiers]\nbetter_crew = 1\n\n[foul_disengage.rows]'))


def test_grapple_disengage_modifiers_of_8_32() -> None:
    m = CHARTS.grapple_disengage.modifiers
    assert (m.repulsed_boarding_this_turn, m.better_crew, m.controls_both, m.crippled_or_fouled) == (1, 1, 2, -1)
    assert CHARTS.grapple_disengage.max_mp_cost == 2


# ---------------------------------------------------------------- firefight (8.54)

FIRE_SEVERITY = {FireOutcome.OUT: 0, FireOutcome.BURNING: 1, FireOutcome.SUNK: 2}


@given(ADJUSTED)
def test_lower_firefight_roll_is_never_worse(adjusted: int) -> None:
    # Tauris: rain gives -1, so lower must be better for the burning galley.
    low, high = ch.firefight_result(CHARTS, adjusted), ch.firefight_result(CHARTS, adjusted + 1)
    assert FIRE_SEVERITY[low.fire] <= FIRE_SEVERITY[high.fire]
    assert low.spreads <= high.spreads


def test_some_firefight_results_spread_the_fire() -> None:
    assert any(ch.firefight_result(CHARTS, n).spreads for n in range(1, 7))
    assert not all(ch.firefight_result(CHARTS, n).spreads for n in range(1, 7))


def test_firefight_can_put_the_fire_out_and_can_sink() -> None:
    outcomes = {ch.firefight_result(CHARTS, n).fire for n in range(1, 7)}
    assert {FireOutcome.OUT, FireOutcome.SUNK} <= outcomes


def test_firefight_with_rain_minus_1_still_reads_a_row() -> None:
    assert ch.firefight_result(CHARTS, 1 - 1).fire is FireOutcome.OUT


# ---------------------------------------------------------------- double activation (5.42)


@pytest.mark.parametrize("initiative", range(0, 5))
def test_double_activation_is_success_or_failure_by_initiative(initiative: int) -> None:
    results = [ch.double_activation(CHARTS, initiative, n) for n in range(1, 7)]
    assert True in results and False in results  # a gamble for every admiral


@given(st.integers(0, 9), D6)
def test_better_admiral_never_does_worse(initiative: int, roll: int) -> None:
    if ch.double_activation(CHARTS, initiative, roll):
        assert ch.double_activation(CHARTS, initiative + 1, roll)


@given(D6)
def test_orders_confusion_only_slows_galleys(roll: int) -> None:
    result = ch.orders_confusion(CHARTS, roll)
    assert result.mp <= 0


def test_orders_confusion_adjusts_speed_on_some_rolls() -> None:
    results = [ch.orders_confusion(CHARTS, n) for n in range(1, 7)]
    assert any(r.mp < 0 or r.cruise_only or r.half_speed for r in results)


# ---------------------------------------------------------------- wind (6.2)


def test_wind_chart_has_exactly_one_dead_calm() -> None:
    assert sum(ch.wind_change(CHARTS, n).calm for n in range(2, 13)) == 1


def test_wind_chart_changes_strength_and_direction() -> None:
    changes = [ch.wind_change(CHARTS, n) for n in range(2, 13)]
    assert any(c.strength for c in changes) and any(c.direction for c in changes)


def test_wind_chart_is_rolled_on_2d6() -> None:
    assert CHARTS.wind.first_roll == CHARTS.dice.two_d6.low
    assert len(CHARTS.wind.results) == 11


# ---------------------------------------------------------------- fixed numbers


def test_initiative_is_1d6_plus_initiative_ties_reroll() -> None:
    # 3.2
    assert (CHARTS.fixed.initiative.die, CHARTS.fixed.initiative.ties) == ("1d6", "reroll")


@pytest.mark.parametrize(("roll", "free"), [(1, True), (3, True), (4, False), (6, False)])
def test_individual_squadron_activation_roll_at_most_crew(roll: int, free: bool) -> None:
    assert ch.individual_activation_free(CHARTS, 3, roll) is free  # 5.31


@pytest.mark.parametrize(("roll", "ok"), [(1, False), (2, False), (3, True), (6, True)])
def test_commander_transfer_on_3_to_6(roll: int, ok: bool) -> None:
    assert ch.transfer_succeeds(CHARTS, roll) is ok  # 5.52


def test_avoidance_roll_at_most_crew_plus_1_at_half_speed() -> None:
    # 6.52-6.53
    assert ch.avoidance_succeeds(CHARTS, 3, 3)
    assert not ch.avoidance_succeeds(CHARTS, 3, 4)
    assert not ch.avoidance_succeeds(CHARTS, 3, 3, half_speed=True)
    assert ch.avoidance_succeeds(CHARTS, 3, 2, half_speed=True)


@pytest.mark.parametrize(
    ("roll", "outcome"),
    [(1, AgroundOutcome.FREED), (2, AgroundOutcome.FREED), (3, AgroundOutcome.STUCK),
     (5, AgroundOutcome.STUCK), (6, AgroundOutcome.ELIMINATED)],
)
def test_run_aground_at_most_crew_frees_a_6_eliminates(roll: int, outcome: AgroundOutcome) -> None:
    assert ch.run_aground_result(CHARTS, 2, roll) is outcome  # 6.36


def test_defensive_reaction_ram_crew_check() -> None:
    # 6.7: "the same as or lower"; a failed ram costs the mover 1 MP.
    assert ch.defensive_ram_allowed(CHARTS, 2, 2)
    assert not ch.defensive_ram_allowed(CHARTS, 2, 3)
    assert CHARTS.fixed.defensive_reaction_ram.failed_ram_mover_mp == 1


@pytest.mark.parametrize(("roll", "sunk"), [(1, False), (5, False), (6, True)])
def test_sinking_on_a_6(roll: int, sunk: bool) -> None:
    assert ch.sinks(CHARTS, roll) is sunk  # 7.17


@pytest.mark.parametrize(("roll", "fire"), [(4, False), (5, True), (6, True)])
def test_firepots_on_5_or_6(roll: int, fire: bool) -> None:
    assert ch.firepots_ignite(CHARTS, roll) is fire  # 8.53


@pytest.mark.parametrize(("roll", "fire"), [(3, False), (4, True), (6, True)])
def test_flame_on_4_to_6(roll: int, fire: bool) -> None:
    assert ch.flame_ignites(CHARTS, roll) is fire  # 8.51


def test_flame_range_a_scenario_may_replace() -> None:
    # Tauris: "need a DR of 5-6 (not the usual 4-6)".
    assert not ch.flame_ignites(CHARTS, 4, RollRange.parse("5-6"))


def test_loss_of_admiral_withdraws_above_6() -> None:
    # 9.2: 1d6 + Initiative, +1 if behind on VP; above 6 withdraws.
    assert not ch.admiral_withdraws(CHARTS, 4, 2, fewer_vp=False)
    assert ch.admiral_withdraws(CHARTS, 4, 2, fewer_vp=True)
    assert ch.admiral_withdraws(CHARTS, 5, 2, fewer_vp=False)
    assert CHARTS.fixed.loss_of_admiral.withdrawal_bonus_vp == 25


def test_the_numbers_the_rules_text_states_for_pass_through_towers_and_capture() -> None:
    assert CHARTS.fixed.pass_through.mp == 2  # 7.25 "expends 2 MP to move dead ahead"
    assert CHARTS.fixed.towers.jettison_mp == 1  # 8.48 "Jettison Towers (at the cost of 1 MP)"
    assert CHARTS.fixed.capture.bonus_vp == 1  # 9.1 "Ram Defense +1 (the Capture Bonus)"


def test_the_numbers_the_rules_text_states_for_movement_and_sails() -> None:
    moves, sails = CHARTS.fixed.movement, CHARTS.fixed.sails
    # 6.32: "1 MP to move into a Bow ... or Bow/Flank hex", "1 MP to change direction, per hexside,
    # without moving", "2 MP to Turn Around", "2 MP to Backwater".
    assert (moves.forward, moves.bow_flank, moves.facing_change, moves.turn_around, moves.backwater) == (1, 1, 1, 2, 2)
    # 6.21 "1 MP to Raise, or (Voluntarily) Lower Sails"; 6.25 a Tremiola's "at no cost in MP".
    assert (sails.raise_, sails.lower, sails.tremiola_raise_lower) == (1, 1, 0)


# ---------------------------------------------------------------- loader


def test_default_charts_bytes_are_the_repository_file() -> None:
    path = Path(__file__).resolve().parents[4] / "scenarios" / "war_galley" / "charts.toml"
    assert ch.default_charts_bytes() == path.read_bytes()


def test_every_table_names_its_rule() -> None:
    rules = {
        CHARTS.ramming.rule: "7.14", CHARTS.retraction.rule: "7.16", CHARTS.rake.rule: "7.26",
        CHARTS.grappling.rule: "8.12", CHARTS.boarding.rule: "8.23", CHARTS.missile.rule: "8.44",
        CHARTS.fatigue.rule: "6.42", CHARTS.grapple_disengage.rule: "8.32",
        CHARTS.foul_disengage.rule: "8.35", CHARTS.firefight.rule: "8.54",
        CHARTS.double_activation.rule: "5.42", CHARTS.wind.rule: "6.2",
    }
    assert all(got == want for got, want in rules.items()) and len(rules) == 12


MALFORMED = [
    # (table named in the error, old text, new text)
    ("ramming", '"12+" = [   "12"', '"12+" = [   "13"'),
    ("ramming", 'min_attack = 1', 'min_attack = 2'),
    ("rake", '"4"   = [   "12", "11-12", "10-12",  "9-12",  "8-12"]', '"4"   = ["12"]'),
    ("grappling", '"2" = "4-6"', '"2" = "4-5"'),
    ("boarding", 'attacker_on_capture = "9-12"', 'attacker_on_capture = "9-13"'),
    ("boarding", '"10+" = [', '"11+" = ['),
    ("missile", 'columns = ["0", "1-2", "3-4"', 'columns = ["0", "1-2", "4-4"'),
    ("missile", 'engines = 1 ', 'engines = "one" '),
    ("fatigue", 'anastrophe_row = "7A"', 'anastrophe_row = "7B"'),
    ("grapple_disengage", 'max_mp_cost = 2', 'max_mp_cost = "2 MP"'),
    ("double_activation", '"6" = ["F", "F", "F", "F", "F"]', '"6" = ["F", "F", "F", "F", "S?"]'),
    ("orders_confusion", '"6" = { half_speed = true }', '"6" = { half_speed = "yes" }'),
    ("wind", '"12" = { strength = 2 }', '"13" = { strength = 2 }'),
    ("firefight", '"6" = { fire = "sunk", spreads = true }', '"6" = { fire = "smoke" }'),
    ("retraction", 'fouled = "7-12"', 'fouled = "seven"'),
    ("fixed", 'sinks = "6"', 'sinks = "7"'),
    ("fixed", 'ties = "reroll"', 'ties = "attacker"'),
    ("dice", 'two_d6 = "2-12"', 'two_d6 = 12'),
]


@pytest.mark.parametrize(("table", "old", "new"), MALFORMED)
def test_malformed_table_raises_an_error_naming_the_table(table: str, old: str, new: str) -> None:
    with pytest.raises(RulesDataError, match=f"table '{table}'"):
        ch.load_charts(replaced(old, new))


def test_missing_table_is_named() -> None:
    start = TEXT.index("[wind]")
    data = (TEXT[:start] + TEXT[TEXT.index("# ----", start):]).encode()
    data = data.replace(b'[wind.rows]', b'[windless.rows]')
    with pytest.raises(RulesDataError, match="wind"):
        ch.load_charts(data)


def test_error_names_the_key_that_is_wrong() -> None:
    with pytest.raises(RulesDataError, match=r"key 'rows\.1'"):
        ch.load_charts(replaced('"1"   = [ "8-12",  "7-12",  "6-12",  "5-12",  "4-12",  "3-12",', '"1"   = ['))


def test_toml_syntax_error_is_a_rules_data_error() -> None:
    with pytest.raises(RulesDataError, match="TOML syntax"):
        ch.load_charts(b"[ramming\n")


def test_non_utf8_is_a_rules_data_error() -> None:
    with pytest.raises(RulesDataError, match="UTF-8"):
        ch.load_charts(b"\xff\xfe")


def test_a_players_own_values_change_the_lookups() -> None:
    # docs/charts.md: a player with the printed cards substitutes a value;
    # the lookups use whatever charts they are given (no global state).
    own = ch.load_charts(replaced('"2" = "4-6"', '"2" = "3-6"'))
    assert ch.grapple_range(own, 2) == RollRange(3, 6)
    assert ch.grapple_range(CHARTS, 2) == RollRange(4, 6)


def test_comments_do_not_matter_but_values_do() -> None:
    assert ch.load_charts(TEXT.encode() + b"\n# a player's note\n") == CHARTS


# ---------------------------------------------------------------- against the counters


def test_every_counter_and_admiral_has_a_cell() -> None:
    """Every rating the project's counters and commanders print is on the charts."""
    manifest = pytest.importorskip("engine.war_galley.map_and_galleys.manifest")
    scenarios = Path(__file__).resolve().parents[4] / "scenarios" / "war_galley"
    counters = manifest.load_manifest((scenarios / "counters.toml").read_bytes())
    commanders = manifest.load_commanders((scenarios / "commanders.toml").read_bytes())
    lookups: list[tuple[str, object]] = []
    for key, r in counters.items():
        for side in (r.cruise, r.maximum):
            if side.ram_attack >= CHARTS.ramming.min_attack:
                lookups.append((f"{key} ram", lambda s=side: ch.ram_needed(CHARTS, s.ram_attack, s.ram_defense)))
        lookups.append((f"{key} rake", lambda r=r: ch.rake_needed(CHARTS, r.crew, r.crew)))
        lookups.append((f"{key} grapple", lambda r=r: ch.grapple_range(CHARTS, r.crew)))
        lookups.append((f"{key} fatigue", lambda r=r: ch.fatigue_result(CHARTS, r.crew, 1)))
        lookups.append((f"{key} missile", lambda r=r: ch.missile_column(CHARTS, r.manpower)))
        lookups.append((f"{key} boarding", lambda r=r: ch.boarding_needed(CHARTS, max(r.manpower, 1), r.manpower)))
    for sides in commanders.rosters.values():
        for roster in sides.values():
            for c in roster:
                if c.initiative is not None:
                    lookups.append((c.name, lambda c=c: ch.double_activation(CHARTS, c.initiative, 1)))
    assert len(lookups) > 100
    missing = []
    for what, lookup in lookups:
        try:
            lookup()  # type: ignore[operator]
        except RulesDataError as exc:
            missing.append(f"{what}: {exc}")
    assert missing == []
