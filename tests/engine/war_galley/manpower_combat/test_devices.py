"""Scenario devices: Corvus, Harpax (with the Naulochus example), flame and fire settings (engine.war_galley.manpower_combat.devices)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.battles.scenario_files import builtin_scenarios
from engine.war_galley.manpower_combat.devices import (
    CorvusRule,
    Device,
    Devices,
    HarpaxRule,
    corvus_applies,
    devices_for,
    flame_capable,
    harpax_range,
    ignition_range,
)
from engine.war_galley.manpower_combat.grappling import (
    HarpaxPulled,
    attempt_grapple,
    check_grapple,
    grapple_options,
)
from engine.war_galley.manpower_combat.manpower_orders import GrappleOrder
from engine.war_galley.map_and_galleys.charts import RollRange
from engine.war_galley.map_and_galleys.galley import Colour, Equipment
from engine.war_galley.map_and_galleys.position import format_position, parse_position
from engine.war_galley.movement.speed import maximum_barred
from tests.engine.war_galley.manpower_support import field, gid, ship

FIVER = ship("G5-1", "2118-2219", crew=2)  # Agrippa's fiver, Crew 2
CAT3 = ship("Rcat3-1", "2117-2017")  # heading the opposite way
HARPAX = Devices(harpax=HarpaxRule(), harpax_galleys=frozenset({FIVER.id}))


def scenario(key: str):
    (found,) = [s for s in builtin_scenarios() if s.key == key]
    return found


# ---------------------------------------------------------------- Harpax


@pytest.mark.parametrize(
    "liburnian, pulled",
    [
        ("2217-2317", "2218-2318"),  # the book's numbers read bow first (geometry.md)
        ("2317-2217", "2318-2218"),  # "heading in the opposite direction", as the text says
    ],
)
def test_naulochus_harpax_example(liburnian: str, pulled: str) -> None:
    """Crew 2 needs 4-6, +1 for the Harpax at two hexes: a DR of 3-6 grapples; the Liburnian
    is then pulled sideways to 2218-2318."""
    lib = ship("RL2-1", liburnian)
    battle = field(FIVER, lib, CAT3, devices=HARPAX)
    option = check_grapple(battle, GrappleOrder(FIVER.id, lib.id))
    assert option.distance == 2 and option.device is Device.HARPAX
    assert option.modifiers == (("Harpax at two hexes", 1),)
    assert str(option.needed) == "4-6"
    assert [format_position(p) for p in option.pulls] == [pulled]
    fails, line = attempt_grapple(battle, GrappleOrder(FIVER.id, lib.id), ForcedDice(2))
    assert line is None and fails.galleys[lib.id].position == lib.position
    res, line = attempt_grapple(battle, GrappleOrder(FIVER.id, lib.id), ForcedDice(3))
    assert line is not None and line.device is Device.HARPAX
    moved = res.galleys[lib.id]
    assert format_position(moved.position) == pulled
    assert moved.grappled_with == {FIVER.id} and res.galleys[FIVER.id].grappled_with == {lib.id}
    assert any(isinstance(e, HarpaxPulled) for e in res.events)


def test_harpax_adjacent_adds_two_and_crew_3_always_grapples() -> None:
    three = replace(FIVER, ratings=replace(FIVER.ratings, crew=3))
    same_way = ship("Rcat3-1", "2017-2117")  # adjacent, same heading: no other DRM
    battle = field(three, same_way, devices=HARPAX)
    option = check_grapple(battle, GrappleOrder(three.id, same_way.id))
    assert option.distance == 1 and option.modifiers == (("Harpax adjacent", 2),)
    assert attempt_grapple(battle, GrappleOrder(three.id, same_way.id), ForcedDice(1))[1] is not None


def test_without_a_harpax_two_hexes_is_out_of_reach() -> None:
    lib = ship("RL2-1", "2217-2317")
    with pytest.raises(IllegalOrder) as err:
        check_grapple(field(FIVER, lib), GrappleOrder(FIVER.id, lib.id))
    assert err.value.rule == "8.11"


def test_the_harpax_line_may_not_pass_through_a_ship() -> None:
    lib = ship("RL2-1", "2217-2317")
    # With the cat3 in 2117, the hexes between are 2218 and 2318: fill both.
    battle = field(FIVER, lib, CAT3, ship("G3-4", "2218/0"), ship("G3-5", "2318/0"), devices=HARPAX)
    assert harpax_range(HARPAX, FIVER, lib, field(FIVER, lib, CAT3, ship("G3-4", "2218/0")).occupied()) == 2
    assert harpax_range(HARPAX, FIVER, lib, battle.occupied()) is None
    assert all(o.target != lib.id for o in grapple_options(battle, FIVER.id))


def test_the_harpax_needs_the_targets_flank() -> None:
    """Straight down a line of hexes: into the target's bow hexside it fails, into a flank it reaches."""
    grappler = ship("G4-1", "2010/1")  # its Stern/Flank hexside faces 2011
    devices = Devices(harpax=HarpaxRule(), harpax_galleys=frozenset({grappler.id}))
    bow_on = ship("R4-2", "2012/0")
    flank_on = ship("R4-2", "2012/1")
    assert harpax_range(devices, grappler, bow_on, field(grappler, bow_on).occupied()) is None
    assert harpax_range(devices, grappler, flank_on, field(grappler, flank_on).occupied()) == 2


