"""The ruleset contract, defined once: what pbem asks of a ruleset, and the shapes a ruleset answers with.

A neutral module of engine's shared top: pbem imports it (to type and find rulesets, pbem/game/ruleset.py)
and engine imports it (engine.adapter.Adapter, the base the rulesets stand on,
satisfies `Ruleset` and builds these `Pending` and `ScenarioInfo`); it imports
no other module of engine and nothing of pbem, so "engine never imports pbem" and "pbem knows no ruleset" both hold
(docs/architecture.md, "One contract"). A ruleset is any object with the
attributes below, registered under the entry-point group "pbem.rulesets" (the
name the set-up files pin). Decisions and options cross this boundary as plain
JSON values (dict/list/str/int/bool/None), so the protocol can sign them
without knowing what they mean.

Contract:
- `new_game(scenario_data, rules_data, options)` builds the first state; it
  rolls no dice.
- `pending(state)` says who decides next: a side, or nobody (`side=None`)
  while automatic steps remain (`automatic=True`) or when the game is over.
- `advance(state, dice)` runs automatic steps until a decision or the end.
- `apply(state, decision, dice)` checks the decision against the rules and
  applies it. It raises one of `illegal_errors` before it rolls any die; once
  it has rolled, the outcome follows the rules' fallbacks and never raises.
- `state_bytes(state)` is the state's canonical encoding (its hash is signed
  in every file); `load_state(bytes, rules_data)` reads it back, so a
  command can resume from a cached state instead of replaying.
- `legal(state)` lists decisions the pending side may make (for listings,
  error messages and fuzzing).

Upgrades (docs/protocol.md, "Upgrades"): a game lasts weeks, releases change.
- `version` is the newest rules a release judges (a new game pins it);
  `versions` every version it judges exactly, oldest first. A release that
  changes how the rules resolve bumps `version` and keeps the old behaviour:
  `at_version(v)` is the ruleset judging as version `v` did.
- `rules_data_by_hash(sha256)` and `scenario_by_hash(name, sha256)` give the
  rules data or built-in scenario with that hash if any release shipped it
  (today's or a kept one), else None: a game pins its data by hash, so an
  edit of the built-in data never strands a game in progress.
- `rebind(state, rules_data, previous_rules_data)` is the state under this
  ruleset (at its version) and `rules_data` after an agreed rules change; it
  raises one of `illegal_errors` with the reason if the change cannot apply.

Optional (pbem/cli/orders.py asks with getattr and says so when missing):
- `explain(state, subject)` -> (JSON data, text) about one piece the
  ruleset names (`subject`, e.g. a unit id), or about the whole board
  (`subject=None`); an unknown subject raises one of `illegal_errors`.
- `board(state)` -> the position of every piece as text, for terminals.
- `draft(state)` -> the pending decision as an editable order file: order
  lines to keep or change, the options as `#` comment lines (which
  `parse_orders` skips).

For team games (optional; issue 26): several seats a side, each holding some of
its commands, a file's decisions concerning only those its signer holds. Without
these a side is one seat.
- `commands(scenario_data, rules_data)` -> {side: [command, ...]} for each side
  of `sides(...)`: the names a roster assigns to seats, each once, the side's
  first command first (it holds the side-wide decisions unless the roster says
  otherwise; War Galley: the Admiral). A command keeps its name all game, even
  when its piece changes hands in play.
- `commands_of(state, decision)` -> the commands a decision (its JSON form, as
  signed) concerns, in the state it is applied to; [] for a decision of the
  whole side. A decision that concerns commands and the side's share too names
  the side's first command with them. Pure; a value that is no decision raises
  one of `illegal_errors`, as `apply` would.
- `awaited_commands(state)` -> the commands the pending decision may concern;
  [] when it is the whole side's, or nobody decides. Where it may be answered
  for the side as well, the side's first command is among them. Orders a side
  may give whenever it decides (War Galley: transfers, standing orders,
  concession) are not counted.

For the board (optional; `pbem play`, docs/play.md): `play_options(state, picks)` -> the pending
  decision as things to click, as plain JSON data, after the click path `picks` (a list of option keys
  the previous answers offered): {"offered": bool, "side", "prompt", "steps": [what was picked, in
  words], "options": [{"key", "kind", "label", and for the map: "galley" or "piece" (the counter or base it concerns),
  "shape" (a counter outline in the report map's frame), "cost", "roll"}], "order": the order text built
  so far or None, "paths": [SVG polyline points], "card": a piece's card or None}. Built from the one
  legal-action generator that validation uses; an unknown key raises one of `illegal_errors`. Without
  it the board offers no clicks and says so.

For reports (optional; docs/reports.md): `report_templates` names the
ruleset's folder of templates/, `view(state, events, before, options)`
gives the report's data as plain JSON values.
- Optional: `turn(state)` the game turn a state is in (an int), so pbem can
  count files per game turn; without it a game counts as one turn.
"""

