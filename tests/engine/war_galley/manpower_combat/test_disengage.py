"""Disengage (8.3): Grapple Disengage with its DRM and MP, Foul Disengage in G/1 (engine.war_galley.manpower_combat.disengage)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.manpower_combat.devices import CorvusRule, Device, Devices, HarpaxRule
from engine.war_galley.manpower_combat.disengage import (
    Disengaged,
    FoulFreed,
    foul_disengage,
    grapple_disengage,
    grapple_disengage_modifiers,
)
from engine.war_galley.manpower_combat.grappling import GrappleLine
from engine.war_galley.map_and_galleys.galley import Capture
from engine.war_galley.map_and_galleys.position import Side
from tests.engine.war_galley.manpower_support import field, gid, link, ship

A = ship("G5-1", "2110-2111", crew=3)
B = ship("R5-2", "2010-2011", crew=3)
C = ship("R5-3", "2210-2211", crew=3)


def pair(a=A, b=B):
    return link(a, b)


def drm(galley, partner, several=False, **kw) -> dict[str, int]:
    battle = field(galley, partner, devices=kw.pop("devices", Devices()))
    return dict(grapple_disengage_modifiers(battle, galley, partner, several=several, **kw))


def test_a_success_cuts_the_lines_and_costs_2_mp() -> None:
    a, b = pair()
    out = grapple_disengage(field(a, b), a.id, ForcedDice(3), mp_available=4)  # Crew 3: S on 3+
    assert out.free and out.mp_left == 2
    assert out.resolution.galleys[a.id].grappled_with == frozenset()
    assert out.resolution.galleys[b.id].grappled_with == frozenset()
    assert isinstance(out.resolution.events[-1], Disengaged)


def test_below_2_mp_a_galley_may_still_try_and_pays_all_it_has() -> None:
    a, b = pair()
    out = grapple_disengage(field(a, b), a.id, ForcedDice(6), mp_available=1)
    assert out.free and out.mp_left == 0
    assert out.resolution.events[-1].mp_cost == 1


def test_a_failure_leaves_it_grappled_and_unable_to_move() -> None:
    a, b = pair()
    out = grapple_disengage(field(a, b), a.id, ForcedDice(2), mp_available=4)
    assert not out.free and out.mp_left == 0
    assert out.resolution.galleys[a.id].grappled_with == {b.id}


def test_one_roll_for_each_galley_it_is_grappled_to() -> None:
    """8.32, 8.34: both attempts at the one cost; one cut, one held, so it stays."""
    a, b = pair()
    a, c = link(a, C)
    dice = ForcedDice(6, 1)  # B first (id order), then C
    out = grapple_disengage(field(a, b, c), a.id, dice, mp_available=4)
    assert dice.unused == [] and len(dice.rolls) == 2
    assert not out.free
    assert out.resolution.galleys[a.id].grappled_with == {c.id}
    assert out.resolution.galleys[b.id].grappled_with == frozenset()


def test_a_galley_not_grappled_has_nothing_to_disengage() -> None:
    with pytest.raises(IllegalOrder) as err:
        grapple_disengage(field(A, B), A.id, ForcedDice(6), mp_available=4)
    assert err.value.rule == "8.32"


# ---------------------------------------------------------------- the 8.32 DRM


def test_repulsed_a_boarding_this_turn() -> None:
    assert drm(A, B, repulsed_boarding=True) == {"repulsed a boarding this turn": 1}


def test_better_crew_only_against_a_single_galley() -> None:
    good = replace(A, ratings=replace(A.ratings, crew=4))
    assert drm(good, B) == {"better Crew": 1}
    assert drm(good, B, several=True) == {}


def test_controls_both_ships_and_better_crew_do_not_combine() -> None:
    good = replace(A, ratings=replace(A.ratings, crew=4))
    prize = replace(ship("R5-4", "2010-2011", crew=1), capture=Capture.CAPTURED)  # now Green's
    assert drm(good, prize) == {"controls both ships": 2}
    assert drm(A, prize, several=True) == {"controls both ships": 2}


@pytest.mark.parametrize("status", [{"crippled": frozenset({Side.PORT})}, {"fouled_with": frozenset({gid("R3-1")})}])
def test_crippled_or_fouled(status) -> None:
    assert drm(replace(A, **status), B) == {"Crippled or Fouled": -1}


def test_corvus_penalties() -> None:
    devices = Devices(corvus=CorvusRule())
    line = GrappleLine(B.id, A.id, Device.CORVUS)  # B's corvus holds A
    assert drm(A, B, lines=[line], devices=devices) == {"held by a Corvus": -2}
    assert drm(B, A, lines=[line], devices=devices) == {"own Corvus": -1}
    assert drm(A, B, lines=[GrappleLine(B.id, A.id)], devices=devices) == {}  # made without the Corvus


def test_harpax_penalty_for_the_target_only() -> None:
    devices = Devices(harpax=HarpaxRule())
    line = GrappleLine(B.id, A.id, Device.HARPAX)
    assert drm(A, B, lines=[line], devices=devices) == {"held by a Harpax": -2}
    assert drm(B, A, lines=[line], devices=devices) == {}


def test_the_drm_move_the_roll() -> None:
    """Held by a Harpax (-2): a Crew 3 needs a natural 5."""
    a, b = pair()
    devices = Devices(harpax=HarpaxRule())
    line = GrappleLine(b.id, a.id, Device.HARPAX)
    held = grapple_disengage(field(a, b, devices=devices), a.id, ForcedDice(4), mp_available=4, lines=[line])
    assert not held.free
    cut = grapple_disengage(field(a, b, devices=devices), a.id, ForcedDice(5), mp_available=4, lines=[line])
    assert cut.free


# ---------------------------------------------------------------- 8.35 Foul Disengage


def test_foul_disengage_success_gives_half_speed_and_frees_both() -> None:
    rammer, target = link(A, replace(B, rammed=True), "fouled_with")
    res = foul_disengage(field(rammer, target), ForcedDice(1, 4))  # id order: G5-1 then R5-2
    # Crew 3 frees itself on a 4 (no DRM ever): G5-1 rolled 1, R5-2 rolled 4.
    assert res.galleys[target.id].half_speed and res.galleys[target.id].fouled_with == frozenset()
    assert res.galleys[rammer.id].fouled_with == frozenset() and not res.galleys[rammer.id].half_speed
    assert any(isinstance(e, FoulFreed) for e in res.events)


def test_foul_disengage_failure_stays_fouled() -> None:
    rammer, target = link(A, B, "fouled_with")
    res = foul_disengage(field(rammer, target), ForcedDice(3, 3))
    assert res.galleys[rammer.id].fouled_with == {target.id}
    assert not res.galleys[rammer.id].half_speed


def test_foul_disengage_is_simultaneous() -> None:
    rammer, target = link(A, B, "fouled_with")
    res = foul_disengage(field(rammer, target), ForcedDice(6, 6))
    assert res.galleys[rammer.id].half_speed and res.galleys[target.id].half_speed


def test_foul_disengage_has_no_modifiers_even_crippled() -> None:
    rammer, target = link(replace(A, crippled=frozenset({Side.PORT})), B, "fouled_with")
    res = foul_disengage(field(rammer, target), ForcedDice(4, 1), galleys={rammer.id, target.id})
    assert res.events[0].modifiers == () and res.galleys[rammer.id].half_speed
