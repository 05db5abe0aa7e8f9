"""The scenario schema: one battle of the scenario book as a TOML file.

A scenario names its map sheets and land, its two sides with their fleets
(galley runs from the counter manifest, commanders from commanders.toml or
inline), fixed placements and free deployment zones, first-turn initiative,
wind, special rules by name with parameters, optional rules and victory
conditions. docs/scenario-schema.md is the user's guide; this module is the
contract. Data flows one way: the TOML is decoded into frozen msgspec
Structs (unknown fields refused), then `check_scenario` checks what a schema
cannot express (notation, adjacency, references, overlaps) and reports every
problem as RulesDataError naming the file and the field.

Hex notation (shared/rules/geometry.md): `CCRR`, with the sheet letter
(`N3719`) on maps of several sheets. A galley's position is bow first,
`2319-2320`, or `2319/0` (hex and facing) for a single-hex counter.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple

import msgspec

from engine.datafiles import scenarios_dir
from engine import hexes
from engine.errors import RulesDataError
from engine.manifest import (
    COLOURS,
    Commander,
    Commanders,
    CounterKey,
    Manifest,
    decode_toml,
    expand_galleys,
    format_galley,
    load_commanders,
    load_manifest,
    parse_galley_range,
)

SCENARIOS_DIR = scenarios_dir()
BATTLES_DIR = SCENARIOS_DIR / "battles"
SCHEMA_VERSION = 1

HEX_PATTERN = r"^[A-Z]?\d{4}$"
POSITION_PATTERN = r"^[A-Z]?\d{4}(-[A-Z]?\d{4}|/[0-5])$"
GALLEY_PATTERN = r"^[A-Za-z0-9]+#\d{1,3}(-\d{1,3})?$"
Hex = Annotated[str, msgspec.Meta(pattern=HEX_PATTERN)]
Position = Annotated[str, msgspec.Meta(pattern=POSITION_PATTERN)]
GalleyRun = Annotated[str, msgspec.Meta(pattern=GALLEY_PATTERN)]
Facing = Annotated[int, msgspec.Meta(ge=0, le=5)]

# Map sheet extent (geometry.md): columns 10..60, rows 00..28.
COLUMNS = range(10, 61)
ROWS = range(0, 29)

# ---------------------------------------------------------------- hexes


class HexRef(NamedTuple):
    sheet: str
    col: int
    row: int


def parse_hex_ref(text: str) -> HexRef:
    """`"N3719"` -> HexRef("N", 37, 19). Checks the sheet extent."""
    m = re.match(r"^([A-Z]?)(\d{2})(\d{2})$", text)
    if m is None:
        raise ValueError(f"{text!r} is not a hex (CCRR, or a sheet letter and CCRR)")
    ref = HexRef(m.group(1), int(m.group(2)), int(m.group(3)))
    if ref.col not in COLUMNS or ref.row not in ROWS:
        raise ValueError(f"{text!r} is off the map sheet (columns 10-60, rows 00-28)")
    return ref


def format_hex_ref(h: HexRef) -> str:
    return f"{h.sheet}{h.col:02d}{h.row:02d}"


def neighbour(col: int, row: int, d: int) -> tuple[int, int]:
    """The grid's one neighbour rule (engine.hexes, geometry.md), on plain joined-map coordinates."""
    h = hexes.neighbour(hexes.Hex(col, row), d % 6)
    return h.col, h.row


class Placed(NamedTuple):
    """A parsed position: bow hex, stern hex (None for single-hex), facing."""

    bow: HexRef
    stern: HexRef | None
    facing: int