from __future__ import annotations

from typing import Any, Protocol

import msgspec

ENTRY_POINT_GROUP = "pbem.rulesets"


class Pending(msgspec.Struct, frozen=True):
    """Who must act next, and what kind of decision it is (what `Ruleset.pending` answers)."""

    side: str | None
    kind: str
    prompt: str
    automatic: bool = False
    finished: bool = False


class ScenarioInfo(msgspec.Struct, frozen=True):
    """A built-in scenario as `pbem scenarios` lists it (what `Ruleset.scenarios` answers)."""

    name: str
    title: str
    sides: tuple[str, str]
    summary: str = ""


class Ruleset(Protocol):
    name: str
    version: str
    versions: tuple[str, ...]
    illegal_errors: tuple[type[Exception], ...]

    def at_version(self, version: str) -> Ruleset: ...

    def rules_data_by_hash(self, sha256: str) -> bytes | None: ...

    def scenario_by_hash(self, name: str, sha256: str) -> bytes | None: ...

    def rebind(self, state: Any, rules_data: bytes, previous_rules_data: bytes) -> Any: ...

    def default_rules_data(self) -> bytes: ...

    def scenarios(self) -> list[ScenarioInfo]: ...

    def load_scenario(self, name_or_path: str) -> tuple[str, bytes]:
        """(scenario name, its exact bytes) for a built-in name or a file path."""
        ...

    def builtin_scenario(self, name: str) -> bytes | None: ...

    def sides(self, scenario_data: bytes, rules_data: bytes) -> tuple[str, str]: ...

    def new_game(self, scenario_data: bytes, rules_data: bytes, options: dict[str, Any]) -> Any: ...

    def pending(self, state: Any) -> Pending: ...

    def legal(self, state: Any) -> list[Any]: ...

    def apply(self, state: Any, decision: Any, dice: Any) -> tuple[Any, list[Any]]: ...

    def advance(self, state: Any, dice: Any) -> tuple[Any, list[Any]]: ...

    def state_bytes(self, state: Any) -> bytes: ...

    def load_state(self, data: bytes, rules_data: bytes) -> Any:
        """The state whose `state_bytes` are `data`, in a game pinning `rules_data`.

        For pbem's local state cache: `state_bytes(load_state(state_bytes(s), r)) == state_bytes(s)`
        and the loaded state behaves as `s`.
        """
        ...

    def parse_order(self, text: str, state: Any) -> Any: ...

    def format_order(self, decision: Any) -> str: ...

    def describe(self, state: Any) -> str: ...

    def describe_event(self, event: Any, state: Any = None) -> str:
        """An event in words; `state` (any state of the same game) lets the ruleset use the game's notation."""
        ...

    def result(self, state: Any) -> str | None: ...


class Reported(Ruleset, Protocol):
    """A ruleset pbem can report (docs/reports.md): its view as plain data, and its templates."""

    report_templates: str

    def view(self, state: Any, events: list[Any], before: Any = None,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
        """Plain data only (dict/list/str/int/bool/None), the same for the same arguments."""
        ...

    def turn(self, state: Any) -> int: ...


__all__ = ["ENTRY_POINT_GROUP", "Pending", "Reported", "Ruleset", "ScenarioInfo"]
