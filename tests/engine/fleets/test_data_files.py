"""Scenario and rules-data files: bad ones are refused with one line naming what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.fleets.elements import load_rules
from engine.fleets.errors import ScenarioError
from engine.fleets.ruleset import RULESET

RULES = RULESET.default_rules_data()


def test_the_built_in_scenarios_are_twelve_a_side_with_a_general() -> None:
    for info in RULESET.scenarios():
        state = RULESET.new_game(RULESET.builtin_scenario(info.name) or b"", RULES, {})
        for side in state.sides:
            mine = [e for e in state.to_place if e.side == side.key]
            assert len(mine) == 12 and sum(e.general for e in mine) == 1 and side.general in {e.id for e in mine}


def test_the_medieval_battle_has_cogs_and_longships() -> None:
    state = RULESET.new_game(RULESET.builtin_scenario("helsingborg-1362") or b"", RULES, {})
    assert {"Wr", "Lng"} <= {e.type for e in state.to_place}


@pytest.mark.parametrize("change,words", [
    (("drift = 100 ", "drift = 0 "), "drift must be at least 1"),
    (("base_width = 160", "base_width = 161"), "even"),
    (("speed = 400", "speed = 0"), "speed must be at least 1"),
    (("flee = 400", "flee = -4"), "flee must be at least 1"),
    (("[numbers]", "[numbers]\nextra = 1"), "unknown field"),
    (('code = "Tr"', 'code = "Lib"'), "each element type once"),
])
def test_bad_rules_data(change: tuple[str, str], words: str) -> None:
    text = RULES.decode()
    assert change[0] in text
    with pytest.raises(ScenarioError, match=words):
        load_rules(text.replace(change[0], change[1], 1).encode())


def test_bad_scenarios(tmp_path: Path) -> None:
    good = (RULESET.builtin_scenario("open-sea") or b"").decode()
    cases = {
        "not toml [": "fleet scenario: ",
        good.replace('attacker = "red"', 'attacker = "blue"'): "one the attacker and one the defender",
        good.replace('prefix = "R"', 'prefix = "B"'): "different id prefixes",
        good.replace('prefix = "R"', 'prefix = "r2"'): "capital letters",
        good.replace("general = 1", "general = 13", 1): "general must name one",
        good.replace('"Tr"]', '"Dragon"]', 1): "no element type 'Dragon'",
        good.replace("bounds = 30", "bounds = 1"): "bounds must be at least 2",
        good.replace("bounds = 30", "bounds = 30\nsize = 3000"): "size goes with",
    }
    for text, words in cases.items():
        path = tmp_path / "s.toml"
        path.write_text(text)
        with pytest.raises(ScenarioError, match=words):
            name, data = RULESET.load_scenario(str(path))
            RULESET.new_game(data, RULES, {})
    with pytest.raises(ScenarioError, match="no scenario"):
        RULESET.load_scenario(str(tmp_path / "missing.toml"))
    with pytest.raises(ScenarioError, match="no options"):
        RULESET.new_game(good.encode(), RULES, {"fast": True})


def test_a_scenario_with_illegal_terrain_is_refused() -> None:
    text = (RULESET.builtin_scenario("salamis-480") or b"").decode().replace("1350, 420, 50", "1350, 420, 400")
    with pytest.raises(ScenarioError, match="terrain: .*0-300p"):
        RULESET.new_game(text.encode(), RULES, {})
