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
`2319-2320`, or `2319/0` (hex and facing) for a single-hex counter. The
patterns below only shape the text; it is read by the engine's one notation
(`map_and_galleys.hexes`, `map_and_galleys.position`) on the map `joined()`.
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Any, Literal

import msgspec

from engine.war_galley.map_and_galleys import hexes
from engine.war_galley.map_and_galleys.manifest import COLOURS, Commander

SCHEMA_VERSION = 1

HEX_PATTERN = r"^[A-Z]?\d{4}$"
POSITION_PATTERN = r"^[A-Z]?\d{4}(-[A-Z]?\d{4}|/[0-5])$"
GALLEY_PATTERN = r"^[A-Za-z0-9]+#\d{1,3}(-\d{1,3})?$"
Hex = Annotated[str, msgspec.Meta(pattern=HEX_PATTERN)]
Position = Annotated[str, msgspec.Meta(pattern=POSITION_PATTERN)]
GalleyRun = Annotated[str, msgspec.Meta(pattern=GALLEY_PATTERN)]
Facing = Annotated[int, msgspec.Meta(ge=0, le=5)]


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


class ScenarioMap(msgspec.Struct, frozen=True, forbid_unknown_fields=True, dict=True):
    """A battle's map as its scenario file writes it (sheets, compass, land, coast); `joined()` is the
    hexes.MapSpec its positions are read on (one name per concept: this is the file's, that the geometry's)."""

    sheets: list[Sheet]
    north: str  # the book's compass statement, e.g. "xx28 row"
    land: list[LandArea] = []
    coast: list[Coast] = []
    note: str = ""

    def joined(self) -> hexes.MapSpec:
        """The joined map the file's hexes and positions are written on (one notation with the
        orders'); a column laid under a later sheet (Actium's N60xx) is hidden, its numbers
        naming the hexes shown over it. RulesDataError if the sheets do not join."""
        return self._joined

    @cached_property
    def _joined(self) -> hexes.MapSpec:
        # Made once per file (the checks, set-up and the board all ask); `dict=True` gives the
        # struct a place for it, outside its fields.
        out = []
        for i, s in enumerate(self.sheets):
            hidden = {
                col
                for later in self.sheets[i + 1 :]
                if later.row_offset == s.row_offset
                for col in range(hexes.FIRST_COL, hexes.LAST_COL + 1)
                if hexes.FIRST_COL <= col + s.column_offset - later.column_offset <= hexes.LAST_COL
            }
            out.append(hexes.Sheet(s.letter, s.column_offset, s.row_offset, frozenset(hidden)))
        return hexes.MapSpec(tuple(out))


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
    map: ScenarioMap
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
    "minor_victory_most_vp": "Neither side wins on its VP, or play is halted: a minor victory to most VP",
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


__all__ = ["COLOURS", "Scenario", "SPECIAL_RULES"]
