"""Scenario files (scenarios/fleets/*.toml): the fleets, who attacks, the bound limit, and the terrain or none
(then the defender declares it as his first decision)."""

from __future__ import annotations

from typing import Any

import msgspec

from engine import datafiles

from engine.datafiles import scenarios_dir
from engine.fleets.elements import Element, Rules
from engine.fleets.errors import IllegalOrder, ScenarioError
from engine.fleets.geometry import Rect
from engine.fleets.state import Side, State
from engine.fleets.table import Coast, Piece, Terrain, check_terrain


class FleetSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    name: str
    prefix: str
    general: int  # which element (1-based) is the general's
    elements: list[str]
    note: str = ""


class TerrainSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    coasts: list[tuple[str, int]]
    pieces: list[tuple[str, int, int, int, int, int]] = []


class ScenarioSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    name: str
    title: str
    summary: str
    attacker: str
    defender: str
    bounds: int
    sides: list[FleetSpec]
    terrain: TerrainSpec | None = None
    size: int = 0  # 0: the rules' usual table
    history: str = ""
    # version 3 (engine/fleets/choosing.py): aggression dice decide the attacker, then each player chooses his
    # fleet (the sides' lists are the examples offered); needs an open set-up (no [terrain])
    choose: bool = False


def fleets_dir() -> Any:
    return scenarios_dir() / "fleets"


def builtin_names() -> list[str]:
    return sorted(p.stem for p in fleets_dir().glob("*.toml") if p.stem != "rules")


def builtin(name: str) -> bytes | None:
    path = fleets_dir() / f"{name}.toml"
    return path.read_bytes() if name != "rules" and path.is_file() else None


def parse(data: bytes, what: str = "fleet scenario") -> ScenarioSpec:
    try:
        spec = msgspec.convert(datafiles.read_toml(data), ScenarioSpec)
    except (UnicodeDecodeError, datafiles.TomlSyntaxError, msgspec.ValidationError) as exc:
        raise ScenarioError(f"{what}: {exc}") from None
    keys = [s.key for s in spec.sides]
    if len(spec.sides) != 2 or sorted(keys) != sorted([spec.attacker, spec.defender]) or spec.attacker == spec.defender:
        raise ScenarioError(f"{what}: two fleets, one the attacker and one the defender")
    if spec.sides[0].prefix == spec.sides[1].prefix:
        raise ScenarioError(f"{what}: the fleets need different id prefixes")
    for fleet in spec.sides:
        if not (fleet.prefix.isascii() and fleet.prefix.isalpha() and fleet.prefix.isupper()):
            raise ScenarioError(f"{what}: {fleet.key}: the id prefix is capital letters (ids read G1, G2...)")
        if not 1 <= fleet.general <= len(fleet.elements):
            raise ScenarioError(f"{what}: {fleet.key}: general must name one of its {len(fleet.elements)} elements")
    if spec.size and spec.terrain is None:
        raise ScenarioError(f"{what}: size goes with the scenario's own [terrain]; an open set-up uses the usual table")
    if spec.choose and spec.terrain is not None:
        raise ScenarioError(f"{what}: choose (aggression dice, fleets chosen) goes with an open set-up, no [terrain]")
    if spec.bounds < 2:
        raise ScenarioError(f"{what}: bounds must be at least 2")
    return spec


def terrain_of(spec: TerrainSpec, size: int) -> Terrain:
    return Terrain(
        size,
        tuple(Coast(e, s) for e, s in spec.coasts),  # type: ignore[arg-type]
        tuple(Piece(k, Rect(x0, y0, x1, y1), s) for k, x0, y0, x1, y1, s in spec.pieces),  # type: ignore[arg-type]
    )


def initial_state(spec: ScenarioSpec, rules: Rules, what: str = "scenario") -> State:
    size = spec.size or rules.numbers.table
    if size < 1:
        raise ScenarioError(f"{what}: the table size must be positive")
    terrain = None
    if spec.terrain is not None:
        terrain = terrain_of(spec.terrain, size)
        try:
            check_terrain(terrain, rules.numbers)
        except IllegalOrder as exc:
            raise ScenarioError(f"{what}: terrain: {exc}") from None
    to_place = []
    sides = []
    for fleet in spec.sides:
        for n, code in enumerate(fleet.elements, 1):
            rules.type(code)
            to_place.append(Element(f"{fleet.prefix}{n}", code, fleet.key, 0, 0, 0, n == fleet.general))
        sides.append(Side(fleet.key, fleet.name, f"{fleet.prefix}{fleet.general}", len(fleet.elements)))
    return State(
        rules=rules, scenario=spec.key, title=spec.title, sides=(sides[0], sides[1]),
        attacker=spec.attacker, defender=spec.defender, bound_limit=spec.bounds,
        phase="aggression" if spec.choose else "terrain" if terrain is None else "wind-pick", terrain=terrain,
        to_place=tuple(to_place),
    )
