"""Tournament play (10.0): fleets to a budget, committed in secret by both, then the set-up of 10.0."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.dice import ForcedDice
from engine.errors import IllegalOrder, RulesDataError
from engine.war_galley.battles import choices, tournament
from engine.war_galley.map_and_galleys.ratings import Ratings, SideRatings
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data
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


def builtin() -> tournament.TournamentFile:
    _, data = RULESET.load_scenario("tournament")
    return tournament.load(data)


def test_fleet_building_points_as_the_book_counts_them() -> None:
    building = builtin().fleet_building
    assert tournament.cost(ratings(2, 3, 8), building.towers, building.engines) == 13  # the 10.0 example
    assert tournament.cost(ratings(2, 3, 8, towers=True, engines=True), building.towers, building.engines) == 15


def test_10_0_the_numbers_the_book_fixes_are_the_tournament_files() -> None:
    spec = builtin()
    levels = [(b.points, b.vp, b.squadron_leaders) for b in spec.fleet_building.budgets]
    assert levels == [(250, 55, 2), (300, 65, 3), (350, 75, 3), (400, 85, 4)]  # 10.0's lists
    assert (spec.fleet_building.towers, spec.fleet_building.engines) == (1, 1)  # "+1 ... for each such rating"
    assert spec.deployment.within == 8  # "more than 8 hexes from the map edge"
    assert spec.fleet_building.default_budget == 300


def own_tournament(tmp_path: Path, text: str) -> bytes:
    path = tmp_path / "my-tournament.toml"
    path.write_text(text, encoding="utf-8")
    _, data = RULESET.load_scenario(str(path))
    return data


def test_10_0_a_players_own_tournament_file_is_honoured(tmp_path: Path) -> None:
    _, data = RULESET.load_scenario("tournament")
    text = data.decode().replace("towers = 1", "towers = 2").replace("within = 8", "within = 6")
    text = text.replace("budgets = [", "budgets = [\n  { points = 200, vp = 45, squadron_leaders = 1 },")
    mine = own_tournament(tmp_path, text)
    state = RULESET.new_game(mine, default_rules_data(), {"budget": 200})
    assert state.sides[0].vp_needed == 45
    with pytest.raises(IllegalOrder, match="at most 1 Squadron Leaders"):
        tournament.read_fleet(state, "red", RED)
    fleet = tournament.read_fleet(state, "red", "5#50-53; admiral Antony; leaders Publicola")
    assert fleet.points == sum(tournament.cost(r, 2, 1) for _, r in fleet.galleys)
    state = apply(state, commit("fleet", "5#50-53; admiral Antony; leaders Publicola"))
    state = apply(state, commit("fleet", "5#86-89; admiral Agrippa; leaders Agricola"))
    state = apply(state, opening("fleet", "5#50-53; admiral Antony; leaders Publicola"))
    state = apply(state, opening("fleet", "5#86-89; admiral Agrippa; leaders Agricola"), ForcedDice(1, 1))
    zones = [t.groups[0].zone.rows for t in state.deploy]
    assert zones == [(0, 6), (22, 28)]
    with pytest.raises(RulesDataError, match="default_budget"):
        own_tournament(tmp_path, data.decode().replace("default_budget = 300", "default_budget = 275"))


def test_10_0_the_set_up_roll_adds_the_admirals_initiative() -> None:
    # "Players roll the die to determine who has the Initiative": 3.2's roll, 1d6 + the Admiral's
    # Initiative Rating (5.12). Red (Antony, 1) rolls 5 = 6; Green (Agrippa, 4) rolls 3 = 7: Green wins,
    # sets up second and has the first turn's Initiative.
    state = committed_and_opened()
    state = apply(state, opening("fleet", GREEN), ForcedDice(5, 3))
    assert [t.side for t in state.deploy] == ["red", "green"]
    assert state.first_turn_initiative == "green"


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
