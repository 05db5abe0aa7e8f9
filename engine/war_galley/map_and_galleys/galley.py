"""A galley: who it is (side colour, type, ID), its ratings, where it lies and its statuses.

Galley id notation: side colour letter, the type's shorthand (4.1), a hyphen
and the counter's ID number: `G3-12` is Green Trireme ID 12, `Rcat3-5` Red
Cataphracted Trireme ID 5, `RL2-3` Red Liburnian 3, `RRL-3` Red Reinforced
Lembi 3, `GTrm-1` Green Tremiola 1. The colour is always one letter, so the
reading is unambiguous; letters are read in any case and printed as here.

Statuses are fields of the frozen `Galley`; change them with
`msgspec.structs.replace`. Partners (who is Fouled, Grappled or Collided with
whom) are frozensets of `GalleyId`.
"""

from __future__ import annotations

import enum
import re

import msgspec

from engine.errors import NotationError, RulesDataError
from engine.numerals import shown, whole
from engine.memo import kept_property
from engine.war_galley.map_and_galleys.position import Position, Side
from engine.war_galley.map_and_galleys.ratings import Ratings, SpeedSide


class Colour(enum.Enum):
    """The counters' background colour: a player's side (Scenarios: "Galleys")."""

    # Members are singletons: hash them by identity, in C (Enum's own __hash__ is Python-level, and
    # the rules key dicts by these millions of times a game). No rule may depend on a set's order.
    __hash__ = object.__hash__

    RED = "R"
    GREEN = "G"

    @property
    def other(self) -> Colour:
        return Colour.GREEN if self is Colour.RED else Colour.RED


class GalleyType(enum.Enum):
    """Galley types by the rulebook's shorthand (4.1)."""

    LEMBI = "L"
    REINFORCED_LEMBI = "RL"
    TRANSPORT = "T"
    BIREME = "2"
    LIBURNIAN = "L2"
    TRIREME = "3"
    CATAPHRACTED_TRIREME = "cat3"
    QUADRIREME = "4"
    QUINQUEREME = "5"
    SEXTERES = "6"
    HEPTERES = "7"
    OCTARES = "8"
    DEKARES = "10"
    TREMIOLA = "Trm"


_TYPES_BY_TEXT = {t.value.lower(): t for t in GalleyType}
MOST_ID = 9999  # a counter's ID# (4.1); the counters here run to 110
_GALLEY_ID = re.compile(r"\s*([RrGg])([A-Za-z]*\d*)-(\d+)\s*")


class GalleyId(msgspec.Struct, frozen=True, order=True, cache_hash=True):
    """A counter's identity: side colour, type and ID number (Scenarios: "Galleys").

    Ids key most of the rules' dicts and sets, and hashing one hashes two enums
    (a Python-level `Enum.__hash__` each): `cache_hash` works it out once per id.
    """

    colour: Colour
    type: GalleyType
    number: int

    def __str__(self) -> str:
        return format_galley_id(self)


def parse_galley_id(text: str) -> GalleyId:
    """Read `G3-12`, `Rcat3-5`, `GTrm-1` (any letter case)."""
    match = _GALLEY_ID.fullmatch(text)
    kind = _TYPES_BY_TEXT.get(match.group(2).lower()) if match else None
    if match is None or kind is None:
        raise NotationError(
            f"not a galley id: {text!r} (expected colour R/G, type, '-', ID, e.g. G3-12 or Rcat3-5)"
        )
    number = whole(match.group(3), MOST_ID)
    if number is None:
        raise NotationError(f"galley id {shown(text)}: the ID# is a whole number up to {MOST_ID}")
    return GalleyId(Colour(match.group(1).upper()), kind, number)


def format_galley_id(galley_id: GalleyId) -> str:
    return f"{galley_id.colour.value}{galley_id.type.value}-{galley_id.number}"


class Capture(enum.Enum):
    """8.25-8.26: a Captured galley stays one forever; retaken it is Recaptured."""

    NONE = "none"
    CAPTURED = "captured"
    RECAPTURED = "recaptured"


_CAPTURED = Capture.CAPTURED
_OTHER = {Colour.RED: Colour.GREEN, Colour.GREEN: Colour.RED}  # Colour.other, as a lookup