def parse_position(text: str, offsets: dict[str, tuple[int, int]] | None = None) -> Placed:
    """`"2319-2320"` (bow first) or `"2319/0"`. The halves must be adjacent.

    `offsets` maps sheet letters to their (column, row) offset on the joined
    map, so that halves on two overlapping sheets can be checked.
    """
    offsets = offsets or {"": (0, 0)}
    if "/" in text:
        hex_text, d = text.split("/")
        return Placed(parse_hex_ref(hex_text), None, int(d))
    bow_text, stern_text = text.split("-")
    bow = parse_hex_ref(bow_text)
    if not re.match(r"^[A-Z]", stern_text):
        stern_text = bow.sheet + stern_text  # the stern inherits the bow's sheet letter
    stern = parse_hex_ref(stern_text)
    b, s = to_global(bow, offsets), to_global(stern, offsets)
    for k in range(6):
        if neighbour(b[0], b[1], k) == s:
            return Placed(bow, stern, (k + 3) % 6)
    raise ValueError(f"position {text!r}: bow and stern hexes are not adjacent")


def to_global(h: HexRef, offsets: dict[str, tuple[int, int]]) -> tuple[int, int]:
    if h.sheet not in offsets:
        raise ValueError(f"hex {format_hex_ref(h)}: no map sheet {h.sheet!r} in this scenario")
    dc, dr = offsets[h.sheet]
    return h.col + dc, h.row + dr


def from_global(col: int, row: int, offsets: dict[str, tuple[int, int]], prefer: str) -> HexRef:
    """The sheet-local name of a joined-map hex, preferring sheet `prefer`."""
    order = [prefer] + [s for s in offsets if s != prefer]
    for sheet in order:
        dc, dr = offsets[sheet]
        if col - dc in COLUMNS and row - dr in ROWS:
            return HexRef(sheet, col - dc, row - dr)
    raise ValueError(f"column {col}, row {row} is on no map sheet")


def format_position(p: Placed) -> str:
    if p.stern is None:
        return f"{format_hex_ref(p.bow)}/{p.facing}"
    return f"{format_hex_ref(p.bow)}-{format_hex_ref(p.stern)}"


# ---------------------------------------------------------------- map


class Sheet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One map sheet (2.2). `letter` prefixes its hexes when there are several."""

    kind: Literal["sea", "land"]
    letter: str = ""
    # Where the sheet lies on the joined map. Column offsets are even so
    # that column parity, and so adjacency, is the same on every sheet.
    column_offset: int = 0
    row_offset: int = 0


class LandArea(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A lettered land area of the land sheet (2.2), or a coast strip, as hexes."""

    letter: str
    name: str
    hexes: list[Hex]
    note: str = ""


