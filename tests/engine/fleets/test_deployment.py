"""Deployment (fragment): the attacker's side, the defender first, everything within 600p of one's edge."""

from __future__ import annotations

import pytest

from engine.fleets import play
from engine.fleets.decisions import AttackFrom, Place, PlaceRest, WindFrom
from engine.fleets.errors import IllegalOrder
from engine.fleets.ruleset import RULESET
from engine.fleets.state import State
from tests.engine.fleets.support import Forced, with_phase


def started(name: str, point: str, attacker_die: int, defender_die: int) -> State:
    state = RULESET.new_game(RULESET.builtin_scenario(name) or b"", RULESET.default_rules_data(), {})
    state, _ = play.apply(state, WindFrom(point), Forced())
    state, _ = play.advance(state, Forced(attacker_die, defender_die))
    return state


def test_not_a_shore_side() -> None:
    state = started("salamis-480", "N", 1, 1)  # coasts W and E; wind from N
    assert state.wind == "N" and play.pending(state).side == "persians"
    with pytest.raises(IllegalOrder, match="W is a shore side"):
        play.apply(state, AttackFrom("W"), Forced())


def test_a_fleet_without_ships_may_take_the_upwind_side() -> None:
    state = started("salamis-480", "N", 1, 1)  # the Persians have galleys only
    state, _ = play.apply(state, AttackFrom("N"), Forced())
    assert state.attacker_edge == "N"


def test_a_fleet_with_ships_may_not_take_the_upwind_side() -> None:
    state = started("actium-31", "W", 2, 2)  # wind from W: the W side is upwind; Antony has transports
    with pytest.raises(IllegalOrder, match="W is upwind"):
        play.apply(state, AttackFrom("W"), Forced())
    state, _ = play.apply(state, AttackFrom("S"), Forced())  # 90 degrees off the wind is downwind: allowed
    assert state.attacker_edge == "S"


def test_corner_wind_makes_two_sides_upwind() -> None:
    state = started("helsingborg-1362", "NW", 3, 3)  # coast E; the Danes have cogs
    from engine.fleets.deployment import attacker_edges

    assert attacker_edges(state) == ["S"]


def test_defender_first_then_attacker_each_within_600p_of_his_edge() -> None:
    state = started("salamis-480", "N", 1, 1)
    state, _ = play.apply(state, AttackFrom("S"), Forced())
    assert play.pending(state).side == "greeks"  # the defender sets up first, on the N side
    with pytest.raises(IllegalOrder, match="within 600p of the N edge"):
        play.apply(state, Place("G1", 1200, 2400 - 521, 180), Forced())  # base reaches 601p from the edge
    state, _ = play.apply(state, Place("G1", 1200, 2400 - 520, 180), Forced())  # front edge exactly 600p out
    with pytest.raises(IllegalOrder, match="overlaps G1"):
        play.apply(state, Place("G2", 1300, 2400 - 520, 180), Forced())
    with pytest.raises(IllegalOrder, match="not the greeks's to place|no element P1 of the greeks"):
        play.apply(state, Place("P1", 1200, 300, 0), Forced())
    state, _ = play.apply(state, PlaceRest(), Forced())
    assert play.pending(state).side == "persians"
    assert all(e.y >= 2400 - 600 + 80 for e in state.elements)
    with pytest.raises(IllegalOrder, match="within 600p of the S edge"):
        play.apply(state, Place("P1", 1800, 521, 0), Forced())
    state, _ = play.apply(state, Place("P1", 1800, 520, 0), Forced())
    state, _ = play.apply(state, PlaceRest(), Forced())
    assert state.phase == "pips" and not state.to_place
    state, _ = play.advance(state, Forced(4))
    assert (state.moving, state.pips) == ("persians", 4)  # the attacker has the first bound


def test_no_base_on_land() -> None:
    state = started("salamis-480", "N", 1, 1)
    state, _ = play.apply(state, AttackFrom("S"), Forced())
    state = with_phase(state, phase="deploy-attacker", to_place=tuple(e for e in state.to_place if e.side == "persians"))
    with pytest.raises(IllegalOrder, match="on land"):
        play.apply(state, Place("P1", 1200, 330, 0), Forced())  # on Psyttaleia
