"""The one legal-order generator: listed orders all pass the rules' own check; kinds give the bounds in words."""

from __future__ import annotations

from engine.fleets import legal, play
from engine.fleets.decisions import Back, Drift, End, Move
from tests.engine.fleets.support import N, S, Forced, battle, el


def test_listed_orders_pass_apply_and_include_every_drift_contact_and_end() -> None:
    state = battle(el("B1", "Lib", 1200, 700, N), el("B2", "Wr", 1600, 700, N), el("R1", "Cat", 1200, 1000, S), wind="E")
    options = legal.legal(state)
    for option in options:
        play.apply(state, option, Forced())  # raises if the generator listed an illegal order
    assert Drift("B1") in options and Drift("B2") in options and End() in options
    assert Move("B1", contact="R1") in options


def test_a_transport_is_never_listed_into_contact_and_a_galley_in_contact_only_backs() -> None:
    state = battle(el("B1", "Tr", 1200, 700, N), el("B2", "Lib", 1600, 800, N), el("R1", "Cat", 1200, 1000, S),
                   el("R2", "Cat", 1600, 960, S), wind="E")
    options = legal.legal(state)
    assert not any(isinstance(o, Move) and o.id == "B1" and o.contact for o in options)
    b2 = [o for o in options if getattr(o, "id", None) == "B2" or "B2" in getattr(o, "ids", [])]
    assert b2 and all(isinstance(o, (Back, Drift)) for o in b2)


def test_no_pips_leaves_drift_and_end() -> None:
    state = battle(el("B1", "Lib", 1200, 700, N), el("R1", "Cat", 1200, 1200, S), pips=0)
    assert legal.legal(state) == [Drift("B1"), End()]


def test_kinds_state_the_bounds() -> None:
    state = battle(el("B1", "Lng", 1200, 700, N), el("B2", "Lib", 1600, 800, N), el("R1", "Cat", 1600, 960, S))
    words = "\n".join(legal.kinds(state))
    assert "B1 Lng at 1200,700 facing N" in words and "300p, 200p if any part upwind or in shallows, 400p all with the wind astern" in words
    assert "B2 Lib" in words and "in contact" in words and "back D" in words
