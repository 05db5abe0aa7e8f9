"""The Boarding Segment (3.1 E/2, 8.2): after the squadron has moved, its player resolves boarding.

It is a decision of its own (`Boarding`), made after the player has seen
the Movement Segment's grapples; with no galley able to board, the
segment is skipped. Who may board: a galley of the activation, not
Captured, with at least M1, Grappled to an enemy ship that has not
repulsed a boarding this turn (8.21, 8.25, 8.27). The rules are
engine.war_galley.manpower_combat.boarding's; here the turn keeps the repulses (8.27, and 8.32's +1)
and the VP and commanders a capture costs (engine.war_galley.turn.casualties).
"""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import Event
from engine.war_galley.manpower_combat.battlefield import Field, enemies
from engine.war_galley.manpower_combat.boarding import Repulsed, board, check_boarding
from engine.war_galley.manpower_combat.manpower_orders import BoardingOrder
from engine.war_galley.map_and_galleys.galley import Capture, Galley, GalleyId
from engine.war_galley.turn.casualties import settle
from engine.war_galley.turn.decisions import Boarding
from engine.war_galley.turn.state import GameState, Segment


class NoBoarding(Event, frozen=True, kw_only=True):
    """E/2: the player boards nothing this activation."""

    side: str


def boarders(state: GameState, galleys: Iterable[GalleyId]) -> list[Galley]:
    """The galleys of `galleys` that could board now (8.21), in the order given."""
    minimum = state.charts.boarding.min_attacker
    out = []
    for gid in galleys:
        galley = state.galley(gid)
        if galley.position is None or galley.capture is not Capture.NONE or galley.manpower < minimum:
            continue
        if targets(state, galley):
            out.append(galley)
    return out


def targets(state: GameState, galley: Galley) -> list[Galley]:
    """The enemy ships `galley` is Grappled with that may still be boarded this turn (8.21, 8.27)."""
    found = []
    for other_id in sorted(galley.grappled_with, key=str):
        other = state.galley(other_id)
        if (other.position is not None and enemies(galley, other) and galley.id in other.grappled_with
                and other_id not in state.repulsed):
            found.append(other)
    return found


def may_board(state: GameState, galleys: Iterable[GalleyId]) -> bool:
    return bool(boarders(state, galleys))


def _field(state: GameState) -> Field:
    return Field(state.board, {g.id: g for g in state.galleys}, state.charts, state.devices)


def check(state: GameState, decision: Boarding) -> None:
    if state.segment is not Segment.BOARDING or state.to_move != decision.side:
        raise IllegalOrder("3.1", f"it is not {decision.side}'s Boarding Segment")
    if decision.parties:
        check_boarding(_field(state), BoardingOrder(decision.parties), side=state.side(decision.side).colour,
                       activated=state.boarders, repulsed=state.repulsed)


def apply_boarding(state: GameState, decision: Boarding, dice: Dice) -> tuple[GameState, list[Event]]:
    """E/2: every declared attempt, one 2d6 per target (8.23); then play passes (E/3)."""
    check(state, decision)
    done = replace(state, segment=Segment.PHASE_PASS, boarders=())
    if not decision.parties:
        return done, [NoBoarding(rule="8.21", side=decision.side)]
    before = {g.id: g for g in state.galleys}
    # Dice from here on.
    resolution = board(_field(state), BoardingOrder(decision.parties), dice, side=state.side(decision.side).colour,
                       activated=state.boarders, repulsed=state.repulsed)
    repulsed = [e.galley for e in resolution.events if isinstance(e, Repulsed) and e.galley not in state.repulsed]
    done = replace(done, galleys=tuple(resolution.galleys[g.id] for g in state.galleys),
                   repulsed=(*state.repulsed, *repulsed))
    done, more = settle(done, resolution.events, before, dice)
    return done, [*resolution.events, *more]
