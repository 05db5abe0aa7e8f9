"""Answers about a battlefield kept while its galleys are the very same objects.

The combat rules ask the same questions of one battlefield many times in a row
(a plan is checked by the referee, by the segment and again by its run, then
stepped; a volley is checked, then fired), and each answer costs a pass over
every galley on the map. Galleys are immutable, so a battlefield whose galleys
are the same objects, in the same order, gives the same answer: `Kept` holds
the last few answers with what they were worked out from (held, so that no
object's id can be reused meanwhile) and tells the galleys by identity alone,
in C, and the rest of the question (a key: the board, the options...) by
equality, which a tuple tries by identity first. A miss costs only the work it
would have done anyway.

Kept (issue 23): with `find` always missing, `verify` of 2,000 Actium files
is 1.05x slower (1.30 against 1.25 s, 3 paired whole-process runs), which takes
it past 3x the floor (2.9x today).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from operator import is_
from typing import Generic, TypeVar

from engine.war_galley.map_and_galleys.galley import Galley, GalleyId

T = TypeVar("T")


class Kept(Generic[T]):
    """The last `size` answers, each by its key (equal) and the galleys it was worked out from (the same)."""

    def __init__(self, size: int = 4) -> None:
        self._size = size
        self._kept: list[tuple[tuple[object, ...], tuple[Galley, ...], T]] = []

    def find(self, key: tuple[object, ...], galleys: tuple[Galley, ...]) -> T | None:
        """The answer kept for an equal key and these very galleys, or None."""
        for was, around, answer in tuple(self._kept):  # a copy: a kept answer may be read while another is kept
            if len(around) == len(galleys) and was == key and all(map(is_, around, galleys)):
                return answer
        return None

    def keep(self, key: tuple[object, ...], galleys: Iterable[Galley], answer: T) -> T:
        """Keep `answer` (the newest; the oldest goes) and return it."""
        self._kept.insert(0, (key, tuple(galleys), answer))
        del self._kept[self._size:]
        return answer


def others(field: Mapping[GalleyId, Galley], me: GalleyId) -> tuple[Galley, ...]:
    """Every galley of `field` but `me`, in the field's order (built in C: this is asked at every step)."""
    values = tuple(field.values())
    if me not in field:
        return values
    at = tuple(field).index(me)
    return values[:at] + values[at + 1:]
