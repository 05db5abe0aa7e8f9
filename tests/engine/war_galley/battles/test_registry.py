"""The battles registry (engine.war_galley.battles.MODULES): every special rule named by the module that
plays it, and a game importing the modules of its own rules only, whether set up or read back from bytes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.errors import RulesDataError
from engine.war_galley import battles
from engine.war_galley.battles.scenario import SPECIAL_RULES
from engine.war_galley.turn import hooks

BATTLE_MODULES = sorted({f"engine.war_galley.battles.{m}" for m in battles.MODULES.values()})


def test_the_registry_names_every_rule_of_the_book_and_no_other() -> None:
    assert set(battles.MODULES) == set(SPECIAL_RULES)


def test_each_rule_is_registered_by_the_module_named_for_it() -> None:
    battles.load(battles.MODULES)
    by_module = {(point, name): fn.__module__ for point, table in hooks.HOOKS.items() for name, fn in table.items()}
    assert {name for _, name in by_module} == set(battles.MODULES)
    wrong = {key: module for key, module in by_module.items()
             if module != f"engine.war_galley.battles.{battles.MODULES[key[1]]}"}
    assert wrong == {}


def test_a_rule_no_module_plays_is_refused_by_name() -> None:
    with pytest.raises(RulesDataError, match="special rule 'kraken'"):
        battles.load(["sails_up_start", "kraken"])


def _modules_after(code: str) -> set[str]:
    """The battle modules a fresh process has imported after running `code` (nothing imported before)."""
    script = code + "\nimport sys\nprint(' '.join(m for m in sys.modules if m.startswith('engine.war_galley.battles.')))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[4])
    return set(done.stdout.split()) & set(BATTLE_MODULES)


SET_UP = """
from engine.war_galley.ruleset import RULESET
state = RULESET.new_game(RULESET.builtin_scenario({name!r}), RULESET.default_rules_data(), {{}})
"""


def test_a_tauris_game_imports_only_the_shared_rules() -> None:
    assert _modules_after(SET_UP.format(name="tauris")) == {"engine.war_galley.battles.shared"}


def test_an_actium_game_imports_actium_and_the_shared_rules() -> None:
    assert _modules_after(SET_UP.format(name="actium")) == {"engine.war_galley.battles.actium",
                                                             "engine.war_galley.battles.shared"}


def test_a_state_read_back_from_bytes_loads_its_rules(tmp_path: Path) -> None:
    """pbem's state cache hands the ruleset a state's bytes without its set-up: Actium's Treasury must
    still be asked for (its secret choice is registered by the actium module)."""
    from engine.war_galley.ruleset import RULESET

    state = RULESET.new_game(RULESET.builtin_scenario("actium"), RULESET.default_rules_data(), {})
    (tmp_path / "state").write_bytes(RULESET.state_bytes(state))
    read_back = f"""
from pathlib import Path
from engine.war_galley.ruleset import RULESET
state = RULESET.load_state(Path({str(tmp_path / 'state')!r}).read_bytes(), RULESET.default_rules_data())
from engine.war_galley.battles import choices
assert choices._in_force(state) is not None
"""
    assert _modules_after(read_back) == {"engine.war_galley.battles.actium", "engine.war_galley.battles.shared"}
