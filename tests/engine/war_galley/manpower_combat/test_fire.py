"""Fire (8.5): the F roll, Firepots, the Firefight in G/2 with spread and sinking (engine.war_galley.manpower_combat.fire)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import DiceExhausted, ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.manpower_combat.devices import Devices
from engine.war_galley.manpower_combat.fire import (
    FireOut,
    SankByFire,
    SetOnFire,
    drop_firepots,
    firefight,
    flame_range,
    roll_flame,
)
from engine.war_galley.map_and_galleys.charts import RollRange
from engine.war_galley.map_and_galleys.galley import Colour, Removal
from tests.engine.war_galley.manpower_support import field, gid, link, ship

RHODIAN = ship("Gcat3-26", "2010-2011")
SYRIAN = ship("R5-83", "2110-2111")
POTS = Devices(firepot_galleys=frozenset({RHODIAN.id}))
BURNING = replace(SYRIAN, on_fire=True)


# ---------------------------------------------------------------- Firepots (8.53)


def test_firepots_set_the_target_on_fire_on_5_or_6() -> None:
    res = drop_firepots(field(RHODIAN, SYRIAN, devices=POTS), RHODIAN.id, SYRIAN.id, ForcedDice(5))
    assert res.galleys[SYRIAN.id].on_fire
    assert isinstance(res.events[-1], SetOnFire) and res.events[-1].cause == "firepots"
    miss = drop_firepots(field(RHODIAN, SYRIAN, devices=POTS), RHODIAN.id, SYRIAN.id, ForcedDice(4))
    assert not miss.galleys[SYRIAN.id].on_fire


def test_only_firepot_armed_galleys_drop_them() -> None:
    with pytest.raises(IllegalOrder) as err:
        drop_firepots(field(RHODIAN, SYRIAN), RHODIAN.id, SYRIAN.id, ForcedDice(6))
    assert err.value.rule == "8.53"
    with pytest.raises(IllegalOrder):
        drop_firepots(field(RHODIAN, SYRIAN, devices=replace(POTS, no_fire=True)), RHODIAN.id, SYRIAN.id,
                      ForcedDice(6))


# ---------------------------------------------------------------- the F roll (8.51)


@pytest.mark.parametrize("devices, roll, lit", [
    (Devices(), 4, True), (Devices(), 3, False),
    (Devices(flame_ignites=RollRange(5, 6)), 4, False), (Devices(flame_ignites=RollRange(5, 6)), 5, True),
])
def test_the_f_roll(devices: Devices, roll: int, lit: bool) -> None:
    battle = field(SYRIAN, devices=devices)
    assert roll_flame(battle, SYRIAN, ForcedDice(roll))[0] is lit
    assert flame_range(battle).high == 6


# ---------------------------------------------------------------- the Firefight (8.54)


def test_a_low_roll_puts_the_fire_out() -> None:
    res = firefight(field(BURNING), ForcedDice(1))
    assert not res.galleys[SYRIAN.id].on_fire and isinstance(res.events[-1], FireOut)


def test_a_3_burns_on_without_spreading() -> None:
    burning, partner = link(BURNING, RHODIAN)
    res = firefight(field(burning, partner), ForcedDice(3))
    assert res.galleys[SYRIAN.id].on_fire and not res.galleys[RHODIAN.id].on_fire


@pytest.mark.parametrize("kind", ["grappled_with", "fouled_with"])
def test_fire_spreads_to_grappled_or_fouled_galleys_who_wait_a_phase(kind: str) -> None:
    burning, partner = link(BURNING, RHODIAN, kind)
    bystander = ship("G5-5", "2210-2211")
    dice = ForcedDice(4)  # only the galley burning before G/2 rolls
    res = firefight(field(burning, partner, bystander), dice)
    assert res.galleys[RHODIAN.id].on_fire and not res.galleys[bystander.id].on_fire
    assert dice.unused == []
    # next G/2 both roll
    with pytest.raises(DiceExhausted):
        firefight(field(*res.galleys.values()), ForcedDice(3))


def test_a_galley_that_put_its_fire_out_catches_it_again_from_its_partner() -> None:
    a, b = link(BURNING, replace(RHODIAN, on_fire=True))
    res = firefight(field(a, b), ForcedDice(1, 4))  # Gcat3-26 rolls 1 (out), R5-83 rolls 4 (spreads)
    assert res.galleys[RHODIAN.id].on_fire
    assert not any(isinstance(e, FireOut) for e in res.events)


def test_a_6_sinks_her_the_fire_spreads_and_her_partners_are_cut_loose() -> None:
    burning, partner = link(BURNING, RHODIAN)
    res = firefight(field(burning, partner), ForcedDice(6))
    sunk = res.galleys[SYRIAN.id]
    assert sunk.position is None and sunk.removed is Removal.SUNK and not sunk.on_fire
    assert res.galleys[RHODIAN.id].grappled_with == frozenset() and res.galleys[RHODIAN.id].on_fire
    (event,) = [e for e in res.events if isinstance(e, SankByFire)]
    assert event.controller is Colour.RED and event.partners == {RHODIAN.id}


def test_tauris_rain_subtracts_one() -> None:
    wet = Devices(firefight_drm=-1)
    res = firefight(field(BURNING, devices=wet), ForcedDice(6))
    assert res.galleys[SYRIAN.id].position is not None and res.galleys[SYRIAN.id].on_fire
    assert res.events[0].modifiers == (("scenario", -1),)


def test_only_the_galleys_asked_for_roll() -> None:
    other = replace(ship("G5-5", "2210-2211"), on_fire=True)
    dice = ForcedDice(1)
    res = firefight(field(BURNING, other), dice, galleys=[gid("G5-5")])
    assert not res.galleys[other.id].on_fire and res.galleys[SYRIAN.id].on_fire
