"""Crew Fatigue (6.14, 6.42-6.45, 6.52, 7.36) and the 6.37 play note."""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.events import DieRolled
from engine.war_galley.map_and_galleys.galley import MoveRecord
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.speed import maximum_barred, speed_limit
from engine.war_galley.play.orders import parse_order
from engine.war_galley.turn import fatigue
from engine.war_galley.turn.decisions import Activate
from tests.engine.war_galley.game_support import SKIRMISH, decide, g, skirmish, to_command_phase


def example_galley(state, crew: int = 3):
    """6.43's galley: Cruise Speed 4, Maximum Speed 6, Crew 3."""
    galley = state.galley(g("R5-50"))
    ratings = replace(galley.ratings, crew=crew, maximum=replace(galley.ratings.maximum, speed=6))
    return state.with_galley(replace(galley, ratings=ratings))


def test_6_43_example_5_mp_and_a_3_is_no_effect() -> None:
    state = to_command_phase(example_galley(skirmish()), maximum=("R5-50",))
    state, events = decide(state, Activate(side="rome", squadron="Catulus", plans=(parse_order("R5-50 max 5: 5F"),)), 3)
    roll = next(e for e in events if isinstance(e, DieRolled))
    assert (roll.natural, roll.adjusted, roll.outcome) == (3, 4, "No Effect")
    assert roll.modifiers == (("5 MP used, Cruise Speed 4", 1),)
    assert state.galley(g("R5-50")).fatigue == 0


def test_6_43_example_6_mp_and_a_5_is_fatigued_2() -> None:
    state = to_command_phase(example_galley(skirmish()), maximum=("R5-50",))
    state, events = decide(state, Activate(side="rome", squadron="Catulus", plans=(parse_order("R5-50 max 6: 6F"),)), 5)
    roll = next(e for e in events if isinstance(e, DieRolled))
    assert (roll.natural, roll.adjusted, roll.outcome) == (5, 7, "F-2")
    galley = state.galley(g("R5-50"))
    assert galley.fatigue == 2 and galley.speed is SpeedSide.CRUISE  # flipped at once (6.12)
    # 6.44's example: with an F-2 marker, the highest possible Speed next turn is 2; no Maximum.
    assert speed_limit(galley, SpeedSide.CRUISE).mp == 2
    assert maximum_barred(galley) is not None


def test_6_14_a_galley_that_began_at_maximum_checks_whatever_it_used() -> None:
    state = to_command_phase(skirmish(), maximum=("R5-50", "R5-51"))
    state, events = decide(state, Activate(side="rome", squadron="Catulus", plans=(parse_order("R5-50 max 2: F F"),)),
                           1, 2)
    rolls = [e for e in events if isinstance(e, DieRolled)]
    assert [r.table for r in rolls] == ["Fatigue (Crew 3)"] * 2
    assert [r.modifiers for r in rolls] == [(), ()]  # no MP beyond Cruise: no DRM


def test_6_42_a_galley_without_orders_is_not_charged_an_earlier_activations_mp() -> None:
    state = to_command_phase(skirmish(), maximum=("R5-50", "R5-51"))
    state = state.with_galley(replace(state.galley(g("R5-51")), moved=MoveRecord(7, 7, 0, False, False)))
    state, events = decide(state, Activate(side="rome", squadron="Catulus", plans=(parse_order("R5-50 max 2: F F"),)),
                           1, 2)
    rolls = [e for e in events if isinstance(e, DieRolled)]
    assert [r.modifiers for r in rolls] == [(), ()]  # R5-51 used no MP now: no +3 from an earlier turn's 7


def test_ram_and_rake_attempts_each_add_one() -> None:
    state = skirmish()
    galley = state.galley(g("R5-50"))
    state = state.with_galley(replace(galley, moved=MoveRecord(6, 6, 0, False, False), speed=SpeedSide.MAXIMUM))
    state, events = fatigue.check(state, g("R5-50"), ForcedDice(1), ram_attempt=True, rake_attempt=True)
    roll = events[0]
    assert isinstance(roll, DieRolled)
    assert roll.modifiers == (("6 MP used, Cruise Speed 4", 2), ("made a Ram attempt", 1), ("made a Rake attempt", 1))
    assert roll.adjusted == 5 and state.galley(g("R5-50")).fatigue == 2  # Crew 3 on 5: F-2


