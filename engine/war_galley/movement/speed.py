"""Speed (6.1, 6.2, 6.37, 6.44, 8.48): which side a galley may use and how many MP it may announce.

The rulebook's 6.37 play note: limits are not cumulative, "use the most
limiting result". So the speed a galley may announce is the smallest of its
printed speed (plus wind and jettisoned towers) and every limit that applies,
each limit reckoned from the printed Cruise Speed. `speed_limit` says which
rule set the figure, so refusals can cite it.
"""

from __future__ import annotations

import math

import msgspec

from engine.memo import by_identity
from engine.war_galley.map_and_galleys.galley import Capture, Galley, GalleyType
from engine.war_galley.map_and_galleys.hexes import Direction
from engine.war_galley.map_and_galleys.ratings import Ratings, SpeedSide


class Wind(msgspec.Struct, frozen=True):
    """The Wind Direction marker (6.2, 3.1.A): the hexside direction it blows toward.

    Scenarios place it "in 1000 pointing into 1100": the wind blows from 1000
    toward 1100. `strength` is as the wind chart gives it; movement only asks
    whether there is wind. Dead Calm (or a scenario without wind) is
    `wind=None` wherever a wind is expected.
    """

    direction: Direction
    strength: int = 1


def wind_astern(wind: Wind | None, facing: int) -> bool:
    """Whether the wind blows into the Stern or a Stern/Flank hexside of a galley facing `facing` (6.22).

    Wind entering through the stern hexside travels the way the bow points;
    through a stern/flank hexside, one hexside either way of it.
    """
    if wind is None:
        return False
    return (wind.direction - facing) % 6 in (0, 1, 5)


class Limit(msgspec.Struct, frozen=True):
    """The most MP a galley may announce, and the rule that sets it."""

    mp: int
    rule: str
    reason: str


def maximum_barred(galley: Galley, sails_up: bool | None = None) -> Limit | None:
    """Why `galley` may not use Maximum Speed (as a zero Limit), or None if it may.

    6.12 (Half Speed, Fatigued, Captured/Recaptured, Crippled, immobile),
    8.25, 6.37 (Mast Down), 6.22/6.25 (under sail, unless a Tremiola),
    6.37 (aground), and Ecnomus' Corvus.
    """
    up = galley.sails_up if sails_up is None else sails_up
    checks = (
        (galley.rammed, "6.12", "is Rammed"),
        (bool(galley.fouled_with), "6.12", "is Fouled"),
        (bool(galley.grappled_with), "6.12", "is Grappled"),
        (galley.aground is not None, "6.37", "has Run Aground"),
        (bool(galley.crippled), "6.12", "is Crippled"),
        (galley.half_speed, "6.12", "is at Half Speed"),
        (galley.fatigue > 0, "6.44", f"is Fatigued (F-{galley.fatigue})"),
        (galley.capture is not Capture.NONE, "8.25", f"is {galley.capture.value.title()}"),
        (galley.mast_down, "6.37", "is Mast Down"),
        (up and galley.id.type is not GalleyType.TREMIOLA, "6.22", "is under sail"),
        (galley.equipment.corvus, "Corvus", "carries a Corvus"),
    )
    for barred, rule, why in checks:
        if barred:
            return Limit(0, rule, f"{galley.id} {why} and may not use Maximum Speed")
    return None


def _half_up(mp: int) -> int:
    return math.ceil(mp / 2)


def speed_limit(
    galley: Galley,
    side: SpeedSide,
    wind: Wind | None = None,
    *,
    sails_up: bool | None = None,
    facing: int | None = None,
) -> Limit:
    """The most MP `galley` may announce on `side` this activation (6.11-6.13).

    `sails_up` is the sail state when it starts moving (after any raise or
    lower, 6.21); `facing` its facing then (6.22: the wind at the start of its
    turn). Both default to the galley's present state.
    """
    return _limit(galley, side, wind, sails_up, facing)


