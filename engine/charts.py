"""The Charts and Tables of War Galley: typed rules data and pure lookups.

The numbers live in `scenarios/charts.toml` (or a player's own copy of it,
see docs/charts.md); this module gives them a shape, checks them on load and
answers the questions the rules ask of them. No rule number is written here:
every range, modifier and threshold comes from the data, so a player who
types in the printed cards changes the game without touching code.

Every lookup takes the `Charts` explicitly: a game may run on rules data of
its own, so there is no module-level default.
"""

from __future__ import annotations

import enum
import re
import tomllib
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

import msgspec

from engine.datafiles import scenarios_dir
from engine.errors import IllegalOrder, RulesDataError

T = TypeVar("T")

SOURCE = "charts"

# ---------------------------------------------------------------- notation


_RANGE_RE = re.compile(r"^(\d+)(?:-(\d+))?$")
_BAND_RE = re.compile(r"^(\d+)(?:(\+)|-(\d+))?$")
_FATIGUE_RE = re.compile(r"^F-(\d+)$")


class RollRange:
    """An inclusive range of (adjusted) die results, written "8-12" or "12"."""

    __slots__ = ("low", "high")

    def __init__(self, low: int, high: int) -> None:
        if low > high:
            raise ValueError(f"a roll range runs low to high, not {low}-{high}")
        self.low = low
        self.high = high

    @classmethod
    def parse(cls, text: str) -> RollRange:
        m = _RANGE_RE.match(text)
        if m is None:
            raise ValueError(f"not a roll range like '8-12' or '6': {text!r}")
        low = int(m.group(1))
        return cls(low, int(m.group(2)) if m.group(2) else low)

    def __contains__(self, value: object) -> bool:
        return isinstance(value, int) and self.low <= value <= self.high

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RollRange) and (self.low, self.high) == (other.low, other.high)

    def __hash__(self) -> int:
        return hash((self.low, self.high))

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"RollRange({self})"


class Band:
    """A rating label of a table's column or row: "3", "1-2" or "12+" (open)."""

    __slots__ = ("low", "high")

    def __init__(self, low: int, high: int | None) -> None:
        if high is not None and low > high:
            raise ValueError(f"a rating band runs low to high, not {low}-{high}")
        self.low = low
        self.high = high

    @classmethod
    def parse(cls, text: str) -> Band:
        m = _BAND_RE.match(text)
        if m is None:
            raise ValueError(f"not a rating label like '3', '1-2' or '12+': {text!r}")
        low = int(m.group(1))
        if m.group(2):
            return cls(low, None)
        return cls(low, int(m.group(3)) if m.group(3) else low)

    def covers(self, value: int) -> bool:
        return value >= self.low and (self.high is None or value <= self.high)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Band) and (self.low, self.high) == (other.low, other.high)

    def __hash__(self) -> int:
        return hash((self.low, self.high))

    def __str__(self) -> str:
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Band({self})"


def _dec_hook(type_: type, obj: Any) -> Any:
    """Let msgspec read the card notation straight into RollRange fields."""
    if type_ is RollRange:
        if not isinstance(obj, str):
            raise TypeError(f"expected a roll range string like '3-6', got {obj!r}")
        return RollRange.parse(obj)
    raise NotImplementedError(type_)


# ---------------------------------------------------------------- results


class RamOutcome(enum.Enum):
    """What a successful rammer becomes (7.16)."""

    RETRACTED = "retracted"
    FOULED = "fouled"


class BoardingOutcome(enum.Enum):
    CAPTURED = "captured"  # 8.25
    REPULSED = "repulsed"  # 8.27


class BoardingResult(msgspec.Struct, frozen=True):
    """A boarding attempt's result and its Depletions besides the Capture (8.28)."""

    outcome: BoardingOutcome
    attacker_depleted: bool  # each attacking boarding party
    defender_depleted: bool


class MissileResult(enum.Enum):
    """A cell of the Missile Table (8.45)."""

    NONE = "-"
    D = "D"  # Depletion (8.61)
    DF = "D/F"  # Depletion, and a Fire roll for Flame Missiles only (8.51)

    @property
    def depletes(self) -> bool:
        return self is not MissileResult.NONE

    def fire_roll(self, flame: bool) -> bool:
        """Whether the firer rolls for Fire (fixed.flame): a D/F from Flame Missiles."""
        return flame and self is MissileResult.DF


class Disengage(enum.Enum):
    GRAPPLE = "grapple"  # 8.32, in the Movement Segment
    FOUL = "foul"  # 8.35, in G/1


class FireOutcome(enum.Enum):
    OUT = "out"
    BURNING = "burning"
    SUNK = "sunk"


