"""A galley's progress through one movement segment (6.11-6.13, 6.6, 6.31, 9.1).

A `Leg` is where the galley is, what it has spent and what it has done that
later steps depend on (6.21 sails first, 6.33 backwater excludes forward
motion and Facing Change, 7.15 turns made). A `Mover` is the galley with
what its steps keep asking. `begin`, `pay`, `enter` and `finish` are the
bookkeeping every step rule shares: the announced MP and the speed limit
(6.11-6.13), stacking (6.6), land (6.31) and the map edge (9.1). The rules
of the step kinds are in `engine.war_galley.movement.manoeuvres`; `engine.war_galley.movement.moving` runs them.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from typing import NamedTuple

import msgspec
from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.war_galley.map_and_galleys.board import Board, Water
from engine.war_galley.map_and_galleys.charts import Charts, Fixed
from engine.war_galley.map_and_galleys.charts.modifiers import Movement, Sails
from engine.war_galley.map_and_galleys.galley import End, Galley, GalleyId, GalleyType
from engine.war_galley.map_and_galleys.hexes import Hex
from engine.war_galley.map_and_galleys.occupancy import view
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.speed import Limit, Wind, maximum_barred, speed_limit
from engine.war_galley.movement.steps import Step, describe


class Refused(NamedTuple):
    """Why a step (or plan) may not be taken: the rule section and the reason."""

    rule: str
    reason: str

    def error(self) -> IllegalOrder:
        return IllegalOrder(self.rule, self.reason)


class Ending(enum.Enum):
    """Why a galley's movement stopped before its announced MP were spent (6.13)."""

    AGROUND = "aground"  # 6.31
    EXITED = "exited"  # left the map (9.1)


class Surroundings(msgspec.Struct, frozen=True):
    """What a moving galley meets: the board, the other galleys' hexes, the wind and the turn.

    Build it with `surroundings()`. `occupied` maps every hex another galley
    fills (6.6); `enemy_near` holds every hex adjacent to an enemy galley, for
    6.21 and 6.35. `charts` is the game's rules data, for the costs the rules
    text fixes (7.25 Pass-Through, 8.48 jettisoning Towers).
    """

    board: Board
    occupied: Mapping[Hex, GalleyId]  # read-only: shared by every asker of one battlefield
    enemy_near: frozenset[Hex]
    wind: Wind | None = None
    turn: int = 1
    charts: Charts | None = None

    def fixed(self) -> Fixed:
        """The rules data's fixed numbers; a step that costs what the data says needs them."""
        if self.charts is None:
            raise ValueError("these surroundings were built without the game's rules data (charts=)")
        return self.charts.fixed


def surroundings(
    board: Board, galleys: Collection[Galley], mover: Galley, wind: Wind | None = None, turn: int = 1,
    charts: Charts | None = None,
) -> Surroundings:
    """The surroundings of `mover` among `galleys` (it may be among them).

    Asked for every galley at every step of every check, mostly of a battlefield
    asked about a moment before, so the hexes come from that battlefield's kept
    index (`engine.war_galley.map_and_galleys.occupancy`), not a fresh scan."""
    occupied, enemy_near = view(galleys, mover)
    return Surroundings(board, occupied, enemy_near, wind, turn, charts)


class Leg(msgspec.Struct, frozen=True, cache_hash=True):
    """A galley's progress through one activation's movement.

    `announced` is the announced MP when checking a plan; None when the
    planner explores every announcement, `budget` then being the speed limit.
    """

    position: Position
    sails_up: bool
    budget: int
    announced: int | None = None
    spent: int = 0
    started: bool = False  # a step other than raising/lowering sails was taken (6.21)
    sail_set: bool = False  # sails raised or lowered this activation
    advanced: bool = False  # forward motion or Facing Change: no Backwater now (6.33)
    backwatered: bool = False  # no forward motion or Facing Change now (6.33)
    faced: bool = False  # changed facing without moving, Turn Around included (7.12)
    turns: int = 0  # Bow/Flank hexes entered (7.15)
    ended: Ending | None = None
    aground_end: End | None = None


