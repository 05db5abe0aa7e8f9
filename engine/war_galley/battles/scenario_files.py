"""The battle files: the built-in scenarios (found through engine.datafiles) and a player's own.
"""

from __future__ import annotations

import functools
from pathlib import Path

from engine.datafiles import scenarios_dir
from engine.errors import RulesDataError
from engine.war_galley.battles.scenario import Scenario, Side
from engine.war_galley.battles.scenario_checks import check_scenario
from engine.war_galley.map_and_galleys.rulesdata import load_rules_data, parse
from engine.war_galley.map_and_galleys.manifest import (
    Commanders,
    CounterKey,
    Manifest,
    decode_toml,
    load_commanders,
    load_manifest,
    parse_galley_range,
)

SCENARIOS_DIR = scenarios_dir("war_galley")
BATTLES_DIR = SCENARIOS_DIR / "battles"


# ---------------------------------------------------------------- loaders


@functools.lru_cache(maxsize=1)
def builtin_manifest() -> Manifest:
    path = SCENARIOS_DIR / "counters.toml"
    return load_manifest(path.read_bytes(), str(path))


@functools.lru_cache(maxsize=1)
def builtin_commanders() -> Commanders:
    path = SCENARIOS_DIR / "commanders.toml"
    return load_commanders(path.read_bytes(), str(path))


def parse_scenario(
    data: bytes, source: str, manifest: Manifest | None = None, commanders: Commanders | None = None
) -> Scenario:
    """Decode and check scenario TOML bytes; `source` names it in errors."""
    scenario = decode_toml(data, Scenario, source)
    check_scenario(scenario, source, manifest, commanders)
    return scenario


@functools.lru_cache(maxsize=4)  # asked by the sides of the set-up files and again by the game's set-up
def game_scenario(scenario_data: bytes, rules_data: bytes) -> Scenario:
    """A game's scenario (the bytes its invitation pins), checked against the counters and commanders of
    the game's rules data."""
    parsed = parse(load_rules_data(rules_data))
    return parse_scenario(scenario_data, "scenario", parsed.manifest, parsed.commanders)


def load_scenario(path: Path | str) -> Scenario:
    """Read a scenario file, checked against the built-in manifest and commanders."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RulesDataError(f"{p}: cannot read: {exc}") from exc
    return parse_scenario(data, str(p), builtin_manifest(), builtin_commanders())


@functools.lru_cache(maxsize=4)
def builtin_scenario(key: str) -> Scenario | None:
    """One built-in battle by its key (its file's name), or None: reading all of them costs a report ~50 ms."""
    path = BATTLES_DIR / f"{key}.toml"
    if "/" in key or "\\" in key or not path.is_file():
        return None
    return load_scenario(path)


def builtin_scenarios() -> list[Scenario]:
    """The book's battles under scenarios/war_galley/battles/, in the book's order."""
    found = [load_scenario(p) for p in sorted(BATTLES_DIR.glob("*.toml"))]
    return sorted(found, key=lambda s: (s.book_order, s.key))


def galley_crew(scenario: Scenario, side: Side, key: CounterKey, manifest: Manifest) -> int:
    """A galley's Crew in this scenario: the scenario's statement, else the counter."""
    for fleet in side.fleets:
        for g in fleet.galleys:
            t, ids = parse_galley_range(g.galleys)
            if t == key.type and key.id in ids and g.crew is not None:
                return g.crew
    return manifest.ratings(key).crew
