"""The contract (engine.contract, defined once) checked the same way over every installed ruleset: war-galley, duel, fleets."""

from __future__ import annotations

import inspect
import random

import pytest

import engine.contract
from engine import adapter
from pbem.signed import commitments
from pbem.game import ruleset as rulesets
from pbem.signed.dice import DiceStream, NoDiceYet, SealedDice
from pbem.game.ruleset import Ruleset

CONTRACT = [name for name in Ruleset.__dict__ if not name.startswith("_")] + ["name", "version", "illegal_errors"]
STEPS = 40


def test_the_three_rulesets_are_installed() -> None:
    assert {"war-galley", "duel", "fleets"} <= set(rulesets.available())


@pytest.fixture(params=rulesets.available())
def ruleset(request: pytest.FixtureRequest) -> Ruleset:
    return rulesets.find(request.param)


def test_the_contract_is_defined_once() -> None:
    """pbem's and engine's names are the one definition, not look-alikes (issue 23)."""
    assert rulesets.Ruleset is engine.contract.Ruleset
    assert rulesets.Pending is adapter.Pending is engine.contract.Pending
    assert rulesets.ScenarioInfo is adapter.ScenarioInfo is engine.contract.ScenarioInfo


def test_the_adapter_base_takes_the_contracts_parameters() -> None:
    """engine.adapter.Adapter satisfies the Protocol structurally: each method it has takes the same parameters."""
    for name, method in vars(Ruleset).items():
        if callable(method) and not name.startswith("_") and hasattr(adapter.Adapter, name):
            wanted = list(inspect.signature(method).parameters)
            assert list(inspect.signature(getattr(adapter.Adapter, name)).parameters) == wanted, name


def test_every_method_of_the_contract(ruleset: Ruleset) -> None:
    for name in CONTRACT:
        assert hasattr(ruleset, name), f"{ruleset.name} lacks {name}"
    assert all(issubclass(e, Exception) for e in ruleset.illegal_errors)
    assert isinstance(ruleset.default_rules_data(), bytes)
    assert all(isinstance(info, engine.contract.ScenarioInfo) for info in ruleset.scenarios())


def test_scenarios_load_and_name_their_sides(ruleset: Ruleset) -> None:
    infos = ruleset.scenarios()
    assert infos
    rules = ruleset.default_rules_data()
    for info in infos:
        data = ruleset.builtin_scenario(info.name)
        assert data is not None
        assert ruleset.load_scenario(info.name) == (info.name, data)
        assert tuple(ruleset.sides(data, rules)) == tuple(info.sides)
    assert ruleset.builtin_scenario("no-such-scenario-anywhere") is None
    with pytest.raises(ruleset.illegal_errors):
        ruleset.load_scenario("no-such-scenario-anywhere")


def _decide(ruleset: Ruleset, state: object, side: str, rng: random.Random) -> object:
    choose = getattr(ruleset, "choose", None)
    return choose(state, side, rng) if choose else rng.choice(ruleset.legal(state))


def test_a_game_by_the_contract(ruleset: Ruleset) -> None:
    """Automatic steps, listings, notation round trips, sealed checks and real dice, for a stretch of a game."""
    name = getattr(ruleset, "demo_scenario", None) or ruleset.scenarios()[0].name
    data = ruleset.builtin_scenario(name)
    assert data is not None
    state = ruleset.new_game(data, ruleset.default_rules_data(), {})
    first = ruleset.state_bytes(state)
    assert first == ruleset.state_bytes(ruleset.new_game(data, ruleset.default_rules_data(), {}))
    rng = random.Random(3)
    for step in range(STEPS):
        dice = DiceStream(bytes([step]) * 32, "0" * 32, bytes(32))
        state, events = ruleset.advance(state, dice)
        assert all(isinstance(ruleset.describe_event(e, state), str) for e in events)
        assert isinstance(ruleset.describe(state), str)
        pending = ruleset.pending(state)
        assert isinstance(pending, engine.contract.Pending)
        assert not pending.automatic
        if pending.finished:
            assert ruleset.result(state)
            break
        assert pending.side is not None
        options = ruleset.legal(state)
        assert options, f"{ruleset.name}: nothing legal at {pending.prompt}"
        for option in options[:8]:
            line = ruleset.format_order(option)
            if not commitments.is_secret_line(line):
                assert ruleset.parse_order(line, state) == option, line
        decision = _decide(ruleset, state, pending.side, rng)
        if commitments.is_secret_line(ruleset.format_order(decision)):
            break  # sealed by pbem with a key: the protocol tests play those
        try:
            ruleset.apply(state, decision, SealedDice())
        except NoDiceYet:
            pass  # it rolls: fine, the real dice decide below
        before = ruleset.state_bytes(state)
        state, events = ruleset.apply(state, decision, dice)
        assert before != ruleset.state_bytes(state) or events
    loader = getattr(ruleset, "state_from_bytes", None)
    if loader is not None:
        assert ruleset.state_bytes(loader(ruleset.state_bytes(state))) == ruleset.state_bytes(state)


def test_illegal_decisions_are_refused_with_the_rulesets_error(ruleset: Ruleset) -> None:
    name = getattr(ruleset, "demo_scenario", None) or ruleset.scenarios()[0].name
    state = ruleset.new_game(ruleset.builtin_scenario(name) or b"", ruleset.default_rules_data(), {})
    state, _ = ruleset.advance(state, DiceStream(bytes(32), "0" * 32, bytes(32)))
    for bad in ({"kind": "no-such-order"}, {"nonsense": 1}, "text"):
        with pytest.raises(ruleset.illegal_errors):
            ruleset.apply(state, bad, SealedDice())
    with pytest.raises(ruleset.illegal_errors):
        ruleset.parse_order("@@ not an order @@", state)
