"""Anastrophe (7.3) and 7.35's example: B at 1818-1917, the attacker at 1619-1519, placed at 1916-1915."""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrder
from engine.war_galley.galley_combat.anastrophe import Placed, Route, anastrophe_refusal, route, turn_around_hexes
from engine.war_galley.galley_combat.combat_record import CombatRecord
from engine.war_galley.galley_combat.combat_steps import PlanEnd
from engine.war_galley.galley_combat.ramming import RamMissed, RamResult
from engine.war_galley.map_and_galleys.board import OPEN_SEA
from engine.war_galley.map_and_galleys.hexes import SINGLE_SHEET
from engine.war_galley.map_and_galleys.position import Side, parse_position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.moving import Refused
from tests.engine.war_galley.combat_support import CHARTS, fleet, gid, of, play, rolls, ship, where

MAX = SpeedSide.MAXIMUM


def hexes(*numbers: str) -> frozenset:
    return frozenset(SINGLE_SHEET.parse(n) for n in numbers)


def example(**attacker: object):
    """7.35: B 1818-1917 in a line abreast with 1717-1817, A 1819-1918 and 1919-2019."""
    attacker.setdefault("speed", MAX)
    attacker.setdefault("asterisk", True)
    return fleet(
        ship("G3-9", "1619-1519", **attacker),
        ship("R5-2", "1818-1917"),  # B
        ship("R5-1", "1819-1918"),  # A
        ship("R5-3", "1717-1817"),
        ship("R5-4", "1919-2019"),
    )


def test_7_35_turn_around_hexes_and_placement() -> None:
    field = example()
    found = route(field, field[gid("G3-9")], field[gid("R5-2")], Side.PORT)
    assert isinstance(found, Route)
    assert found.pass_through and found.rake_side is Side.PORT  # between B and A
    assert found.placement == parse_position("1916-1915")
    assert found.turn_around == hexes("2017", "1916", "2018", "1915")
    assert turn_around_hexes(parse_position("1818-1917"), found.placement) == found.turn_around


def test_7_35_the_whole_anastrophe() -> None:
    galleys, events, outcome, dice = play("G3-9 max 6: A:R5-2:P", example(), [6, 6, 4, 4])
    attacker, b = galleys[gid("G3-9")], galleys[gid("R5-2")]
    assert b.crippled == {Side.PORT}  # raked on the side toward A
    assert of(events, Placed)[0].position == parse_position("1916-1915")
    ram = rolls(events, "Ramming Table")[0]
    # Maximum 6 over Cruise 4: +2 (no turn counted); the rake crippled B: +1.
    assert dict(ram.modifiers) == {"7.15 2 MP over Cruise Speed": 2, "7.15 target Crippled, Fouled or Grappled": 1}
    assert b.rammed and outcome.end is PlanEnd.ANASTROPHE and outcome.ram is RamResult.RETRACTED
    assert attacker.fatigue == 2 and attacker.speed is SpeedSide.CRUISE  # Crew 3, row 7A
    assert where(attacker) == "1915-1914"  # Retracted one hex straight back
    assert outcome.record.turn_around_hexes == hexes("2017", "1916", "2018", "1915")
    assert {gid("G3-9")} == outcome.record.anastrophes == outcome.record.ram_attempts == outcome.record.rake_attempts
    assert attacker.moved is not None and attacker.moved.spent == 6 and dice.unused == []


def test_a_failed_rake_costs_one_on_the_ram() -> None:
    _, events, _, _ = play("G3-9 max 6: A:R5-2:P", example(), [1, 1, 6, 6])
    ram = rolls(events, "Ramming Table")[0]
    assert dict(ram.modifiers) == {"7.15 2 MP over Cruise Speed": 2, "7.35 Anastrophe after a failed Rake": -1}


def test_7_36_crew_2_gets_f3() -> None:
    galleys, *_ = play("G3-9 max 6: A:R5-2:P", example(crew=2), [1, 1, 1, 1])
    assert galleys[gid("G3-9")].fatigue == 3


def test_only_asterisked_galleys_at_maximum_as_the_sole_manoeuvre() -> None:
    with pytest.raises(IllegalOrder) as caught:
        play("G3-9 max 6: A:R5-2:P", example(asterisk=False))
    assert caught.value.rule == "7.31"
    field = example(speed=SpeedSide.CRUISE)
    with pytest.raises(IllegalOrder) as caught:
        play("G3-9 cruise 4: A:R5-2:P", field)
    assert caught.value.rule == "7.31"
    with pytest.raises(IllegalOrder) as caught:
        play("G3-9 max 6: F A:R5-2:P", example())
    assert "sole manoeuvre" in str(caught.value)
    with pytest.raises(IllegalOrder) as caught:
        play("G3-9 max 5: A:R5-2:P", example())
    assert "announce 6" in str(caught.value)


