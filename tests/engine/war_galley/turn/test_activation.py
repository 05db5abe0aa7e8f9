"""Squadron Activation (5.31, 5.41, 5.42)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.events import DieRolled
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.orders import parse_order
from engine.war_galley.turn.activation import DoubleActivation, OrdersConfused, double_options
from engine.war_galley.turn.decisions import Activate, Double, Individual
from engine.war_galley.turn.state import Phase
from tests.engine.war_galley.game_support import at, decide, g, skirmish, to_command_phase


def double_ready(**kwargs: object):
    """Metellus' Command Ship R5-52 two hexes from Catulus' R5-50: within the Admiral's range 2."""
    state = at(at(skirmish(), "R5-52", "2220-2221"), "R5-51", "1820-1821")
    return to_command_phase(state, **kwargs)  # type: ignore[arg-type]


def test_a_squadron_may_do_nothing_and_still_counts_as_activated() -> None:
    state = to_command_phase(skirmish())
    state, _ = decide(state, Activate(side="rome", squadron="Catulus"))
    assert "Catulus" in state.activated and state.to_move == "carthage"
    with pytest.raises(IllegalOrder, match="5.41"):
        play.apply(replace(state, to_move="rome"), Activate(side="rome", squadron="Catulus"), ForcedDice())


def test_only_the_activated_squadrons_galleys_move() -> None:
    state = to_command_phase(skirmish())
    with pytest.raises(IllegalOrder, match="not in the activated squadron"):
        play.apply(state, Activate(side="rome", squadron="Catulus", plans=(parse_order("R5-52 cruise 1: F"),)),
                   ForcedDice())


def test_the_whole_decision_is_checked_before_any_die() -> None:
    state = to_command_phase(skirmish(), maximum=("R5-50",))
    good = parse_order("R5-50 max 3: F F F")
    bad = parse_order("R5-51 cruise 2: F")  # announces 2, spends 1 (6.13)
    dice = ForcedDice()  # no faces: the Fatigue check of R5-50 must not be reached
    with pytest.raises(IllegalOrder, match="6.13"):
        play.apply(state, Activate(side="rome", squadron="Catulus", plans=(good, bad)), dice)
    assert dice.rolls == []


def test_double_activation_success_moves_both_squadrons_in_one_phase() -> None:
    state = double_ready()
    assert double_options(state, "rome") == [("Catulus", "Metellus")]
    state, events = decide(state, Double(side="rome", other="Metellus"), 4)  # Initiative 3: 1-4 succeed
    assert [e.success for e in events if isinstance(e, DoubleActivation)] == [True]
    assert play.pending(state).side == "rome" and state.current is not None
    with pytest.raises(IllegalOrder, match="5.41"):
        play.apply(state, Activate(side="rome", squadron="Catulus"), ForcedDice())
    plans = (parse_order("R5-50 cruise 1: F"), parse_order("R5-52 cruise 2: F F"))
    state, _ = decide(state, Activate(side="rome", squadron="Catulus", also="Metellus", plans=plans))
    assert {"Catulus", "Metellus"} <= set(state.activated) and state.to_move == "carthage"
    assert double_options(replace(state, to_move="rome"), "rome") == []  # one attempt a turn


def test_double_activation_failure_orders_confusion_on_each_galley_of_the_other_squadron() -> None:
    state = at(double_ready(maximum=("R5-52",)), "R5-53", "2422-2423")
    state = replace(state, squadrons=tuple(
        replace(s, galleys=(g("R5-52"), g("R5-53"))) if s.key == "Metellus" else s
        for s in state.squadrons if s.key != "R5-53"))
    state, events = decide(state, Double(side="rome", other="Metellus"), 6, 5)  # fails; confusion 5
    confused = [e for e in events if isinstance(e, OrdersConfused)]
    assert [(str(e.galley), e.mp, e.cruise_only) for e in confused] == [("R5-52", -1, True), ("R5-53", -1, True)]
    assert [r.table for r in events if isinstance(r, DieRolled)] == ["Double Activation (Initiative 3)",
                                                                       "Orders Confusion"]
    assert state.galley(g("R5-52")).speed is SpeedSide.CRUISE
    # The non-Admiral squadron must go now, each galley one MP short of its Cruise Speed.
    with pytest.raises(IllegalOrder, match="5.41"):
        play.apply(state, Activate(side="rome", squadron="Catulus"), ForcedDice())
    with pytest.raises(IllegalOrder, match="5.42"):
        play.apply(state, Activate(side="rome", squadron="Metellus", plans=(parse_order("R5-52 cruise 4: 4F"),)),
                   ForcedDice())
    state, _ = decide(state, Activate(side="rome", squadron="Metellus", plans=(parse_order("R5-52 cruise 3: 3F"),)))
    # The Admiral's squadron goes later in the turn.
    state, _ = decide(state, Activate(side="carthage", squadron="Hanno"))
    assert play.pending(state).side == "rome"
    state, _ = decide(state, Activate(side="rome", squadron="Catulus"))
    assert "Catulus" in state.activated


