"""That Sinking Feeling (7.17): the Sinking Segment (G/4).

Each Rammed galley afloat rolls 1d6: a 6 sinks it, and with it every galley
Grappled or Fouled with it, and every galley Grappled or Fouled with those,
and so on (the play note: A Grappled with B, B Fouled with C; if A sinks, so
do B and C). A galley that goes down with another does not roll for itself.

Rolls are made in the order given (default: by galley id, so a replay rolls
the same dice for the same galleys). Sunk galleys leave the map
(`removed=SUNK`) and every partner link to them is cut, so no survivor is
left Fouled, Grappled or Collided with a wreck.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from msgspec.structs import replace

from engine.dice import Dice
from engine.events import DieRolled, Event
from engine.war_galley.galley_combat.ramming import id_key
from engine.war_galley.map_and_galleys import charts as tables
from engine.war_galley.map_and_galleys.charts import Charts
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId, Removal

Battlefield = Mapping[GalleyId, Galley]


class Sank(Event, frozen=True, kw_only=True):
    """7.17: the galley went down; `dragged_by` the Rammed galley whose sinking took it along."""

    galley: GalleyId
    dragged_by: GalleyId | None = None


def bound_to(galleys: Battlefield, start: GalleyId) -> list[GalleyId]:
    """Every galley linked to `start` by Grapples or Fouls, transitively, `start` first."""
    seen = [start]
    frontier = [start]
    while frontier:
        current = galleys[frontier.pop(0)]
        for partner in sorted(current.grappled_with | current.fouled_with, key=id_key):
            if partner not in seen and partner in galleys and galleys[partner].position is not None:
                seen.append(partner)
                frontier.append(partner)
    return seen


def sink(galleys: Battlefield, doomed: Iterable[GalleyId]) -> dict[GalleyId, Galley]:
    """The battlefield with `doomed` removed (sunk) and every link to them cut."""
    gone = frozenset(doomed)
    field = dict(galleys)
    for galley_id, galley in field.items():
        if galley_id in gone:
            field[galley_id] = replace(galley, position=None, removed=Removal.SUNK, fouled_with=frozenset(),
                                       grappled_with=frozenset(), collided_with=frozenset())
        elif (galley.fouled_with | galley.grappled_with | galley.collided_with) & gone:
            field[galley_id] = replace(galley, fouled_with=galley.fouled_with - gone,
                                       grappled_with=galley.grappled_with - gone,
                                       collided_with=galley.collided_with - gone)
    return field


def sinking_segment(
    galleys: Battlefield, charts: Charts, dice: Dice, order: Iterable[GalleyId] | None = None
) -> tuple[dict[GalleyId, Galley], list[Event]]:
    """Roll for every Rammed galley afloat (7.17); the battlefield after and the events."""
    field = dict(galleys)
    candidates = sorted(field, key=id_key) if order is None else list(order)
    events: list[Event] = []
    for galley_id in candidates:
        galley = field[galley_id]
        if not galley.rammed or galley.position is None:
            continue  # not Rammed, or already gone down with another
        roll = dice.d6(f"7.17 does {galley_id} sink")
        sinks = tables.sinks(charts, roll)
        events.append(DieRolled(rule="7.17", table="Sinking", natural=roll,
                                outcome=f"sinks on {charts.fixed.sinking.sinks}: " + ("sinks" if sinks else "afloat")))
        if not sinks:
            continue
        chain = bound_to(field, galley_id)
        events.append(Sank(rule="7.17", galley=galley_id))
        events.extend(Sank(rule="7.17", galley=other, dragged_by=galley_id) for other in chain[1:])
        field = sink(field, chain)
    return field, events
