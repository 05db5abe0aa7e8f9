"""The sequence of play (3.1): two whole turns A-H of a small battle, scripted with forced dice."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder, WrongPlayer
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.speed import speed_limit
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.legal import legal
from engine.war_galley.play.orders import parse_order
from engine.war_galley.turn import sequence
from engine.war_galley.turn.activation import Activated
from engine.war_galley.turn.decisions import Activate, Individual, Initiative, Speed
from engine.war_galley.turn.fatigue import Fatigued, Recovered
from engine.war_galley.turn.sequence import SpeedChosen
from engine.war_galley.turn.state import Phase, PhaseBegan, Segment
from engine.war_galley.turn.status import MarkerRemoved
from tests.engine.war_galley.game_support import decide, g, run, skirmish


def phases(events: list) -> list[str]:
    return [f"{e.phase.value}{'/' + e.segment.value if e.segment.value else ''}" for e in events
            if isinstance(e, PhaseBegan)]


def asked(state) -> tuple[str | None, str]:
    p = play.pending(state)
    return p.side, p.kind


def test_two_turns_a_to_h() -> None:
    state = skirmish()
    state = state.with_galley(replace(state.galley(g("R5-51")), mast_down=True))
    assert state.phase is Phase.DEPLOYMENT and asked(state) == (None, "automatic")
    state, events, _ = run(state, 4, 2)  # C: Rome 4+3, Carthage 2+1
    assert phases(events) == ["A", "B", "C"]
    assert state.turn == 1 and state.initiative == "rome"
    assert asked(state) == ("rome", "initiative")
    with pytest.raises(WrongPlayer):
        play.apply(state, Initiative(side="carthage", first="carthage"), None)

    state, events = decide(state, Initiative(side="rome", first="rome"))
    assert phases(events) == ["D"] and state.first == "rome"
    # D: by squadron, alternating, Rome first (6.12); Rome has 3 squadrons, Carthage 3.
    order = []
    for side, squadron, maximum in [
        ("rome", "Catulus", ("R5-50",)), ("carthage", "Hanno", ()), ("rome", "Metellus", ()),
        ("carthage", "Gisgo", ()), ("rome", "R5-53", ()), ("carthage", "G5-14", ()),
    ]:
        order.append(asked(state))
        state, events = decide(state, Speed(side=side, squadron=squadron, maximum=tuple(g(x) for x in maximum)))
    assert order == [("rome", "speed"), ("carthage", "speed")] * 3
    assert phases(events) == ["E/E/1"]
    assert state.galley(g("R5-50")).speed is SpeedSide.MAXIMUM

    # E: Command Squadrons alternate from Rome; Catulus' Maximum galley checks Fatigue: 6 + 1 (5 MP) = 7: F-2.
    moves = [
        ("rome", Activate(side="rome", squadron="Catulus", plans=(parse_order("R5-50 max 5: 5F"),)), (6,)),
        ("carthage", Activate(side="carthage", squadron="Hanno"), ()),
        ("rome", Activate(side="rome", squadron="Metellus"), ()),
        ("carthage", Activate(side="carthage", squadron="Gisgo"), ()),
    ]
    for side, decision, faces in moves:
        assert asked(state) == (side, "activate")
        state, events = decide(state, decision, *faces)
        if decision.squadron == "Catulus":
            assert [e.level for e in events if isinstance(e, Fatigued)] == [2]
    assert phases(events) == ["F/E/1"]
    # F: Individual Squadrons alternate from the side that went first; each rolls its Crew check (5.31).
    assert asked(state) == ("rome", "individual")
    state, _ = decide(state, Individual(side="rome", galley=g("R5-53")), 2)
    assert asked(state) == ("rome", "activate")
    state, _ = decide(state, Activate(side="rome", squadron="R5-53", plans=(parse_order("R5-53 cruise 1: F"),)))
    assert asked(state) == ("carthage", "individual")
    state, _ = decide(state, Individual(side="carthage", galley=g("G5-14")), 4)
    # The last activation runs G and H, then turn 2's A, B and C (its initiative roll).
    state, events = decide(state, Activate(side="carthage", squadron="G5-14"), 1, 5)
    assert phases(events) == ["G", "G/G/1", "G/G/2", "G/G/3", "G/G/4", "H", "A", "B", "C"]
    # After G: Masts Down removed (G/2); the new F-2 is not reduced in its own turn (6.43-6.44).
    assert any(isinstance(e, MarkerRemoved) and e.galley == g("R5-51") for e in events)
    assert not any(isinstance(e, Recovered) for e in events)
    tired = state.galley(g("R5-50"))
    assert tired.fatigue == 2 and tired.speed is SpeedSide.CRUISE
    assert speed_limit(tired, SpeedSide.CRUISE).mp == 2  # 6.44's example: "highest possible Speed next turn is 2"
    assert state.turn == 2 and state.initiative == "carthage" and asked(state) == ("carthage", "initiative")
    assert state.activated == () and state.speed_set == ()

    # Turn 2, Carthage first, every squadron doing nothing: R5-50 alone in Catulus' squadron, Fatigued,
    # gets Cruise without a choice (6.12). In turn 2's G/3 its F-2 goes down to F-1 (6.45).
    state, events = decide(state, Initiative(side="carthage", first="carthage"))
    assert any(isinstance(e, SpeedChosen) and e.squadron == "Catulus" and e.automatic for e in events)
    seen = []
    dice = ForcedDice(*[1] * 12)
    while state.turn == 2:
        side, kind = asked(state)
        seen.append((side, kind))
        if kind == "speed":
            decision = next(d for d in legal(state) if isinstance(d, Speed) and not d.maximum)
        elif kind == "activate":
            decision = next(d for d in legal(state) if isinstance(d, Activate) and not d.plans)
        else:
            decision = legal(state)[0]
        state, events = play.apply(state, decision, dice)
        state, more = sequence.advance(state, dice)
        events += more
    assert seen[0] == ("carthage", "speed") and ("rome", "individual") in seen
    assert [e.level for e in events if isinstance(e, Recovered)] == [1]
    assert state.turn == 3 and state.initiative == "rome"


def test_squadrons_with_nothing_to_choose_get_cruise_without_a_turn() -> None:
    state = skirmish()
    for name in ("R5-50", "R5-51", "R5-52", "R5-53"):
        state = state.with_galley(replace(state.galley(g(name)), half_speed=True))
    state, _, _ = run(state, 4, 2)
    state, events = decide(state, Initiative(side="rome", first="rome"))
    automatic = [e.squadron for e in events if isinstance(e, SpeedChosen) and e.automatic]
    assert automatic == ["Catulus", "Metellus", "R5-53"]
    assert asked(state) == ("carthage", "speed")  # Rome has no choice left: Carthage chooses alone


def test_a_side_with_squadrons_left_finishes_alone() -> None:
    state = skirmish()
    state, _, _ = run(state, 4, 2)
    state, _ = decide(state, Initiative(side="rome", first="carthage"))
    for side, squadron in [("carthage", "Hanno"), ("rome", "Catulus"), ("carthage", "Gisgo"),
                           ("rome", "Metellus"), ("carthage", "G5-14"), ("rome", "R5-53")]:
        state, _ = decide(state, Speed(side=side, squadron=squadron))
    assert asked(state) == ("carthage", "activate")
    state = replace(state, squadrons=tuple(s for s in state.squadrons if s.key != "Gisgo"))
    for side, squadron in [("carthage", "Hanno"), ("rome", "Catulus"), ("rome", "Metellus")]:
        assert asked(state) == (side, "activate")
        state, events = decide(state, Activate(side=side, squadron=squadron))
    assert [e for e in events if isinstance(e, Activated)][0].squadrons == ("Metellus",)
    assert state.phase is Phase.INDIVIDUAL and state.segment is Segment.MOVEMENT
    assert asked(state) == ("carthage", "individual")


def test_no_decision_is_taken_when_none_is_due() -> None:
    state = skirmish()
    with pytest.raises(IllegalOrder, match="3.1"):
        play.apply(state, Initiative(side="rome", first="rome"), None)


def test_6_2_a_dead_calm_is_rolled_again_next_turn_and_the_wind_rises_from_the_one_it_stilled() -> None:
    from engine.events import DieRolled
    from engine.war_galley.map_and_galleys.hexes import Direction
    from engine.war_galley.movement.speed import Wind
    from engine.war_galley.turn.sequence import wind_phase
    from engine.war_galley.turn.state import Phase, WindRule
    from tests.engine.war_galley.game_support import skirmish

    blowing = Wind(Direction(0), 2)
    state = replace(skirmish(), wind_rule=WindRule(mode="variable", start=blowing), wind=blowing, turn=2,
                    phase=Phase.WIND)
    state, _ = wind_phase(state, ForcedDice(1, 1))  # 2: Dead Calm
    assert state.wind is None
    state = replace(state, turn=3, phase=Phase.WIND)
    dice = ForcedDice(5, 5)  # 10: the wind veers one hexside
    state, events = wind_phase(state, dice)
    assert dice.unused == [] and any(isinstance(e, DieRolled) and e.rule == "6.2" for e in events)
    assert state.wind == Wind(Direction(0).turn(1), 2)


def test_6_2_play_note_a_steady_wind_is_never_rolled_for() -> None:
    """6.2 play note: "Some scenarios state the direction of the Wind as steady throughout the battle. In that
    case, there is no need to check for Wind; it remains the same the entire game." """
    from engine.dice import NoDice
    from engine.war_galley.map_and_galleys.hexes import Direction
    from engine.war_galley.movement.speed import Wind
    from engine.war_galley.turn.sequence import wind_phase
    from engine.war_galley.turn.state import Phase, WindRule

    steady = Wind(Direction(2))
    state = replace(skirmish(), wind_rule=WindRule(mode="steady", start=steady), wind=steady, phase=Phase.WIND)
    for turn in range(2, 6):
        state, events = wind_phase(replace(state, turn=turn, phase=Phase.WIND), NoDice())  # type: ignore[arg-type]
        assert state.wind == steady and not [e for e in events if e.rule == "6.2"]
