"""Tournament play (10.0): fleets to a budget, committed in secret by both, then the set-up of 10.0."""

from __future__ import annotations

import random

import pytest

from engine.errors import IllegalOrder, RulesDataError
from engine.war_galley.battles import choices, tournament
from engine.war_galley.map_and_galleys.ratings import Ratings, SideRatings
from engine.war_galley.play.dispatch import pending
from engine.war_galley.play.legal import legal
from engine.war_galley.ruleset import RULESET
from engine.war_galley.turn import entry
from engine.war_galley.turn.decisions import to_json
from engine.war_galley.turn.state import Phase
from tests.engine.war_galley.scenario_support import SeededDice, apply, commit, new, opening

RED = "5#50-53; admiral Antony; leaders Publicola, Insteius"
GREEN = "5#86-89; admiral Agrippa; leaders Agricola, Drusus"


def ratings(manpower: int, crew: int, ram_defense: int, towers: bool = False, engines: bool = False) -> Ratings:
    side = SideRatings(ram_attack=6, ram_defense=ram_defense, speed=4)
    return Ratings(type="5", crew=crew, manpower=manpower, engines=engines, towers=towers, double=True,
                   cruise=side, maximum=side)


def test_fleet_building_points_as_the_book_counts_them() -> None:
    assert tournament.cost(ratings(2, 3, 8)) == 13  # the 10.0 example
    assert tournament.cost(ratings(2, 3, 8, towers=True, engines=True)) == 15


def test_budget_is_an_option_with_its_victory_level() -> None:
    assert new("tournament", {"budget": 400}).sides[0].vp_needed == 85
    assert new("tournament").sides[0].vp_needed == 65
    with pytest.raises(RulesDataError, match="budget"):
        new("tournament", {"budget": 275})


def committed_and_opened(budget: int = 250):  # type: ignore[no-untyped-def]
    state = new("tournament", {"budget": budget})
    assert choices.wanted(state).side == "red"
    state = apply(state, commit("fleet", RED))
    with pytest.raises(IllegalOrder):  # no opening until both fleets are committed
        RULESET.apply(state, opening("fleet", RED), SeededDice(random.Random(0)))
    state = apply(state, commit("fleet", GREEN))
    assert not state.galleys  # neither fleet is shown yet
    state = apply(state, opening("fleet", RED))
    return state


def test_both_fleets_committed_before_either_is_revealed_and_checked_on_opening() -> None:
    state = committed_and_opened()
    assert len(state.galleys) == 4 and {c.name for c in state.commanders} == {"Antony", "Publicola", "Insteius"}
    with pytest.raises(IllegalOrder, match="not what was committed"):
        RULESET.apply(state, opening("fleet", "5#86-99; admiral Agrippa"), SeededDice(random.Random(0)))


def test_budget_and_leaders_are_enforced_at_the_opening() -> None:
    state = new("tournament", {"budget": 250})
    rich = "5#50-79; admiral Antony"
    crowded = "5#50; admiral Antony; leaders Publicola, Insteius, Sosius"
    for value in (rich, crowded):
        with pytest.raises(IllegalOrder, match="10.0"):
            tournament.read_fleet(state, "red", value)


def test_set_up_roll_loser_first_winner_may_enter() -> None:
    state = committed_and_opened()
    state = apply(state, opening("fleet", GREEN), SeededDice(random.Random(3)))
    assert state.phase is Phase.DEPLOYMENT and len(state.deploy) == 2
    loser, winner = state.deploy[0].side, state.deploy[1].side
    assert state.first_turn_initiative == winner
    example = legal(state)[0]
    assert all(2 * 0 <= int(text[2:4]) <= 8 for _, text in example.galleys)  # within 8 hexes of the xx00 edge
    state = apply(state, example)
    offers = legal(state)
    entering = next(d for d in offers if any(t.startswith("enter") for _, t in d.galleys))
    state = apply(state, entering, SeededDice(random.Random(4)))
    assert entry.waiting(state, winner)
    assert state.turn == 1 and pending(state).side is not None
    assert to_json(entering)["kind"] == "deploy"
    assert loser != winner
