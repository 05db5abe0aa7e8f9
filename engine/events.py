"""Events: every state change the engine makes, as data citing its rule."""

from __future__ import annotations

import msgspec


class Event(msgspec.Struct, frozen=True, tag=True, kw_only=True):
    """Base of all events. `rule` is the rulebook section that produced it.

    Concrete events subclass this in the module of their concept
    (e.g. `movement.Moved`); `tag=True` makes them self-describing when
    encoded, so reports and golden files can tell them apart.
    """

    rule: str


class DieRolled(Event, frozen=True, kw_only=True):
    """A roll on a table: what was rolled, each modifier with its reason, the outcome."""

    table: str
    natural: int
    modifiers: tuple[tuple[str, int], ...] = ()
    outcome: str = ""

    @property
    def adjusted(self) -> int:
        return self.natural + sum(value for _, value in self.modifiers)
