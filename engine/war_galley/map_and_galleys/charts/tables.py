"""The Charts and Tables of War Galley as typed data, decoded from charts.toml by msgspec.

Each kind of table has one shape (a grid of two ratings, a 1d6 grid, a column
keyed by the roll, ...) that the TOML decodes into directly with
`msgspec.convert`; the checks the rulebook fixes for a table are its
validators: `__post_init__` for what the table alone decides (labels
contiguous, one cell per column, F-1 absent), `check_dice` for what it must
agree on with the dice of 2.4 (a success range lies within the dice and runs
to the top face). A problem names its table and key.

No rule number is written here: every range, modifier and threshold comes
from the data, so a player who types in the printed cards changes the game
without touching code.
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from engine import datafiles
from engine.datafiles import scenarios_dir
from engine.errors import RulesDataError
from engine.war_galley.map_and_galleys.charts.modifiers import (
    BoardingDepletion,
    BoardingModifiers,
    FatigueModifiers,
    Fixed,
    GrappleDisengageModifiers,
    GrappleModifiers,
    MissileModifiers,
    RakeModifiers,
    RamModifiers,
    _Strict,
)
from engine.war_galley.map_and_galleys.charts.ranges import _FATIGUE_RE, Band, RollRange
from engine.war_galley.map_and_galleys.charts.results import FirefightResult, MissileResult, SpeedAdjustment, WindChange

T = TypeVar("T")

SOURCE = "charts"


# ---------------------------------------------------------------- the checks the tables share


def contiguous(key: str, bands: tuple[Band, ...] | list[Band]) -> None:
    """Rating labels: at least one, ascending without gap or overlap, only the last open."""
    if not bands:
        raise ValueError(f"key {key!r}: no labels")
    for prev, band in zip(bands, bands[1:]):
        if prev.high is None or band.low != prev.high + 1:
            raise ValueError(f"key {key!r}: label {str(band)!r} does not follow {str(prev)!r} without gap or overlap")


def needed(key: str, rng: RollRange, die: RollRange) -> None:
    """A range needed for success: inside the dice and running to the top (2.4)."""
    if rng.low < die.low or rng.high != die.high:
        raise ValueError(f"key {key!r}: {str(rng)!r} must lie within the dice {die} and end at {die.high}")


def in_die(key: str, rng: RollRange, die: RollRange) -> None:
    if rng.low < die.low or rng.high > die.high:
        raise ValueError(f"key {key!r}: {rng} lies outside the dice {die}")


def roll_keys(keys: list[str]) -> int:
    """Row keys of a roll-keyed table: contiguous integers, lowest first; the first roll."""
    for k in keys:
        if not k.lstrip("-").isdigit():
            raise ValueError(f"key 'rows.{k}': a row key is an (adjusted) roll")
    rolls = [int(k) for k in keys]
    if not rolls:
        raise ValueError("key 'rows': no rows")
    if rolls != list(range(rolls[0], rolls[0] + len(rolls))):
        raise ValueError(f"key 'rows': rows must run one by one, lowest first: {keys}")
    return rolls[0]


def covers(keys: list[str], die: RollRange) -> None:
    first, last = int(keys[0]), int(keys[-1])
    if first > die.low or last < die.high:
        raise ValueError(f"key 'rows': rows {first}..{last} do not cover the die {die}")


def fatigue_level(text: str) -> int:
    """ "-" is No Effect (0); "F-n" is n turns. 6.43: the chart has no F-1."""
    if text == "-":
        return 0
    m = _FATIGUE_RE.match(text)
    if m is None:
        raise ValueError(f"{text!r} is neither '-' nor 'F-n'")
    level = int(m.group(1))
    if level < 2:
        raise ValueError(f"{text!r}: the Fatigue Table has no F-1 result (6.43)")
    return level


# ---------------------------------------------------------------- the shapes


class DiceLimits(_Strict, frozen=True):
    """2.4: the faces of one die and of two dice added."""

    rule: str
    d6: RollRange
    two_d6: RollRange


class RatingGrid(_Strict, frozen=True):
    """A table cross-indexing two ratings: for each row band, one 2d6 range per column (7.14, 7.26, 8.23)."""

    name: str
    rule: str
    column_rating: str
    row_rating: str
    columns: tuple[Band, ...]
    rows: dict[Band, tuple[RollRange, ...]]  # row label -> one cell per column

    KEY: ClassVar[str] = ""  # the table's key in charts.toml, for error messages

    def __post_init__(self) -> None:
        contiguous("columns", self.columns)
        contiguous("rows", list(self.rows))
        for band, cells in self.rows.items():
            if len(cells) != len(self.columns):
                raise ValueError(f"key 'rows.{band}': {len(cells)} cells for {len(self.columns)} columns")

    def check_dice(self, dice: DiceLimits) -> None:
        for band, cells in self.rows.items():
            for column, rng in zip(self.columns, cells):
                needed(f"rows.{band}[{column}]", rng, dice.two_d6)

    @property
    def cells(self) -> tuple[tuple[RollRange, ...], ...]:
        return tuple(self.rows.values())


class RollGrid(_Strict, frozen=True, dict=True):
    """A 1d6 table: rows by adjusted roll (both end rows open), columns by a rating; a cell is read by `cell`."""

    name: str
    rule: str
    column_rating: str
    columns: tuple[Band, ...]
    rows: dict[str, tuple[str, ...]]

    MARKS: ClassVar[dict[str, Any]] = {}  # the cell texts and what they mean, for the plain grids
    KEY: ClassVar[str] = ""  # the table's key in charts.toml, for error messages

    def special_rows(self) -> tuple[str, ...]:
        return ()

    def cell(self, text: str) -> Any:
        if text not in self.MARKS:
            raise ValueError(f"{text!r} is not one of {sorted(self.MARKS)}")
        return self.MARKS[text]

    def __post_init__(self) -> None:
        contiguous("columns", self.columns)
        roll_keys([k for k in self.rows if k not in self.special_rows()])
        for key, row in self.rows.items():
            if len(row) != len(self.columns):
                raise ValueError(f"key 'rows.{key}': {len(row)} cells for {len(self.columns)} columns")
            for column, text in zip(self.columns, row):
                try:
                    self.cell(text)
                except ValueError as exc:
                    raise ValueError(f"key 'rows.{key}[{column}]': {exc}") from None

    def check_dice(self, dice: DiceLimits) -> None:
        covers([k for k in self.rows if k not in self.special_rows()], dice.d6)

    @cached_property
    def first_roll(self) -> int:
        return int(next(k for k in self.rows if k not in self.special_rows()))

    @cached_property
    def cells(self) -> tuple[tuple[Any, ...], ...]:  # [roll - first_roll][column]
        return tuple(tuple(self.cell(t) for t in row) for k, row in self.rows.items() if k not in self.special_rows())


class SuccessGrid(RollGrid, frozen=True, dict=True):
    """A grid of "S" (True, success) and "-" (8.32, 8.35)."""

    MARKS: ClassVar[dict[str, Any]] = {"S": True, "-": False}
    KEY: ClassVar[str] = "foul_disengage"


class ActivationGrid(RollGrid, frozen=True, dict=True):
    """The Double Activation table: "S" Success, "F" Failure (5.42)."""

    MARKS: ClassVar[dict[str, Any]] = {"S": True, "F": False}
    KEY: ClassVar[str] = "double_activation"


class RollColumn(_Strict, Generic[T], frozen=True, dict=True):
    """A one-column table keyed by the (adjusted) roll, both end rows open; each result an inline table."""

    name: str
    rule: str
    rows: dict[str, T]

    TWO_DICE: ClassVar[bool] = False

    def __post_init__(self) -> None:
        roll_keys(list(self.rows))

    def check_dice(self, dice: DiceLimits) -> None:
        covers(list(self.rows), dice.two_d6 if self.TWO_DICE else dice.d6)

    @cached_property
    def first_roll(self) -> int:
        return int(next(iter(self.rows)))

    @cached_property
    def results(self) -> tuple[T, ...]:
        return tuple(self.rows.values())


class WindChart(RollColumn[WindChange], frozen=True, dict=True):
    """6.2: rolled on two dice."""

    TWO_DICE: ClassVar[bool] = True


# ---------------------------------------------------------------- the tables


class RammingTable(RatingGrid, frozen=True):
    KEY: ClassVar[str] = "ramming"
    min_attack: int  # 7.11
    modifiers: RamModifiers

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.columns[0].low != self.min_attack:
            raise ValueError(f"key 'columns': the first column must be min_attack {self.min_attack} (7.11)")


class RetractionTable(_Strict, frozen=True):
    name: str
    rule: str
    fouled: RollRange

    def check_dice(self, dice: DiceLimits) -> None:
        in_die("fouled", self.fouled, dice.two_d6)


class RakeTable(RatingGrid, frozen=True):
    KEY: ClassVar[str] = "rake"
    modifiers: RakeModifiers


class GrapplingTable(_Strict, frozen=True):
    name: str
    rule: str
    column_rating: str
    success: dict[Band, RollRange]  # the adjusted 1d6 that grapples, by the grappler's Crew band
    modifiers: GrappleModifiers

    def __post_init__(self) -> None:
        contiguous("success", list(self.success))

    def check_dice(self, dice: DiceLimits) -> None:
        for band, rng in self.success.items():
            needed(f"success.{band}", rng, dice.d6)

    @property
    def crews(self) -> tuple[Band, ...]:
        return tuple(self.success)

    def range_for(self, crew: int) -> RollRange:
        for band, rng in self.success.items():
            if band.covers(crew):
                return rng
        raise RulesDataError(f"{SOURCE}: table 'grappling': no Crew column/row for {crew}")


class BoardingTable(RatingGrid, frozen=True):
    KEY: ClassVar[str] = "boarding"
    min_attacker: int  # 8.21
    depletion: BoardingDepletion
    modifiers: BoardingModifiers

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.columns[0].low != self.min_attacker:
            raise ValueError(f"key 'columns': the first column must be min_attacker {self.min_attacker} (8.21)")

    def check_dice(self, dice: DiceLimits) -> None:
        super().check_dice(dice)
        in_die("depletion.attacker_on_capture", self.depletion.attacker_on_capture, dice.two_d6)
        in_die("depletion.defender_on_repulse", self.depletion.defender_on_repulse, dice.two_d6)


class MissileTable(RollGrid, frozen=True, dict=True):
    KEY: ClassVar[str] = "missile"
    max_range: int  # 8.41
    modifiers: MissileModifiers

    MARKS: ClassVar[dict[str, Any]] = {r.value: r for r in MissileResult}


class FatigueTable(RollGrid, frozen=True, dict=True):
    KEY: ClassVar[str] = "fatigue"
    anastrophe_row: str
    modifiers: FatigueModifiers

    def special_rows(self) -> tuple[str, ...]:
        return (self.anastrophe_row,)

    def cell(self, text: str) -> int:
        return fatigue_level(text)

    def __post_init__(self) -> None:
        if self.anastrophe_row not in self.rows:
            raise ValueError(f"key 'anastrophe_row': no row {self.anastrophe_row!r} (7.36)")
        super().__post_init__()
        if 0 in self.anastrophe:
            raise ValueError(f"key 'rows.{self.anastrophe_row}': an Anastrophe always fatigues (7.36)")

    @cached_property
    def anastrophe(self) -> tuple[int, ...]:  # row 7A, one per crew column
        return tuple(fatigue_level(t) for t in self.rows[self.anastrophe_row])


class GrappleDisengageTable(SuccessGrid, frozen=True, dict=True):
    KEY: ClassVar[str] = "grapple_disengage"
    max_mp_cost: int
    modifiers: GrappleDisengageModifiers


class Charts(_Strict, frozen=True):
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
    foul_disengage: SuccessGrid
    firefight: RollColumn[FirefightResult]
    double_activation: ActivationGrid
    orders_confusion: RollColumn[SpeedAdjustment]
    wind: WindChart
    fixed: Fixed

    _FIXED_RANGES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("transfer", "success"), ("run_aground", "eliminated"), ("sinking", "sinks"), ("flame", "ignites"),
        ("firepots", "ignites"))
    _FIXED_COUNTS: ClassVar[tuple[tuple[str, str], ...]] = (  # MP and VP the rules text fixes: never negative
        ("pass_through", "mp"), ("towers", "jettison_mp"), ("capture", "bonus_vp"))

    def __post_init__(self) -> None:
        """The checks against the dice (2.4), table by table."""
        for name in self.__struct_fields__:
            table = getattr(self, name)
            if hasattr(table, "check_dice"):
                try:
                    table.check_dice(self.dice)
                except ValueError as exc:
                    raise ValueError(f"table {name!r}, {exc}") from None
        for name, key in self._FIXED_RANGES:
            try:
                in_die(f"{name}.{key}", getattr(getattr(self.fixed, name), key), self.dice.d6)
            except ValueError as exc:
                raise ValueError(f"table 'fixed', {exc}") from None
        for name, key in self._FIXED_COUNTS:
            value = getattr(getattr(self.fixed, name), key)
            if value < 0:
                raise ValueError(f"table 'fixed', key '{name}.{key}': {value} is negative")
        try:
            fatigue_level(self.fixed.avoidance.fatigue)
        except ValueError as exc:
            raise ValueError(f"table 'fixed', key 'avoidance.fatigue': {exc}") from None


# ---------------------------------------------------------------- reading cells


def column_of(table: str, rating: str, bands: tuple[Band, ...], value: int) -> int:
    for i, band in enumerate(bands):
        if band.covers(value):
            return i
    raise RulesDataError(f"{SOURCE}: table {table!r}: no {rating} column/row for {value}")


def rating_cell(grid: RatingGrid, column_value: int, row_value: int) -> RollRange:
    col = column_of(grid.KEY, grid.column_rating, grid.columns, column_value)
    for band, cells in grid.rows.items():
        if band.covers(row_value):
            return cells[col]
    raise RulesDataError(f"{SOURCE}: table {grid.KEY!r}: no {grid.row_rating} column/row for {row_value}")


def _roll_index(first: int, count: int, adjusted: int) -> int:
    """The end rows are open: "or less" and "or more"."""
    return min(max(adjusted - first, 0), count - 1)


def roll_cell(grid: RollGrid, column_value: int, adjusted: int) -> Any:
    col = column_of(grid.KEY, grid.column_rating, grid.columns, column_value)
    cells = grid.cells
    return cells[_roll_index(grid.first_roll, len(cells), adjusted)][col]


def roll_result(table: RollColumn[T], adjusted: int) -> T:
    results = table.results
    return results[_roll_index(table.first_roll, len(results), adjusted)]


# ---------------------------------------------------------------- loading


_PATH_RE = re.compile(r"at `\$\.([A-Za-z_]+)")
_FIELD_RE = re.compile(r"field `([A-Za-z_]+)`")


def _schema_error(exc: msgspec.ValidationError) -> RulesDataError:
    """Name the table a problem is about (its path, or the missing field)."""
    text = str(exc)
    if text.startswith("table '"):
        return RulesDataError(f"{SOURCE}: {text}")
    m = _PATH_RE.search(text) or _FIELD_RE.search(text)
    table = m.group(1) if m else "?"
    return RulesDataError(f"{SOURCE}: table {table!r}: {text}")


def card_notation(type_: type, obj: Any) -> Any:
    """msgspec's hook for the card notation: "8-12" into a RollRange, "1-2" or "12+" into a Band."""
    if type_ is RollRange or type_ is Band:
        if not isinstance(obj, str):
            raise TypeError(f"expected a {'roll range' if type_ is RollRange else 'rating label'} string "
                            f"like '3-6', got {obj!r}")
        return type_.parse(obj)
    raise NotImplementedError(type_)  # msgspec's dec_hook protocol: "not mine", msgspec reports the type


