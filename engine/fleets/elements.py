"""Element types (the fragment's table), the rules' fixed numbers, and an element on the table."""

from __future__ import annotations

from typing import Literal

import msgspec

from engine import datafiles

from engine.fleets.errors import ScenarioError
from engine.fleets.geometry import UNIT, Rect, Vec, square

Kind = Literal["galley", "ship"]


class ElementType(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    code: str
    name: str
    cv: int
    speed: int
    kind: Kind  # "galley": oared (Cat, Lib, Lng); "ship": sailing (Wr, Tr) -- see docs/fleets-rules.md
    astern_bonus: bool
    # Version 2 (rules 5.8): a galley of this type may back out of front contact. Data without it (version 1's)
    # reads as every galley may, as version 1 judged; omitted from a state's bytes when at the default.
    breaks_off: bool = True


class Numbers(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    base_width: int
    pivot_quarter: int
    drift: int
    upwind_or_shallows: int
    wind_astern_bonus: int
    backward_penalty: int
    flee: int
    general_bonus: int
    rear_support: int
    overlap_penalty: int
    table: int
    deploy_depth: int
    piece_length: int
    width_num: int
    width_den: int
    shallows_max: int
    open_water: int
    centre_clear: int
    pieces_one_coast: int
    pieces_two_coasts: int
    loss_fraction_den: int
    # Version 2 (docs/fleets-rules.md 5.4): DBA 2.2's command distance. Defaults, omitted from a state's bytes
    # when at them, so that rules data of version 1 (without them) reads and encodes as it always did.
    command_range: int = 1200
    command_extra_pip: int = 1


class Rules(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    types: tuple[ElementType, ...]
    numbers: Numbers
    # The ruleset version judging the game (engine/fleets/ruleset.py, VERSIONS), stamped by the adapter, never
    # rules data. Omitted when "1", so version 1's states keep the bytes they always had (docs/protocol.md, Upgrades).
    version: str = "1"

    def at_least(self, version: str) -> bool:
        return int(self.version) >= int(version)

    def type(self, code: str) -> ElementType:
        for t in self.types:
            if t.code == code:
                return t
        raise ScenarioError(f"no element type {code!r} (types: {', '.join(t.code for t in self.types)})")


def load_rules(data: bytes, what: str = "rules data") -> Rules:
    try:
        raw = datafiles.read_toml(data)
        rules = msgspec.convert(raw, Rules)
    except (UnicodeDecodeError, datafiles.TomlSyntaxError, msgspec.ValidationError) as exc:
        raise ScenarioError(f"{what}: {exc}") from None
    if rules.version != "1":
        raise ScenarioError(f"{what}: version is not rules data (the ruleset version is pinned by the game)")
    n = rules.numbers
    if n.base_width % 2:
        raise ScenarioError(f"{what}: base_width must be even (bases are placed by their centre)")
    for field in ("base_width", "drift", "table", "deploy_depth", "piece_length", "width_num", "width_den",
                  "loss_fraction_den", "flee", "open_water"):
        if getattr(n, field) < 1:
            raise ScenarioError(f"{what}: {field} must be at least 1")
    for field in n.__struct_fields__:
        if getattr(n, field) < 0:
            raise ScenarioError(f"{what}: {field} may not be negative")
    codes = [t.code for t in rules.types]
    if len(set(codes)) != len(codes) or not codes:
        raise ScenarioError(f"{what}: each element type once")
    for t in rules.types:
        if t.speed < 1:
            raise ScenarioError(f"{what}: {t.code}: speed must be at least 1")
    return rules


class Element(msgspec.Struct, frozen=True, array_like=True):
    """One base: its id (e.g. G3), type code, side key, centre, heading (degrees), general's flag."""

    id: str
    type: str
    side: str
    x: int
    y: int
    heading: int
    general: bool = False

    @property
    def centre(self) -> Vec:
        return (self.x, self.y)

    def footprint(self, half: int) -> Rect:
        return square(self.x, self.y, half)

    def moved(self, x: int, y: int, heading: int | None = None) -> "Element":
        return msgspec.structs.replace(self, x=x, y=y, heading=self.heading if heading is None else heading)

    @property
    def front(self) -> Vec:
        return UNIT[self.heading]


def is_galley(rules: Rules, element: Element) -> bool:
    return rules.type(element.type).kind == "galley"


def is_ship(rules: Rules, element: Element) -> bool:
    return rules.type(element.type).kind == "ship"