def test_the_turn_around_hexes_must_be_empty() -> None:
    field = example()
    blocker = ship("R3-8", "1915/0")
    field[blocker.id] = blocker
    with pytest.raises(IllegalOrder) as caught:
        play("G3-9 max 6: A:R5-2:P", field)
    assert caught.value.rule == "7.34" and "1915" in str(caught.value)


def test_a_friendly_anastrophe_this_phase_closes_its_turn_around_hexes() -> None:
    record = CombatRecord(turn_around_hexes=hexes("2018"))
    refusal = anastrophe_refusal(OPEN_SEA, example(), example()[gid("G3-9")], gid("R5-2"), CHARTS, record, side=Side.PORT)
    assert isinstance(refusal, tuple) and refusal[0] == "7.34" and "this phase" in refusal[1]


def test_the_approach_must_be_head_on_from_the_bow() -> None:
    field = example()
    field[gid("G3-9")] = ship("G3-9", "1619-1620", speed=MAX, asterisk=True)  # pointing elsewhere
    with pytest.raises(IllegalOrder) as caught:
        play("G3-9 max 6: A:R5-2:P", field)
    assert caught.value.rule == "7.32"
    field[gid("G3-9")] = ship("G3-9", "1519-1420", speed=MAX, asterisk=True)  # three hexes off
    with pytest.raises(IllegalOrder) as caught:
        play("G3-9 max 6: A:R5-2:P", field)
    assert caught.value.rule == "7.32"


def test_an_adjacent_rake_from_a_bow_flank_hex_on_an_open_flank() -> None:
    """A lone target 3015-3016 (facing up); the attacker in its starboard Bow/Flank hex 3114, facing down,
    sweeps into 3115 raking the starboard side and is placed at the port Stern/Flank hex 2916."""
    target = ship("R5-1", "3015-3016")
    attacker = ship("G3-9", "3114-3113", speed=MAX, asterisk=True)
    field = fleet(attacker, target)
    found = route(field, attacker, target)
    assert not found.pass_through and found.rake_side is Side.STARBOARD
    assert found.placement.bow == SINGLE_SHEET.parse("2916")
    galleys, events, outcome, _ = play("G3-9 max 6: A:R5-1", field, [6, 6, 1, 1])
    assert galleys[gid("R5-1")].crippled == {Side.STARBOARD}
    assert outcome.ram is RamResult.COLLIDED and galleys[gid("G3-9")].half_speed
    assert galleys[gid("G3-9")].fatigue == 2


def test_within_two_hexes_of_the_bow() -> None:
    target = ship("R5-1", "3015-3016")
    attacker = ship("G3-9", "3113-3112", speed=MAX, asterisk=True)  # one hex beyond the Bow/Flank hex 3114
    found = route(fleet(attacker, target), attacker, target)
    assert not found.pass_through and found.rake_side is Side.STARBOARD
    assert SINGLE_SHEET.parse("3114") in found.swept


def test_the_target_may_avoid_the_sting() -> None:
    target = ship("R5-1", "3015-3016")
    attacker = ship("G3-9", "3114-3113", speed=MAX, asterisk=True)
    galleys, events, outcome, dice = play("G3-9 max 6: A:R5-1", fleet(attacker, target), [1, 1, 1],
                                          red="default: avoid=adjacent by=forward")
    assert of(events, RamMissed) and outcome.ram is None and dice.unused == []
    assert where(galleys[gid("R5-1")]) == "3014-3015"
    assert galleys[gid("G3-9")].fatigue == 2  # 7.36: regardless of success


def test_7_35_b_is_the_only_one_of_the_pair_with_its_turn_around_hexes_open() -> None:
    """7.35's example: "given the configuration of the target line, galley 'B' is the only target galley
    which has the required Turn Around hexes open": approached the same way, A's (1819-1918) hold B and the
    galley beyond it, whichever side it is raked on."""
    field = example()
    field[gid("G3-9")] = ship("G3-9", "1620-1520", speed=MAX, asterisk=True)  # two hexes off A's bow, head-on
    for side in Side:
        refusal = anastrophe_refusal(OPEN_SEA, field, field[gid("G3-9")], gid("R5-1"), CHARTS, side=side)
        assert isinstance(refusal, Refused) and refusal.rule == "7.34", (side, refusal)
    field = example()
    assert isinstance(anastrophe_refusal(OPEN_SEA, field, field[gid("G3-9")], gid("R5-2"), CHARTS, side=Side.PORT),
                      Route)