class Removal(enum.Enum):
    """Why a galley is no longer on the map."""

    EXITED = "exited"  # left the map; may not return (9.1)
    SUNK = "sunk"  # 7.17, 8.54
    STUCK = "stuck"  # a 6 trying to get off a coast: eliminated (6.36)


class End(enum.Enum):
    """An end of a galley counter."""

    BOW = "bow"
    STERN = "stern"


class Aground(msgspec.Struct, frozen=True):
    """The Run Aground marker (6.31): which end struck, and on which turn (6.36 waits a turn)."""

    end: End
    turn: int


class Equipment(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the scenario gives a galley beyond its counter.

    `sails`: it carries sails (Lade, Catana and Agrippa at Actium carry none).
    `corvus`: Ecnomus' Roman quinqueremes; they may never use Maximum Speed.
    Later rules add more (Harpax, flame, firepots).
    """

    sails: bool = True
    corvus: bool = False


class MoveRecord(msgspec.Struct, frozen=True, omit_defaults=True):
    """What the galley did in its latest movement segment (6.13, 6.33, 7.12, 7.15, 6.42)."""

    announced: int
    spent: int
    turns: int  # Bow/Flank hexes entered: 7.15's MP bonus needs at most one
    backwatered: bool
    faced: bool  # changed facing without moving (incl. Turn Around): 7.12 bars ramming
    # MP the wind gave (6.22 +1, 6.25 +2 for a Tremiola): "without incurring Fatigue", so 6.42's
    # MP beyond Cruise leave them out. Omitted when 0, so states without sails encode as before.
    wind: int = 0


class Galley(msgspec.Struct, frozen=True, kw_only=True, dict=True):
    """One galley counter and every marker on it.

    `position` is None when the galley is not on the map (not yet entered,
    exited, sunk); `removed` says why it left. `dict=True` gives the struct a
    place for kept properties (`controller`); they are not fields: not
    encoded, not compared.
    """

    id: GalleyId
    ratings: Ratings
    position: Position | None = None
    equipment: Equipment = Equipment()
    speed: SpeedSide = SpeedSide.CRUISE  # side of the counter up (6.11)
    moved: MoveRecord | None = None
    fatigue: int = 0  # the F-# marker (6.43); 0 is none
    half_speed: bool = False  # 6.37, 7.16
    crippled: frozenset[Side] = frozenset()  # marker arrows (7.28)
    rammed: bool = False  # 7.16
    fouled_with: frozenset[GalleyId] = frozenset()  # 7.16
    grappled_with: frozenset[GalleyId] = frozenset()  # 8.12
    collided_with: frozenset[GalleyId] = frozenset()  # 7.16
    capture: Capture = Capture.NONE
    sails_up: bool = False  # 6.21
    mast_down: bool = False  # the Mast Down marker: Cruise halved, removed in G/2 (6.24)
    masts_lost: bool = False  # ever had Masts Down: no sails for the scenario (6.22)
    towers_jettisoned: bool = False  # 8.48
    on_fire: bool = False  # 8.54
    aground: Aground | None = None  # 6.31
    depletions: int = 0  # 8.61
    removed: Removal | None = None

    def __post_init__(self) -> None:
        if self.position is not None and self.position.double != self.ratings.double:
            size = "double" if self.ratings.double else "single"
            raise RulesDataError(f"{self.id} is a {size} counter; its position says otherwise")

    @kept_property
    def controller(self) -> Colour:
        """The side that moves it: a Captured galley changes hands (8.25), a Recaptured one returns."""
        # Asked hundreds of times of each galley (kept on it) and of thousands of galleys a game.
        colour = self.id.colour
        return colour if self.capture is not _CAPTURED else _OTHER[colour]

    @property
    def crew(self) -> int:
        """Crew rating in play: 0 once Captured, for good (8.25-8.26)."""
        return 0 if self.capture is not Capture.NONE else self.ratings.crew

    @property
    def manpower(self) -> int:
        """M after Depletions, never below 0 (8.62); 0 when Captured (8.25)."""
        if self.capture is not Capture.NONE:
            return 0
        return max(0, self.ratings.manpower - self.depletions)

    @property
    def fatigued(self) -> bool:
        return self.fatigue > 0

    @property
    def on_map(self) -> bool:
        return self.position is not None
