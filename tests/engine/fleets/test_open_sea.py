"""The open sea's set-up as DBA players expect it (version 3, docs/fleets-rules.md 1.5): DBA 2.2 has both players
dice for aggression, the higher invading (attacking), then the defender lays out the terrain; here each chooses a
twelve-element fleet of the five types, one the general's, the defender first."""

from __future__ import annotations

import pytest

from engine.fleets import choosing, legal
from engine.fleets.decisions import ChooseFleet
from engine.fleets.errors import FleetsError, IllegalOrder, ScenarioError
from engine.fleets.ruleset import RULESET
from tests.engine.fleets.support import Forced

FLEET = ["Lib"] * 6 + ["Cat"] * 4 + ["Lng", "Tr"]


def _open(version: str = "3"):  # type: ignore[no-untyped-def]
    ruleset = RULESET.at_version(version)
    return ruleset.new_game(ruleset.builtin_scenario("open-sea") or b"", ruleset.default_rules_data(), {})


def test_the_higher_aggression_die_attacks_and_equal_dice_are_rolled_again() -> None:
    state = _open()
    assert RULESET.pending(state).kind == "aggression"
    after, events = RULESET.advance(state, Forced(4, 4, 5, 2))  # blue 4 red 4: again; blue 5 red 2
    assert (after.attacker, after.defender, after.phase) == ("blue", "red", "fleet-defender")
    assert RULESET.describe_event(events[0], after) == "Aggression dice: Blue 4, Red 4; Blue 5, Red 2: the Blue attack"
    after, _ = RULESET.advance(state, Forced(1, 6))
    assert after.attacker == "red" and RULESET.pending(after).side == "blue"


def test_each_fleet_is_chosen_then_the_defender_lays_out_the_terrain() -> None:
    state, _ = RULESET.advance(_open(), Forced(1, 6))  # red attacks; blue, the defender, chooses first
    state, _ = RULESET.apply(state, RULESET.parse_order("fleet " + " ".join(FLEET) + " general 7", state), Forced())
    blue = [e for e in state.to_place if e.side == "blue"]
    assert [e.type for e in blue] == FLEET and [e.id for e in blue if e.general] == ["B7"]
    assert state.side("blue").general == "B7" and RULESET.pending(state).side == "red"
    state, _ = RULESET.apply(state, ChooseFleet(["Lib"] * 12), Forced())
    assert state.phase == "terrain" and RULESET.pending(state).side == "blue"
    assert state.side("red").general == "R1"


def test_a_fleet_is_twelve_elements_of_the_five_types_with_one_general() -> None:
    state, _ = RULESET.advance(_open(), Forced(1, 6))
    for order, words in ((ChooseFleet(["Lib"] * 11), "a fleet of 12 elements, not 11"),
                         (ChooseFleet(["Lib"] * 11 + ["Bireme"]), "no element type 'Bireme'"),
                         (ChooseFleet(["Lib"] * 12, 13), "general 1 to 12")):
        with pytest.raises(IllegalOrder, match=words):
            RULESET.apply(state, order, Forced())
    listed = [d for d in legal.legal(state) if isinstance(d, ChooseFleet)]
    assert len(listed) == 4 and all(len(d.types) == 12 for d in listed)
    assert choosing.size(state, "blue") == 12


def test_games_begun_before_keep_the_fixed_fleets() -> None:
    with pytest.raises(ScenarioError, match="need fleets version 3"):
        _open("2")
    old = RULESET.at_version("2")
    data = old.scenario_by_hash("open-sea", "410884fbcaf0cc07ba83ce14cc169c90fcae915ef0995b7279ce7f09ae3b5a12")
    assert data is not None and old.new_game(data, old.default_rules_data(), {}).phase == "terrain"
    with pytest.raises(FleetsError):
        RULESET.apply(RULESET.advance(_open(), Forced(1, 6))[0], ChooseFleet(["Lib"] * 12, 0), Forced())
