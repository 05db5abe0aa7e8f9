"""Ramming (7.1): eligibility, the Ramming Table, every DRM of 7.15, the results of 7.16."""

from __future__ import annotations

import pytest

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.events import DieRolled
from engine.war_galley.galley_combat.combat_record import CombatRecord
from engine.war_galley.galley_combat.combat_steps import PlanEnd
from engine.war_galley.galley_combat.ramming import (
    RamMissed,
    RamResolved,
    RamResult,
    Retracted,
    Retreat,
    ram_geometry,
    ram_modifiers,
    ram_refusal,
    resolve_ram,
)
from engine.war_galley.map_and_galleys.board import OPEN_SEA
from engine.war_galley.map_and_galleys.charts import ram_range
from engine.war_galley.map_and_galleys.galley import Aground, End
from engine.war_galley.map_and_galleys.position import Side, parse_position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.moving import Refused
from tests.engine.war_galley.combat_support import CHARTS, at, behind, fleet, gid, of, play, rolls, ship, where

MAX = SpeedSide.MAXIMUM
TARGET = "3015-3016"  # bow 3015 facing up: flank hexes 3114 3115 3116 (starboard), 2914 2915 2916 (port)
FROM_STARBOARD_FLANK = "3115-3216"  # bow 3115 pointing at 3015


def target(**kw: object):
    kw.setdefault("defense", 7)
    return ship("R5-1", TARGET, **kw)


def rammer(where_: str = FROM_STARBOARD_FLANK, **kw: object):
    return ship("G5-1", where_, **kw)


def ram_once(r, t, *faces: int, record: CombatRecord = CombatRecord(), **kw: object):
    dice = ForcedDice(*faces)
    result = resolve_ram(OPEN_SEA, fleet(r, t), r.id, t.id, CHARTS, dice, record, **kw)
    assert dice.unused == []
    return result


# --- 7.14: the table ---


def test_7_14_attack_6_against_defense_7_needs_10_to_12() -> None:
    assert str(ram_range(CHARTS, 6, 7)) == "10-12"
    assert ram_once(rammer(), target(), 4, 5).result is RamResult.COLLIDED  # 9
    assert ram_once(rammer(), target(), 4, 6).result is not RamResult.COLLIDED  # 10


def test_7_14_a_crippled_target_makes_the_9_a_10() -> None:
    done = ram_once(rammer(), target(crippled=frozenset({Side.PORT})), 4, 5)
    assert done.result is not RamResult.COLLIDED
    roll = rolls(done.events, "Ramming Table")[0]
    assert (roll.natural, roll.adjusted) == (9, 10)


def test_the_side_in_use_gives_the_ratings() -> None:
    r = rammer(attack=8, cruise_attack=4)  # at Cruise: Attack 4 against Defense 7 needs 12
    assert ram_once(r, target(), 5, 6).result is RamResult.COLLIDED
    assert ram_once(r, target(), 6, 6).result is not RamResult.COLLIDED


# --- 7.12: geometry ---


@pytest.mark.parametrize("where_", ["3114-3214", "3115-3216", "3115-3215", "3116-3217", "2914-2814", "2915-2816", "2915-2815", "2916-2817"])
def test_a_galley_rams_from_any_flank_hex_pointing_at_the_target(where_: str) -> None:
    r = parse_position(where_)
    assert ram_geometry(r, parse_position(TARGET)) is None, where_


def test_never_from_the_bow_or_stern_hex() -> None:
    t = parse_position(TARGET)
    for where_ in ("3014-3013", "3017-3018"):  # bow hex facing down at it; stern hex facing up at it
        refusal = ram_geometry(parse_position(where_), t)
        assert refusal is not None and refusal.rule == "7.12" and "flank hex" in refusal.reason


def test_the_bow_must_point_at_the_target() -> None:
    refusal = ram_geometry(parse_position("3115-3114"), parse_position(TARGET))  # alongside, facing down
    assert refusal is not None and "point" in refusal.reason


def test_a_single_hex_target_from_its_flank() -> None:
    single = parse_position("3015/0")
    assert ram_geometry(parse_position("3114/4"), single) is None  # bow/flank hex, pointing
    assert ram_geometry(parse_position("3115-3216"), single) is None  # stern/flank hex, pointing
    assert ram_geometry(parse_position("3016-3017"), single) is not None  # its stern hex