def test_no_double_activation_without_an_admiral_or_out_of_his_range() -> None:
    state = double_ready()
    lade_like = replace(state, sides=(replace(state.sides[0], double_activation=False), state.sides[1]))
    assert double_options(lade_like, "rome") == []
    far = to_command_phase(skirmish())  # Metellus' ship 4 hexes from Catulus'
    assert double_options(far, "rome") == []
    with pytest.raises(IllegalOrder, match="5.42"):
        play.apply(far, Double(side="rome", other="Metellus"), ForcedDice())


def individual_phase(**positions: str):
    state = skirmish()
    for name, where in positions.items():
        state = at(state, name.replace("_", "-"), where)
    state = to_command_phase(state)
    while state.phase is Phase.COMMAND:
        side = play.pending(state).side
        key = next(s.key for s in state.squadrons if s.side == side and not s.individual and s.key not in state.activated)
        state, _ = decide(state, Activate(side=side, squadron=key))  # type: ignore[arg-type]
    return state


def test_individual_squadron_free_on_a_roll_at_most_its_crew() -> None:
    state = individual_phase()
    assert play.pending(state).kind == "individual"
    with pytest.raises(IllegalOrder, match="5.31"):
        play.apply(state, Activate(side="rome", squadron="R5-53"), ForcedDice())
    state, _ = decide(state, Individual(side="rome", galley=g("R5-53")), 3)  # Crew 3
    assert state.current is not None and not state.current.restricted


def test_failed_crew_check_cruise_and_never_adjacent_to_an_enemy() -> None:
    state = individual_phase(G5_14="3017-3016")  # bow three hexes ahead of R5-53 (3020-3021)
    state = state.with_galley(replace(state.galley(g("R5-53")), speed=SpeedSide.MAXIMUM))
    state, _ = decide(state, Individual(side="rome", galley=g("R5-53")), 4)
    assert state.current.restricted and state.galley(g("R5-53")).speed is SpeedSide.CRUISE
    with pytest.raises(IllegalOrder, match="5.31"):
        play.apply(state, Activate(side="rome", squadron="R5-53", plans=(parse_order("R5-53 cruise 2: F F"),)),
                   ForcedDice())
    state, _ = decide(state, Activate(side="rome", squadron="R5-53", plans=(parse_order("R5-53 cruise 1: F"),)))


def test_failed_crew_check_starting_adjacent_acts_as_in_command() -> None:
    state = individual_phase(G5_14="3019-3018")  # bow to bow with R5-53
    state, _ = decide(state, Individual(side="rome", galley=g("R5-53")), 6)
    assert not state.current.restricted


@pytest.mark.parametrize("die", [1, 6])  # Crew check free, held
def test_an_individual_galley_that_left_the_map_is_listed_and_checked_without_a_crash(die: int) -> None:
    # Sunk (or gone off the map) after phase B formed its Individual Squadron: 5.31's check still rolls
    # for it (the phase asks every squadron); held, it is near no enemy, so Cruise and kept from one, as
    # any held galley not adjacent; the listing's Crew check examples were an AssertionError here.
    from engine.war_galley.map_and_galleys.galley import Removal
    from engine.war_galley.play.legal import legal

    state = individual_phase()
    state = state.with_galley(replace(state.galley(g("R5-53")), position=None, removed=Removal.SUNK))
    assert Individual(side="rome", galley=g("R5-53")) in legal(state)
    after, _ = decide(state, Individual(side="rome", galley=g("R5-53")), die)
    assert after.current is not None and after.current.restricted == (die == 6)
    assert legal(after)  # its activation is listed too (it has nothing to move)
