"""The battle files: the built-in scenarios (found through engine.datafiles) and a player's own.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from engine import decoded

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

T = TypeVar("T")

SCENARIOS_DIR = scenarios_dir("war_galley")
BATTLES_DIR = SCENARIOS_DIR / "battles"


# ---------------------------------------------------------------- loaders


# The code that turns the built-in files into their shapes: editing any makes the kept results stale.
_DECODERS = ("engine.errors", "engine.war_galley.map_and_galleys", "engine.war_galley.battles.scenario",
             "engine.war_galley.battles.scenario_checks", "engine.war_galley.battles.scenario_layout",
             "engine.war_galley.battles.scenario_files")


def _kept(kind: str, data: bytes, shape: type, build: Callable[[], T]) -> T:
    """`build()`, kept between processes under the SHA-256 of everything it reads (engine.decoded):
    a kept value is used only if it is exactly that, so it is what building it again would give."""
    key = decoded.key_of(kind, data, _DECODERS)
    value = decoded.load(key)
    if isinstance(value, shape):
        return value  # type: ignore[return-value]
    value = build()
    decoded.store(key, value)
    return value


@functools.lru_cache(maxsize=1)
def builtin_manifest() -> Manifest:
    path = SCENARIOS_DIR / "counters.toml"
    data = path.read_bytes()
    return _kept(f"war-galley manifest {path}", data, Manifest, lambda: load_manifest(data, str(path)))


@functools.lru_cache(maxsize=1)
def builtin_commanders() -> Commanders:
    path = SCENARIOS_DIR / "commanders.toml"
    data = path.read_bytes()
    return _kept(f"war-galley commanders {path}", data, Commanders, lambda: load_commanders(data, str(path)))


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
    the game's rules data: kept between processes by both, as the built-in battles are (`_kept`)."""
    def build() -> Scenario:
        parsed = parse(load_rules_data(rules_data))
        return parse_scenario(scenario_data, "scenario", parsed.manifest, parsed.commanders)

    # the length first: no two pairs of inputs give the same key bytes
    return _kept("war-galley game scenario", len(scenario_data).to_bytes(8, "big") + scenario_data + rules_data,
                 Scenario, build)


def load_scenario(path: Path | str) -> Scenario:
    """Read a scenario file, checked against the built-in manifest and commanders."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RulesDataError(f"{p}: cannot read: {exc}") from exc
    if p.parent != BATTLES_DIR:  # a player's own file: read each time, errors and all
        return parse_scenario(data, str(p), builtin_manifest(), builtin_commanders())
    # A built-in battle: checked against the built-in counters and commanders, so kept by all three.
    counters, commanders = (SCENARIOS_DIR / "counters.toml").read_bytes(), (SCENARIOS_DIR / "commanders.toml").read_bytes()
    everything = b"\0".join((data, counters, commanders))
    return _kept(f"war-galley scenario {p}", everything, Scenario,
                 lambda: parse_scenario(data, str(p), builtin_manifest(), builtin_commanders()))


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
