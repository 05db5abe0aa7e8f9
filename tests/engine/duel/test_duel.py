"""Dice Duel as a ruleset like the others (engine/duel/): its shipped data, and the rest each version judges."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgspec
import pytest

from engine.duel.ruleset import RULESET, DuelError, State
from pbem.signed.dice import DiceStream

INVITE = Path(__file__).resolve().parents[3] / "examples" / "duel-game" / "000000.pbem"


def test_the_shipped_data_are_the_bytes_the_recorded_game_pins() -> None:
    """The data moved into scenarios/duel/ unchanged: the recorded game's invitation pins these very hashes."""
    body = json.loads(INVITE.read_text().splitlines()[0])  # the signed body's line (the signature follows)
    assert body["ruleset"] == "duel"
    assert hashlib.sha256(RULESET.default_rules_data()).hexdigest() == body["rules_hash"]
    scenario = RULESET.builtin_scenario(body["scenario"])
    assert scenario is not None and hashlib.sha256(scenario).hexdigest() == body["scenario_hash"]
    assert RULESET.scenario_by_hash(body["scenario"], body["scenario_hash"]) == scenario
    assert RULESET.rules_data_by_hash(body["rules_hash"]) == RULESET.default_rules_data()


@pytest.mark.parametrize(("version", "restored"), [("1", 1), ("2", 2)])
def test_a_rest_restores_what_its_version_says(version: str, restored: int) -> None:
    duel = RULESET.at_version(version)
    state = duel.new_game(RULESET.builtin_scenario("duel") or b"", RULESET.default_rules_data(), {})
    state, _ = duel.advance(state, DiceStream(bytes(32), "0" * 32, bytes(32)))
    me = state.order[0]
    hurt = msgspec.structs.replace(state, hp=tuple(1 if i == me else h for i, h in enumerate(state.hp)))
    rested, _ = duel.apply(hurt, {"action": "rest"}, None)
    assert isinstance(rested, State) and rested.hp[me] == 1 + restored


def test_an_unknown_version_or_scenario_is_refused_in_words() -> None:
    with pytest.raises(DuelError, match="does not judge version 3"):
        RULESET.at_version("3")
    with pytest.raises(DuelError, match=r"no scenario 'nowhere.json' \(built in: duel, quick\)"):
        RULESET.load_scenario("nowhere.json")