# --- 7.11, 7.13, 6.36, 6.37: who may not ---


@pytest.mark.parametrize(
    ("changes", "rule", "words"),
    [
        ({"attack": 0, "cruise_attack": 0}, "7.11", "Ram Attack of 0"),
        ({"crippled": frozenset({Side.PORT})}, "7.13", "Crippled"),
        ({"fatigue": 2}, "7.13", "Fatigued"),
        ({"half_speed": True}, "7.13", "Half Speed"),
        ({"fouled_with": frozenset({gid("R5-9")})}, "6.37", "Fouled"),
    ],
)
def test_galleys_that_may_not_ram(changes: dict, rule: str, words: str) -> None:
    refusal = ram_refusal(CHARTS, rammer(**changes), target(), CombatRecord())
    assert refusal is not None and refusal.rule == rule and words in refusal.reason


def test_one_ram_attempt_per_turn() -> None:
    record = CombatRecord(ram_attempts=frozenset({gid("G5-1")}))
    refusal = ram_refusal(CHARTS, rammer(), target(), record)
    assert refusal == Refused("7.11", "G5-1 has already made its one Ram attempt this turn")


def test_no_ram_after_a_facing_change_that_turn() -> None:
    assert ram_refusal(CHARTS, rammer(), target(), CombatRecord(), faced=True).rule == "7.12"  # type: ignore[union-attr]
    record = CombatRecord(faced=frozenset({gid("G5-1")}))
    assert ram_refusal(CHARTS, rammer(), target(), record).rule == "7.12"  # type: ignore[union-attr]


def test_aground_and_friendly_galleys_may_not_be_rammed() -> None:
    aground = target(aground=Aground(End.BOW, 1))
    assert ram_refusal(CHARTS, rammer(), aground, CombatRecord()).rule == "6.36"  # type: ignore[union-attr]
    friend = ship("G5-2", TARGET)
    assert ram_refusal(CHARTS, rammer(), friend, CombatRecord()).rule == "7.1"  # type: ignore[union-attr]


def test_an_ineligible_ram_is_refused_before_any_die() -> None:
    with pytest.raises(IllegalOrder) as caught:
        resolve_ram(OPEN_SEA, fleet(rammer(fatigue=2), target()), gid("G5-1"), gid("R5-1"), CHARTS, ForcedDice())
    assert caught.value.rule == "7.13"


# --- 7.15: every DRM ---


def mods(r, t, **kw: object) -> dict[str, int]:
    return {why.split(" ", 1)[1]: value for why, value in ram_modifiers(CHARTS, r, t, **kw)}


def test_each_mp_over_cruise_adds_one() -> None:
    assert mods(rammer(cruise=5), target(), mp_used=7) == {"2 MP over Cruise Speed": 2}
    assert mods(rammer(cruise=5), target(), mp_used=5) == {}


def test_the_mp_bonus_needs_at_most_one_turn() -> None:
    assert mods(rammer(), target(), mp_used=6, turns=1) == {"2 MP over Cruise Speed": 2}
    assert mods(rammer(), target(), mp_used=6, turns=2) == {}


@pytest.mark.parametrize("status", [{"crippled": frozenset({Side.PORT})}, {"fouled_with": frozenset({gid("G5-9")})},
                                    {"grappled_with": frozenset({gid("G5-9")})}])
def test_target_crippled_fouled_or_grappled(status: dict) -> None:
    assert mods(rammer(), target(**status)) == {"target Crippled, Fouled or Grappled": 1}


def test_target_mobile_and_slowed() -> None:
    assert mods(rammer(), target(half_speed=True)) == {"target mobile and at Half Speed or Fatigued": 1}
    assert mods(rammer(), target(fatigue=2)) == {"target mobile and at Half Speed or Fatigued": 1}
    # Immobile (Grappled) at Half Speed: only the Grappled +1.
    assert mods(rammer(), target(half_speed=True, grappled_with=frozenset({gid("G5-9")}))) == {
        "target Crippled, Fouled or Grappled": 1}


