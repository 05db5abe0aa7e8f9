"""The questions the rules ask of the charts (2.4, 5.4, 6.2, 6.3, 6.4, 6.5, 6.7, 7.1, 7.2, 8.1-8.5, 9.2).

Every lookup takes the `Charts` explicitly: a game may run on rules data of
its own, so there is no module-level default.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalOrder
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
from engine.war_galley.map_and_galleys.charts.ranges import Band, RollRange
from engine.war_galley.map_and_galleys.charts.results import (
    AgroundOutcome,
    BoardingOutcome,
    BoardingResult,
    Disengage,
    FirefightResult,
    MissileResult,
    RamOutcome,
    SpeedAdjustment,
    WindChange,
)
from engine.war_galley.map_and_galleys.charts.tables import (
    Charts,
    column_of,
    fatigue_level,
    rating_cell,
    roll_cell,
    roll_result,
)

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


# ---------------------------------------------------------------- 7.1 ramming


def ram_range(charts: Charts, attack: int, defense: int) -> RollRange:
    """7.14: the 2d6 range a Ram Attack needs against a Ram Defense."""
    if attack < charts.ramming.min_attack:
        raise IllegalOrder("7.11", f"a galley with a Ram Attack of {attack} may not attempt to Ram")
    return rating_cell(charts.ramming, attack, defense)


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
    return rating_cell(charts.rake, raking_crew, target_crew)


def rake_needed(charts: Charts, raking_crew: int, target_crew: int) -> int:
    return rake_range(charts, raking_crew, target_crew).low


def rake_succeeds(charts: Charts, raking_crew: int, target_crew: int, adjusted: int) -> bool:
    return two_d6_in_range(charts, adjusted, rake_range(charts, raking_crew, target_crew))


# ---------------------------------------------------------------- 8.1 grappling


def grapple_range(charts: Charts, crew: int) -> RollRange:
    """8.12: the adjusted 1d6 range that grapples, by the grappler's Crew."""
    table = charts.grappling
    return table.range_for(crew)


def grapple_result(charts: Charts, crew: int, adjusted: int) -> bool:
    """8.12: True if the galleys are now Grappled."""
    return d6_in_range(charts, adjusted, grapple_range(charts, crew))


# ---------------------------------------------------------------- 8.2 boarding


def boarding_range(charts: Charts, attacker: int, defender: int) -> RollRange:
    """8.23: the 2d6 range to Capture, summed attacking M against the defender's M."""
    if attacker < charts.boarding.min_attacker:
        raise IllegalOrder("8.21", f"boarders need at least M{charts.boarding.min_attacker}, not M{attacker}")
    return rating_cell(charts.boarding, attacker, defender)


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
    grid = charts.missile
    return grid.columns[column_of(grid.KEY, grid.column_rating, grid.columns, manpower)]


def missile_result(charts: Charts, manpower: int, adjusted: int) -> MissileResult:
    """8.44-8.45: the adjusted 1d6 in the firing Manpower's column."""
    return roll_cell(charts.missile, manpower, adjusted)


# ---------------------------------------------------------------- 6.4 fatigue


def fatigue_result(charts: Charts, crew: int, adjusted: int, anastrophe: bool = False) -> int:
    """6.42-6.43: turns of Fatigue (0: No Effect). An Anastrophe reads row 7A (7.36)."""
    table = charts.fatigue
    if anastrophe:
        grid = table
        return table.anastrophe[column_of(grid.KEY, grid.column_rating, grid.columns, crew)]
    return roll_cell(table, crew, adjusted)


# ---------------------------------------------------------------- 8.3 disengage


def disengage_success(charts: Charts, kind: Disengage, crew: int, adjusted: int) -> bool:
    """8.33 / 8.35: True on an "S". Foul Disengage takes no modifiers (8.35)."""
    grid = charts.grapple_disengage if kind is Disengage.GRAPPLE else charts.foul_disengage
    return roll_cell(grid, crew, adjusted)


# ---------------------------------------------------------------- 8.5 fire


def firefight_result(charts: Charts, adjusted: int) -> FirefightResult:
    """8.54: a burning galley's roll in G/2 (lower is better for her)."""
    return roll_result(charts.firefight, adjusted)


def flame_ignites(charts: Charts, roll: int, ignites: RollRange | None = None) -> bool:
    """8.51: the roll after a D/F; a scenario may name its own range (Tauris: 5-6)."""
    return d6_in_range(charts, roll, ignites or charts.fixed.flame.ignites)


def firepots_ignite(charts: Charts, roll: int) -> bool:
    """8.53: rolled before the Ram is resolved."""
    return d6_in_range(charts, roll, charts.fixed.firepots.ignites)


# ---------------------------------------------------------------- 5.4 command


def double_activation(charts: Charts, initiative: int, roll: int) -> bool:
    """5.42: True on Success; False means Orders Confusion for the other squadron."""
    return roll_cell(charts.double_activation, initiative, roll)


def orders_confusion(charts: Charts, roll: int) -> SpeedAdjustment:
    """5.42: the speed adjustment for each galley of the non-Admiral squadron."""
    return roll_result(charts.orders_confusion, roll)


# ---------------------------------------------------------------- 6.2 wind


def wind_change(charts: Charts, roll: int) -> WindChange:
    """6.2: the 2d6 roll at the start of a turn where the scenario rolls for wind."""
    return roll_result(charts.wind, roll)


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
    return fatigue_level(charts.fixed.avoidance.fatigue)


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
