"""A galley counter's printed ratings (2.1): both speed sides of the counter.

Ratings are data (the counter manifest under `scenarios/`); this module only
gives them a shape. Status effects (Fatigue, Half Speed, Captured...) live in
the galley's state, never here.
"""

from __future__ import annotations

import enum

import msgspec


class SpeedSide(enum.Enum):
    """Which side of the counter is up (6.11)."""

    # Members are singletons: hash them by identity, in C (Enum's own __hash__ is Python-level, and
    # speed limits are kept by side). No rule may depend on a set's order.
    __hash__ = object.__hash__

    CRUISE = "cruise"
    MAXIMUM = "max"


class SideRatings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What one side of the counter prints: ram ratings and speed (2.1, 6.11)."""

    ram_attack: int
    ram_defense: int
    speed: int
    # The asterisk on the Ram Attack (e.g. 6*): Anastrophe capability (7.31).
    anastrophe: bool = False


class Ratings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A counter's ratings. `double` is the double-sized (two-hex) counter (4.0)."""

    type: str  # rulebook shorthand (4.1): L, RL, T, 2, L2, 3, cat3, 4, 5, 6, 7, 8, 10, Trm
    crew: int  # 1..4 (6.41)
    manpower: int  # M (2.1)
    engines: bool  # E
    towers: bool  # T
    double: bool
    cruise: SideRatings
    maximum: SideRatings

    def side(self, speed: SpeedSide) -> SideRatings:
        return self.cruise if speed is SpeedSide.CRUISE else self.maximum
