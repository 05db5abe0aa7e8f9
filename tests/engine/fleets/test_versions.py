"""Upgrades (docs/protocol.md): a new game pins fleets 4; games of versions 1 to 3 are judged, and encoded, as before."""

from __future__ import annotations

import pytest

from engine.fleets.errors import FleetsError, ScenarioError
from engine.fleets.elements import load_rules
from engine.fleets.ruleset import RULESET


def _new(version: str):  # type: ignore[no-untyped-def]
    ruleset = RULESET.at_version(version)
    return ruleset, ruleset.new_game(ruleset.builtin_scenario("salamis-480") or b"", ruleset.default_rules_data(), {})


def test_a_new_game_is_judged_by_the_newest_version() -> None:
    assert RULESET.version == "4" and RULESET.versions == ("1", "2", "3", "4")
    _, state = _new("4")
    assert state.rules.version == "4" and b'"version":"4"' in RULESET.state_bytes(state)
    assert b'"apart"' not in RULESET.state_bytes(state)  # nothing a hair apart yet: the field is left out


OLD_RULES = "9d570b1069b6153edd98f481f228a86aceb48298f1357d91ce38b475745e16eb"  # version 1's rules data


def test_version_1_states_keep_their_bytes() -> None:
    old = RULESET.at_version("1")
    data = old.rules_data_by_hash(OLD_RULES)
    assert data is not None and b"command_range" not in data
    state = old.new_game(old.builtin_scenario("salamis-480") or b"", data, {})
    assert state.rules.version == "1" and b'"version"' not in old.state_bytes(state)
    assert b"command" not in old.state_bytes(state)  # numbers version 1's data lacks are not written
    assert old.load_state(old.state_bytes(state), b"").rules.version == "1"


def test_a_rules_change_to_the_newest_version_stamps_the_state() -> None:
    for version in ("1", "2", "3"):
        old, state = _new(version)
        rebound = RULESET.rebind(state, old.default_rules_data(), old.default_rules_data())
        assert rebound.rules.version == "4"


def test_an_unknown_version_is_refused() -> None:
    with pytest.raises(FleetsError, match="does not judge version 5"):
        RULESET.at_version("5")


def test_rules_data_may_not_say_the_version() -> None:
    data = b'version = "2"\n' + RULESET.default_rules_data()
    with pytest.raises(ScenarioError, match="version is not rules data"):
        load_rules(data)