def load_charts(data: bytes) -> Charts:
    """Read and check rules data; every problem names its table and key."""
    try:
        doc = datafiles.read_toml(data)  # a shipped file's JSON twin, else the TOML
    except UnicodeDecodeError as exc:
        raise RulesDataError(f"{SOURCE}: not UTF-8 text: {exc}") from exc
    except datafiles.TomlSyntaxError as exc:
        raise RulesDataError(f"{SOURCE}: TOML syntax error: {exc}") from exc
    try:
        return msgspec.convert(doc, Charts, dec_hook=card_notation)
    except msgspec.ValidationError as exc:
        raise _schema_error(exc) from exc


def default_charts_path() -> Path:
    """The project's own rules data, shipped in scenarios/war_galley/."""
    return scenarios_dir("war_galley") / "charts.toml"


def default_charts_bytes() -> bytes:
    """The bytes of the project's charts (what a game pins the hash of)."""
    return default_charts_path().read_bytes()


def load_default_charts() -> Charts:
    return load_charts(default_charts_bytes())


__all__ = ["Charts", "DiceLimits", "RatingGrid", "RollGrid", "SuccessGrid", "ActivationGrid", "RollColumn",
           "WindChart", "RammingTable", "RetractionTable", "RakeTable", "GrapplingTable", "BoardingTable",
           "MissileTable", "FatigueTable", "GrappleDisengageTable", "load_charts", "default_charts_path",
           "default_charts_bytes", "load_default_charts", "column_of", "rating_cell", "roll_cell", "roll_result",
           "fatigue_level", "card_notation"]
