"""The adapter base every ruleset stands on: the shapes it hands to pbem's contract (pbem/ruleset.py).

engine never imports pbem; a ruleset's adapter (e.g.
engine.war_galley.ruleset.WarGalley) subclasses `Adapter`, is registered under
the entry-point group "pbem.rulesets" in pyproject.toml, and returns these
shapes, which match pbem's `Pending` and `ScenarioInfo` attribute for attribute.
"""

from __future__ import annotations

import abc
from typing import Any

import msgspec

from engine.errors import RulesError


class Pending(msgspec.Struct, frozen=True):
    """Who must act next (the protocol's Pending, without importing it)."""

    side: str | None
    kind: str
    prompt: str
    automatic: bool = False
    finished: bool = False


class ScenarioSummary:
    """What `pbem scenarios` lists (the protocol's ScenarioInfo shape)."""

    def __init__(self, name: str, title: str, sides: tuple[str, str], summary: str) -> None:
        self.name, self.title, self.sides, self.summary = name, title, sides, summary


class Adapter(abc.ABC):
    """A ruleset behind the protocol: pure functions of (state, decision, dice), JSON at the boundary.

    `illegal_errors` are the errors `apply` may raise before any die is rolled;
    every ruleset's errors derive from engine.errors.RulesError.
    """

    name: str
    version: str
    illegal_errors: tuple[type[Exception], ...] = (RulesError,)

    @abc.abstractmethod
    def default_rules_data(self) -> bytes: ...

    @abc.abstractmethod
    def scenarios(self) -> list[ScenarioSummary]: ...

    @abc.abstractmethod
    def builtin_scenario(self, name: str) -> bytes | None: ...

    @abc.abstractmethod
    def load_scenario(self, name_or_path: str) -> tuple[str, bytes]: ...

    @abc.abstractmethod
    def sides(self, scenario_data: bytes, rules_data: bytes) -> tuple[str, str]: ...

    @abc.abstractmethod
    def new_game(self, scenario_data: bytes, rules_data: bytes, options: dict[str, Any]) -> Any: ...

    @abc.abstractmethod
    def pending(self, state: Any) -> Pending: ...

    @abc.abstractmethod
    def legal(self, state: Any) -> list[Any]: ...

    @abc.abstractmethod
    def apply(self, state: Any, decision: Any, dice: Any) -> tuple[Any, list[Any]]: ...

    @abc.abstractmethod
    def advance(self, state: Any, dice: Any) -> tuple[Any, list[Any]]: ...

    @abc.abstractmethod
    def state_bytes(self, state: Any) -> bytes: ...

    @abc.abstractmethod
    def parse_order(self, text: str, state: Any) -> Any: ...

    @abc.abstractmethod
    def format_order(self, decision: Any) -> str: ...

    @abc.abstractmethod
    def describe(self, state: Any) -> str: ...

    @abc.abstractmethod
    def describe_event(self, event: Any, state: Any = None) -> str: ...

    @abc.abstractmethod
    def result(self, state: Any) -> str | None: ...


__all__ = ["Adapter", "Pending", "ScenarioSummary"]