def test_automatic_fatigue_avoidance_f2_and_anastrophe_row_7a() -> None:
    state = skirmish()
    state, events = fatigue.after_avoidance(state, g("R5-50"))
    assert state.galley(g("R5-50")).fatigue == 2 and events[0].rule == "6.52"
    state = example_galley(state, crew=2)
    galley = state.galley(g("R5-51"))
    state = state.with_galley(replace(galley, ratings=replace(galley.ratings, crew=2)))
    state, events = fatigue.after_anastrophe(state, g("R5-51"))
    assert state.galley(g("R5-51")).fatigue == 3 and events[0].rule == "7.36"  # "a 2-Crew ... an automatic F3"


def test_6_45_recovery_one_step_a_turn_and_not_in_the_turn_it_came() -> None:
    state = skirmish()
    state, _ = fatigue.after_anastrophe(state, g("R5-50"))  # Crew 3: F-2 on row 7A
    state = state.with_galley(replace(state.galley(g("R5-51")), fatigue=3))
    state, events = fatigue.recover(state)
    assert [(str(e.galley), e.level) for e in events] == [("R5-51", 2)]
    levels = []
    for _ in range(3):
        state, _ = fatigue.recover(state)
        levels.append((state.galley(g("R5-50")).fatigue, state.galley(g("R5-51")).fatigue))
    assert levels == [(1, 1), (0, 0), (0, 0)]


def test_6_37_play_note_the_most_limiting_result() -> None:
    galley = replace(skirmish().galley(g("R5-50")), half_speed=True, fatigue=1)
    assert speed_limit(galley, SpeedSide.CRUISE).mp == 2
    assert speed_limit(replace(galley, fatigue=3), SpeedSide.CRUISE).mp == 1


def test_7_16_half_speed_comes_off_at_the_end_of_the_activation_even_without_orders() -> None:
    state = to_command_phase(skirmish())
    state = state.with_galley(replace(state.galley(g("R5-51")), half_speed=True))
    state, _ = decide(state, Activate(side="rome", squadron="Catulus", plans=(parse_order("R5-50 cruise 1: F"),)))
    assert not state.galley(g("R5-51")).half_speed


# Rome's second galley is a Tremiola (Cruise 4, Maximum 7, Crew 3), with a wind it may sail by (6.25).
TREMIOLA_SKIRMISH = (
    SKIRMISH.replace('galleys = [{ galleys = "5#50-53" }]',
                     'galleys = [{ galleys = "5#50" }, { galleys = "Trm#1" }, { galleys = "5#52-53" }]')
    .replace('galleys = ["5#50-53"]', 'galleys = ["5#50", "Trm#1", "5#52-53"]')
    .replace('[wind]\nmode = "none"', '[wind]\nmode = "steady"\nmarker = "2021"\ntoward = "2020"\nsails = ["rome"]')
)


def test_6_22_the_winds_mp_incur_no_fatigue_a_tremiola_at_maximum_under_sail() -> None:
    """6.22: the sail's MP come "without incurring Fatigue"; 6.25 gives a Tremiola its +2 "for Wind
    Assistance [6.22]" at Maximum too. So 9 MP at Maximum 7 + 2 are 3 beyond Cruise 4 for 6.42, not 5."""
    state = to_command_phase(skirmish(TREMIOLA_SKIRMISH), maximum=("RTrm-1",))
    plan = parse_order("RTrm-1 max 9: SU F F F F F F F F F")
    state, events = decide(state, Activate(side="rome", squadron="Catulus", plans=(plan,)), 1)
    roll = next(e for e in events if isinstance(e, DieRolled) and e.rule == "6.42")
    assert roll.modifiers == (("9 MP used, Cruise Speed 4 + 2 by the wind", 3),)
    assert (roll.adjusted, state.galley(g("RTrm-1")).fatigue) == (4, 0)  # Crew 3 on 4: No Effect (on 6: F-2)


def test_6_42_play_note_fatigue_is_checked_only_for_activated_galleys_in_their_segment() -> None:
    """6.42 play note: "Fatigue is only checked for activated galleys and only in their movement segment."
    Carthage moving checks none of Rome's galleys at Maximum; Catulus' activation checks his R5-50, not
    Metellus' R5-52 (another squadron, still to activate)."""
    state = to_command_phase(skirmish(), first="carthage", maximum=("R5-50", "R5-52"))
    state, events = decide(state, Activate(side="carthage", squadron="Hanno"))
    assert not [e for e in events if isinstance(e, DieRolled)]
    state, events = decide(state, Activate(side="rome", squadron="Catulus",
                                           plans=(parse_order("R5-50 max 1: F"),)), 6)
    assert [r.table for r in events if isinstance(r, DieRolled)] == ["Fatigue (Crew 3)"]
    assert [str(e.galley) for e in events if isinstance(e, fatigue.Fatigued)] == ["R5-50"]
    assert state.galley(g("R5-52")).speed is SpeedSide.MAXIMUM and state.galley(g("R5-52")).fatigue == 0
