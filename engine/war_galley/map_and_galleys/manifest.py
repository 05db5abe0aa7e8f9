"""The counter manifest and the commanders' ratings, read from TOML data.

Both are rules data (charts-and-counters.md): the numbers live in
`scenarios/war_galley/counters.toml` and `scenarios/war_galley/commanders.toml`, this module only
gives them a shape, checks it and answers questions about it.

A galley counter is named by its side colour, its type shorthand (4.1) and
its ID# (the scenario book's "20 Green Quadriremes, ID 40-59"). In data files
a galley is written `TYPE#ID` (`3#35`, `cat3#12`) and a run of them
`TYPE#FIRST-LAST` (`5#50-60`); the colour comes from the side that owns it.
"""

from __future__ import annotations

import re
from typing import Any, Literal, NamedTuple, TypeVar

import msgspec

from engine import datafiles
from engine.errors import RulesDataError
from engine.war_galley.map_and_galleys.ratings import Ratings, SideRatings

# The galley designation shorthand of 4.1, in the book's order.
TYPES: tuple[str, ...] = (
    "L", "RL", "T", "2", "L2", "3", "cat3", "4", "5", "6", "7", "8", "10", "Trm",
)
Colour = Literal["red", "green"]
COLOURS: tuple[str, ...] = ("red", "green")

_TYPE_RE = "|".join(sorted((re.escape(t) for t in TYPES), key=len, reverse=True))
GALLEY_RANGE_RE = re.compile(rf"^({_TYPE_RE})#(\d{{1,3}})(?:-(\d{{1,3}}))?$")
ID_RANGE_RE = re.compile(r"^(\d{1,3})(?:-(\d{1,3}))?$")

T = TypeVar("T")


# ---------------------------------------------------------------- decoding


def read_toml(data: bytes, source: str) -> dict[str, Any]:
    """Parse TOML bytes; syntax errors keep tomllib's "(at line L, column C)"."""
    try:
        return datafiles.read_toml(data)  # a shipped file's JSON twin, else the TOML
    except UnicodeDecodeError as exc:
        raise RulesDataError(f"{source}: not UTF-8 text: {exc}") from exc
    except datafiles.TomlSyntaxError as exc:
        raise RulesDataError(f"{source}: TOML syntax error: {exc}") from exc


def convert_at(raw: Any, into: type[T], source: str, path: str = "$") -> T:
    """msgspec.convert, with errors naming `source` and the field path.

    msgspec writes a path such as `$.sides[0].name`; `path` replaces its `$`
    when `raw` is a part of the file (msgspec shows dict keys as `[...]`, so
    callers convert keyed tables entry by entry to keep their names).
    """
    try:
        return msgspec.convert(raw, into)
    except msgspec.ValidationError as exc:
        text = str(exc)
        text = text.replace("`$", "`" + path) if " - at `" in text else f"{text} - at `{path}`"
        raise RulesDataError(f"{source}: {text}") from exc


def decode_toml(data: bytes, into: type[T], source: str) -> T:
    """Parse TOML bytes into a msgspec Struct; every failure names `source`."""
    return convert_at(read_toml(data, source), into, source)


# ---------------------------------------------------------------- galley names


class CounterKey(NamedTuple):
    """One physical counter: side colour, type shorthand, ID#."""

    colour: str
    type: str
    id: int

    def __str__(self) -> str:
        return f"{self.colour} {format_galley(self.type, self.id)}"


def format_galley(type_: str, id_: int) -> str:
    return f"{type_}#{id_}"


def parse_id_range(text: str) -> range:
    """`"40-59"` -> range(40, 60); `"35"` -> range(35, 36)."""
    m = ID_RANGE_RE.match(text)
    if m is None:
        raise ValueError(f"{text!r} is not an ID or ID range like 40-59")
    first = int(m.group(1))
    last = int(m.group(2)) if m.group(2) else first
    if last < first:
        raise ValueError(f"{text!r}: last ID below first")
    return range(first, last + 1)


def parse_galley_range(text: str) -> tuple[str, range]:
    """`"5#50-60"` -> ("5", range(50, 61)); `"3#35"` -> ("3", range(35, 36))."""
    m = GALLEY_RANGE_RE.match(text)
    if m is None:
        raise ValueError(
            f"{text!r} is not a galley like 3#35 or a run like 5#50-60 "
            f"(types: {', '.join(TYPES)})"
        )
    return m.group(1), parse_id_range(text[len(m.group(1)) + 1 :])