def test_crews_and_speed_and_towers() -> None:
    assert mods(rammer(crew=4), target(crew=3)) == {"rammer's Crew is better": 1}
    assert mods(rammer(crew=2), target(crew=3)) == {"target's Crew is better": -1}
    assert mods(rammer(), target(speed=MAX)) == {"target at Maximum Speed": -1}
    assert mods(rammer(towers=True), target()) == {"rammer has Towers": -1}
    assert mods(rammer(towers=True, towers_jettisoned=True), target()) == {}


def test_anastrophe_and_reaction_ram_penalties() -> None:
    assert mods(rammer(), target(), failed_anastrophe_rake=True) == {"Anastrophe after a failed Rake": -1}
    assert mods(rammer(), target(), drew_reaction_ram=True) == {"drew a Defensive Reaction Ram this phase": -1}


def test_the_modifiers_reach_the_roll() -> None:
    record = CombatRecord(drew_reaction_ram=frozenset({gid("G5-1")}))
    done = ram_once(rammer(crew=4), target(crew=3), 5, 5, record=record, mp_used=6)
    roll = rolls(done.events, "Ramming Table")[0]
    assert roll.adjusted == 10 + 2 + 1 - 1


# --- 7.16: results ---


def test_collision() -> None:
    r, t = rammer(speed=MAX, sails_up=False), target(speed=MAX, sails_up=True)
    field, events, result, record = ram_once(r, t, 1, 1)
    assert result is RamResult.COLLIDED and gid("G5-1") in record.ram_attempts
    rr, tt = field[r.id], field[t.id]
    assert rr.speed is tt.speed is SpeedSide.CRUISE
    assert rr.half_speed and not tt.half_speed
    assert rr.collided_with == {t.id} and not tt.rammed
    assert tt.mast_down and tt.masts_lost and not tt.sails_up  # 6.24
    assert of(events, RamResolved)[0].result is RamResult.COLLIDED


def test_7_16_retraction_with_crew_3() -> None:
    """The example: a natural 9 rams (crippled target); 9 - Crew 3 = 6, outside the Foul Range: Retracted."""
    r, t = rammer(crew=3, speed=MAX), target(crippled=frozenset({Side.PORT}))
    field, events, result, _ = ram_once(r, t, 4, 5)
    assert result is RamResult.RETRACTED
    assert field[t.id].rammed and field[t.id].speed is SpeedSide.CRUISE
    assert field[r.id].speed is SpeedSide.CRUISE and not field[r.id].fouled_with
    retraction = rolls(events, "Retraction")[0]
    assert (retraction.natural, retraction.adjusted) == (9, 6)
    back = of(events, Retracted)[0]
    assert back.backwatered and where(field[r.id]) == behind(FROM_STARBOARD_FLANK, 1) == "3216-3316"


def test_retraction_into_a_stern_flank_hex_or_staying() -> None:
    r, t = rammer(), target(crippled=frozenset({Side.PORT}))
    field, *_ = ram_once(r, t, 4, 5, retreat=Retreat.PORT)
    assert field[r.id].position.bow == parse_position("3216-3316").bow  # the old stern becomes the bow
    assert where(field[r.id]) != "3216-3316"
    field, *_ = ram_once(r, t, 4, 5, retreat=Retreat.STAY)
    assert where(field[r.id]) == FROM_STARBOARD_FLANK


def test_retraction_stays_put_when_the_hex_behind_is_taken() -> None:
    r, t = rammer(), target(crippled=frozenset({Side.PORT}))
    blocker = ship("RL-2", "3316/0")
    field, events, result, _ = resolve_ram(OPEN_SEA, fleet(r, t, blocker), r.id, t.id, CHARTS, ForcedDice(4, 5))
    assert result is RamResult.RETRACTED and where(field[r.id]) == FROM_STARBOARD_FLANK
    assert not of(events, Retracted)[0].backwatered


def test_fouled() -> None:
    r, t = rammer(crew=3), target()
    field, events, result, _ = ram_once(r, t, 6, 6)  # 12 - 3 = 9: Foul Range
    assert result is RamResult.FOULED
    assert field[r.id].fouled_with == {t.id} and field[t.id].fouled_with == {r.id} and field[t.id].rammed


def test_firepots_roll_before_the_ram() -> None:
    seen: list[str] = []

    def firepots(field, rammer_id, target_id, dice):
        seen.append(f"{rammer_id}>{target_id} {dice.d6('8.53 firepots')}")
        return field, [DieRolled(rule="8.53", table="Firepots", natural=5)]

    done = ram_once(rammer(), target(), 5, 4, 6, firepots=firepots)
    assert seen == ["G5-1>R5-1 5"]
    assert [e.table for e in done.events if isinstance(e, DieRolled)][:2] == ["Firepots", "Ramming Table"]


