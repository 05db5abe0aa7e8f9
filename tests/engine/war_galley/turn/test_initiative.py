"""Turn Initiative (3.2, 5.13) and the scenario overrides."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder, WrongPlayer
from engine.events import DieRolled
from engine.war_galley.battles.scenario_files import BATTLES_DIR
from engine.war_galley.battles.setup import new_game
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data
from engine.war_galley.play import dispatch as play
from engine.war_galley.turn.activation import allowed, double_options
from engine.war_galley.turn.decisions import Double, Initiative
from engine.war_galley.turn.initiative import InitiativeWon, roll_initiative
from tests.engine.war_galley.game_support import SKIRMISH, at, commander, decide, g, run, skirmish, to_command_phase


def test_one_die_plus_the_admirals_initiative_high_total_chooses() -> None:
    state, events, _ = run(skirmish(), 1, 5)  # Rome 1 + 3 = 4, Carthage 5 + 1 = 6
    rolls = [e for e in events if isinstance(e, DieRolled)]
    assert [(r.natural, r.modifiers, r.adjusted) for r in rolls] == [
        (1, (("Admiral Catulus's Initiative", 3),), 4),
        (5, (("Admiral Hanno's Initiative", 1),), 6),
    ]
    assert state.initiative == "carthage" and play.pending(state).side == "carthage"


def test_ties_roll_again() -> None:
    state, events, _ = run(skirmish(), 1, 3, 2, 1)  # 4 v 4, then 5 v 2
    ties = [e for e in events if isinstance(e, InitiativeWon)]
    assert [t.side for t in ties] == ["", "rome"]
    assert state.initiative == "rome"


def test_the_winners_one_choice_applies_to_d_e_and_f() -> None:
    state, _, _ = run(skirmish(), 4, 2)
    with pytest.raises(WrongPlayer):
        play.apply(state, Initiative(side="carthage", first="rome"), None)
    with pytest.raises(IllegalOrder, match="3.2"):
        play.apply(state, Initiative(side="rome", first="persians"), None)
    state, _ = decide(state, Initiative(side="rome", first="carthage"))
    assert state.first == "carthage" and play.pending(state).side == "carthage"  # D
    state = to_command_phase(skirmish(), first="carthage")
    assert state.to_move == "carthage"  # E


def test_the_scenario_may_give_the_first_turns_initiative() -> None:
    text = SKIRMISH.replace('first_turn = "roll"', 'first_turn = "side"\nside = "carthage"')
    state, events, _ = run(skirmish(text))  # no dice at all
    assert state.initiative == "carthage"
    assert [e.given for e in events if isinstance(e, InitiativeWon)] == [True]
    # From turn 2 it is rolled again.
    later, events = roll_initiative(replace(state, turn=2, initiative=None), ForcedDice(2, 6))
    assert later.initiative == "carthage" and len([e for e in events if isinstance(e, DieRolled)]) == 2


def test_a_fleet_without_an_admiral_rolls_at_minus_one_lade() -> None:
    state = new_game((BATTLES_DIR / "lade.toml").read_bytes(), default_rules_data(), {})
    assert state.first_turn_initiative == "ionians"
    state = commander(at(state, "G3-1", "2007-2006"), "Aeaces", galley=g("G3-1"))
    state, events = roll_initiative(replace(state, turn=2), ForcedDice(3, 4))
    persians, ionians = [e for e in events if isinstance(e, DieRolled)]
    assert persians.modifiers == (("Admiral Aeaces's Initiative", 2),) and persians.adjusted == 5
    assert ionians.modifiers == (("no admiral (scenario)", -1),) and ionians.adjusted == 3
    assert state.initiative == "persians"


def test_several_admirals_the_best_rolls_and_his_squadron_goes_first() -> None:
    text = SKIRMISH.replace(
        '{ name = "Metellus", rank = "squadron", command_range = 1, re_command_range = 0 }',
        '{ name = "Metellus", rank = "admiral", command_range = 1, re_command_range = 0, initiative = 1, re_initiative = 0 }',
    )
    state = to_command_phase(skirmish(text), first="rome")
    assert state.initiative_admiral == "Catulus"
    assert allowed(state, "rome") == [("Catulus", None)]  # 5.13
    other = to_command_phase(skirmish(text), first="carthage")
    assert sorted(allowed(replace(other, to_move="rome"), "rome")) == [("Catulus", None), ("Metellus", None)]


def test_5_13_the_other_admiral_may_not_double_activate_ahead_of_the_one_rolled_for_initiative() -> None:
    """5.13: "the Admiral used to affect the Initiative die roll must be the one whose squadron goes first".
    Metellus (an admiral too, range 2) on R5-51 two hexes from Catulus: each could Double Activate with the
    other's squadron (5.42), but Rome won with Catulus and goes first, so only Catulus may try it."""
    text = SKIRMISH.replace(
        '{ name = "Metellus", rank = "squadron", command_range = 1, re_command_range = 0 }',
        '{ name = "Metellus", rank = "admiral", command_range = 2, re_command_range = 1, initiative = 1, re_initiative = 0 }',
    )
    state = commander(skirmish(text), "Metellus", galley=g("R5-51"))
    state = to_command_phase(state, first="rome")
    assert state.initiative_admiral == "Catulus"
    assert double_options(state, "rome") == [("Catulus", "Metellus")]
    with pytest.raises(IllegalOrder, match="5.42"):
        play.apply(state, Double(side="rome", other="Catulus"), ForcedDice(1))
    other = to_command_phase(commander(skirmish(text), "Metellus", galley=g("R5-51")), first="carthage")
    rome = replace(other, to_move="rome")
    assert sorted(double_options(rome, "rome")) == [("Catulus", "Metellus"), ("Metellus", "Catulus")]