def test_no_room_to_pull_means_no_harpax_attempt_at_two_hexes() -> None:
    lib = ship("RL2-1", "2217-2317")
    squatter = ship("G3-4", "2318/0")  # fills half of the only free pull place (the cat3 holds 2117)
    battle = field(FIVER, lib, CAT3, squatter, devices=HARPAX)
    assert any(o.target == lib.id for o in grapple_options(field(FIVER, lib, CAT3, devices=HARPAX), FIVER.id))
    assert all(o.target != lib.id for o in grapple_options(battle, FIVER.id))


def test_a_choice_of_pulls_must_be_named() -> None:
    grappler = ship("G5-1", "2010-2011")
    target = ship("R5-2", "2210-2211")  # two hexes to starboard, parallel
    devices = Devices(harpax=HarpaxRule(), harpax_galleys=frozenset({grappler.id}))
    battle = field(grappler, target, devices=devices)
    (option,) = grapple_options(battle, grappler.id)
    assert option.distance == 2 and len(option.pulls) > 1
    with pytest.raises(IllegalOrder):
        attempt_grapple(battle, GrappleOrder(grappler.id, target.id), ForcedDice(6))
    with pytest.raises(IllegalOrder):
        check_grapple(battle, GrappleOrder(grappler.id, target.id, parse_position("2410-2411")))
    chosen = option.pulls[-1]
    res, _ = attempt_grapple(battle, GrappleOrder(grappler.id, target.id, chosen), ForcedDice(6))
    assert res.galleys[target.id].position == chosen


# ---------------------------------------------------------------- Corvus


CORVUS = Devices(corvus=CorvusRule())
ROMAN = ship("R5-8", "2010-2011", equipment=Equipment(corvus=True))


def test_corvus_adds_two_when_its_bow_flank_hexside_is_shared() -> None:
    target = ship("G5-1", "2109-2110")  # against the Roman's bow/flank hexside
    battle = field(ROMAN, target, devices=CORVUS)
    assert corvus_applies(CORVUS, ROMAN, target)
    (option,) = grapple_options(battle, ROMAN.id)
    assert option.device is Device.CORVUS and dict(option.modifiers) == {"Corvus": 2}


def test_no_corvus_bonus_along_the_midships() -> None:
    target = ship("G5-1", "2111-2112")  # touches only the Roman's midship and stern flank
    battle = field(ROMAN, target, devices=CORVUS)
    assert not corvus_applies(CORVUS, ROMAN, target)
    (option,) = grapple_options(battle, ROMAN.id)
    assert option.device is None


def test_corvus_galleys_never_use_maximum_speed() -> None:
    assert maximum_barred(ROMAN) is not None


def test_corvus_by_the_scenario_list() -> None:
    trireme = ship("R3-31", "2010-2011")
    target = ship("G5-1", "2109-2110")
    assert not corvus_applies(CORVUS, trireme, target)  # "does not apply to the Roman triremes"
    listed = replace(CORVUS, corvus_galleys=frozenset({trireme.id}))
    assert corvus_applies(listed, trireme, target)


# ---------------------------------------------------------------- from the scenarios


def test_naulochus_devices() -> None:
    devices = devices_for(scenario("naulochus"))
    assert devices.harpax == HarpaxRule(range=2, grapple_drm_adjacent=2, grapple_drm_range_2=1,
                                        target_disengage_drm=-2, pull=True)
    assert gid("G5-1") in devices.harpax_galleys or gid("R5-1") in devices.harpax_galleys
    assert not any(g.type.value in ("L2", "cat3") for g in devices.harpax_galleys)
    assert devices.no_fire and not devices.flame_galleys


def test_naulochus_optional_flame() -> None:
    devices = devices_for(scenario("naulochus"), {"flame": "on"})
    assert not devices.no_fire
    assert {g.type.value for g in devices.flame_galleys} == {"cat3", "4", "5"}


def test_tauris_wet_fire() -> None:
    devices = devices_for(scenario("tauris"))
    assert devices.flame_ignites == RollRange(5, 6) and devices.firefight_drm == -1
    assert ignition_range(devices, RollRange(4, 6)) == RollRange(5, 6)
    assert len(devices.flame_galleys) == 2 + 4 + 2


def test_actium_flame_throwers_and_no_height_advantage() -> None:
    devices = devices_for(scenario("actium"))
    assert devices.flame_throwers in (Colour.RED, Colour.GREEN)
    assert not devices.height_advantage
    assert devices.flame_galleys


def test_flame_capability_is_lost_with_the_towers() -> None:
    g = ship("G5-1", "2010-2011", towers=True)
    devices = Devices(flame_galleys=frozenset({g.id}))
    assert flame_capable(devices, g)
    assert not flame_capable(devices, replace(g, towers_jettisoned=True))
    assert not flame_capable(replace(devices, no_fire=True), g)


def test_ecnomus_corvus() -> None:
    devices = devices_for(scenario("ecnomus"))
    assert devices.corvus == CorvusRule(grapple_drm=2, enemy_disengage_drm=-2, own_disengage_drm=-1)
    assert len(devices.corvus_galleys) == 22
    assert all(g.type.value == "5" for g in devices.corvus_galleys)


def test_myonessus_firepots_not_flame() -> None:
    devices = devices_for(scenario("myonessus"))
    assert len(devices.firepot_galleys) == 7
    assert all(g.type.value == "cat3" for g in devices.firepot_galleys)
    assert not devices.firepot_galleys & devices.flame_galleys
