"""Driving a built-in battle to the point a test needs: deployment by the listed examples, then do-nothing play."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from engine.dice import ForcedDice
from engine.war_galley.battles import choices, secrets
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.legal import each_legal
from engine.war_galley.ruleset import RULESET
from engine.war_galley.turn.decisions import to_json
from engine.war_galley.turn.state import GameState, Phase

SALT = hashlib.sha256(b"test salt").digest()


class SeededDice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def d6(self, purpose: str) -> int:
        return self.rng.randint(1, 6)

    def two_d6(self, purpose: str) -> int:
        return self.d6(purpose) + self.d6(purpose)


class RecordedDice(SeededDice):
    """Seeded dice remembering every face, so that a replay can force the same ones (ForcedDice)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.faces: list[int] = []

    def d6(self, purpose: str) -> int:
        self.faces.append(self.rng.randint(1, 6))
        return self.faces[-1]


def new(key: str, options: dict[str, object] | None = None) -> GameState:
    _, data = RULESET.load_scenario(key)
    return RULESET.new_game(data, default_rules_data(), options or {})


def commit(label: str, value: str) -> dict[str, str]:
    return {"commit": label, "hash": secrets.commitment_hash(SALT, label, value)}


def opening(label: str, value: str) -> dict[str, str]:
    return {"open": label, "salt": SALT.hex(), "value": value}


def apply(state: GameState, decision: Any, dice: Any = None) -> GameState:
    dice = dice or SeededDice(random.Random(0))
    if not isinstance(decision, dict):
        decision = to_json(decision)
    state, _ = RULESET.apply(state, decision, dice)
    state, _ = RULESET.advance(state, dice)
    return state


def deployed(key: str, options: dict[str, object] | None = None, secret: str | None = None,
             dice: Any = None) -> GameState:
    """The battle after every deployment by its first listed example (and the secrets committed)."""
    dice = dice or SeededDice(random.Random(key))
    state, _ = RULESET.advance(new(key, options), dice)
    while state.phase is Phase.DEPLOYMENT:
        want = choices.wanted(state)
        if want is not None:
            value = secret or choices.listed(state)[0].get("value", "") or _first_value(state)
            state = apply(state, commit(want.label, value) if want.kind == "commit" else opening(want.label, value), dice)
            continue
        state = apply(state, next(each_legal(state)), dice)  # the first listed, without listing the rest
    return state


def _first_value(state: GameState) -> str:
    from engine.war_galley.battles import actium as specials_actium
    return specials_actium.example_values(state)[0]


def drive(state: GameState, until: Callable[[GameState], bool], dice: Any = None, limit: int = 400) -> GameState:
    """Do-nothing play (each first listed decision) until `until(state)`."""
    dice = dice or SeededDice(random.Random(1))
    for _ in range(limit):
        if until(state) or state.result is not None:
            return state
        state = apply(state, next(each_legal(state)), dice)  # the first listed, without listing the rest
    raise AssertionError("the condition never came")


def due(state: GameState) -> Any:
    return play.pending(state)


__all__ = ["new", "deployed", "drive", "apply", "commit", "opening", "SALT", "ForcedDice", "SeededDice", "due"]
