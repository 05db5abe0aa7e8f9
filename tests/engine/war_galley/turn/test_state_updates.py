"""GameState.with_galley: the slot it replaces and the lookups it hands on give what a fresh state gives.

with_galley replaces a galley in place and passes its id index on to the
new state; a run of updates must leave a state indistinguishable (fields,
lookups, bytes) from one built afresh with the same galleys.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from engine.war_galley.map_and_galleys.galley import Capture
from engine.war_galley.turn.state import GameState
from engine.war_galley.turn.state_bytes import encode_state
from tests.engine.war_galley.game_support import skirmish

BASE = skirmish()


def fresh(state: GameState) -> GameState:
    """The same fields, none of the state's kept lookups."""
    return replace(state, galleys=tuple(state.galleys))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(BASE.galleys) - 1), st.integers(0, 5), st.booleans()), max_size=12),
       st.booleans())
def test_a_run_of_updates_equals_a_fresh_state(changes: list[tuple[int, int, bool]], look_first: bool) -> None:
    state = BASE
    for slot, fatigue, captured in changes:
        if look_first:
            state.galley(state.galleys[0].id)  # the index exists, so with_galley hands it on
        galley = replace(state.galleys[slot], fatigue=fatigue, capture=Capture.CAPTURED if captured else Capture.NONE)
        expected = replace(state, galleys=tuple(galley if g.id == galley.id else g for g in state.galleys))
        state = state.with_galley(galley)
        assert state == expected
        assert state.galleys[slot] is galley
        assert all(state.galley(g.id) is g for g in state.galleys)
    assert encode_state(state) == encode_state(fresh(state))


def test_an_id_listed_twice_is_replaced_everywhere() -> None:
    """A state listing one id twice (no rule makes one, but a scan replaced both): both copies change."""
    twice = replace(BASE, galleys=(*BASE.galleys, BASE.galleys[0]))
    changed = replace(BASE.galleys[0], fatigue=3)
    after = twice.with_galley(changed)
    assert after.galleys[0] is changed and after.galleys[-1] is changed
    assert after.galley(changed.id) is changed


def test_a_galley_not_listed_changes_nothing() -> None:
    absent = replace(BASE, galleys=BASE.galleys[1:])
    assert absent.with_galley(BASE.galleys[0]).galleys == absent.galleys