class FirefightResult(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A row of the Firefight Table (8.54)."""

    fire: FireOutcome
    spreads: bool = False  # to galleys Grappled or Fouled with it


class SpeedAdjustment(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An Orders Confusion result for each galley of the squadron (5.42)."""

    mp: int = 0  # added to the MP the galley may use
    cruise_only: bool = False  # no Maximum Speed
    half_speed: bool = False  # as a Half Speed marker (6.37)


class WindChange(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A row of the Wind Chart (6.2)."""

    calm: bool = False  # Dead Calm
    strength: int = 0
    direction: int = 0  # hexsides, positive clockwise


class AgroundOutcome(enum.Enum):
    """The Run Aground roll (6.36)."""

    FREED = "freed"
    STUCK = "stuck"
    ELIMINATED = "eliminated"


# ---------------------------------------------------------------- modifiers


class _Strict(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class RamModifiers(_Strict, frozen=True):
    """7.15 (and 6.7's penalty after a failed defensive reaction ram)."""

    per_mp_over_cruise: int
    mp_bonus_max_bow_flank_turns: int
    target_crippled_fouled_grappled: int
    target_half_speed_or_fatigued: int
    better_crew: int
    target_at_maximum: int
    target_better_crew: int
    rammer_towers: int
    anastrophe_failed_rake: int
    after_defensive_reaction_ram: int


class RakeModifiers(_Strict, frozen=True):
    """7.27."""

    faster: int
    slower: int
    target_crippled_grappled_fouled: int
    target_half_speed_or_fatigued: int


class GrappleModifiers(_Strict, frozen=True):
    """8.12 (scenario devices live with their scenarios)."""

    target_crippled_fouled_grappled: int
    target_under_sail: int
    target_opposite_direction: int
    grappler_under_sail: int


class BoardingModifiers(_Strict, frozen=True):
    """8.24."""

    attacker_height_advantage: int
    defender_height_advantage: int


class BoardingDepletion(_Strict, frozen=True):
    """8.28: Depletions besides the Capture itself."""

    attacker_on_capture: RollRange
    attacker_on_repulse: bool
    defender_on_repulse: RollRange


class MissileModifiers(_Strict, frozen=True):
    """8.44."""

    engines: int
    height_advantage: int
    height_disadvantage: int
    under_sail: int
    jettisoned_towers: int
    target_rammed_grappled_fouled_crippled: int
    range_two_hexes: int


class FatigueModifiers(_Strict, frozen=True):
    """6.42."""

    per_mp_over_cruise: int
    ram_attempt: int
    rake_attempt: int


class GrappleDisengageModifiers(_Strict, frozen=True):
    """8.32."""

    repulsed_boarding_this_turn: int
    better_crew: int
    controls_both: int
    crippled_or_fouled: int


# ---------------------------------------------------------------- fixed numbers


CrewCheckKind = Literal["at_most_crew"]


class Initiative(_Strict, frozen=True):
    rule: str
    die: Literal["1d6"]
    ties: Literal["reroll"]


class CrewCheck(_Strict, frozen=True):
    rule: str
    check: CrewCheckKind


class Transfer(_Strict, frozen=True):
    rule: str
    success: RollRange


class Avoidance(_Strict, frozen=True):
    rule: str
    check: CrewCheckKind
    half_speed: int
    fatigue: str


class RunAground(_Strict, frozen=True):
    rule: str
    check: CrewCheckKind
    eliminated: RollRange


class DefensiveReactionRam(_Strict, frozen=True):
    rule: str
    check: CrewCheckKind
    failed_ram_mover_mp: int


class Sinking(_Strict, frozen=True):
    rule: str
    sinks: RollRange


class Flame(_Strict, frozen=True):
    rule: str
    ignites: RollRange
    max_range: int


class Firepots(_Strict, frozen=True):
    rule: str
    ignites: RollRange


class LossOfAdmiral(_Strict, frozen=True):
    rule: str
    fewer_vp: int
    withdraw_above: int
    withdrawal_bonus_vp: int


class PassThrough(_Strict, frozen=True):
    rule: str
    mp: int  # 7.25: MP spent moving dead ahead through the enemy galleys


class Towers(_Strict, frozen=True):
    rule: str
    jettison_mp: int  # 8.48: the cost of jettisoning


class Capture(_Strict, frozen=True):
    rule: str
    bonus_vp: int  # 9.1: the Capture Bonus, on top of the Ram Defense


class Fixed(_Strict, frozen=True):
    """Numbers the rules text states outside the charts."""

    initiative: Initiative
    individual_activation: CrewCheck
    transfer: Transfer
    avoidance: Avoidance
    run_aground: RunAground
    defensive_reaction_ram: DefensiveReactionRam
    sinking: Sinking
    flame: Flame
    firepots: Firepots
    loss_of_admiral: LossOfAdmiral
    pass_through: PassThrough
    towers: Towers
    capture: Capture


# ---------------------------------------------------------------- tables


class DiceLimits(_Strict, frozen=True):
    """2.4: the faces of one die and of two dice added."""

    rule: str
    d6: RollRange
    two_d6: RollRange


class RatingGrid(msgspec.Struct, Generic[T], frozen=True):
    """A table cross-indexing two ratings (columns x rows)."""

    table: str  # its key in the data, for error messages
    name: str
    rule: str
    column_rating: str
    row_rating: str
    columns: tuple[Band, ...]
    rows: tuple[Band, ...]
    cells: tuple[tuple[T, ...], ...]  # [row][column]


class RollGrid(msgspec.Struct, Generic[T], frozen=True):
    """A 1d6 table: rows by adjusted roll (both end rows open), columns by a rating."""

    table: str
    name: str
    rule: str
    column_rating: str
    columns: tuple[Band, ...]
    first_roll: int
    cells: tuple[tuple[T, ...], ...]  # [roll - first_roll][column]


class RollColumn(msgspec.Struct, Generic[T], frozen=True):
    """A one-column table keyed by the (adjusted) roll, both end rows open."""

    table: str
    name: str
    rule: str
    first_roll: int
    results: tuple[T, ...]


class RammingTable(msgspec.Struct, frozen=True):
    grid: RatingGrid[RollRange]
    min_attack: int  # 7.11
    modifiers: RamModifiers


class RetractionTable(msgspec.Struct, frozen=True):
    name: str
    rule: str
    fouled: RollRange


class RakeTable(msgspec.Struct, frozen=True):
    grid: RatingGrid[RollRange]
    modifiers: RakeModifiers


class GrapplingTable(msgspec.Struct, frozen=True):
    name: str
    rule: str
    crews: tuple[Band, ...]
    success: tuple[RollRange, ...]  # one per crew band
    modifiers: GrappleModifiers


class BoardingTable(msgspec.Struct, frozen=True):
    grid: RatingGrid[RollRange]
    min_attacker: int  # 8.21
    depletion: BoardingDepletion
    modifiers: BoardingModifiers


class MissileTable(msgspec.Struct, frozen=True):
    grid: RollGrid[MissileResult]
    max_range: int  # 8.41
    modifiers: MissileModifiers


class FatigueTable(msgspec.Struct, frozen=True):
    grid: RollGrid[int]  # Fatigue level; 0 is No Effect
    anastrophe_row: str
    anastrophe: tuple[int, ...]  # row 7A, one per crew column
    modifiers: FatigueModifiers


class GrappleDisengageTable(msgspec.Struct, frozen=True):
    grid: RollGrid[bool]  # True is "S"
    max_mp_cost: int
    modifiers: GrappleDisengageModifiers


class Charts(msgspec.Struct, frozen=True):
    """Every chart and fixed number of War Galley, checked and typed."""

    dice: DiceLimits
    ramming: RammingTable
    retraction: RetractionTable
    rake: RakeTable
    grappling: GrapplingTable
    boarding: BoardingTable
    missile: MissileTable
    fatigue: FatigueTable
    grapple_disengage: GrappleDisengageTable
    foul_disengage: RollGrid[bool]
    firefight: RollColumn[FirefightResult]
    double_activation: RollGrid[bool]  # True is Success
    orders_confusion: RollColumn[SpeedAdjustment]
    wind: RollColumn[WindChange]
    fixed: Fixed


# ---------------------------------------------------------------- raw shapes (the TOML)


class _RawRatingGrid(_Strict, frozen=True):
    name: str
    rule: str
    column_rating: str
    row_rating: str
    columns: list[str]
    rows: dict[str, list[str]]


class _RawRamming(_RawRatingGrid, frozen=True):
    min_attack: int
    modifiers: RamModifiers


class _RawRake(_RawRatingGrid, frozen=True):
    modifiers: RakeModifiers


class _RawBoarding(_RawRatingGrid, frozen=True):
    min_attacker: int
    depletion: BoardingDepletion
    modifiers: BoardingModifiers


class _RawRetraction(_Strict, frozen=True):
    name: str
    rule: str
    fouled: RollRange


class _RawGrappling(_Strict, frozen=True):
    name: str
    rule: str
    column_rating: str
    success: dict[str, str]
    modifiers: GrappleModifiers


class _RawRollGrid(_Strict, frozen=True):
    name: str
    rule: str
    column_rating: str
    columns: list[str]
    rows: dict[str, list[str]]


class _RawMissile(_RawRollGrid, frozen=True):
    max_range: int
    modifiers: MissileModifiers


class _RawFatigue(_RawRollGrid, frozen=True):
    anastrophe_row: str
    modifiers: FatigueModifiers


class _RawGrappleDisengage(_RawRollGrid, frozen=True):
    max_mp_cost: int
    modifiers: GrappleDisengageModifiers


class _RawRollColumn(_Strict, frozen=True):
    """Firefight, Orders Confusion, Wind: one result (an inline table) per roll."""

    name: str
    rule: str
    rows: dict[str, dict[str, Any]]


class _RawCharts(_Strict, frozen=True):
    dice: DiceLimits
    ramming: _RawRamming
    retraction: _RawRetraction
    rake: _RawRake
    grappling: _RawGrappling
    boarding: _RawBoarding
    missile: _RawMissile
    fatigue: _RawFatigue
    grapple_disengage: _RawGrappleDisengage
    foul_disengage: _RawRollGrid
    firefight: _RawRollColumn
    double_activation: _RawRollGrid
    orders_confusion: _RawRollColumn
    wind: _RawRollColumn
    fixed: Fixed


# ---------------------------------------------------------------- loading


def _error(table: str, key: str, problem: str) -> RulesDataError:
    return RulesDataError(f"{SOURCE}: table {table!r}, key {key!r}: {problem}")


_PATH_RE = re.compile(r"at `\$\.([A-Za-z_]+)")
_FIELD_RE = re.compile(r"field `([A-Za-z_]+)`")


def _schema_error(exc: msgspec.ValidationError) -> RulesDataError:
    """Name the table a msgspec schema error is about (its path, or the field)."""
    text = str(exc)
    m = _PATH_RE.search(text) or _FIELD_RE.search(text)
    table = m.group(1) if m else "?"
    return RulesDataError(f"{SOURCE}: table {table!r}: {text}")


def _bands(table: str, key: str, labels: list[str]) -> tuple[Band, ...]:
    """Parse a table's rating labels: ascending, contiguous, only the last open."""
    if not labels:
        raise _error(table, key, "no labels")
    bands: list[Band] = []
    for label in labels:
        try:
            band = Band.parse(label)
        except ValueError as exc:
            raise _error(table, key, str(exc)) from None
        if bands:
            prev = bands[-1]
            if prev.high is None or band.low != prev.high + 1:
                raise _error(
                    table, key, f"label {label!r} does not follow {str(prev)!r} without gap or overlap"
                )
        bands.append(band)
    return tuple(bands)


def _need_range(table: str, key: str, text: str, die: RollRange) -> RollRange:
    """A range needed for success: inside the dice and running to the top (2.4)."""
    try:
        rng = RollRange.parse(text)
    except ValueError as exc:
        raise _error(table, key, str(exc)) from None
    if rng.low < die.low or rng.high != die.high:
        raise _error(table, key, f"{text!r} must lie within the dice {die} and end at {die.high}")
    return rng


def _rating_grid(table: str, raw: _RawRatingGrid, die: RollRange) -> RatingGrid[RollRange]:
    columns = _bands(table, "columns", raw.columns)
    rows = _bands(table, "rows", list(raw.rows))
    cells: list[tuple[RollRange, ...]] = []
    for label, row in raw.rows.items():
        if len(row) != len(columns):
            raise _error(table, f"rows.{label}", f"{len(row)} cells for {len(columns)} columns")
        cells.append(
            tuple(
                _need_range(table, f"rows.{label}[{raw.columns[i]}]", text, die)
                for i, text in enumerate(row)
            )
        )
    return RatingGrid(
        table=table, name=raw.name, rule=raw.rule, column_rating=raw.column_rating,
        row_rating=raw.row_rating, columns=columns, rows=rows, cells=tuple(cells),
    )


def _roll_keys(table: str, keys: list[str], die: RollRange) -> int:
    """Row keys of a roll-keyed table: contiguous integers covering every face."""
    try:
        rolls = [int(k) for k in keys]
    except ValueError:
        bad = next(k for k in keys if not k.lstrip("-").isdigit())
        raise _error(table, f"rows.{bad}", "a row key is an (adjusted) roll") from None
    if not rolls:
        raise _error(table, "rows", "no rows")
    if rolls != list(range(rolls[0], rolls[0] + len(rolls))):
        raise _error(table, "rows", f"rows must run one by one, lowest first: {keys}")
    if rolls[0] > die.low or rolls[-1] < die.high:
        raise _error(table, "rows", f"rows {rolls[0]}..{rolls[-1]} do not cover the die {die}")
    return rolls[0]


def _roll_grid(
    table: str,
    raw: _RawRollGrid,
    die: RollRange,
    cell: Any,
    special: tuple[str, ...] = (),
) -> RollGrid[Any]:
    """Build a 1d6 grid; `cell(key, text)` parses one cell."""
    columns = _bands(table, "columns", raw.columns)
    keys = [k for k in raw.rows if k not in special]
    first = _roll_keys(table, keys, die)
    for key, row in raw.rows.items():
        if len(row) != len(columns):
            raise _error(table, f"rows.{key}", f"{len(row)} cells for {len(columns)} columns")
    cells = tuple(
        tuple(cell(f"rows.{k}[{raw.columns[i]}]", text) for i, text in enumerate(raw.rows[k]))
        for k in keys
    )
    return RollGrid(
        table=table, name=raw.name, rule=raw.rule, column_rating=raw.column_rating,
        columns=columns, first_roll=first, cells=cells,
    )


def _roll_column(table: str, raw: _RawRollColumn, die: RollRange, result: type[T]) -> RollColumn[T]:
    first = _roll_keys(table, list(raw.rows), die)
    results: list[T] = []
    for key, row in raw.rows.items():
        try:
            results.append(msgspec.convert(row, result))
        except msgspec.ValidationError as exc:
            raise _error(table, f"rows.{key}", str(exc)) from None
    return RollColumn(table=table, name=raw.name, rule=raw.rule, first_roll=first, results=tuple(results))


def _choice(table: str, choices: dict[str, T]) -> Any:
    def parse(key: str, text: str) -> T:
        if text not in choices:
            raise _error(table, key, f"{text!r} is not one of {sorted(choices)}")
        return choices[text]

    return parse


def _fatigue_level(table: str, key: str, text: str) -> int:
    """ "-" is No Effect (0); "F-n" is n turns. 6.43: the chart has no F-1."""
    if text == "-":
        return 0
    m = _FATIGUE_RE.match(text)
    if m is None:
        raise _error(table, key, f"{text!r} is neither '-' nor 'F-n'")
    level = int(m.group(1))
    if level < 2:
        raise _error(table, key, f"{text!r}: the Fatigue Table has no F-1 result (6.43)")
    return level


def _check_in_die(table: str, key: str, rng: RollRange, die: RollRange) -> None:
    if rng.low < die.low or rng.high > die.high:
        raise _error(table, key, f"{rng} lies outside the dice {die}")


def load_charts(data: bytes) -> Charts:
    """Read and check rules data; every problem names its table and key."""
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RulesDataError(f"{SOURCE}: not UTF-8 text: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise RulesDataError(f"{SOURCE}: TOML syntax error: {exc}") from exc
    try:
        raw = msgspec.convert(doc, _RawCharts, dec_hook=_dec_hook)
    except msgspec.ValidationError as exc:
        raise _schema_error(exc) from exc

    d6, two_d6 = raw.dice.d6, raw.dice.two_d6

    ram = raw.ramming
    ramming = RammingTable(_rating_grid("ramming", ram, two_d6), ram.min_attack, ram.modifiers)
    if ramming.grid.columns[0].low != ram.min_attack:
        raise _error("ramming", "columns", f"the first column must be min_attack {ram.min_attack} (7.11)")

    _check_in_die("retraction", "fouled", raw.retraction.fouled, two_d6)
    retraction = RetractionTable(raw.retraction.name, raw.retraction.rule, raw.retraction.fouled)

    rake = RakeTable(_rating_grid("rake", raw.rake, two_d6), raw.rake.modifiers)

    g = raw.grappling
    grappling = GrapplingTable(
        name=g.name,
        rule=g.rule,
        crews=_bands("grappling", "success", list(g.success)),
        success=tuple(_need_range("grappling", f"success.{k}", v, d6) for k, v in g.success.items()),
        modifiers=g.modifiers,
    )

    b = raw.boarding
    boarding = BoardingTable(_rating_grid("boarding", b, two_d6), b.min_attacker, b.depletion, b.modifiers)
    if boarding.grid.columns[0].low != b.min_attacker:
        raise _error("boarding", "columns", f"the first column must be min_attacker {b.min_attacker} (8.21)")
    _check_in_die("boarding", "depletion.attacker_on_capture", b.depletion.attacker_on_capture, two_d6)
    _check_in_die("boarding", "depletion.defender_on_repulse", b.depletion.defender_on_repulse, two_d6)

    missile_cells = _choice("missile", {r.value: r for r in MissileResult})
    missile = MissileTable(
        _roll_grid("missile", raw.missile, d6, missile_cells), raw.missile.max_range, raw.missile.modifiers
    )

    f = raw.fatigue
    if f.anastrophe_row not in f.rows:
        raise _error("fatigue", "anastrophe_row", f"no row {f.anastrophe_row!r} (7.36)")
    fatigue_grid = _roll_grid(
        "fatigue", f, d6, lambda key, text: _fatigue_level("fatigue", key, text), (f.anastrophe_row,)
    )
    anastrophe = tuple(
        _fatigue_level("fatigue", f"rows.{f.anastrophe_row}", text) for text in f.rows[f.anastrophe_row]
    )
    if 0 in anastrophe:
        raise _error("fatigue", f"rows.{f.anastrophe_row}", "an Anastrophe always fatigues (7.36)")
    fatigue = FatigueTable(fatigue_grid, f.anastrophe_row, anastrophe, f.modifiers)

    s_or_not = {"S": True, "-": False}
    gd = raw.grapple_disengage
    grapple_disengage = GrappleDisengageTable(
        _roll_grid("grapple_disengage", gd, d6, _choice("grapple_disengage", s_or_not)),
        gd.max_mp_cost,
        gd.modifiers,
    )
    foul_disengage = _roll_grid(
        "foul_disengage", raw.foul_disengage, d6, _choice("foul_disengage", s_or_not)
    )
    double_activation = _roll_grid(
        "double_activation", raw.double_activation, d6, _choice("double_activation", {"S": True, "F": False})
    )

    fx = raw.fixed
    for name, key, rng in (
        ("transfer", "success", fx.transfer.success),
        ("run_aground", "eliminated", fx.run_aground.eliminated),
        ("sinking", "sinks", fx.sinking.sinks),
        ("flame", "ignites", fx.flame.ignites),
        ("firepots", "ignites", fx.firepots.ignites),
    ):
        _check_in_die("fixed", f"{name}.{key}", rng, d6)
    _fatigue_level("fixed", "avoidance.fatigue", fx.avoidance.fatigue)
    for name, key, value in (
        ("pass_through", "mp", fx.pass_through.mp),
        ("towers", "jettison_mp", fx.towers.jettison_mp),
        ("capture", "bonus_vp", fx.capture.bonus_vp),
    ):
        if value < 0:
            raise _error("fixed", f"{name}.{key}", f"{value} is negative")

    return Charts(
        dice=raw.dice,
        ramming=ramming,
        retraction=retraction,
        rake=rake,
        grappling=grappling,
        boarding=boarding,
        missile=missile,
        fatigue=fatigue,
        grapple_disengage=grapple_disengage,
        foul_disengage=foul_disengage,
        firefight=_roll_column("firefight", raw.firefight, d6, FirefightResult),
        double_activation=double_activation,
        orders_confusion=_roll_column("orders_confusion", raw.orders_confusion, d6, SpeedAdjustment),
        wind=_roll_column("wind", raw.wind, two_d6, WindChange),
        fixed=fx,
    )


def default_charts_path() -> Path:
    """The project's own rules data, shipped in the repository's scenarios/."""
    return scenarios_dir() / "charts.toml"


def default_charts_bytes() -> bytes:
    """The bytes of the project's charts (what a game pins the hash of)."""
    return default_charts_path().read_bytes()


def load_default_charts() -> Charts:
    return load_charts(default_charts_bytes())


# ---------------------------------------------------------------- dice (2.4)


def _in_range(die: RollRange, adjusted: int, needed: RollRange) -> bool:
    """2.4: above the top face counts as the top; below the lowest is outside."""
    if adjusted < die.low:
        return False
    return min(adjusted, die.high) in needed


def clamp_two_d6(charts: Charts, adjusted: int) -> int | None:
    """2.4: an adjusted 2d6 above 12 counts as 12; None when below 2 (fails)."""
    die = charts.dice.two_d6
    return None if adjusted < die.low else min(adjusted, die.high)


def two_d6_in_range(charts: Charts, adjusted: int, needed: RollRange) -> bool:
    """Whether an adjusted 2d6 is within a required range, under 2.4."""
    return _in_range(charts.dice.two_d6, adjusted, needed)


def d6_in_range(charts: Charts, adjusted: int, needed: RollRange) -> bool:
    """The same reading for a 1d6 range (see charts.toml [dice])."""
    return _in_range(charts.dice.d6, adjusted, needed)


# ---------------------------------------------------------------- grid lookups


def _column(table: str, rating: str, bands: tuple[Band, ...], value: int) -> int:
    for i, band in enumerate(bands):
        if band.covers(value):
            return i
    raise RulesDataError(f"{SOURCE}: table {table!r}: no {rating} column/row for {value}")


def _rating_cell(grid: RatingGrid[T], column_value: int, row_value: int) -> T:
    col = _column(grid.table, grid.column_rating, grid.columns, column_value)
    row = _column(grid.table, grid.row_rating, grid.rows, row_value)
    return grid.cells[row][col]


def _roll_index(first: int, count: int, adjusted: int) -> int:
    """The end rows are open: "or less" and "or more"."""
    return min(max(adjusted - first, 0), count - 1)


def _roll_cell(grid: RollGrid[T], column_value: int, adjusted: int) -> T:
    col = _column(grid.table, grid.column_rating, grid.columns, column_value)
    return grid.cells[_roll_index(grid.first_roll, len(grid.cells), adjusted)][col]


def _roll_result(table: RollColumn[T], adjusted: int) -> T:
    return table.results[_roll_index(table.first_roll, len(table.results), adjusted)]


# ---------------------------------------------------------------- 7.1 ramming


def ram_range(charts: Charts, attack: int, defense: int) -> RollRange:
    """7.14: the 2d6 range a Ram Attack needs against a Ram Defense."""
    if attack < charts.ramming.min_attack:
        raise IllegalOrder("7.11", f"a galley with a Ram Attack of {attack} may not attempt to Ram")
    return _rating_cell(charts.ramming.grid, attack, defense)


def ram_needed(charts: Charts, attack: int, defense: int) -> int:
    """7.14: the lowest adjusted 2d6 that rams."""
    return ram_range(charts, attack, defense).low


def ram_succeeds(charts: Charts, attack: int, defense: int, adjusted: int) -> bool:
    return two_d6_in_range(charts, adjusted, ram_range(charts, attack, defense))


def retraction(charts: Charts, natural: int, crew: int) -> RamOutcome:
    """7.16: the natural ram roll minus the rammer's Crew; the Foul Range fouls."""
    if two_d6_in_range(charts, natural - crew, charts.retraction.fouled):
        return RamOutcome.FOULED
    return RamOutcome.RETRACTED


# ---------------------------------------------------------------- 7.2 raking


def rake_range(charts: Charts, raking_crew: int, target_crew: int) -> RollRange:
    """7.26: the 2d6 range needed, raking Crew against the target's Crew."""
    return _rating_cell(charts.rake.grid, raking_crew, target_crew)


def rake_needed(charts: Charts, raking_crew: int, target_crew: int) -> int:
    return rake_range(charts, raking_crew, target_crew).low


def rake_succeeds(charts: Charts, raking_crew: int, target_crew: int, adjusted: int) -> bool:
    return two_d6_in_range(charts, adjusted, rake_range(charts, raking_crew, target_crew))


# ---------------------------------------------------------------- 8.1 grappling


def grapple_range(charts: Charts, crew: int) -> RollRange:
    """8.12: the adjusted 1d6 range that grapples, by the grappler's Crew."""
    table = charts.grappling
    return table.success[_column("grappling", "Crew", table.crews, crew)]


def grapple_result(charts: Charts, crew: int, adjusted: int) -> bool:
    """8.12: True if the galleys are now Grappled."""
    return d6_in_range(charts, adjusted, grapple_range(charts, crew))


# ---------------------------------------------------------------- 8.2 boarding


def boarding_range(charts: Charts, attacker: int, defender: int) -> RollRange:
    """8.23: the 2d6 range to Capture, summed attacking M against the defender's M."""
    if attacker < charts.boarding.min_attacker:
        raise IllegalOrder("8.21", f"boarders need at least M{charts.boarding.min_attacker}, not M{attacker}")
    return _rating_cell(charts.boarding.grid, attacker, defender)


def boarding_needed(charts: Charts, attacker: int, defender: int) -> int:
    return boarding_range(charts, attacker, defender).low


def boarding_result(charts: Charts, attacker: int, defender: int, adjusted: int) -> BoardingResult:
    """8.23 with the Depletions of 8.28 (a Capture also sets the defender to M0)."""
    depletion = charts.boarding.depletion
    if two_d6_in_range(charts, adjusted, boarding_range(charts, attacker, defender)):
        return BoardingResult(
            BoardingOutcome.CAPTURED,
            attacker_depleted=two_d6_in_range(charts, adjusted, depletion.attacker_on_capture),
            defender_depleted=False,
        )
    # A result below 2 is a Repulse all the same; for the 2-5 band it reads as
    # the lowest result, as a worse roll can never be a milder Repulse.
    lowest = charts.dice.two_d6.low
    return BoardingResult(
        BoardingOutcome.REPULSED,
        attacker_depleted=depletion.attacker_on_repulse,
        defender_depleted=two_d6_in_range(charts, max(adjusted, lowest), depletion.defender_on_repulse),
    )


# ---------------------------------------------------------------- 8.4 missiles


def missile_column(charts: Charts, manpower: int) -> Band:
    """8.43: the Manpower column a (possibly split) fire uses."""
    grid = charts.missile.grid
    return grid.columns[_column(grid.table, grid.column_rating, grid.columns, manpower)]


def missile_result(charts: Charts, manpower: int, adjusted: int) -> MissileResult:
    """8.44-8.45: the adjusted 1d6 in the firing Manpower's column."""
    return _roll_cell(charts.missile.grid, manpower, adjusted)


# ---------------------------------------------------------------- 6.4 fatigue


def fatigue_result(charts: Charts, crew: int, adjusted: int, anastrophe: bool = False) -> int:
    """6.42-6.43: turns of Fatigue (0: No Effect). An Anastrophe reads row 7A (7.36)."""
    table = charts.fatigue
    if anastrophe:
        grid = table.grid
        return table.anastrophe[_column(grid.table, grid.column_rating, grid.columns, crew)]
    return _roll_cell(table.grid, crew, adjusted)


# ---------------------------------------------------------------- 8.3 disengage


def disengage_success(charts: Charts, kind: Disengage, crew: int, adjusted: int) -> bool:
    """8.33 / 8.35: True on an "S". Foul Disengage takes no modifiers (8.35)."""
    grid = charts.grapple_disengage.grid if kind is Disengage.GRAPPLE else charts.foul_disengage
    return _roll_cell(grid, crew, adjusted)


# ---------------------------------------------------------------- 8.5 fire


def firefight_result(charts: Charts, adjusted: int) -> FirefightResult:
    """8.54: a burning galley's roll in G/2 (lower is better for her)."""
    return _roll_result(charts.firefight, adjusted)


def flame_ignites(charts: Charts, roll: int, ignites: RollRange | None = None) -> bool:
    """8.51: the roll after a D/F; a scenario may name its own range (Tauris: 5-6)."""
    return d6_in_range(charts, roll, ignites or charts.fixed.flame.ignites)


def firepots_ignite(charts: Charts, roll: int) -> bool:
    """8.53: rolled before the Ram is resolved."""
    return d6_in_range(charts, roll, charts.fixed.firepots.ignites)


# ---------------------------------------------------------------- 5.4 command


def double_activation(charts: Charts, initiative: int, roll: int) -> bool:
    """5.42: True on Success; False means Orders Confusion for the other squadron."""
    return _roll_cell(charts.double_activation, initiative, roll)


def orders_confusion(charts: Charts, roll: int) -> SpeedAdjustment:
    """5.42: the speed adjustment for each galley of the non-Admiral squadron."""
    return _roll_result(charts.orders_confusion, roll)


# ---------------------------------------------------------------- 6.2 wind


def wind_change(charts: Charts, roll: int) -> WindChange:
    """6.2: the 2d6 roll at the start of a turn where the scenario rolls for wind."""
    return _roll_result(charts.wind, roll)


# ---------------------------------------------------------------- fixed numbers


def _at_most_crew(crew: int, adjusted: int) -> bool:
    # The one kind of check the rules use ("the same as or lower than the Crew
    # Rating"); the data names it (`check = "at_most_crew"`, checked on load).
    return adjusted <= crew


def individual_activation_free(charts: Charts, crew: int, roll: int) -> bool:
    """5.31: an Individual Squadron galley is free to act on a roll at most its Crew."""
    return _at_most_crew(crew, roll)


def transfer_succeeds(charts: Charts, roll: int) -> bool:
    """5.52."""
    return d6_in_range(charts, roll, charts.fixed.transfer.success)


def avoidance_succeeds(charts: Charts, crew: int, roll: int, half_speed: bool = False) -> bool:
    """6.52-6.53: at most Crew, with +1 to the roll at Half Speed."""
    avoidance = charts.fixed.avoidance
    adjusted = roll + (avoidance.half_speed if half_speed else 0)
    return _at_most_crew(crew, adjusted)


def avoidance_fatigue(charts: Charts) -> int:
    """6.52: the automatic Fatigue of a successful Avoidance."""
    return _fatigue_level("fixed", "avoidance.fatigue", charts.fixed.avoidance.fatigue)


def run_aground_result(charts: Charts, crew: int, roll: int) -> AgroundOutcome:
    """6.36: at most Crew frees the galley; the eliminating roll loses it."""
    aground = charts.fixed.run_aground
    if _at_most_crew(crew, roll):
        return AgroundOutcome.FREED
    if d6_in_range(charts, roll, aground.eliminated):
        return AgroundOutcome.ELIMINATED
    return AgroundOutcome.STUCK


def defensive_ram_allowed(charts: Charts, crew: int, roll: int) -> bool:
    """6.7 (optional): the Crew check before a defensive reaction ram."""
    return _at_most_crew(crew, roll)


def sinks(charts: Charts, roll: int) -> bool:
    """7.17: a Rammed galley's roll in G/4."""
    return d6_in_range(charts, roll, charts.fixed.sinking.sinks)


def admiral_withdraws(charts: Charts, roll: int, initiative: int, fewer_vp: bool) -> bool:
    """9.2: 1d6 + Initiative (+1 when behind on VP); above the threshold withdraws."""
    loss = charts.fixed.loss_of_admiral
    adjusted = roll + initiative + (loss.fewer_vp if fewer_vp else 0)
    return adjusted > loss.withdraw_above
