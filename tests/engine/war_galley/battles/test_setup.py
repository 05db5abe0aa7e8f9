"""A new game from a scenario (set-up), deployment decisions, and the rules data bundle."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.dice import ForcedDice
from engine.errors import IllegalOrder, RulesDataError
from engine.war_galley.battles.scenario_files import BATTLES_DIR, SCENARIOS_DIR
from engine.war_galley.battles.setup import new_game
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data, load_rules_data
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.legal import legal
from engine.war_galley.turn import sequence
from engine.war_galley.turn.decisions import Deploy
from engine.war_galley.turn.state import Phase
from tests.engine.war_galley.game_support import SKIRMISH, g, skirmish

ZONED = SKIRMISH.replace(
    '''positions = ["2008-2007", "2208-2207", "2408-2407", "4008-4007"]''',
    '''zone = { rows = [0, 5], facings = [3] }''',
).replace('commander_at = { Hanno = "2008", Gisgo = "2408" }\n', "")


def test_fixed_placements_and_commanders_go_on_the_map_at_once() -> None:
    state = skirmish()
    assert state.deploy == () and state.phase is Phase.DEPLOYMENT
    assert str(state.galley(g("R5-52")).position.bow) == "2420"
    assert state.commander("Metellus").galley == g("R5-52")
    assert state.commander("Catulus").admiral and state.commander("Catulus").initiative == 3


def test_a_free_zone_is_one_deployment_decision_checked_against_the_zone() -> None:
    state = skirmish(ZONED)
    assert play.pending(state).side == "carthage" and play.pending(state).kind == "deploy"
    galleys = [(g(f"G5-{n}"), f"{20 + 2 * i}03-{20 + 2 * i}02") for i, n in enumerate(range(11, 15))]
    aboard = (("Hanno", g("G5-11")), ("Gisgo", g("G5-12")))
    outside = [*galleys[:3], (g("G5-14"), "3008-3007")]
    with pytest.raises(IllegalOrder, match="outside rows 00-05"):
        play.apply(state, Deploy(side="carthage", galleys=tuple(outside), commanders=aboard), ForcedDice())
    facing = [*galleys[:3], (g("G5-14"), "3002-3003")]
    with pytest.raises(IllegalOrder, match="facing 0"):
        play.apply(state, Deploy(side="carthage", galleys=tuple(facing), commanders=aboard), ForcedDice())
    clash = [*galleys[:3], (g("G5-14"), "2403-2402")]
    with pytest.raises(IllegalOrder, match="6.6"):
        play.apply(state, Deploy(side="carthage", galleys=tuple(clash), commanders=aboard), ForcedDice())
    with pytest.raises(IllegalOrder, match="place 4 galleys"):
        play.apply(state, Deploy(side="carthage", galleys=tuple(galleys[:3]), commanders=aboard), ForcedDice())
    with pytest.raises(IllegalOrder, match="commanders"):
        play.apply(state, Deploy(side="carthage", galleys=tuple(galleys), commanders=aboard[:1]), ForcedDice())
    state, _ = play.apply(state, Deploy(side="carthage", galleys=tuple(galleys), commanders=aboard), ForcedDice())
    assert state.commander("Gisgo").galley == g("G5-12") and str(state.galley(g("G5-14")).position.bow) == "2603"
    state, _ = sequence.advance(state, ForcedDice(5, 1))
    assert state.turn == 1 and play.pending(state).kind == "initiative"


def test_player_assigned_slots_lade() -> None:
    state = new_game((BATTLES_DIR / "lade.toml").read_bytes(), default_rules_data(), {})
    assert play.pending(state).side == "persians"
    group = state.deploy[0].groups[0]
    assert group.count == 62 and len(group.slots) == 62
    proposal = legal(state)[0]
    assert isinstance(proposal, Deploy) and len(proposal.galleys) == 62
    wrong = Deploy(side="persians", galleys=((proposal.galleys[0][0], "2010-2009"), *proposal.galleys[1:]),
                   commanders=proposal.commanders)
    with pytest.raises(IllegalOrder, match="not on one of the group's positions"):
        play.apply(state, wrong, ForcedDice())
    state, _ = play.apply(state, proposal, ForcedDice())
    assert play.pending(state).side == "ionians"  # then the Ionian commanders choose their galleys


@pytest.mark.parametrize("path", sorted(BATTLES_DIR.glob("*.toml")), ids=lambda p: p.stem)
def test_every_battle_deploys_from_its_listed_choices(path: Path) -> None:
    state = new_game(path.read_bytes(), default_rules_data(), {})
    while state.phase is Phase.DEPLOYMENT and state.deploy:
        options = legal(state)
        deploys = [o for o in options if isinstance(o, Deploy)]
        assert deploys and options[:len(deploys)] == deploys, f"{path.stem}: the deployments come first"
        for order in options[len(deploys):]:  # standing reactions and orders, asked for at the set-up (6.5)
            after, _ = play.apply(state, order, ForcedDice())
            assert after != state and play.pending(after) == play.pending(state), f"{path.stem}: {order}"
        state, _ = play.apply(state, deploys[-1], ForcedDice())
    on_map = [x for x in state.galleys if x.position is not None]
    assert on_map and all(c.galley is not None for c in state.commanders)
    hexes = [h for x in on_map for h in x.position.hexes]
    assert len(hexes) == len(set(hexes))  # 6.6


def test_options_are_checked_against_the_scenario() -> None:
    lade = (BATTLES_DIR / "lade.toml").read_bytes()
    assert new_game(lade, default_rules_data(), {"treachery": "on"}).option("treachery") == "on"
    with pytest.raises(RulesDataError, match="option"):
        new_game(lade, default_rules_data(), {"fog": "on"})


def test_the_rules_data_bundle_is_canonical_and_pinned_by_hash() -> None:
    data = default_rules_data()
    value = json.loads(data)
    assert sorted(value) == ["charts", "commanders", "counters"]
    assert value["charts"] == (SCENARIOS_DIR / "charts.toml").read_text()
    bundle = load_rules_data(data)
    assert bundle.to_bytes() == data and len(bundle.sha256) == 64
    with pytest.raises(RulesDataError, match="canonical"):
        load_rules_data(json.dumps(value, indent=1).encode())
    changed = dict(value, charts=value["charts"].replace('sinks = "6"', 'sinks = "5-6"'))
    mine = json.dumps(changed, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert load_rules_data(mine).sha256 != bundle.sha256
    broken = dict(value, charts="not toml [")
    with pytest.raises(RulesDataError):
        load_rules_data(json.dumps(broken, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())


def test_python_m_engine_rulesdata_writes_a_bundle_from_a_folder(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "engine.war_galley.map_and_galleys.rulesdata", str(SCENARIOS_DIR)], capture_output=True,
                         check=True)
    assert out.stdout == default_rules_data() and b"sha256" in out.stderr
    bad = subprocess.run([sys.executable, "-m", "engine.war_galley.map_and_galleys.rulesdata", str(tmp_path)], capture_output=True)
    assert bad.returncode == 1 and b"cannot read" in bad.stderr
