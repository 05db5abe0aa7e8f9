"""The order of combats (version 2, docs/fleets-rules.md 7.1). DBA practice: the phasing player chooses the order
in which his elements' combats are fought; the fragment keeps it ("All moves ... in any order, at the discretion of
the moving player", and battles are "fought just like battles between armies"). He names it with his `end`."""

from __future__ import annotations

import pytest

from engine.fleets import play
from engine.fleets.decisions import End
from engine.fleets.errors import IllegalOrder
from engine.fleets.notation import format_decision, parse_decision
from tests.engine.fleets.support import N, S, Forced, battle, el

TWO_FIGHTS = (el("B1", "Lib", 800, 800, N, general=True), el("R1", "Lib", 800, 960, S),
              el("B2", "Lib", 1600, 800, N), el("R2", "Lib", 1600, 960, S))


def _fights(state):  # type: ignore[no-untyped-def]
    dice = Forced(3, 3, 3, 3)  # two ties: nobody moves, so only the order shows
    play.close_combat(state, dice)
    return [purpose for purpose, _ in dice.rolls]


def test_the_moving_player_names_the_order_of_combats() -> None:
    after, _ = play.apply(battle(*TWO_FIGHTS, wind="E"), End(["B2", "B1"]), Forced())
    assert _fights(after) == ["bound 1: B2 against R2", "bound 1: R2 against B2",
                              "bound 1: B1 against R1", "bound 1: R1 against B1"]
    after, _ = play.apply(battle(*TWO_FIGHTS, wind="E"), End(), Forced())
    assert _fights(after)[0] == "bound 1: B1 against R1"  # unnamed: the fleet's order


def test_only_elements_in_front_contact_may_be_named() -> None:
    state = battle(*TWO_FIGHTS, el("B3", "Lib", 2000, 400, N), wind="E")
    with pytest.raises(IllegalOrder, match=r"B3 is not an element of the moving fleet in front contact"):
        play.apply(state, End(["B3"]), Forced())
    with pytest.raises(IllegalOrder, match="R1 is not an element of the moving fleet"):
        play.apply(state, End(["R1"]), Forced())
    with pytest.raises(IllegalOrder, match="name each element once"):
        play.apply(state, End(["B1", "B1"]), Forced())
    with pytest.raises(IllegalOrder, match="version 1 fights in the fleet's order"):
        play.apply(battle(*TWO_FIGHTS, wind="E", version="1"), End(["B2"]), Forced())


def test_the_order_reads_and_writes() -> None:
    assert parse_decision("end fight b2 B1") == End(["B2", "B1"])
    assert format_decision(End(["B2", "B1"])) == "end fight B2 B1" and format_decision(End()) == "end"
