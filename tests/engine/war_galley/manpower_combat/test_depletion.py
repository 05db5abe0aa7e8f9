"""Personnel losses (8.6): cumulative Depletions, Manpower never below 0, the 8.64 summary (engine.war_galley.manpower_combat.depletion)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from engine.war_galley.manpower_combat.depletion import apply_depletions, deplete, summary
from engine.war_galley.map_and_galleys.galley import Capture
from tests.engine.war_galley.manpower_support import gid, ship

M3 = ship("G5-1", "2010-2011", manpower=3, crew=3)


def test_depletions_are_cumulative() -> None:
    once, event = deplete(M3)
    twice, _ = deplete(once)
    assert (once.manpower, twice.manpower, twice.depletions) == (2, 1, 2)
    assert event.manpower == 2 and event.count == 1


def test_manpower_never_drops_below_zero_but_the_marker_keeps_counting() -> None:
    after, event = deplete(M3, 5)
    assert after.manpower == 0 and after.depletions == 5 and event.manpower == 0


def test_simultaneous_depletions_are_applied_together() -> None:
    other = ship("R5-2", "2110-2111", manpower=2)
    galleys, events = apply_depletions({M3.id: M3, other.id: other}, {other.id: 2, M3.id: 1})
    assert galleys[M3.id].manpower == 2 and galleys[other.id].manpower == 0
    assert [str(e.galley) for e in events] == ["G5-1", "R5-2"]  # id order


def test_summary_of_a_healthy_and_an_exhausted_galley() -> None:
    ok = summary(M3)
    assert (ok.manpower, ok.crew, ok.may_board, ok.may_fire, ok.may_use_maximum) == (3, 3, True, True, True)
    spent = summary(replace(M3, depletions=3))
    assert spent.manpower == 0 and not spent.may_board and spent.may_fire  # M0 still fires (8.64)


def test_summary_of_a_captured_galley() -> None:
    prize = summary(replace(M3, capture=Capture.CAPTURED))
    assert (prize.manpower, prize.crew, prize.may_board, prize.may_use_maximum) == (0, 0, False, False)


@given(manpower=st.integers(0, 8), hits=st.lists(st.integers(0, 3), max_size=10))
def test_manpower_is_never_negative(manpower: int, hits: list[int]) -> None:
    galley = ship("G5-1", "2010-2011", manpower=manpower)
    for count in hits:
        galley, _ = deplete(galley, count)
        assert 0 <= galley.manpower <= manpower
    assert galley.depletions == sum(hits)
    assert galley.manpower == max(0, manpower - sum(hits))
    assert gid("G5-1") == galley.id
