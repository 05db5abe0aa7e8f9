"""A Pass-Through that would leave the map (7.25), version 2: refused before any die.

7.25: "The moving galley expends 2 MP to move dead ahead, through that enemy
galley, during which it attempts to Rake either galley (not both). It must
then have sufficient MP remaining so that it reaches a hex location not
occupied by any other ships". Off the map is no hex location: a galley that
leaves before it stands clear never meets the requirement, so the move is
refused (docs/rules-notes.md). Version 1 let it leave and dropped the Rake.
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrder
from engine.war_galley.galley_combat.combat_steps import PlanEnd
from engine.war_galley.galley_combat.raking import RakeResolved
from engine.war_galley.map_and_galleys.galley import Removal
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from tests.engine.war_galley.combat_support import fleet, gid, of, play, ship

ORDER = "G3-1 max 6: F F X:R5-1:P F F"


def at_the_edge():
    """7.28's line moved up to the map's top edge: clear of it the galley would stand off the map."""
    return fleet(ship("G3-1", "2502-2403", speed=SpeedSide.MAXIMUM), ship("R5-1", "2801-2900"),
                 ship("R5-2", "2802-2901"))


def test_version_2_refuses_a_pass_through_that_leaves_the_map_before_it_stands_clear() -> None:
    with pytest.raises(IllegalOrder) as caught:
        play(ORDER, at_the_edge(), version=2)
    assert caught.value.rule == "7.25" and "leaves the map" in caught.value.reason
    assert "step 5" in caught.value.reason  # the Forward that would take it off, still in the line


def test_version_1_let_it_leave_and_the_rake_was_lost() -> None:
    galleys, events, outcome, dice = play(ORDER, at_the_edge(), [6, 6])
    assert outcome.end is PlanEnd.EXITED and galleys[gid("G3-1")].removed is Removal.EXITED
    assert not of(events, RakeResolved) and dice.unused == [6, 6]


def test_a_pass_through_clear_of_the_line_at_the_edge_still_rakes_in_version_2() -> None:
    # One row further from the edge the galley stands clear on row 00: the Rake is rolled (7.28's 6, 6).
    field = fleet(ship("G3-1", "2503-2404", speed=SpeedSide.MAXIMUM), ship("R5-1", "2802-2901"),
                  ship("R5-2", "2803-2902"))
    galleys, events, outcome, dice = play(ORDER, field, [6, 6], version=2)
    assert outcome.end is PlanEnd.COMPLETED and of(events, RakeResolved)[0].crippled and dice.unused == []


def test_raking_a_galley_beside_that_lies_bow_on_to_the_one_passed_is_refused_in_one_line() -> None:
    """7.25's "Rake either galley": the galley beside must lie side by side with the one passed, or no side of
    it faces the passing galley's oars (7.21). It used to fail an assertion (an internal error)."""
    field = fleet(ship("G3-1", "2711-2612", speed=SpeedSide.MAXIMUM), ship("R5-1", "2811-2910"),
                  ship("R5-2", "2812-2813"))  # its stern in R5-1's port flank hex, bow pointing away
    with pytest.raises(IllegalOrder) as caught:
        play("G3-1 max 4: X:R5-1:P:R5-2 F F", field, version=2)
    assert caught.value.rule == "7.25" and "not side by side" in caught.value.reason
