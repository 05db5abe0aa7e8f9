"""What the charts answer: the results of the tables (7.16, 8.2, 8.45, 8.3, 8.54, 5.42, 6.2, 6.36)."""

from __future__ import annotations

import enum
import msgspec


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
