"""The card notation of the charts: roll ranges ("8-12") and rating bands ("1-2", "12+")."""

from __future__ import annotations

import re


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