class Mover:
    """The moving galley with what its steps keep asking: speed side, markers, surroundings."""

    def __init__(self, surroundings: Surroundings, galley: Galley) -> None:
        self.surroundings = surroundings
        self.galley = galley
        self.speed = galley.speed
        self.crippled = galley.crippled
        self.tremiola = galley.id.type is GalleyType.TREMIOLA
        self._limits: dict[bool, Limit] = {}

    def limit(self, sails_up: bool) -> Limit:
        """The speed limit when movement starts with sails up or down (6.22 uses the start facing)."""
        if sails_up not in self._limits:
            self._limits[sails_up] = speed_limit(
                self.galley, self.speed, self.surroundings.wind, sails_up=sails_up
            )
        return self._limits[sails_up]

    @property
    def costs(self) -> Movement:
        """6.32's costs, from the game's rules data."""
        return self.surroundings.fixed().movement

    def sail_cost(self, raising: bool) -> int:
        """6.21: 1 MP to raise or lower sails; 6.25: a Tremiola's cost nothing (the rules data's numbers)."""
        sails: Sails = self.surroundings.fixed().sails
        if self.tremiola:
            return sails.tremiola_raise_lower
        return sails.raise_ if raising else sails.lower

    def enemy_adjacent(self, position: Position) -> bool:
        near = self.surroundings.enemy_near
        return any(h in near for h in position.hexes)


# --- starting and finishing ---------------------------------------------------


def begin(mover: Mover, announced: int | None) -> Leg | Refused:
    """The galley's progress before its first step; `announced` None to explore every MP."""
    galley = mover.galley
    if galley.position is None:
        why = galley.removed.value if galley.removed else "not on the map"
        return Refused("9.1", f"{galley.id} is {why}; galleys that leave the map never return")
    if announced is not None and announced < 0:
        return Refused("6.13", f"{announced} MP: announce 0 or more")
    if mover.speed is SpeedSide.MAXIMUM:
        barred = maximum_barred(galley, sails_up=False)  # sails: judged when it starts moving
        if barred is not None:
            return Refused(barred.rule, barred.reason)
    can_toggle = galley.equipment.sails  # an optimistic bound: the start check settles it
    best = max(mover.limit(galley.sails_up).mp, mover.limit(not galley.sails_up).mp if can_toggle else 0)
    budget = best if announced is None else announced
    return Leg(galley.position, galley.sails_up, budget, announced)


def start(mover: Mover, leg: Leg) -> Leg | Refused:
    """Movement proper begins: hold the announcement to the speed limit (6.11-6.13)."""
    if mover.speed is SpeedSide.MAXIMUM:
        # Under sail at Maximum is no speed at all, not merely 0 MP (6.22).
        barred = maximum_barred(mover.galley, sails_up=leg.sails_up)
        if barred is not None:
            return Refused(barred.rule, barred.reason)
    limit = mover.limit(leg.sails_up)
    if leg.announced is not None:
        if leg.announced > limit.mp:
            return Refused(limit.rule, f"{limit.reason}; {leg.announced} MP announced")
        return replace(leg, started=True)
    return replace(leg, started=True, budget=min(leg.budget, limit.mp))


def finish(mover: Mover, leg: Leg) -> Refused | None:
    """Whether the galley may stop here: speed limit kept, all announced MP spent (6.13)."""
    if not leg.started:
        started = start(mover, leg)
        if isinstance(started, Refused):
            return started
        if leg.spent > started.budget:
            return Refused("6.13", f"{leg.spent} MP spent but only {started.budget} allowed")
    if leg.announced is not None and leg.ended is None and leg.spent != leg.announced:
        return Refused(
            "6.13",
            f"{mover.galley.id} spent {leg.spent} of its {leg.announced} announced MP; "
            "it must spend them all unless it rams or runs aground",
        )
    return None


# --- paying and entering -------------------------------------------------------


def pay(mover: Mover, leg: Leg, cost: int, step: Step, *, moving: bool = True) -> Leg | Refused:
    """Spend `cost` MP; the first step that is not a sail step starts the movement."""
    if moving and not leg.started:
        started = start(mover, leg)
        if isinstance(started, Refused):
            return started
        leg = started
    if leg.spent + cost > leg.budget:
        left = leg.budget - leg.spent
        of = f"of the {leg.announced} announced " if leg.announced is not None else ""
        return Refused("6.13", f"{describe(step)} costs {cost} MP; {left} MP {of}left")
    return replace(leg, spent=leg.spent + cost)


ENDED = {Ending.AGROUND: "Run Aground", Ending.EXITED: "left the map"}


def enter(mover: Mover, leg: Leg, position: Position, entered: Hex, end: End, **done: object) -> Leg | Refused:
    """Put the galley on `position`, whose `entered` hex it has just entered with its `end`.

    Sea: the hex must be free (6.6). Land or coast: the galley Runs Aground
    there (6.31). Off the map: it has left the map (9.1).
    """
    board = mover.surroundings.board
    water = board.water(entered)
    if water is Water.SEA:
        other = mover.surroundings.occupied.get(entered)
        if other is not None:
            return Refused("6.6", f"{board.map.format(entered)} is occupied by {other}: one counter per hex")
        return replace(leg, position=position, **done)
    if water is Water.LAND:
        return replace(leg, position=position, ended=Ending.AGROUND, aground_end=end, **done)
    return replace(leg, position=position, ended=Ending.EXITED, **done)
