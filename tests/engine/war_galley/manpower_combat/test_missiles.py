"""Missile Fire (8.4) and Flame Missiles (8.51-8.52) (engine.war_galley.manpower_combat.missiles)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.manpower_combat.depletion import Depleted
from engine.war_galley.manpower_combat.devices import Devices
from engine.war_galley.manpower_combat.fire import SetOnFire
from engine.war_galley.manpower_combat.manpower_orders import FireOrder, Shot
from engine.war_galley.manpower_combat.missiles import (
    FireTiming,
    MissileHit,
    Provocation,
    check_fire,
    fire,
    resolve_fire,
)
from engine.war_galley.map_and_galleys.charts import RollRange
from engine.war_galley.map_and_galleys.galley import Colour
from engine.war_galley.map_and_galleys.position import Side
from tests.engine.war_galley.manpower_support import field, gid, link, ship

AFTER, MOVING, REACTION = FireTiming.AFTER_MOVEMENT, FireTiming.MOVING, FireTiming.REACTION

A = ship("G5-1", "2010-2011", manpower=2)  # faces up
B = ship("R5-2", "2110-2111", manpower=1)  # alongside to starboard
D = ship("R5-4", "1910-1911", manpower=1)  # alongside to port
FAR = ship("R5-3", "2210-2211", manpower=1)  # two hexes to starboard, clear between
FLAME = Devices(flame_galleys=frozenset({A.id, gid("G5-6")}))


def shots(*targets: str | tuple, galley: str = "G5-1") -> FireOrder:
    out = []
    for t in targets:
        if isinstance(t, tuple):
            out.append(Shot(gid(t[0]), *t[1:]))
        else:
            out.append(Shot(gid(t)))
    return FireOrder(gid(galley), tuple(out))


def test_8_43_split_fire_m2_fires_on_the_1_2_column_at_each_of_two() -> None:
    battle = field(A, B, D)
    volley = check_fire(battle, shots(("R5-2", 1), ("R5-4", 1)), AFTER)
    assert [(str(s.target), s.manpower) for s in volley.shots] == [("R5-2", 1), ("R5-4", 1)]
    res = resolve_fire(battle, [volley], ForcedDice(5, 4))
    tables = [e.table for e in res.events if hasattr(e, "table")]
    assert tables == ["Missile Table, column 1-2"] * 2
    assert res.galleys[B.id].depletions == 1 and res.galleys[D.id].depletions == 0


def test_m1_may_not_split() -> None:
    one = replace(A, ratings=replace(A.ratings, manpower=1))
    with pytest.raises(IllegalOrder) as err:
        check_fire(field(one, B, D), shots(("R5-2", 1), ("R5-4", 0)), AFTER)
    assert err.value.rule == "8.43"


@pytest.mark.parametrize(
    "order, timing",
    [
        (shots(("R5-2", 1), ("R5-4", 1)), MOVING),  # split only after movement
        (shots(("R5-2", 2), ("R5-4", 1)), AFTER),  # more than its M
        (shots(("R5-2", 1), ("R5-2", 1)), AFTER),  # one target twice
        (shots("R5-2", "R5-4"), AFTER),  # shares not given
        (shots(("R5-2", 1)), AFTER),  # one shot with less than its M
    ],
)
def test_illegal_splits(order: FireOrder, timing: FireTiming) -> None:
    with pytest.raises(IllegalOrder):
        check_fire(field(A, B, D), order, timing)


def test_an_m0_galley_still_fires_on_the_0_column() -> None:
    spent = replace(A, depletions=5)
    res = fire(field(spent, B), shots("R5-2"), MOVING, ForcedDice(6))
    assert res.events[0].table == "Missile Table, column 0" and res.galleys[B.id].depletions == 1


# ---------------------------------------------------------------- where


def test_range_two_with_a_clear_hex_between_subtracts_one() -> None:
    volley = check_fire(field(A, FAR), shots("R5-3"), MOVING)
    assert volley.shots[0].distance == 2
    assert dict(volley.shots[0].modifiers) == {"two hexes away": -1}


def test_never_through_the_bow_or_stern_hexsides() -> None:
    ahead = ship("R4-5", "2009/0")  # in A's bow hex
    with pytest.raises(IllegalOrder) as err:
        check_fire(field(A, ahead), shots("R4-5"), MOVING)
    assert err.value.rule == "8.41"


def test_three_hexes_is_out_of_range() -> None:
    with pytest.raises(IllegalOrder):
        check_fire(field(A, ship("R5-3", "2310-2311")), shots("R5-3"), MOVING)


def test_8_46_a_ship_between_blocks_range_two() -> None:
    firer = ship("G4-1", "2010/1")  # its Stern/Flank hexside faces 2011
    target = ship("R4-2", "2012/0")
    assert check_fire(field(firer, target), shots("R4-2", galley="G4-1"), MOVING).shots[0].distance == 2
    blocker = ship("G4-9", "2011/0")
    with pytest.raises(IllegalOrder) as err:
        check_fire(field(firer, target, blocker), shots("R4-2", galley="G4-1"), MOVING)
    assert err.value.rule == "8.41"


def test_only_enemy_ships() -> None:
    with pytest.raises(IllegalOrder):
        check_fire(field(A, ship("G5-2", "2110-2111")), shots("G5-2"), MOVING)


# ---------------------------------------------------------------- 8.44 DRM


@pytest.mark.parametrize(
    "firer_change, target_change, expected",
    [
        ({"ratings": replace(A.ratings, engines=True)}, {}, {"engines (E)": 1}),
        ({"ratings": replace(A.ratings, towers=True)}, {}, {"Height Advantage": 1}),
        ({}, {"ratings": replace(B.ratings, towers=True)}, {"Height Disadvantage": -1}),
        ({"sails_up": True}, {}, {"firer under Sail": -1}),
        ({"ratings": replace(A.ratings, towers=True), "towers_jettisoned": True},
         {"ratings": replace(B.ratings, towers=True)},
         {"Towers jettisoned": -1, "Height Disadvantage": -1}),
        ({}, {"rammed": True}, {"target Rammed, Grappled, Fouled or Crippled": 1}),
        ({}, {"fouled_with": frozenset({gid("G3-3")})}, {"target Rammed, Grappled, Fouled or Crippled": 1}),
        ({}, {"grappled_with": frozenset({gid("G3-3")})}, {"target Rammed, Grappled, Fouled or Crippled": 1}),
        ({}, {"crippled": frozenset({Side.PORT}), "rammed": True},
         {"target Rammed, Grappled, Fouled or Crippled": 1}),
    ],
)
def test_every_8_44_modifier(firer_change: dict, target_change: dict, expected: dict[str, int]) -> None:
    volley = check_fire(field(replace(A, **firer_change), replace(B, **target_change)), shots("R5-2"), MOVING)
    assert dict(volley.shots[0].modifiers) == expected


def test_no_height_advantage_at_actium() -> None:
    tall = replace(A, ratings=replace(A.ratings, towers=True))
    volley = check_fire(field(tall, B, devices=Devices(height_advantage=False)), shots("R5-2"), MOVING)
    assert volley.shots[0].modifiers == ()


def test_the_drm_move_the_result() -> None:
    """M2 on '1-2': a natural 4 does nothing, +1 (E) makes it a 5: D."""
    engines = replace(A, ratings=replace(A.ratings, engines=True))
    assert fire(field(A, B), shots("R5-2"), MOVING, ForcedDice(4)).galleys[B.id].depletions == 0
    assert fire(field(engines, B), shots("R5-2"), MOVING, ForcedDice(4)).galleys[B.id].depletions == 1


# ---------------------------------------------------------------- Flame


M3 = replace(A, ratings=replace(A.ratings, manpower=3))  # column 3-4: D/F on a 6


def test_flame_d_f_then_4_to_6_sets_the_target_on_fire() -> None:
    res = fire(field(M3, B, devices=FLAME), shots(("R5-2", None, True)), MOVING, ForcedDice(6, 4))
    assert res.galleys[B.id].on_fire and res.galleys[B.id].depletions == 1
    assert any(isinstance(e, SetOnFire) for e in res.events)
    out = fire(field(M3, B, devices=FLAME), shots(("R5-2", None, True)), MOVING, ForcedDice(6, 3))
    assert not out.galleys[B.id].on_fire and out.galleys[B.id].depletions == 1


def test_d_f_without_flame_is_a_depletion_only() -> None:
    dice = ForcedDice(6)
    res = fire(field(M3, B, devices=FLAME), shots("R5-2"), MOVING, dice)
    assert not res.galleys[B.id].on_fire and dice.unused == []


def test_tauris_wet_fire_needs_5_or_6() -> None:
    wet = replace(FLAME, flame_ignites=RollRange(5, 6))
    assert not fire(field(M3, B, devices=wet), shots(("R5-2", None, True)), MOVING,
                    ForcedDice(6, 4)).galleys[B.id].on_fire
    assert fire(field(M3, B, devices=wet), shots(("R5-2", None, True)), MOVING,
                ForcedDice(6, 5)).galleys[B.id].on_fire


def test_actium_flame_throwers_make_a_d_a_d_f() -> None:
    throwers = replace(FLAME, flame_throwers=Colour.GREEN)
    res = fire(field(M3, B, devices=throwers), shots(("R5-2", None, True)), MOVING, ForcedDice(4, 6))
    assert res.galleys[B.id].on_fire
    assert next(e for e in res.events if isinstance(e, MissileHit)).result == "D/F"
    plain = fire(field(M3, B, devices=FLAME), shots(("R5-2", None, True)), MOVING, ForcedDice(4))
    assert not plain.galleys[B.id].on_fire


def test_flame_reaches_one_hex_only_but_through_any_hexside() -> None:
    with pytest.raises(IllegalOrder) as err:
        check_fire(field(A, FAR, devices=FLAME), shots(("R5-3", None, True)), MOVING)
    assert err.value.rule == "8.52"
    ahead = ship("R4-5", "2009/0")
    assert check_fire(field(A, ahead, devices=FLAME), shots(("R4-5", None, True)), MOVING).shots[0].distance == 1


def test_flame_needs_the_scenarios_capability_and_the_towers() -> None:
    other = ship("G5-9", "2010-2011")
    with pytest.raises(IllegalOrder) as err:
        check_fire(field(other, B, devices=FLAME), shots(("R5-2", None, True), galley="G5-9"), MOVING)
    assert err.value.rule == "8.51"
    gone = replace(A, ratings=replace(A.ratings, towers=True), towers_jettisoned=True)
    with pytest.raises(IllegalOrder) as err:
        check_fire(field(gone, B, devices=FLAME), shots(("R5-2", None, True)), MOVING)
    assert err.value.rule == "8.48"
    with pytest.raises(IllegalOrder):
        check_fire(field(A, B, devices=replace(FLAME, no_fire=True)), shots(("R5-2", None, True)), MOVING)


# ---------------------------------------------------------------- when: 8.42, 8.63


def test_once_per_segment_or_phase() -> None:
    with pytest.raises(IllegalOrder) as err:
        check_fire(field(A, B), shots("R5-2"), MOVING, already_fired=True)
    assert err.value.rule == "8.42"


def test_reaction_fire_is_simultaneous_with_the_fire_it_answers() -> None:
    """Both fire with the Manpower they had; the Depletions come after (8.42, 8.63)."""
    battle = field(A, B)
    active = check_fire(battle, shots("R5-2"), AFTER)
    answer = check_fire(battle, shots("G5-1", galley="R5-2"), REACTION, provoked_by={A.id: Provocation.FIRED})
    res = resolve_fire(battle, [active, answer], ForcedDice(6, 6))
    hits = [e for e in res.events if isinstance(e, MissileHit)]
    assert [(h.manpower, h.result) for h in hits] == [(2, "D"), (1, "D")]
    assert res.galleys[A.id].manpower == 1 and res.galleys[B.id].manpower == 0
    kinds = [type(e).__name__ for e in res.events]
    assert kinds.index("Depleted") > max(i for i, k in enumerate(kinds) if k == "MissileHit")


def test_reaction_fire_only_at_who_provoked_it() -> None:
    battle = field(A, B, FAR)
    with pytest.raises(IllegalOrder) as err:
        check_fire(battle, shots("G5-1", galley="R5-2"), REACTION)
    assert err.value.rule == "8.42"
    # grappling, ramming or raking: only when adjacent
    check_fire(battle, shots("G5-1", galley="R5-2"), REACTION, provoked_by={A.id: Provocation.GRAPPLE})
    with pytest.raises(IllegalOrder):
        check_fire(battle, shots("G5-1", galley="R5-3"), REACTION, provoked_by={A.id: Provocation.RAM})
    # ... but at range two at a galley that fired at it
    check_fire(battle, shots("G5-1", galley="R5-3"), REACTION, provoked_by={A.id: Provocation.FIRED})


def test_reaction_fire_never_splits() -> None:
    two = replace(B, ratings=replace(B.ratings, manpower=2))
    with pytest.raises(IllegalOrder):
        check_fire(field(A, two, ship("G5-7", "2210-2211")), shots(("G5-1", 1), ("G5-7", 1), galley="R5-2"),
                   REACTION, provoked_by={A.id: Provocation.FIRED, gid("G5-7"): Provocation.FIRED})


def test_a_rammed_galley_fires_only_at_its_rammer() -> None:
    rammed = replace(B, rammed=True)
    battle = field(A, rammed, ship("G5-7", "2210-2211"))
    check_fire(battle, shots("G5-1", galley="R5-2"), MOVING, rammed_by=(A.id,))
    with pytest.raises(IllegalOrder) as err:
        check_fire(battle, shots("G5-7", galley="R5-2"), MOVING, rammed_by=(A.id,))
    assert err.value.rule == "7.16"


def test_depletions_are_applied_with_their_event() -> None:
    a, b = link(A, B)
    res = fire(field(a, b), shots("R5-2"), MOVING, ForcedDice(5))  # 5 +1 (Grappled) = 6: D
    (event,) = [e for e in res.events if isinstance(e, Depleted)]
    assert event.galley == B.id and event.manpower == 0


def test_no_fire_roll_at_a_galley_already_burning() -> None:
    burning = replace(B, on_fire=True)
    dice = ForcedDice(6)  # the D/F; no second die is asked for
    res = fire(field(M3, burning, devices=FLAME), shots(("R5-2", None, True)), MOVING, dice)
    assert res.galleys[B.id].on_fire and res.galleys[B.id].depletions == 1 and dice.unused == []


def test_jettisoned_towers_keep_the_engines_bonus() -> None:
    both = replace(A, ratings=replace(A.ratings, engines=True, towers=True), towers_jettisoned=True)
    volley = check_fire(field(both, B), shots("R5-2"), MOVING)
    assert dict(volley.shots[0].modifiers) == {"engines (E)": 1, "Towers jettisoned": -1}
