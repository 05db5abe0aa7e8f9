"""What the manpower rules (8.x) read and return: the battlefield and a resolution.

Every rule-8 function is pure: it reads a `Field` (the board, every galley
by id, the charts and the scenario's devices) and returns a `Resolution`
(the updated galleys, all of them, and the events in order). The turn code
keeps its own state and takes `resolution.galleys` back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from engine.errors import IllegalOrder
from engine.events import Event
from engine.war_galley.galley_combat.kept import Kept
from engine.war_galley.manpower_combat.devices import NO_DEVICES, Devices
from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.charts import Charts
from engine.war_galley.map_and_galleys.contact import occupied_hexes
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId, format_galley_id
from engine.war_galley.map_and_galleys.hexes import Hex


# A volley is checked, then fired (and answered) on the same galleys: their hexes are kept meanwhile.
_occupied: Kept[frozenset[Hex]] = Kept()


class Field(NamedTuple):
    """The battlefield: board, galleys by id (on or off the map), charts, scenario devices."""

    board: Board
    galleys: Mapping[GalleyId, Galley]
    charts: Charts
    devices: Devices = NO_DEVICES

    def galley(self, galley_id: GalleyId, rule: str = "8.0") -> Galley:
        """The galley on the map with this id; IllegalOrder naming `rule` if it is not there."""
        found = self.galleys.get(galley_id)
        if found is None:
            raise IllegalOrder(rule, f"there is no galley {galley_id} in this battle")
        if found.position is None:
            raise IllegalOrder(rule, f"{galley_id} is not on the map")
        return found

    def occupied(self) -> frozenset[Hex]:
        """Every hex a galley fills (8.46: ships block lines)."""
        galleys = tuple(self.galleys.values())
        found = _occupied.find((), galleys)
        if found is None:
            found = _occupied.keep((), galleys, occupied_hexes([g.position for g in galleys if g.position is not None]))
        return found

    def with_galleys(self, changed: Iterable[Galley]) -> Field:
        updated = dict(self.galleys)
        for galley in changed:
            updated[galley.id] = galley
        return self._replace(galleys=updated)


class Resolution(NamedTuple):
    """What a rule did: every galley afterwards (by id) and the events, in order."""

    galleys: dict[GalleyId, Galley]
    events: list[Event]


def resolved(field: Field, changed: Iterable[Galley], events: list[Event]) -> Resolution:
    return Resolution(dict(field.with_galleys(changed).galleys), events)


def by_id(galley_id: GalleyId) -> str:
    """A sort key for galley ids (their notation): rolls go in this order, so replays agree."""
    return format_galley_id(galley_id)


def enemies(a: Galley, b: Galley) -> bool:
    """Opposing ships: their controllers differ (a Captured galley changes sides, 8.25)."""
    return a.controller is not b.controller
