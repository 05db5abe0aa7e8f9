"""Command distance (version 2, docs/fleets-rules.md 5.4). DBA 2.2 practice, which the fragment keeps ("Battles
between fleets are fought just like battles between armies"): a move costs 1 PIP, +1 if an element moved is
more than 1200p from its general, or once the general is lost."""

from __future__ import annotations

import pytest

from engine.fleets import play
from engine.fleets.decisions import Move, Shift
from engine.fleets.errors import IllegalOrder
from tests.engine.fleets.support import N, Forced, battle, el

GENERAL = el("B0", "Cat", 400, 400, N, general=True)


def test_an_element_within_1200p_of_its_general_costs_1_pip() -> None:
    # B1's base starts 1200p beyond the general's (its edge at x 1680, the general's at 480): not more than 1200p
    state = battle(GENERAL, el("B1", "Lib", 1760, 400, N), pips=3)
    after, events = play.apply(state, Move("B1", to=[[1760, 600]]), Forced())
    assert after.pips == 2 and events[0].pips == 1


def test_an_element_beyond_1200p_of_its_general_costs_2_pips() -> None:
    state = battle(GENERAL, el("B1", "Lib", 1761, 400, N), pips=3)
    after, events = play.apply(state, Move("B1", to=[[1761, 600]]), Forced())
    assert after.pips == 1 and events[0].pips == 2
    with pytest.raises(IllegalOrder, match=r"costs 2 PIPs \(B1 is more than 1200p from its general\), 1 left"):
        play.apply(battle(GENERAL, el("B1", "Lib", 1761, 400, N), pips=1), Move("B1", to=[[1761, 600]]), Forced())


def test_a_group_with_one_element_beyond_costs_2_pips() -> None:
    group = [el("B1", "Lib", 1600, 400, N), el("B2", "Lib", 1760, 400, N), el("B3", "Lib", 1920, 400, N)]
    after, _ = play.apply(battle(GENERAL, *group, pips=3), Shift(["B1", "B2", "B3"], 0, 100), Forced())
    assert after.pips == 1


def test_once_the_general_is_lost_every_move_costs_2_pips() -> None:
    state = battle(el("B1", "Lib", 600, 400, N), pips=3)  # no general's element on the table
    after, _ = play.apply(state, Move("B1", to=[[600, 600]]), Forced())
    assert after.pips == 1


def test_version_1_had_no_command_distance() -> None:
    state = battle(GENERAL, el("B1", "Lib", 2200, 400, N), pips=3, version="1")
    after, _ = play.apply(state, Move("B1", to=[[2200, 600]]), Forced())
    assert after.pips == 2
