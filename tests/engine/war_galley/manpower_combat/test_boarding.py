"""Boarding (8.2): parties, split Manpower, the table, capture, repulse, depletions (engine.war_galley.manpower_combat.boarding)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.manpower_combat.boarding import Captured, Repulsed, board, boarding_modifiers, check_boarding
from engine.war_galley.manpower_combat.depletion import Depleted
from engine.war_galley.manpower_combat.devices import Devices
from engine.war_galley.manpower_combat.manpower_orders import BoardingOrder, BoardingParty
from engine.war_galley.map_and_galleys.galley import Capture, Colour
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from tests.engine.war_galley.manpower_support import field, gid, link, ship

GREEN = Colour.GREEN


def grappled(*pairs):
    """Galleys with each (a, b) pair Grappled; later pairs see earlier links."""
    galleys = {}
    for a, b in pairs:
        a, b = galleys.get(a.id, a), galleys.get(b.id, b)
        a, b = link(a, b)
        galleys[a.id], galleys[b.id] = a, b
    return list(galleys.values())


def party(galley: str, target: str, manpower: int | None = None) -> BoardingParty:
    return BoardingParty(gid(galley), gid(target), manpower)


def go(galleys, *parties, dice, repulsed=(), devices=Devices()):
    battle = field(*galleys, devices=devices)
    active = {g.id for g in galleys if g.id.colour is GREEN}
    return board(battle, BoardingOrder(parties), dice, side=GREEN, activated=active, repulsed=repulsed)


# The 8.23 example: two M2 galleys board an M1 galley.
M2A = ship("G5-1", "2010-2011", manpower=2)
M2B = ship("G5-2", "2210-2211", manpower=2)
M1 = ship("R5-9", "2110-2111", manpower=1)
EXAMPLE = grappled((M2A, M1), (M2B, M1))


def test_8_23_example_two_m2_against_m1_need_4_to_12() -> None:
    battle = field(*EXAMPLE)
    (attempt,) = check_boarding(battle, BoardingOrder((party("G5-1", "R5-9"), party("G5-2", "R5-9"))),
                                side=GREEN, activated={M2A.id, M2B.id})
    assert (attempt.attackers, attempt.defender, str(attempt.needed)) == (4, 1, "4-12")
    res = go(EXAMPLE, party("G5-1", "R5-9"), party("G5-2", "R5-9"), dice=ForcedDice(2, 2))
    prize = res.galleys[M1.id]
    assert prize.capture is Capture.CAPTURED and prize.controller is GREEN
    assert any(isinstance(e, Captured) for e in res.events)
    assert not any(isinstance(e, Depleted) for e in res.events)  # a 4 is below 9-12


def test_8_23_example_a_3_is_repulsed_and_depletes_both_parties_and_the_defender() -> None:
    res = go(EXAMPLE, party("G5-1", "R5-9"), party("G5-2", "R5-9"), dice=ForcedDice(1, 2))
    assert res.galleys[M1.id].capture is Capture.NONE
    assert any(isinstance(e, Repulsed) for e in res.events)
    assert res.galleys[M2A.id].depletions == 1 and res.galleys[M2B.id].depletions == 1  # each party (8.28)
    assert res.galleys[M1.id].depletions == 1  # a Repulse on an adjusted 2-5


def test_a_repulse_on_6_or_more_spares_the_defender() -> None:
    lone = grappled((M2A, ship("R5-9", "2110-2111", manpower=3)))
    res = go(lone, party("G5-1", "R5-9"), dice=ForcedDice(3, 3))  # M2 vs M3 needs 9-12
    assert res.galleys[gid("R5-9")].depletions == 0
    assert res.galleys[M2A.id].depletions == 1


def test_a_capture_on_9_to_12_depletes_each_party() -> None:
    res = go(EXAMPLE, party("G5-1", "R5-9"), party("G5-2", "R5-9"), dice=ForcedDice(4, 5))
    assert res.galleys[M1.id].capture is Capture.CAPTURED
    assert res.galleys[M2A.id].depletions == 1 and res.galleys[M2B.id].depletions == 1


def test_8_22_example_split_m3_as_m1_and_m2() -> None:
    m3 = ship("G5-1", "2110-2111", manpower=3)
    left = ship("R5-8", "2010-2011", manpower=1)
    right = ship("R5-9", "2210-2211", manpower=1)
    galleys = grappled((m3, left), (m3, right))
    attempts = check_boarding(field(*galleys), BoardingOrder((party("G5-1", "R5-8", 1), party("G5-1", "R5-9", 2))),
                              side=GREEN, activated={m3.id})
    assert [(str(a.target), a.attackers) for a in attempts] == [("R5-8", 1), ("R5-9", 2)]
    # "He could have boarded only one and retained the M3."
    (whole,) = check_boarding(field(*galleys), BoardingOrder((party("G5-1", "R5-9"),)), side=GREEN,
                              activated={m3.id})
    assert whole.attackers == 3
    res = go(galleys, party("G5-1", "R5-8", 1), party("G5-1", "R5-9", 2), dice=ForcedDice(6, 6, 1, 1))
    assert res.galleys[left.id].capture is Capture.CAPTURED  # 12: captured, M3 depleted
    assert res.galleys[right.id].capture is Capture.NONE  # 2: repulsed, both depleted
    assert res.galleys[m3.id].depletions == 2


@pytest.mark.parametrize("parts", [(1, 1), (2, 2), (3, 0)])
def test_a_split_uses_exactly_the_manpower_and_never_below_m1(parts) -> None:
    m3 = ship("G5-1", "2110-2111", manpower=3)
    galleys = grappled((m3, ship("R5-8", "2010-2011")), (m3, ship("R5-9", "2210-2211")))
    with pytest.raises(IllegalOrder) as err:
        check_boarding(field(*galleys), BoardingOrder((party("G5-1", "R5-8", parts[0]),
                                                       party("G5-1", "R5-9", parts[1]))),
                       side=GREEN, activated={m3.id})
    assert err.value.rule == "8.22"


def test_captured_and_recaptured() -> None:
    res = go(grappled((M2A, M1)), party("G5-1", "R5-9"), dice=ForcedDice(3, 3))
    prize = res.galleys[M1.id]
    assert (prize.capture, prize.crew, prize.manpower, prize.speed) == (Capture.CAPTURED, 0, 0, SpeedSide.CRUISE)
    # Red boards it back: Recaptured, Red's again, still Crew and M 0 (8.26).
    red = ship("R5-3", "2210-2211", manpower=2)
    prize, red = link(prize, red)
    battle = field(res.galleys[M2A.id], prize, red)
    back = board(battle, BoardingOrder((party("R5-3", "R5-9"),)), ForcedDice(6, 6), side=Colour.RED,
                 activated={red.id})
    again = back.galleys[M1.id]
    assert again.capture is Capture.RECAPTURED and again.controller is Colour.RED and again.manpower == 0
    event = next(e for e in back.events if isinstance(e, Captured))
    assert event.recaptured and event.rule == "8.26"


def test_an_m0_galley_defends_but_may_not_board() -> None:
    spent = replace(M2A, depletions=2)
    galleys = grappled((spent, M1))
    with pytest.raises(IllegalOrder) as err:
        go(galleys, party("G5-1", "R5-9"), dice=ForcedDice(6, 6))
    assert err.value.rule == "8.21"
    # defending at M0: the "0" row
    (attempt,) = check_boarding(field(*grappled((M1, spent))), BoardingOrder((party("R5-9", "G5-1"),)),
                                side=Colour.RED, activated={M1.id})
    assert attempt.defender == 0


def test_captured_galleys_never_board() -> None:
    prize = replace(ship("R5-7", "2010-2011", manpower=4), capture=Capture.CAPTURED)
    galleys = grappled((prize, M1))
    with pytest.raises(IllegalOrder) as err:
        check_boarding(field(*galleys), BoardingOrder((party("R5-7", "R5-9"),)), side=GREEN,
                       activated={prize.id})
    assert err.value.rule == "8.25"


@pytest.mark.parametrize(
    "galleys, activated, rule",
    [
        ([M2A, M1], {M2A.id}, "8.11"),  # not Grappled
        (grappled((M2A, M1)), set(), "8.22"),  # not activated
    ],
)
def test_who_may_board(galleys, activated, rule) -> None:
    with pytest.raises(IllegalOrder) as err:
        check_boarding(field(*galleys), BoardingOrder((party("G5-1", "R5-9"),)), side=GREEN, activated=activated)
    assert err.value.rule == rule


def test_no_second_attempt_after_a_repulse_that_turn() -> None:
    with pytest.raises(IllegalOrder) as err:
        go(grappled((M2A, M1)), party("G5-1", "R5-9"), dice=ForcedDice(6, 6), repulsed={M1.id})
    assert err.value.rule == "8.27"


def test_only_enemy_ships_and_only_ones_own_galleys() -> None:
    friend = ship("G5-5", "2110-2111")
    with pytest.raises(IllegalOrder):
        go(grappled((M2A, friend)), party("G5-1", "G5-5"), dice=ForcedDice(6, 6))
    with pytest.raises(IllegalOrder):
        check_boarding(field(*grappled((M2A, M1))), BoardingOrder((party("R5-9", "G5-1"),)), side=GREEN,
                       activated={M1.id})


# ---------------------------------------------------------------- 8.24 Height Advantage


def _drm(boarders, defender, devices=Devices()):
    return dict(boarding_modifiers(field(*boarders, defender, devices=devices), boarders, defender))


def test_height_advantage_from_towers() -> None:
    tall = replace(M2A, ratings=replace(M2A.ratings, towers=True))
    tall_defender = replace(M1, ratings=replace(M1.ratings, towers=True))
    assert _drm([tall], M1) == {"attacker Height Advantage": 1}
    assert _drm([M2A], tall_defender) == {"defender Height Advantage": -1}
    assert _drm([tall], tall_defender) == {}
    assert _drm([replace(tall, towers_jettisoned=True)], M1) == {}
    assert _drm([tall], M1, Devices(height_advantage=False)) == {}  # Actium


def test_height_advantage_of_a_mixed_boarding_party() -> None:
    """Reading: the attackers need it in every party; the defender over any party."""
    tall = replace(M2A, ratings=replace(M2A.ratings, towers=True))
    tall_defender = replace(M1, ratings=replace(M1.ratings, towers=True))
    assert _drm([tall, M2B], M1) == {}
    assert _drm([tall, M2B], tall_defender) == {"defender Height Advantage": -1}


def test_height_advantage_moves_the_roll() -> None:
    tall = replace(M2A, ratings=replace(M2A.ratings, towers=True))
    # M2 vs M1 needs 6-12: a natural 5 +1 captures.
    res = go(grappled((tall, M1)), party("G5-1", "R5-9"), dice=ForcedDice(2, 3))
    assert res.galleys[M1.id].capture is Capture.CAPTURED
    assert res.events[0].modifiers == (("attacker Height Advantage", 1),)


# ---------------------------------------------------------------- property


@given(manpower=st.integers(1, 6), parts=st.lists(st.integers(-1, 6), min_size=1, max_size=3))
def test_an_accepted_allocation_never_leaves_a_party_below_m1(manpower: int, parts: list[int]) -> None:
    boarder = ship("G5-1", "2110-2111", manpower=manpower)
    targets = [ship("R5-7", "2010-2011"), ship("R5-8", "2210-2211"), ship("R5-9", "2109/0")]
    galleys = grappled(*[(boarder, t) for t in targets])
    order = BoardingOrder(tuple(party("G5-1", f"R5-{7 + i}", m) for i, m in enumerate(parts)))
    try:
        attempts = check_boarding(field(*galleys), order, side=GREEN, activated={boarder.id})
    except IllegalOrder:
        assert min(parts) < 1 or sum(parts) != manpower
        return
    assert all(m >= 1 for a in attempts for _, m in a.parties)
    assert sum(a.attackers for a in attempts) == manpower