# --- in a plan: the ram ends the movement and the 6.13 obligation ---


def test_a_ram_ends_movement_and_the_announced_mp() -> None:
    start = behind(FROM_STARBOARD_FLANK, 2)
    field = fleet(rammer(start, speed=MAX), target(fatigue=2))  # a Fatigued target cannot avoid
    galleys, events, outcome, dice = play("G5-1 max 6: F F R:R5-1", field, [6, 6])
    assert outcome.end is PlanEnd.RAMMED and outcome.spent == 2 and dice.unused == []
    assert galleys[gid("G5-1")].moved.spent == 2  # type: ignore[union-attr]
    assert rolls(events, "Ramming Table")[0].modifiers == (("7.15 target mobile and at Half Speed or Fatigued", 1),)


def test_a_ram_needs_the_steps_for_a_miss_when_the_target_may_avoid() -> None:
    start = behind(FROM_STARBOARD_FLANK, 2)
    with pytest.raises(IllegalOrder) as caught:
        play("G5-1 max 6: F F R:R5-1", fleet(rammer(start, speed=MAX), target()))
    assert caught.value.rule == "6.13" and "avoids" in str(caught.value)


def test_missed_by_avoidance_the_rammer_moves_on() -> None:
    start = behind(FROM_STARBOARD_FLANK, 2)
    field = fleet(rammer(start, speed=MAX), target())
    # R5-1 backwaters away when G5-1 comes adjacent (roll 1); the ram is Missed; F F F F follow.
    galleys, events, outcome, dice = play("G5-1 max 6: F F R:R5-1 F F F F", field, [1],
                                          red="default: avoid=adjacent by=back")
    assert of(events, RamMissed) and outcome.end is PlanEnd.COMPLETED and outcome.spent == 6
    assert gid("G5-1") not in outcome.record.ram_attempts  # a Missed ram is no attempt
    assert where(galleys[gid("R5-1")]) == "3016-3017" and dice.unused == []


def test_a_target_that_avoids_but_stays_in_line_is_rammed() -> None:
    """Reading: Avoidance is a one-hex move; if the rammer still points at the target from a flank hex
    (here its stern/flank after it rowed forward), the ram goes in."""
    start = behind(FROM_STARBOARD_FLANK, 2)
    field = fleet(rammer(start, speed=MAX), target())
    galleys, events, outcome, dice = play("G5-1 max 6: F F R:R5-1 F F F F", field, [1, 6, 6],
                                          red="default: avoid=adjacent by=forward")
    assert where(galleys[gid("R5-1")]) == "3014-3015" and galleys[gid("R5-1")].rammed
    assert outcome.end is PlanEnd.RAMMED and not of(events, RamMissed)


def test_7_15_under_sail_the_winds_mp_are_no_mp_over_cruise() -> None:
    """6.23: under sail a galley rams "at considerably reduced capability"; the sail's +1 MP adds no DRM."""
    from engine.war_galley.galley_combat.combat_record import CombatOptions
    from engine.war_galley.galley_combat.execute_plan import execute_plan
    from engine.war_galley.map_and_galleys.hexes import Direction
    from engine.war_galley.movement.speed import Wind
    from engine.war_galley.play.orders import parse_combat_order
    from tests.engine.war_galley.combat_support import orders

    sailing = ship("G5-1", "3010-3011", sails_up=True)  # facing row 00, the wind blowing that way: astern
    field = fleet(sailing, ship("R5-1", "3004-3104"))  # 6 hexes ahead, broadside on: 4 Cruise + 1 wind
    plan = parse_combat_order("G5-1 cruise 5: 5F R:R5-1")
    options = CombatOptions(wind=Wind(Direction(0), 2))
    _, events, _ = execute_plan(OPEN_SEA, field, plan, CHARTS, ForcedDice(6, 6, 1, 1, 1, 1), orders("", ""), options)
    ram = [e for e in events if isinstance(e, DieRolled) and e.rule == "7.14"]
    assert ram and not any("over Cruise" in why for why, _ in ram[0].modifiers)
