"""6.36 in an activation (issue 22, item 7): an order to get a galley off the rocks cannot be made
impossible by a die once the check has accepted it.

The attack: `refloat R5-51 R5-51` passed the check (the galley was aground), and when the first roll
freed or wrecked it the second asked for a galley that "has not Run Aground": the file could never be
resolved and the game froze on the dice. One attempt a galley is now the check's rule, and an attempt
whose galley is no longer aground when its turn comes lapses instead of refusing after a die.
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice, NoDice
from engine.errors import IllegalOrder
from engine.war_galley.map_and_galleys.galley import Aground, End, Removal
from engine.war_galley.map_and_galleys.hexes import Hex
from engine.war_galley.movement.aground import Refloated, Wrecked
from engine.war_galley.play import dispatch as play
from engine.war_galley.turn.activation import apply_activate, check_activate
from engine.war_galley.turn.decisions import Activate
from engine.war_galley.turn.movement_segment import OrderLapsed
from engine.war_galley.turn.state import GameState
from tests.engine.war_galley.game_support import at, g, skirmish, to_command_phase


def aground_r5_51() -> GameState:
    """Turn 1, Rome to activate Catulus (R5-50, R5-51); R5-51 struck land bow first in turn 0 (Crew 3)."""
    state = to_command_phase(skirmish())
    state = replace(state, board=state.board.with_land([Hex(22, 20)]))
    return at(state, "R5-51", "2220-2221", aground=Aground(End.BOW, 0))


def refloat(*galleys: str) -> Activate:
    return Activate(side="rome", squadron="Catulus", refloat=tuple(g(x) for x in galleys))


def test_one_attempt_is_accepted_and_rolled() -> None:
    state = aground_r5_51()
    with pytest.raises(NoDice.Needed):  # accepted by the check: it stops only at its die
        play.apply(state, refloat("R5-51"), NoDice())
    freed, events = play.apply(state, refloat("R5-51"), ForcedDice(3))  # at most the Crew: freed
    assert freed.galley(g("R5-51")).aground is None
    assert any(isinstance(e, Refloated) for e in events)


def test_a_galley_named_twice_to_get_off_is_refused_before_any_die() -> None:
    """The attack as it was signed: refused by the check, with the rule, whatever the dice would be."""
    state = aground_r5_51()
    with pytest.raises(IllegalOrder, match=r"6\.36: R5-51: one attempt to get off the land per galley"):
        play.apply(state, refloat("R5-51", "R5-51"), NoDice())


@pytest.mark.parametrize("first", [1, 3, 6])  # freed, freed, stuck for good: each made the second roll impossible
def test_no_die_makes_a_checked_refloat_fail(first: int) -> None:
    state = aground_r5_51()
    after, events = play.apply(state, refloat("R5-51"), ForcedDice(first))
    galley = after.galley(g("R5-51"))
    if first == 6:
        assert galley.removed is Removal.STUCK and any(isinstance(e, Wrecked) for e in events)
    else:
        assert galley.aground is None


def test_an_attempt_whose_galley_is_no_longer_aground_lapses_without_a_die() -> None:
    """The activation's results come before the attempts (6.36 after the movement segment): a galley they
    left afloat, or off the map, has nothing to get off from, and its attempt lapses with the rule."""
    state = aground_r5_51()
    check_activate(state, refloat("R5-51"))
    afloat = state.with_galley(replace(state.galley(g("R5-51")), aground=None))
    after, events = apply_activate(afloat, refloat("R5-51"), ForcedDice(), checked=True)  # no die at all
    lapsed = [e for e in events if isinstance(e, OrderLapsed)]
    assert [(e.rule, e.order, e.reason) for e in lapsed] == [("6.36", "refloat", "R5-51 is no longer aground")]
    gone = state.with_galley(replace(state.galley(g("R5-51")), position=None, removed=Removal.SUNK))
    after, events = apply_activate(gone, refloat("R5-51"), ForcedDice(), checked=True)
    assert [e.reason for e in events if isinstance(e, OrderLapsed)] == ["R5-51 is no longer on the map"]
