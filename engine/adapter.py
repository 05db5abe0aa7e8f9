"""The adapter base every ruleset stands on: behaviour only, the contract itself is `engine.contract`.

engine never imports pbem; both import the neutral `engine.contract`, where
the contract (`Ruleset`) and the shapes a ruleset answers with (`Pending`,
`ScenarioInfo`) are defined once. A ruleset's adapter (e.g.
engine.war_galley.ruleset.WarGalley) subclasses `Adapter`, which satisfies
`Ruleset` structurally and gives the parts most rulesets share (versions,
data kept by hash, the rules change), and is registered under the
entry-point group "pbem.rulesets" in pyproject.toml.
"""

from __future__ import annotations

import abc
import hashlib
from typing import Any

from engine.datafiles import pinned_data
from engine.errors import RulesError
from engine.contract import Pending, ScenarioInfo


class Adapter(abc.ABC):
    """A ruleset behind the protocol: pure functions of (state, decision, dice), JSON at the boundary.

    `illegal_errors` are the errors `apply` may raise before any die is rolled;
    every ruleset's errors derive from engine.errors.RulesError.
    """

    name: str
    version: str  # the newest rules this release judges: a new game pins it
    # Every version this release judges exactly, oldest first (the last is `version`). A release that
    # changes how the rules resolve bumps `version` and keeps the old behaviour, gated on the version
    # (`at_version`), so that a game begun under the old rules can be finished (docs/protocol.md, "Upgrades").
    versions: tuple[str, ...] = ()
    data_folder: str = ""  # the ruleset's folder of scenarios/, whose pinned/ keeps every shipped data by hash
    illegal_errors: tuple[type[Exception], ...] = (RulesError,)

    def at_version(self, version: str) -> Adapter:
        """The ruleset judging as `version` did; one whose rules never changed judges only its own."""
        if version != self.version:
            raise self.illegal_errors[0](f"{self.name} {self.version} does not judge version {version}")
        return self

    def rules_data_by_hash(self, sha256: str) -> bytes | None:
        """The rules data with this SHA-256 if this release has it: today's built-in, or one an earlier
        release shipped (scenarios/<folder>/pinned/rules/)."""
        current = self.default_rules_data()
        if hashlib.sha256(current).hexdigest() == sha256:
            return current
        return pinned_data(self.data_folder, "rules", sha256) if self.data_folder else None

    def scenario_by_hash(self, name: str, sha256: str) -> bytes | None:
        """The built-in scenario `name` with this SHA-256, today's or one an earlier release shipped."""
        if name == "rules":  # the store's folder of rules data, not a scenario
            return None
        current = self.builtin_scenario(name)
        if current is not None and hashlib.sha256(current).hexdigest() == sha256:
            return current
        return pinned_data(self.data_folder, name, sha256) if self.data_folder else None

    def rebind(self, state: Any, rules_data: bytes, previous_rules_data: bytes) -> Any:
        """The state `state` (made by the rules in force before an agreed rules change) as this ruleset's
        state under `rules_data`; one of `illegal_errors` with the reason if the change cannot apply now.

        The default takes a change of version on the same data (the state read again by this version's
        code) and refuses new rules data: a ruleset whose states are built from their data at set-up
        cannot swap it mid-game without saying how (its own `rebind`)."""
        if rules_data != previous_rules_data:  # refused as the ruleset refuses (one of its illegal_errors)
            raise self.illegal_errors[0](
                f"{self.name} cannot change its rules data in the middle of a game (its state is built "
                "from the data pinned at set-up); keep the data, or finish this game and start the next"
            )
        return self.load_state(self.state_bytes(state), rules_data)

    @abc.abstractmethod
    def load_state(self, data: bytes, rules_data: bytes) -> Any: ...

    @abc.abstractmethod
    def default_rules_data(self) -> bytes: ...

    @abc.abstractmethod
    def scenarios(self) -> list[ScenarioInfo]: ...

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


__all__ = ["Adapter", "Pending", "ScenarioInfo"]
