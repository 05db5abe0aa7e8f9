"""Zones of control (version 2, docs/fleets-rules.md 5.17). DBA 2.2 practice, kept by the fragment ("Battles between
fleets are fought just like battles between armies"): an element that begins its move within a base width in front
of an enemy may only move straight into contact with it or straight away."""

from __future__ import annotations

import pytest

from engine.fleets import play
from engine.fleets.decisions import Back, Move, Shift
from engine.fleets.errors import IllegalOrder
from tests.engine.fleets.support import E, N, S, W, Forced, at, battle, el

ENEMY = el("R1", "Lib", 1200, 1600, S)  # its zone: x 1120-1280, y 1280-1440


def _go(blue, order, version="2"):  # type: ignore[no-untyped-def]
    return play.apply(battle(el("B0", "Lib", 400, 400, N, general=True), blue, ENEMY, wind="E", version=version),
                      order, Forced())[0]


def test_within_a_base_width_in_front_it_may_only_contact_or_go_away() -> None:
    blue = el("B1", "Lib", 1250, 1300, N)  # its base overlaps R1's zone
    with pytest.raises(IllegalOrder, match=r"B1 begins within a base width in front of R1: .* \(rules 5.17, zone of control\)"):
        _go(blue, Move("B1", to=[[1500, 1400]]))
    assert at(_go(blue, Move("B1", contact="R1")), "B1") == (1200, 1440, N)
    assert at(_go(blue, Back(["B1"], 200)), "B1") == (1250, 1100, N)  # straight away: south, the way R1 faces
    assert at(_go(blue, Move("B1", turn=S, to=[[1250, 1260]])), "B1") == (1250, 1260, S)


def test_a_group_in_a_zone_moves_straight_away_only() -> None:
    pair = (el("B1", "Lib", 1250, 1300, N), el("B2", "Lib", 1410, 1300, N))
    state = battle(el("B0", "Lib", 400, 400, N, general=True), *pair, ENEMY, wind="E")
    with pytest.raises(IllegalOrder, match="zone of control"):
        play.apply(state, Shift(["B1", "B2"], 0, 100), Forced())


def test_outside_the_zone_and_in_version_1_it_moves_freely() -> None:
    beside = el("B1", "Lib", 1440, 1300, N)  # x 1360-1520: clear of the zone
    assert at(_go(beside, Move("B1", to=[[1600, 1400]])), "B1") == (1600, 1400, N)
    blue = el("B1", "Lib", 1250, 1300, N)
    assert at(_go(blue, Move("B1", to=[[1500, 1400]]), version="1"), "B1") == (1500, 1400, N)


CAT = el("R1", "Cat", 1200, 1600, S)  # its zone: x 1120-1280, y 1280-1440
ACROSS = el("B1", "Lib", 970, 1350, E)  # 90p in front of the Cataphract, clear of its zone


def _sail(order, version="3"):  # type: ignore[no-untyped-def]
    state = battle(el("B0", "Lib", 400, 400, N, general=True), ACROSS, CAT, wind="N", version=version)
    return play.apply(state, order, Forced())[0]


def test_an_element_entering_a_zone_halts_there_or_goes_on_into_contact() -> None:
    """Issue 27's case: a Liburnian sailed 390p across a Cataphract's front 90p away. DBA 2.2: an element that
    enters an enemy's zone of control in its move must stop in it or move into contact with that enemy's front."""
    with pytest.raises(IllegalOrder, match=r"B1 would enter the zone a base width in front of R1 and go on: .* "
                                           r"\(rules 5.17, zone of control\)"):
        _sail(Move("B1", to=[[1360, 1350]]))  # 390p east, out the far side of the zone
    assert at(_sail(Move("B1", to=[[1200, 1350]])), "B1") == (1200, 1350, E)  # halts in it
    assert at(_sail(Move("B1", contact="R1")), "B1") == (1200, 1440, N)  # goes on into its front
    with pytest.raises(IllegalOrder, match="would enter the zone"):  # in, then a second leg: not a halt
        _sail(Move("B1", to=[[1200, 1350], [1250, 1350]]))
    assert at(_sail(Move("B1", to=[[1360, 1350]]), version="2"), "B1") == (1360, 1350, E)  # version 2 let it pass


def test_a_group_entering_a_zone_halts_in_it() -> None:
    side = el("R2", "Lib", 1600, 1300, W)  # its zone: x 1360-1520, y 1220-1380
    pair = (el("B1", "Lib", 1200, 1100, N, general=True), el("B2", "Lib", 1360, 1100, N))
    state = battle(*pair, side, wind="S")
    with pytest.raises(IllegalOrder, match="B2 would enter the zone a base width in front of R2"):
        play.apply(state, Shift(["B1", "B2"], 0, 380), Forced())  # B2 crosses the zone and leaves it
    after, _ = play.apply(state, Shift(["B1", "B2"], 0, 250), Forced())  # ends in it: halted
    assert at(after, "B2") == (1360, 1350, N)
