"""Getting off the rocks (6.36): a galley that has Run Aground tries to free itself.

From the turn after it struck, the player rolls 1d6 instead of moving the
galley: at most its Crew frees it and it backwaters one hex; a 6 leaves it
stuck for good (eliminated); anything else, it stays aground. Both numbers
are the rules data's (`[fixed.run_aground]`, `charts.run_aground_result`).

"Backwater one hex" is read as: the end that did not strike leads, away from
the land. A galley that struck bow first backwaters (stern leading, into its
Stern or a Stern/Flank hex); one that backwatered onto the land moves one hex
bow first (Bow or Bow/Flank hex). The freeing move is checked with the
ordinary movement primitives and must end afloat on a free sea hex; if no
such hex exists the freed galley stays where it is.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import DieRolled, Event
from engine.war_galley.map_and_galleys.charts import AgroundOutcome, Charts, run_aground_result
from engine.war_galley.map_and_galleys.galley import End, Galley, GalleyId, Removal
from engine.war_galley.map_and_galleys.position import SIDES, Position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.moving import Leg, Mover, Refused, Surroundings, advance
from engine.war_galley.movement.steps import AnyStep, Backwater, BowFlank, Forward


class Refloated(Event, frozen=True, kw_only=True):
    """6.36: freed, the galley has moved one hex off the land."""

    galley: GalleyId
    position: Position


class Wrecked(Event, frozen=True, kw_only=True):
    """6.36: a 6: permanently stuck and eliminated."""

    galley: GalleyId


def freeing_moves(surroundings: Surroundings, galley: Galley) -> list[tuple[AnyStep, Position]]:
    """The one-hex moves that can take this aground galley off the land, with where each ends."""
    if galley.aground is None or galley.position is None:
        return []
    if galley.aground.end is End.BOW:
        steps: tuple[AnyStep, ...] = (Backwater(), *(Backwater(side) for side in SIDES))
    else:
        steps = (Forward(), *(BowFlank(side) for side in SIDES))
    # The freeing move is the extrication itself, not movement: no speed, status or MP limits.
    afloat = replace(galley, aground=None, crippled=frozenset(), speed=SpeedSide.CRUISE)
    mover = Mover(surroundings, afloat)
    costs = mover.costs  # enough MP for any one-hex move (6.32): the move is not paid for
    start = Leg(galley.position, False, budget=max(costs.backwater, costs.forward, costs.bow_flank), started=True)
    moves = []
    for step in steps:
        after = advance(mover, start, step)
        if not isinstance(after, Refused) and after.ended is None:
            moves.append((step, after.position))
    return moves


def extricate(
    surroundings: Surroundings, galley: Galley, charts: Charts, dice: Dice, step: AnyStep | None = None
) -> tuple[Galley, list[Event]]:
    """Roll to free `galley` (6.36); `step` chooses the freeing move (default: straight off)."""
    if galley.aground is None:
        raise IllegalOrder("6.36", f"{galley.id} has not Run Aground")
    if surroundings.turn <= galley.aground.turn:
        raise IllegalOrder("6.36", f"{galley.id} ran aground this turn; it may try to get off from next turn")
    moves = dict(freeing_moves(surroundings, galley))
    if step is not None and step not in moves:
        raise IllegalOrder("6.36", f"{galley.id} cannot get off the land that way")
    roll = dice.d6("6.36 free a galley that has Run Aground")
    outcome = run_aground_result(charts, galley.crew, roll)
    if outcome is AgroundOutcome.FREED:
        chosen = step if step is not None else next(iter(moves), None)
        position = moves[chosen] if chosen is not None else galley.position
        assert position is not None
        events: list[Event] = [
            DieRolled(rule="6.36", table="Run Aground", natural=roll, outcome="freed"),
            Refloated(rule="6.36", galley=galley.id, position=position),
        ]
        return replace(galley, aground=None, position=position), events
    if outcome is AgroundOutcome.ELIMINATED:
        events = [
            DieRolled(rule="6.36", table="Run Aground", natural=roll, outcome="stuck for good"),
            Wrecked(rule="6.36", galley=galley.id),
        ]
        return replace(galley, position=None, removed=Removal.STUCK), events
    return galley, [DieRolled(rule="6.36", table="Run Aground", natural=roll, outcome="still aground")]