@by_identity(32)
def _limit(galley: Galley, side: SpeedSide, wind: Wind | None, sails_up: bool | None, facing: int | None) -> Limit:
    # Kept for the last few galleys (immutable): every step check of a plan asks again, and the
    # answer's reasons are text naming the galley, costly to write each time.
    up = galley.sails_up if sails_up is None else sails_up
    if galley.position is None:
        return Limit(0, "9.1", f"{galley.id} is not on the map")
    heading = galley.position.facing if facing is None else facing
    immobile = _immobile(galley)
    if immobile is not None:
        return immobile
    if side is SpeedSide.MAXIMUM:
        barred = maximum_barred(galley, up)
        if barred is not None:
            return barred
    printed = galley.ratings.side(side).speed
    limits = [Limit(printed, "6.11", f"{galley.id}'s {side.name.title()} Speed is {printed}")]
    bonus = sail_bonus(galley, side, wind, up, heading)
    if bonus:
        limits = [Limit(printed + bonus, bonus_rule(galley), f"{galley.id} has {printed}+{bonus} MP under sail")]
    if side is SpeedSide.MAXIMUM and galley.towers_jettisoned:
        best = limits[0]
        limits = [Limit(best.mp + 1, "8.48", f"{galley.id} has jettisoned its towers: {best.mp + 1} MP")]
    limits += _cruise_limits(galley)
    # min() keeps the first of equals: the printed speed before a limit of the same size.
    return min(limits, key=lambda limit: limit.mp)


def _immobile(galley: Galley) -> Limit | None:
    """6.37, 7.28: galleys that may not move at all."""
    reasons = (
        (galley.rammed, "6.37", "is Rammed"),
        (bool(galley.fouled_with), "6.37", "is Fouled"),
        (bool(galley.grappled_with), "6.37", "is Grappled"),
        (galley.aground is not None, "6.37", "has Run Aground"),
        (len(galley.crippled) == 2, "7.28", "is Crippled on both sides"),
    )
    for stuck, rule, why in reasons:
        if stuck:
            return Limit(0, rule, f"{galley.id} {why} and may not move")
    return None


def _cruise_limits(galley: Galley) -> list[Limit]:
    """The limits of 6.37/6.44 on a galley that may move; each from the printed Cruise Speed."""
    cruise = galley.ratings.cruise.speed
    limits = []
    if galley.crippled:
        limits.append(Limit(1, "7.28", f"{galley.id} is Crippled: one hex at most"))
    if galley.half_speed:
        limits.append(Limit(_half_up(cruise), "6.37", f"{galley.id} is at Half Speed: {_half_up(cruise)} MP"))
    if galley.mast_down:
        limits.append(Limit(_half_up(cruise), "6.24", f"{galley.id} is Mast Down: {_half_up(cruise)} MP"))
    if galley.fatigue:
        # 6.44: Cruise reduced by the F number, but the galley may always move one hex.
        mp = max(1, cruise - galley.fatigue)
        limits.append(Limit(mp, "6.44", f"{galley.id} is Fatigued F-{galley.fatigue}: {mp} MP"))
    return limits


def sail_bonus(galley: Galley, side: SpeedSide, wind: Wind | None, sails_up: bool, facing: int) -> int:
    """MP added by the wind (6.22, 6.25).

    Under sail with the wind into its Stern or Stern/Flank hexsides, a galley
    adds 1 to its Cruise Speed. A Tremiola under sail adds 2 to either side
    whenever there is wind (6.25: "may always add 2"); Dead Calm gives none (6.2).
    """
    if not sails_up or wind is None:
        return 0
    if galley.id.type is GalleyType.TREMIOLA:
        return 2
    if side is SpeedSide.CRUISE and wind_astern(wind, facing):
        return 1
    return 0


def wind_mp(start: Galley, wind: Wind | None, sails_up: bool) -> int:
    """The MP the wind gives `start` (the galley as it began moving) this activation (6.22, 6.25).

    They are no MP "used in excess of Cruise Speed": 6.22 gives them "without
    incurring Fatigue" (6.42) and 6.23 has a galley under sail ram "at
    considerably reduced capability" (7.15).
    """
    if start.position is None:
        return 0
    return sail_bonus(start, start.speed, wind, sails_up, start.position.facing)


def bonus_rule(galley: Galley) -> str:
    return "6.25" if galley.id.type is GalleyType.TREMIOLA else "6.22"


def excess_over_cruise(ratings: Ratings, mp_used: int) -> int:
    """MP used beyond the printed Cruise Speed: the Fatigue DRM (6.42) and the Ram DRM (7.15)."""
    return max(0, mp_used - ratings.cruise.speed)
