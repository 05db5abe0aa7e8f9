"""How pbem finds the ruleset a game pins: by entry point, or registered in tests.

pbem knows no game. What it asks of a ruleset, and the `Pending` and
`ScenarioInfo` a ruleset answers with, are defined once in the neutral
module `engine.contract` (engine's adapter base satisfies the same
definition without importing pbem); this module re-exports them. A ruleset
is registered under the entry-point group "pbem.rulesets" (the name the set-up
files pin) or, in tests, with `register`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.errors import RulesetProblem
from engine.contract import ENTRY_POINT_GROUP, Pending, Reported, Ruleset, ScenarioInfo

_registered: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> None:
    """Make a ruleset findable without an entry point (tests, embedding)."""
    _registered[ruleset.name] = ruleset


def entry_points(group: str) -> Any:
    """The installed plug-ins of `group` (pbem.game.plugins: importlib.metadata, ~10 ms, only when they may have changed)."""
    from pbem.game.plugins import entry_points as installed

    return installed(group)


def find(name: str) -> Ruleset:
    """The ruleset a game's set-up files pin, by name."""
    if name in _registered:
        return _registered[name]
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if entry.name == name:
            try:
                ruleset = entry.load()
            except Exception as exc:  # a broken plug-in must not crash the CLI
                raise RulesetProblem(f"ruleset {name!r} failed to load: {exc}") from None
            _registered[name] = ruleset
            return ruleset
    known = sorted({e.name for e in entry_points(group=ENTRY_POINT_GROUP)} | set(_registered))
    raise RulesetProblem(f"no ruleset {name!r} is installed (installed: {', '.join(known) or 'none'})")


def for_scenario(name_or_path: str) -> Ruleset:
    """The installed ruleset that has this built-in scenario, or can read this scenario file."""
    found = [r for r in map(find, available()) if r.builtin_scenario(name_or_path) is not None]
    refusals: list[str] = []
    if not found:
        for ruleset in map(find, available()):
            try:
                ruleset.load_scenario(name_or_path)
            except Exception as exc:  # not this ruleset's scenario (or a broken one): try the next
                refusals.append(f"{ruleset.name}: {str(exc).removeprefix(name_or_path + ': ')}")
                continue
            found.append(ruleset)
    if len(found) == 1:
        return found[0]
    if not found and Path(name_or_path).is_file():  # a file no ruleset reads: say why each refused it
        raise RulesetProblem(f"{name_or_path}: no installed ruleset reads this scenario file ({'; '.join(refusals)})")
    if not found:
        raise RulesetProblem(
            f"no installed ruleset has a scenario {name_or_path!r} (see: pbem scenarios --ruleset NAME)"
        )
    names = ", ".join(r.name for r in found)
    raise RulesetProblem(f"scenario {name_or_path!r} exists in several rulesets ({names}); choose with --ruleset")


def available() -> list[str]:
    return sorted({e.name for e in entry_points(group=ENTRY_POINT_GROUP)} | set(_registered))


__all__ = ["ENTRY_POINT_GROUP", "Pending", "Reported", "Ruleset", "ScenarioInfo", "available", "find", "for_scenario",
           "register"]
