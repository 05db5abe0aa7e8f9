"""Shortcuts (engine.war_galley.play.shortcuts, docs/orders.md): each saves a round trip, each with forced dice."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.play import dispatch as play
from engine.war_galley.play import legal, notation
from engine.war_galley.play.orders import parse_order
from engine.war_galley.play.shortcuts import crew_outcomes, standing_speed, uses_shortcut
from engine.war_galley.turn import activation
from engine.war_galley.turn.activation import CrewChecked
from engine.war_galley.turn.decisions import Activate, Individual, Initiative, Speed
from engine.war_galley.turn.state import Phase
from tests.engine.war_galley.game_support import decide, g, run, skirmish
from tests.engine.war_galley.turn.test_activation import individual_phase

FREE = Activate(side="rome", squadron="R5-53", plans=(parse_order("R5-53 cruise 3: F F F"),))
HELD = Activate(side="rome", squadron="R5-53", plans=(parse_order("R5-53 cruise 1: F"),))


def crew_checked(events: list) -> bool:
    return next(e.free for e in events if isinstance(e, CrewChecked))


def test_crew_check_free_carries_out_the_free_alternative_in_the_same_decision() -> None:
    state = individual_phase()
    start = state.galley(g("R5-53")).position
    decision = Individual(side="rome", galley=g("R5-53"), if_free=FREE, if_held=HELD)
    state, events = decide(state, decision, 3)  # Crew 3: free
    assert crew_checked(events) is True
    assert state.current is None and "R5-53" in state.activated
    assert state.galley(g("R5-53")).position != start
    assert play.pending(state).side != "rome" or play.pending(state).kind != "activate"


def test_failed_crew_check_carries_out_the_held_alternative() -> None:
    state = individual_phase(G5_14="3017-3016")  # three hexes ahead: a held galley may not close
    state = state.with_galley(replace(state.galley(g("R5-53")), speed=SpeedSide.MAXIMUM))
    free = Activate(side="rome", squadron="R5-53", plans=(parse_order("R5-53 max 1: F"),))
    decision = Individual(side="rome", galley=g("R5-53"), if_free=free, if_held=HELD)
    state, events = decide(state, decision, 4)
    assert crew_checked(events) is False
    assert state.current is None and state.galley(g("R5-53")).speed is SpeedSide.CRUISE
    assert str(state.galley(g("R5-53")).position.bow) == "3019"


def test_an_alternative_is_checked_before_the_die_against_the_state_its_result_leaves() -> None:
    state = individual_phase(G5_14="3017-3016")
    bad_held = Activate(side="rome", squadron="R5-53", plans=(parse_order("R5-53 cruise 2: F F"),))
    with pytest.raises(IllegalOrder, match=r"5\.31: if held"):
        play.apply(state, Individual(side="rome", galley=g("R5-53"), if_free=HELD, if_held=bad_held), ForcedDice())
    other = Activate(side="rome", squadron="Catulus")
    with pytest.raises(IllegalOrder, match="if free: the activation is R5-53's"):
        play.apply(state, Individual(side="rome", galley=g("R5-53"), if_free=other), ForcedDice())


@pytest.mark.parametrize(("face", "free"), [(3, True), (4, False)])
def test_the_shortcut_leaves_what_deciding_after_the_die_leaves(face: int, free: bool) -> None:
    """The chosen alternative goes on from the state it was checked against, without a second check:
    the same state and events as the two decisions a player without the shortcut would send."""
    state = individual_phase(G5_14="3014-3013")
    shortcut, events = decide(state, Individual(side="rome", galley=g("R5-53"), if_free=FREE, if_held=HELD), face)
    after, first = decide(state, Individual(side="rome", galley=g("R5-53")), face)
    assert crew_checked(first) is free
    after, then = decide(after, FREE if free else HELD)
    assert shortcut == after
    assert events == first + then


def test_a_missing_alternative_is_decided_after_the_die_as_without_the_shortcut() -> None:
    state = individual_phase(G5_14="3017-3016")
    state, events = decide(state, Individual(side="rome", galley=g("R5-53"), if_free=HELD), 4)  # held
    assert crew_checked(events) is False
    assert state.current is not None and state.current.restricted
    assert play.pending(state).kind == "activate" and play.pending(state).side == "rome"


@pytest.mark.parametrize("crew", [1, 3, 5, 6])
def test_the_crew_checks_outcomes_are_those_of_every_face(crew: int) -> None:
    """crew_outcomes applies once per result, not per face: the same states as trying faces 1-6 and keeping
    the first of each result."""
    state = individual_phase()
    galley = state.galley(g("R5-53"))
    state = state.with_galley(replace(galley, ratings=replace(galley.ratings, crew=crew)))
    plain = Individual(side="rome", galley=g("R5-53"))
    every_face: dict[bool, object] = {}
    for face in range(1, 7):
        after, events = activation.apply_individual(state, plain, ForcedDice(face))
        every_face.setdefault(crew_checked(events), after)
    assert crew_outcomes(state, plain) == every_face
    assert set(every_face) == ({True} if crew == 6 else {True, False})


def test_the_crew_check_notation_round_trips() -> None:
    for text in ("individual R5-53: free: R5-53 max 6: F F R:G5-14 | held: R5-53 cruise 2: F F",
                 "individual R5-53: held: nothing",
                 "individual R5-53: free: R5-53 cruise 1: F; R5-53 fire G5-14"):
        decision = notation.parse_decision(text, "rome")
        assert uses_shortcut(decision)
        assert notation.format_decision(decision) == text
        assert notation.parse_decision(notation.format_decision(decision), "rome") == decision
    assert notation.parse_decision("individual R5-53: held: nothing", "rome").if_held == Activate(
        side="rome", squadron="R5-53")


def test_the_listing_offers_the_crew_check_with_alternatives_and_each_applies() -> None:
    state = individual_phase()
    offered = [d for d in legal.legal(state) if isinstance(d, Individual) and uses_shortcut(d)]
    assert offered
    for decision in offered:
        for face in range(1, 7):
            after, _ = play.apply(state, decision, ForcedDice(*[face] + [3] * 40))
            assert after.current is None or after.current.squadrons != (str(decision.galley),) or \
                (decision.if_free if face <= 3 else decision.if_held) is None


def test_the_crew_check_listing_plans_each_galley_once_and_lists_what_fresh_planning_lists(monkeypatch) -> None:
    # Both results of the Crew check leave the galleys where they were: the planner's end positions of
    # the first serve the second (engine.war_galley.play.legal._horizon), and change nothing listed.
    legal._REACHES.clear()
    state = individual_phase(G5_14="3017-3016")
    planned: list[object] = []
    real = legal.end_positions
    monkeypatch.setattr(legal, "end_positions", lambda around, galley: planned.append(galley.id) or real(around, galley))
    kept = legal.legal(state)
    assert planned and len(planned) == len(set(planned))
    monkeypatch.setattr(legal, "_horizon", lambda around, galley: None)
    assert legal.legal(state) == kept


def speed_phase():
    state, _, _ = run(skirmish(), 4, 2)
    state, _ = decide(state, Initiative(side="rome", first="rome"))
    assert play.pending(state).kind == "speed" and play.pending(state).side == "rome"
    return state


def test_standing_speed_choice_is_applied_when_the_alternation_comes_back() -> None:
    state = speed_phase()
    state, _ = decide(state, Speed(side="rome", squadron="Catulus", rest="cruise"))
    assert standing_speed(state, "rome") == "cruise"
    assert play.pending(state).side == "carthage"
    state, events = decide(state, Speed(side="carthage", squadron="Hanno"))
    # Rome's next squadron was set by its standing choice: Carthage decides again in the same file.
    assert [e.squadron for e in events if type(e).__name__ == "SpeedChosen"] == ["Hanno", "Metellus"]
    assert play.pending(state).side == "carthage"
    state, events = decide(state, Speed(side="carthage", squadron="Gisgo"))
    assert "R5-53" in state.speed_set and standing_speed(state, "rome") is None
    while play.pending(state).kind == "speed":
        state, _ = decide(state, Speed(side="carthage", squadron=next(
            s.key for s in state.squadrons if s.side == "carthage" and s.key not in state.speed_set)))
    assert state.phase is Phase.COMMAND
    assert all(state.galley(gid).speed is SpeedSide.CRUISE for s in state.squadrons if s.side == "rome"
               for gid in s.galleys)


def test_standing_maximum_puts_every_galley_that_may_go_to_maximum() -> None:
    state = speed_phase()
    state, _ = decide(state, Speed(side="rome", squadron="Catulus", rest="max"))
    state, _ = decide(state, Speed(side="carthage", squadron="Hanno"))
    metellus = next(s for s in state.squadrons if s.key == "Metellus")
    assert all(state.galley(gid).speed is SpeedSide.MAXIMUM for gid in metellus.galleys)


def test_standing_speed_notation_and_refusal() -> None:
    for text in ("speed Catulus: cruise; rest: cruise", "speed Catulus: max R5-50; rest: max"):
        assert notation.format_decision(notation.parse_decision(text, "rome")) == text
    with pytest.raises(IllegalOrder, match="6.12"):
        play.apply(speed_phase(), Speed(side="rome", squadron="Catulus", rest="fast"), ForcedDice())
    with pytest.raises(ValueError, match="rest: cruise"):
        notation.parse_decision("speed Catulus: cruise; rest: fast", "rome")


# --- 8.21: boarding declared with the activation ---------------------------------------------------


def test_boarding_declared_with_the_grapple_is_carried_out_when_the_grapple_holds() -> None:
    from engine.war_galley.manpower_combat.boarding import Captured
    from engine.war_galley.turn.state import Segment
    from tests.engine.war_galley.test_integration_combat import apply, of, order
    from tests.engine.war_galley.test_integration_manpower import alongside

    state = alongside()
    decision = order(state, "activate Metellus: R5-52 grapple G5-13; then board: R5-52 G5-13")
    assert uses_shortcut(decision) and decision.board
    state, events = apply(state, decision, 6, 6, 6)  # the grapple holds; M4 against M4 captures
    assert of(events, Captured) and state.segment is Segment.PHASE_PASS
    assert state.controller(state.galley(g("G5-13"))) == "rome"


def test_boarding_declared_lapses_when_the_grapple_fails_and_nothing_is_asked() -> None:
    from engine.war_galley.turn.movement_segment import OrderLapsed
    from tests.engine.war_galley.test_integration_combat import apply, of, order
    from tests.engine.war_galley.test_integration_manpower import alongside

    state = alongside()
    state, events = apply(state, order(state, "activate Metellus: R5-52 grapple G5-13; then board: R5-52 G5-13"), 1)
    assert [e.order for e in of(events, OrderLapsed)] == ["boarding"]
    assert play.pending(state).kind != "board"


def test_board_nothing_skips_the_segment_and_bad_parties_are_refused_before_the_die() -> None:
    from engine.war_galley.turn.boarding_segment import NoBoarding
    from tests.engine.war_galley.test_integration_combat import apply, of, order
    from tests.engine.war_galley.test_integration_manpower import alongside

    state = alongside()
    after, events = apply(state, order(state, "activate Metellus: R5-52 grapple G5-13; then board nothing"), 6)
    assert of(events, NoBoarding) and play.pending(after).kind != "board"
    with pytest.raises(IllegalOrder, match="8.21: then board: R5-50 is not in the activated squadron"):
        play.apply(state, order(state, "activate Metellus: R5-52 grapple G5-13; then board: R5-50 G5-13"),
                   ForcedDice())
    with pytest.raises(IllegalOrder, match="then board: R5-50 is not an enemy galley"):
        play.apply(state, order(state, "activate Metellus: R5-52 grapple G5-13; then board: R5-52 R5-50"),
                   ForcedDice())


def test_the_demo_player_uses_the_shortcuts_only_when_told() -> None:
    import random

    from engine.war_galley.play import agent

    state = individual_phase()
    with_ = agent.choose(state, "rome", random.Random(1))
    without = agent.choose(state, "rome", random.Random(1), shortcuts=False)
    assert isinstance(with_, Individual) and uses_shortcut(with_)
    assert not uses_shortcut(without)


def test_the_first_listed_decision_comes_without_the_examples_listed_after_it(monkeypatch) -> None:
    # legal.each_legal: do-nothing play takes the first answer; the Crew check's examples come later
    state = individual_phase()
    first = legal.legal(state)[0]

    def unwanted(*_: object) -> list[object]:
        raise AssertionError("the examples were listed")

    monkeypatch.setattr(legal.legal_shortcuts, "individual_examples", unwanted)
    assert next(legal.each_legal(state)) == first and isinstance(first, Individual) and not uses_shortcut(first)