def expand_galleys(texts: list[str]) -> list[tuple[str, int]]:
    """Galley runs, in the order written, as (type, id) pairs."""
    out: list[tuple[str, int]] = []
    for text in texts:
        type_, ids = parse_galley_range(text)
        out.extend((type_, i) for i in ids)
    return out


# ---------------------------------------------------------------- counters


class SideSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    ram_attack: int
    ram_defense: int
    speed: int
    anastrophe: bool = False


class PartialSide(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A per-ID variation of one speed side: only the printed values that differ."""

    ram_attack: int | None = None
    ram_defense: int | None = None
    speed: int | None = None
    anastrophe: bool | None = None

    def over(self, base: SideSpec) -> SideSpec:
        return SideSpec(
            ram_attack=base.ram_attack if self.ram_attack is None else self.ram_attack,
            ram_defense=base.ram_defense if self.ram_defense is None else self.ram_defense,
            speed=base.speed if self.speed is None else self.speed,
            anastrophe=base.anastrophe if self.anastrophe is None else self.anastrophe,
        )


class TypeDefaults(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What most counters of one type print (4.1)."""

    name: str
    double: bool
    crew: int
    manpower: int
    cruise: SideSpec
    maximum: SideSpec
    engines: bool = False
    towers: bool = False


class CounterGroup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A run of counters of one colour and type, and how they differ from the type."""

    colour: Colour
    type: str
    ids: str
    label: str = ""  # a name for the rating class, e.g. "5-IV"
    crew: int | None = None
    manpower: int | None = None
    engines: bool | None = None
    towers: bool | None = None
    double: bool | None = None
    cruise: PartialSide | None = None
    maximum: PartialSide | None = None

    def __post_init__(self) -> None:
        if self.type not in TYPES:
            raise ValueError(f"type {self.type!r} is not a 4.1 shorthand ({', '.join(TYPES)})")
        parse_id_range(self.ids)


class ManifestFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    schema: int
    types: dict[str, TypeDefaults]
    counters: list[CounterGroup]


class Manifest:
    """Every counter the scenarios use, with its printed ratings."""

    def __init__(self, file: ManifestFile, source: str) -> None:
        self.source = source
        self.types = file.types
        self.groups = file.counters
        self._ratings: dict[CounterKey, Ratings] = {}
        self._group: dict[CounterKey, CounterGroup] = {}
        for t in TYPES:
            if t not in file.types:
                raise RulesDataError(f"{source}: types: no defaults for type {t!r}")
        for name in file.types:
            if name not in TYPES:
                raise RulesDataError(f"{source}: types.{name}: not a 4.1 shorthand")
        for n, group in enumerate(file.counters):
            ratings = _group_ratings(file.types[group.type], group)
            problem = _check_ratings(ratings)
            if problem:
                raise RulesDataError(f"{source}: counters[{n}] ({group.colour} {group.type}#{group.ids}): {problem}")
            for i in parse_id_range(group.ids):
                key = CounterKey(group.colour, group.type, i)
                if key in self._ratings:
                    raise RulesDataError(f"{source}: counters[{n}]: {key} is listed twice")
                self._ratings[key] = ratings
                self._group[key] = group

    def __contains__(self, key: object) -> bool:
        return key in self._ratings

    def keys(self) -> list[CounterKey]:
        return list(self._ratings)

    def ratings(self, key: CounterKey) -> Ratings:
        try:
            return self._ratings[key]
        except KeyError:
            raise RulesDataError(f"{self.source}: no counter {key} in the manifest") from None

    def group(self, key: CounterKey) -> CounterGroup:
        return self._group[key]

    def items(self) -> list[tuple[CounterKey, Ratings]]:
        return list(self._ratings.items())


def _group_ratings(base: TypeDefaults, g: CounterGroup) -> Ratings:
    def pick(value: Any, default: Any) -> Any:
        return default if value is None else value

    cruise = g.cruise.over(base.cruise) if g.cruise else base.cruise
    maximum = g.maximum.over(base.maximum) if g.maximum else base.maximum
    return Ratings(
        type=g.type,
        crew=pick(g.crew, base.crew),
        manpower=pick(g.manpower, base.manpower),
        engines=pick(g.engines, base.engines),
        towers=pick(g.towers, base.towers),
        double=pick(g.double, base.double),
        cruise=SideRatings(cruise.ram_attack, cruise.ram_defense, cruise.speed, cruise.anastrophe),
        maximum=SideRatings(maximum.ram_attack, maximum.ram_defense, maximum.speed, maximum.anastrophe),
    )


def _check_ratings(r: Ratings) -> str | None:
    """Ranges the rulebook fixes; None when the counter is sound."""
    if not 1 <= r.crew <= 4:
        return f"Crew {r.crew} outside 1-4 (6.41)"
    if r.manpower < 0:
        return f"Manpower {r.manpower} below 0 (8.62)"
    for side, s in (("cruise", r.cruise), ("maximum", r.maximum)):
        if s.speed < 1 or s.ram_attack < 0 or s.ram_defense < 1:
            return f"{side} side: speed, Ram Attack or Ram Defense out of range"
    if r.cruise.anastrophe:
        return "Anastrophe is a Maximum Speed manoeuvre (7.31); the asterisk belongs on the Maximum side"
    if r.maximum.speed < r.cruise.speed:
        return "Maximum Speed below Cruise Speed (6.11)"
    return None


def load_manifest(data: bytes, source: str = "counters.toml") -> Manifest:
    """Read and check the counter manifest (scenarios/war_galley/counters.toml)."""
    raw = read_toml(data, source)
    types = raw.get("types")
    if isinstance(types, dict):  # entry by entry, so errors name the type
        raw["types"] = {}
        checked = {k: convert_at(v, TypeDefaults, source, f"$.types.{k}") for k, v in types.items()}
        file = convert_at(raw, ManifestFile, source)
        file = msgspec.structs.replace(file, types=checked)
    else:
        file = convert_at(raw, ManifestFile, source)
    return Manifest(file, source)


# ---------------------------------------------------------------- commanders


class Commander(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Squadron Commander or Admiral counter (5.1) as one scenario uses it.

    The Reduced Effectiveness side (5.52-5.53) prints lower values.
    """

    name: str
    rank: Literal["admiral", "squadron"]
    command_range: int
    re_command_range: int
    initiative: int | None = None  # admirals only (5.12)
    re_initiative: int | None = None
    ersatz: bool = False  # the book's asterisk: an assigned, not a historical, name
    note: str = ""

    def __post_init__(self) -> None:
        if self.rank == "admiral" and (self.initiative is None or self.re_initiative is None):
            raise ValueError(f"admiral {self.name} needs initiative and re_initiative (5.12)")
        if self.rank == "squadron" and (self.initiative is not None or self.re_initiative is not None):
            raise ValueError(f"squadron commander {self.name} has no Initiative rating (5.11)")
        if not 0 <= self.re_command_range <= self.command_range:
            raise ValueError(f"{self.name}: RE Command Range must be 0..Command Range")
        if self.initiative is not None and self.re_initiative is not None and self.re_initiative > self.initiative:
            raise ValueError(f"{self.name}: RE Initiative above Initiative")


class CommandersFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    schema: int
    # scenario key -> side key -> that side's commanders
    scenarios: dict[str, dict[str, list[Commander]]]


class Commanders:
    """Every named commander of every scenario, per scenario and side."""

    def __init__(self, file: CommandersFile, source: str) -> None:
        self.source = source
        self.rosters = file.scenarios
        for scen, sides in file.scenarios.items():
            for side, roster in sides.items():
                names = [c.name for c in roster]
                dupes = {n for n in names if names.count(n) > 1}
                if dupes:
                    raise RulesDataError(f"{source}: scenarios.{scen}.{side}: duplicate names {sorted(dupes)}")

    def roster(self, scenario: str, side: str) -> list[Commander]:
        try:
            return self.rosters[scenario][side]
        except KeyError:
            raise RulesDataError(f"{self.source}: no commanders for scenario {scenario!r} side {side!r}") from None

    def get(self, scenario: str, side: str, name: str) -> Commander:
        for c in self.roster(scenario, side):
            if c.name == name:
                return c
        raise RulesDataError(f"{self.source}: scenario {scenario!r} side {side!r} has no commander {name!r}")


def load_commanders(data: bytes, source: str = "commanders.toml") -> Commanders:
    """Read and check the commanders' ratings (scenarios/war_galley/commanders.toml)."""
    raw = read_toml(data, source)
    scenarios = raw.get("scenarios")
    if isinstance(scenarios, dict):  # entry by entry, so errors name scenario and side
        checked: dict[str, dict[str, list[Commander]]] = {}
        for scen, sides in scenarios.items():
            if not isinstance(sides, dict):
                raise RulesDataError(f"{source}: `$.scenarios.{scen}`: expected a table of sides")
            checked[scen] = {
                side: convert_at(roster, list[Commander], source, f"$.scenarios.{scen}.{side}")
                for side, roster in sides.items()
            }
        raw["scenarios"] = {}
        file = msgspec.structs.replace(convert_at(raw, CommandersFile, source), scenarios=checked)
    else:
        file = convert_at(raw, CommandersFile, source)
    return Commanders(file, source)