class Coast(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A map edge that is coastline: off-map beyond it is land (6.31)."""

    edge: Literal["xx00", "xx28", "10xx", "60xx"]
    sheet: str = ""  # "" = that edge on every sheet
    gap_from: Hex | None = None  # an open stretch of the edge, inclusive
    gap_to: Hex | None = None
    note: str = ""


class MapSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    sheets: list[Sheet]
    north: str  # the book's compass statement, e.g. "xx28 row"
    land: list[LandArea] = []
    coast: list[Coast] = []
    note: str = ""

    def offsets(self) -> dict[str, tuple[int, int]]:
        return {s.letter: (s.column_offset, s.row_offset) for s in self.sheets}


# ---------------------------------------------------------------- fleets


Capability = Literal["flame", "firepots", "corvus", "harpax", "sails"]


class GalleyGroup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A run of galleys of the side's colour, with what the scenario adds."""

    galleys: GalleyRun
    capabilities: list[Capability] = []
    crew: int | None = None  # a scenario statement overriding the counter's Crew
    note: str = ""


class Fleet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A fleet under its own command; allied fleets of one side are separate (Chios)."""

    key: str
    name: str
    galleys: list[GalleyGroup]
    commanders: list[str]
    # Crew of the galley a commander starts on (Actium: "the original
    # flagships for Antony and Cleopatra, which are 3-rated").
    flagship_crew: dict[str, int] = {}


class Line(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Line-placement helper: positions from `first` to `last` inclusive.

    Bows in one row (line abreast, "from 2007-6 to 5007-6") step along the
    columns; bows in one column (line astern) step along the rows. Every
    position has the facing of `first`; `skip` drops bows listed there.
    """

    first: Position
    last: Position
    step: int = 0  # 0 = 1 column abreast, or the counter's length astern
    skip: list[Hex] = []


class Zone(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Where free placement may put galleys; a deployment decision checks it.

    Column and row bounds are inclusive and apply to both halves of the
    galley unless `bow_only`. `constraints` name relational rules the
    deployment check applies (see ZONE_CONSTRAINTS).
    """

    columns: tuple[int, int] | None = None
    rows: tuple[int, int] | None = None
    sheet: str | None = None
    bow_hexes: list[Hex] = []
    facings: list[Facing] = []
    bow_only: bool = False
    stern_offmap: bool = False
    constraints: list[str] = []
    params: dict[str, Any] = {}
    note: str = ""


class OffMap(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Galleys of a group that start off the map and enter later."""

    count: int
    # More may wait, up to this many, the player choosing (Drepanum Approach: "from 1 to 4 separate
    # squadrons", so 1 to 4 lead galleys on the map and 27 to 30 in port behind them).
    up_to: int | None = None
    entry: list[Hex] = []  # entry hexes; empty = "behind the on-map galleys"
    from_turn: int = 1
    after: str | None = None  # a group that must be all on the map first
    # The facing of entering galleys when the group has no galley on the map to
    # follow (Drepanum's Squadrons #1 and #2: 1, "moving north").
    facing: Facing | None = None
    note: str = ""


class Deploy(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One deployment group: galleys, their commanders, and where they start.

    Fixed slots are `positions` then the expanded `lines`. With
    `assign = "in_order"` the galleys, in the order listed, take the slots in
    order (fully placed). With `assign = "player"` the player decides which
    galley takes which slot. With a `zone` the player places them freely.
    """

    name: str
    galleys: list[GalleyRun] = []
    # With no `galleys`: the player picks `count` of the side's galleys that
    # no group names (Actium: "ship types may be divided among the wings").
    count: int | None = None
    commanders: list[str] = []
    positions: list[Position] = []
    lines: list[Line] = []
    assign: Literal["in_order", "player"] = "in_order"
    zone: Zone | None = None
    offmap: OffMap | None = None
    # Commander -> the hex of the galley he starts on; the others are placed
    # by the player on any galley of this group.
    commander_at: dict[str, Hex] = {}
    note: str = ""


class Side(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    key: str
    name: str
    colour: Literal["red", "green"]
    fleets: list[Fleet]
    deploy: list[Deploy]
    # Commanders "placed as the player wishes" on any galley of the side.
    commanders_anywhere: list[str] = []


# ---------------------------------------------------------------- rules


class Initiative(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """First-turn initiative (3.2). "side": that side has it and chooses."""

    first_turn: Literal["roll", "side"]
    side: str | None = None
    note: str = ""


class Wind(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """6.2. `marker`/`toward`: the book's Wind Direction marker and the hex it points at."""

    mode: Literal["none", "steady", "variable", "direction_only", "rising"]
    marker: Hex | None = None
    toward: Hex | None = None
    sails: list[str] = []  # sides whose galleys may use sails
    params: dict[str, Any] = {}
    note: str = ""


class SideVictory(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    side: str
    vp: int | None = None  # None: the book sets no threshold
    ratio: int = 2  # "and that number is at least twice that of the opposition"


class Victory(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    sides: list[SideVictory]
    minor_on_halt: bool = True  # halt by agreement: minor victory to most VP
    note: str = ""


class Special(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A special rule by name (SPECIAL_RULES) with its parameters."""

    name: str
    params: dict[str, Any] = {}
    option: str | None = None  # "KEY" or "KEY=CHOICE": only when that option is chosen
    note: str = ""


class Option(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An optional rule the players choose at set-up."""

    key: str
    description: str
    choices: list[str] = msgspec.field(default_factory=lambda: ["off", "on"])
    default: str = "off"


class Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    schema: int
    key: str
    name: str
    title: str
    war: str
    year_bc: int
    book_order: int
    difficulty: float
    playing_time: str
    ship_scale: str
    map: MapSpec
    sides: list[Side]
    deploy_order: list[str]
    initiative: Initiative
    wind: Wind
    victory: Victory
    special: list[Special] = []
    options: list[Option] = []
    balance: str = ""
    beginner_rank: int | None = None  # the book's learning suggestions: 1 first
    beginner_note: str = ""
    roster: str = ""  # commanders.toml scenario key; "" = `key`
    # Inline commanders (side key -> roster), e.g. for a user's own scenario.
    commanders: dict[str, list[Commander]] = {}
    note: str = ""

    def side(self, key: str) -> Side:
        for s in self.sides:
            if s.key == key:
                return s
        raise KeyError(key)


# Named special rules: name -> where the book states it. The engine looks
# rules up by these names; an unknown name is a data error.
SPECIAL_RULES: dict[str, str] = {
    "no_admiral": "Lade: no admiral; initiative_drm to the initiative roll, no Double Activation",
    "keep_squadrons": "Lade: galleys stay in the squadrons listed",
    "treachery": "Lade: first activation of each listed squadron, 1d6 galleys turn and exit",
    "exited_no_vp": "Galleys of `side` that exit do not count for victory (9.1)",
    "transports_no_manpower": "Catana: transports' M counts as 0",
    "boarding_transports": "Salamis: `side`'s transports board with their printed M; they may not ram or rake",
    "transport_squadron": "Transports move together without a SqC in one activation",
    "transports_restricted": "Catana: transports may not exit nor come within `coast_distance` of the coast",
    "pre_battle_move": "Catana: `side` makes a Movement segment at Cruise before turn 1",
    "corvus": "Ecnomus: Corvus grapple/disengage modifiers; Corvus galleys never at Maximum",
    "in_command_first_turn": "Ecnomus: a group counts In Command on turn 1 regardless of range",
    "ignore_transports": "Ecnomus transport option 1: no transports; a group's turn-1 Speed is fixed",
    "towed_transports": "Ecnomus transport option 2: towing halves speed; cutting tow costs 1 MP",
    "transport_command_limit": "Ecnomus option 2: at most `command_squadrons` Command Squadrons per turn, transports one",
    "transport_vp": "Ecnomus: transports worth `vp`; exits count only when paired with a Carthaginian exit",
    "port_start": "Drepanum Approach: lead galleys bow in a land hex, stern off map; the rest follow",
    "line_astern_command": "Drepanum: the Roman line astern is one squadron until broken",
    "no_max_speed_until": "Drepanum Approach: no Maximum Speed until the side is fully on the map",
    "no_max_speed_first_turn": "Drepanum optional: `side` may not use Maximum Speed on turn 1",
    "run_aground_vp": "Drepanum: `vp` for each galley run aground in `hexes`; removed, not eliminated",
    "exit_vp": "`side` earns `vp` per galley exited off `edge` (not Crippled)",
    "separate_fleets": "Allied fleets: commanders command only their own fleet's galleys",
    "lembi_commanders": "Chios: Lembi SqCs command and transfer to lembi only",
    "no_command_ship": "Galleys of a type that may never be Command Ships",
    "approach_phase": "Side: turn 1 is only `side`'s approach move, with command",
    "pestilence": "Side: `side` adds `fatigue_drm` to Fatigue rolls",
    "sails_up_start": "Tauris: `side` starts with Sails Raised and at Cruise Speed on turn 1",
    "wet_fire": "Tauris: fire needs `fire_min`-6; `firefight_drm` to Firefight rolls",
    "commander_restricted": "A commander may command only the listed galley types",
    "no_fire": "No flame missiles or firepots",
    "flame_capable": "Listed galley types gain Flame Capability",
    "towers_optional": "Naulochus optional: towered galleys, Maximum Speed one less",
    "harpax": "Naulochus: Harpax grapple at range 2 with pull; disengage modifier",
    "all_towers": "Actium: no Height Advantage; galleys without T lose one Maximum Speed",
    "flame_throwers": "Actium: `side`'s single D results count as D/F",
    "anchored": "Actium: a group may not move until it spends an Activation raising anchor",
    "treasure_ship": "Actium: a secret galley of a group, committed in a signed file",
    "leaders_survive_vp": "Actium: `vp` to `side` if the named commanders survive uncaptured",
    "minor_victory_most_vp": "No VP threshold: most VP at the end wins",
}

# Relational zone rules the deployment check applies, by name.
ZONE_CONSTRAINTS: dict[str, str] = {
    "line_abreast": "galleys form `lines` (1 or 2) of line abreast",
    "double_line_astern": "galleys form two adjacent lines astern",
    "near_galleys": "each galley within `distance` hexes behind a war galley of `group`",
    "behind_group": "each bow at least `distance` hexes behind a galley of `group`",
    "single_line_abreast": "one line abreast, adjacent or with interval",
    "two_lines": "bows in `front_rows` form the 1st line; every other bow at least `distance` hexes behind a 1st-line galley",
    "commander_wings": "each commander of `commander_wings` starts on a galley of that wing (left/right half, as the galleys face) of the 1st line",
    "commander_columns": "each commander of `commander_columns` starts on a galley whose bow is in that column",
}


# ---------------------------------------------------------------- expansion


class Slot(NamedTuple):
    group: str
    index: int
    position: str  # normalized, bow first


def expand_line(line: Line, offsets: dict[str, tuple[int, int]], double: bool = True) -> list[str]:
    """The positions a Line helper stands for, first to last, normalized."""
    first = parse_position(line.first, offsets)
    last = parse_position(line.last, offsets)
    if first.facing != last.facing:
        raise ValueError(f"line {line.first}..{line.last}: first and last face differently")
    fc, fr = to_global(first.bow, offsets)
    lc, lr = to_global(last.bow, offsets)
    skip = {to_global(parse_hex_ref(h), offsets) for h in line.skip}
    bows: list[tuple[int, int]]
    if fr == lr:  # bows along one row: line abreast
        step = line.step or 1
        sign = 1 if lc >= fc else -1
        if (lc - fc) % step:
            raise ValueError(f"line {line.first}..{line.last}: columns not a multiple of step {step}")
        bows = [(c, fr) for c in range(fc, lc + sign, sign * step)]
    elif fc == lc:  # bows along one column: line astern
        step = line.step or (2 if first.stern is not None else 1)
        sign = 1 if lr >= fr else -1
        if (lr - fr) % step:
            raise ValueError(f"line {line.first}..{line.last}: rows not a multiple of step {step}")
        bows = [(fc, r) for r in range(fr, lr + sign, sign * step)]
    else:
        raise ValueError(f"line {line.first}..{line.last}: bows share neither a row nor a column")
    out: list[str] = []
    prefer = first.bow.sheet
    for c, r in bows:
        if (c, r) in skip:
            continue
        bow = from_global(c, r, offsets, prefer)
        if first.stern is None:
            out.append(format_position(Placed(bow, None, first.facing)))
        else:
            sc, sr = neighbour(c, r, first.facing + 3)
            out.append(format_position(Placed(bow, from_global(sc, sr, offsets, bow.sheet), first.facing)))
    return out


def group_slots(group: Deploy, offsets: dict[str, tuple[int, int]]) -> list[str]:
    """A group's fixed slots: its positions then its expanded lines, normalized."""
    slots = [format_position(parse_position(p, offsets)) for p in group.positions]
    for line in group.lines:
        slots.extend(expand_line(line, offsets))
    return slots


class Placement(NamedTuple):
    side: str
    galley: CounterKey
    position: str
    group: str


def fixed_placements(scenario: Scenario) -> list[Placement]:
    """Galleys the book places exactly (groups with assign = "in_order")."""
    offsets = scenario.map.offsets()
    out: list[Placement] = []
    for side in scenario.sides:
        for group in side.deploy:
            if group.zone is not None or group.assign != "in_order" or not group.galleys:
                continue
            slots = group_slots(group, offsets)
            for (type_, id_), pos in zip(expand_galleys(group.galleys), slots):
                out.append(Placement(side.key, CounterKey(side.colour, type_, id_), pos, group.name))
    return out


def side_galleys(side: Side) -> list[CounterKey]:
    return [
        CounterKey(side.colour, t, i)
        for fleet in side.fleets
        for g in fleet.galleys
        for t, i in expand_galleys([g.galleys])
    ]


def occupied_hexes(position: str, offsets: dict[str, tuple[int, int]]) -> list[tuple[int, int]]:
    p = parse_position(position, offsets)
    hexes = [to_global(p.bow, offsets)]
    if p.stern is not None:
        hexes.append(to_global(p.stern, offsets))
    return hexes


# ---------------------------------------------------------------- checks


def check_scenario(
    s: Scenario, source: str, manifest: Manifest | None = None, commanders: Commanders | None = None
) -> None:
    """Everything the schema alone cannot check; raises RulesDataError."""

    def fail(path: str, what: str) -> RulesDataError:
        return RulesDataError(f"{source}: {path}: {what}")

    if s.schema != SCHEMA_VERSION:
        raise fail("schema", f"version {s.schema} not supported (expected {SCHEMA_VERSION})")
    if not s.map.sheets:
        raise fail("map.sheets", "no map sheet")
    offsets = s.map.offsets()
    letters = [sh.letter for sh in s.map.sheets]
    if len(set(letters)) != len(letters):
        raise fail("map.sheets", "two sheets with one letter")
    if len(letters) > 1 and "" in letters:
        raise fail("map.sheets", "a map of several sheets needs a letter on each")
    for n, sh in enumerate(s.map.sheets):
        if sh.column_offset % 2:
            raise fail(f"map.sheets[{n}].column_offset", "must be even to keep column parity")

    def hexes_ok(path: str, texts: list[str]) -> None:
        for k, h in enumerate(texts):
            try:
                to_global(parse_hex_ref(h), offsets)
            except ValueError as exc:
                raise fail(f"{path}[{k}]", str(exc)) from None

    land: set[tuple[int, int]] = set()
    for n, area in enumerate(s.map.land):
        hexes_ok(f"map.land[{n}].hexes", area.hexes)
        land |= {to_global(parse_hex_ref(h), offsets) for h in area.hexes}
    keys = [side.key for side in s.sides]
    if len(s.sides) != 2 or len(set(keys)) != 2:
        raise fail("sides", "a battle has exactly two sides with distinct keys")
    if sorted(s.deploy_order) != sorted(keys):
        raise fail("deploy_order", f"must list the sides {keys}")
    if s.initiative.first_turn == "side" and s.initiative.side not in keys:
        raise fail("initiative.side", f"{s.initiative.side!r} is not a side ({keys})")
    for n, sail_side in enumerate(s.wind.sails):
        if sail_side not in keys:
            raise fail(f"wind.sails[{n}]", f"{sail_side!r} is not a side")
    if s.wind.mode != "none" and (s.wind.marker is None or s.wind.toward is None):
        raise fail("wind", f"mode {s.wind.mode!r} needs marker and toward")
    if sorted(v.side for v in s.victory.sides) != sorted(keys):
        raise fail("victory.sides", f"one entry per side {keys}")
    option_choices = {o.key: o.choices for o in s.options}
    for n, o in enumerate(s.options):
        if o.default not in o.choices:
            raise fail(f"options[{n}].default", f"{o.default!r} is not one of {o.choices}")
    for n, rule in enumerate(s.special):
        if rule.name not in SPECIAL_RULES:
            raise fail(f"special[{n}].name", f"unknown special rule {rule.name!r}")
        if rule.option is not None:
            okey, _, choice = rule.option.partition("=")
            if okey not in option_choices or (choice and choice not in option_choices[okey]):
                raise fail(f"special[{n}].option", f"{rule.option!r} names no option/choice")
        side_param = rule.params.get("side")
        if side_param is not None and side_param not in keys:
            raise fail(f"special[{n}].params.side", f"{side_param!r} is not a side")

    roster_key = s.roster or s.key
    occupied: dict[tuple[int, int], str] = {}
    for si, side in enumerate(s.sides):
        sp = f"sides[{si}]"
        owned: dict[tuple[str, int], str] = {}
        fleet_commanders: list[str] = []
        for fi, fleet in enumerate(side.fleets):
            for gi, g in enumerate(fleet.galleys):
                path = f"{sp}.fleets[{fi}].galleys[{gi}]"
                try:
                    run = expand_galleys([g.galleys])
                except ValueError as exc:
                    raise fail(f"{path}.galleys", str(exc)) from None
                if g.crew is not None and not 1 <= g.crew <= 4:
                    raise fail(f"{path}.crew", "Crew is 1-4 (6.41)")
                for t, i in run:
                    if (t, i) in owned:
                        raise fail(f"{path}.galleys", f"{format_galley(t, i)} listed twice")
                    owned[(t, i)] = fleet.key
                    if manifest is not None and CounterKey(side.colour, t, i) not in manifest:
                        raise fail(f"{path}.galleys", f"{side.colour} {format_galley(t, i)} is not in the counter manifest")
            fleet_commanders += fleet.commanders
            for name in fleet.flagship_crew:
                if name not in fleet.commanders:
                    raise fail(f"{sp}.fleets[{fi}].flagship_crew", f"{name!r} is not a commander of this fleet")
        if len(set(fleet_commanders)) != len(fleet_commanders):
            raise fail(f"{sp}.fleets", "a commander listed twice")
        if commanders is not None or side.key in s.commanders:
            roster = s.commanders.get(side.key)
            if roster is None:
                assert commanders is not None
                try:
                    roster = commanders.roster(roster_key, side.key)
                except RulesDataError as exc:
                    raise fail(f"{sp}.fleets", str(exc)) from None
            known = {c.name for c in roster}
            for name in fleet_commanders:
                if name not in known:
                    raise fail(f"{sp}.fleets", f"commander {name!r} is not in the {side.key} roster")
        deployed: set[tuple[str, int]] = set()
        pooled = 0
        names = [g.name for g in side.deploy]
        for gi, group in enumerate(side.deploy):
            gp = f"{sp}.deploy[{gi}]"
            try:
                run = expand_galleys(group.galleys)
            except ValueError as exc:
                raise fail(f"{gp}.galleys", str(exc)) from None
            if group.count is not None and group.galleys:
                raise fail(gp, "give either galleys or count, not both")
            size = len(run) if group.count is None else group.count
            pooled += group.count or 0
            for t, i in run:
                if (t, i) not in owned:
                    raise fail(f"{gp}.galleys", f"{format_galley(t, i)} is not in this side's fleets")
                if (t, i) in deployed:
                    raise fail(f"{gp}.galleys", f"{format_galley(t, i)} is deployed twice")
                deployed.add((t, i))
            for name in group.commanders:
                if name not in fleet_commanders:
                    raise fail(f"{gp}.commanders", f"{name!r} is not a commander of this side")
            for name in group.commander_at:
                if name not in group.commanders:
                    raise fail(f"{gp}.commander_at", f"{name!r} is not in this group's commanders")
            try:
                slots = group_slots(group, offsets)
            except ValueError as exc:
                raise fail(f"{gp}.positions/lines", str(exc)) from None
            on_map = size - (group.offmap.count if group.offmap else 0)
            if group.offmap is not None:
                hexes_ok(f"{gp}.offmap.entry", group.offmap.entry)
                if group.offmap.after is not None and group.offmap.after not in names:
                    raise fail(f"{gp}.offmap.after", f"no group {group.offmap.after!r}")
                if not 0 <= group.offmap.count <= size:
                    raise fail(f"{gp}.offmap.count", "more galleys off map than in the group")
            if group.zone is not None:
                z = group.zone
                if slots:
                    raise fail(gp, "a zone group has no fixed positions")
                hexes_ok(f"{gp}.zone.bow_hexes", z.bow_hexes)
                for k, c in enumerate(z.constraints):
                    if c not in ZONE_CONSTRAINTS:
                        raise fail(f"{gp}.zone.constraints[{k}]", f"unknown constraint {c!r}")
                ref = z.params.get("group")
                if ref is not None and ref not in names:
                    raise fail(f"{gp}.zone.params.group", f"no group {ref!r}")
                continue
            if group.assign == "in_order" and not group.galleys:
                raise fail(f"{gp}.assign", "a group by count is placed by the player (assign = \"player\")")
            if group.assign == "in_order" and len(slots) != on_map:
                raise fail(gp, f"{on_map} galleys on the map but {len(slots)} positions")
            if len(slots) < on_map:
                raise fail(gp, f"{on_map} galleys on the map but only {len(slots)} positions")
            group_hexes: set[tuple[int, int]] = set()
            for k, pos in enumerate(slots):
                for h in occupied_hexes(pos, offsets):
                    if h in occupied:
                        raise fail(f"{gp} slot {k} ({pos})", f"overlaps {occupied[h]}")
                    if h in land:
                        raise fail(f"{gp} slot {k} ({pos})", "is on land")
                    occupied[h] = f"{side.key} {group.name} ({pos})"
                    group_hexes.add(h)
            for name, h in group.commander_at.items():
                if to_global(parse_hex_ref(h), offsets) not in group_hexes:
                    raise fail(f"{gp}.commander_at.{name}", f"no galley of this group in {h}")
            if manifest is not None:
                for (t, i), pos in zip(run, slots if group.assign == "in_order" else []):
                    double = manifest.ratings(CounterKey(side.colour, t, i)).double
                    if double != ("-" in pos):
                        raise fail(gp, f"{format_galley(t, i)} is {'double' if double else 'single'}-sized but placed at {pos}")
        for name in side.commanders_anywhere:
            if name not in fleet_commanders:
                raise fail(f"{sp}.commanders_anywhere", f"{name!r} is not a commander of this side")
        missing = sorted(set(owned) - deployed)
        if pooled != len(missing):
            raise fail(f"{sp}.deploy", f"groups by count take {pooled} galleys but {len(missing)} are left to them")
        if missing and not pooled:
            raise fail(f"{sp}.deploy", f"galleys not deployed: {', '.join(format_galley(t, i) for t, i in missing)}")


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


def load_scenario(path: Path | str) -> Scenario:
    """Read a scenario file, checked against the built-in manifest and commanders."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise RulesDataError(f"{p}: cannot read: {exc}") from exc
    return parse_scenario(data, str(p), builtin_manifest(), builtin_commanders())


def builtin_scenarios() -> list[Scenario]:
    """The book's battles under scenarios/battles/, in the book's order."""
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


__all__ = [
    "COLOURS",
    "Scenario",
    "builtin_scenarios",
    "load_scenario",
    "parse_scenario",
    "fixed_placements",
    "expand_line",
    "parse_position",
    "SPECIAL_RULES",
]
