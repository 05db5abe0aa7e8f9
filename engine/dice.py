"""The dice interface the rules use (2.4), and forced dice for tests.

The engine never calls `random`: every roll comes from a `Dice` object handed
to `apply`. The protocol layer supplies one backed by the signed dice stream;
tests supply `ForcedDice` with the exact faces a rule needs.
"""

from __future__ import annotations

from typing import Protocol

import msgspec


class Roll(msgspec.Struct, frozen=True):
    """One die as it was rolled: its place in the stream, why, and its face."""

    index: int
    purpose: str
    face: int


class Dice(Protocol):
    """What the rules may ask of the dice."""

    def d6(self, purpose: str) -> int:
        """One six-sided die, 1..6; `purpose` says which rule rolled it."""
        ...

    def two_d6(self, purpose: str) -> int:
        """Two six-sided dice added, 2..12 (the rulebook's "2d12", 2.4)."""
        ...


class DiceExhausted(Exception):
    """A test's forced dice ran out: the rule rolled more dice than expected."""


class NoDice:
    """Dice that refuse to roll: for checking that a decision needs no dice."""

    class Needed(Exception):
        """The decision asked for a die."""

    def d6(self, purpose: str) -> int:
        raise NoDice.Needed(purpose)

    def two_d6(self, purpose: str) -> int:
        raise NoDice.Needed(purpose)


class ForcedDice:
    """Dice that give the faces listed, in order; for unit tests of one rule.

    `two_d6` consumes two faces, so a test states the single dice it wants.
    """

    def __init__(self, *faces: int) -> None:
        for face in faces:
            if not 1 <= face <= 6:
                raise ValueError(f"a die shows 1..6, not {face}")
        self._faces = list(faces)
        self.rolls: list[Roll] = []

    def d6(self, purpose: str) -> int:
        if not self._faces:
            raise DiceExhausted(f"no forced die left for {purpose!r}")
        face = self._faces.pop(0)
        self.rolls.append(Roll(len(self.rolls), purpose, face))
        return face

    def two_d6(self, purpose: str) -> int:
        return self.d6(purpose) + self.d6(purpose)

    @property
    def unused(self) -> list[int]:
        """Faces never rolled: a test may assert that none are left."""
        return list(self._faces)
