"""Avoidance (6.5): an inactive galley dodges the instant an active galley moves adjacent.

6.52: 1d6 at most its Crew (+1 to the roll at Half Speed, 6.53) and it moves
one hex directly forward, or at Cruise Speed one hex directly back
(Backwater); success costs an automatic F-2. A failure has no effect, and the
galley may try again the next time 6.51 applies (6.54): attempts are
unlimited until one succeeds, after which it is Fatigued and may not.

Readings (docs/combat-notes.md):
- The hex moved into must be free sea: an Avoidance never runs a galley
  aground nor off the map (no player would choose it, and 6.52 gives the move
  only so the galley gets away).
- A galley whose roll cannot succeed (Crew 0 when Captured, Crew 1 at Half
  Speed) makes no attempt: the die could not change anything.
- Being Fatigued by Avoidance flips a galley at Maximum Speed to Cruise (6.12).
- The one-hex move is not the galley's own movement: a Half Speed marker stays
  until its next activation's movement (6.37).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping

from msgspec.structs import replace

from engine.dice import Dice
from engine.events import DieRolled, Event
from engine.war_galley.galley_combat.ramming import MarkerPlaced, immobile, to_cruise
from engine.war_galley.map_and_galleys import charts as tables
from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.charts import Charts
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.map_and_galleys.hexes import neighbour
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.moving import Refused

Battlefield = Mapping[GalleyId, Galley]


class AvoidDirection(enum.Enum):
    FORWARD = "forward"  # into the Bow hex
    BACK = "back"  # Backwater into the Stern hex (Cruise Speed only)


class Avoided(Event, frozen=True, kw_only=True):
    """6.52: the galley got away one hex and is Fatigued."""

    galley: GalleyId
    direction: AvoidDirection
    position: Position
    fatigue: int


def avoidance_refusal(galley: Galley) -> Refused | None:
    """Why `galley` may not use Avoidance at all (6.53, 6.44, 7.28, 6.37), or None."""
    if galley.position is None:
        return Refused("9.1", f"{galley.id} is not on the map")
    if galley.fatigue > 0:
        return Refused("6.53", f"{galley.id} is Fatigued and may not use Avoidance")
    if galley.crippled:
        return Refused("6.53", f"{galley.id} is Crippled and may not use Avoidance")
    stuck = immobile(galley)
    if stuck is not None:
        return Refused("6.53" if galley.fouled_with or galley.grappled_with else "6.37",
                       f"{galley.id} {stuck} and may not use Avoidance")
    return None


def can_succeed(charts: Charts, galley: Galley) -> bool:
    """Whether any face of the die passes 6.52 for this galley (Half Speed: +1)."""
    return tables.avoidance_succeeds(charts, galley.crew, charts.dice.d6.low, galley.half_speed)


def _occupied(battlefield: Battlefield, galley: Galley) -> set:
    return {h for other in battlefield.values() if other.id != galley.id and other.position
            for h in other.position.hexes}


def avoidance_moves(board: Board, battlefield: Battlefield, galley: Galley) -> dict[AvoidDirection, Position]:
    """The one-hex moves open to `galley` (6.52): forward, and back at Cruise Speed, into free sea."""
    pos = galley.position
    if pos is None:
        return {}
    taken = _occupied(battlefield, galley)
    moves: dict[AvoidDirection, Position] = {}
    ahead = neighbour(pos.bow, pos.facing)
    if board.is_sea(ahead) and ahead not in taken:
        moves[AvoidDirection.FORWARD] = Position(ahead, pos.facing, pos.double)
    if galley.speed is SpeedSide.CRUISE:  # 6.52 play note: at Maximum, forward only
        behind = neighbour(pos.stern, pos.facing + 3)
        if board.is_sea(behind) and behind not in taken:
            bow = pos.stern if pos.double else behind
            moves[AvoidDirection.BACK] = Position(bow, pos.facing, pos.double)
    return moves


def may_attempt(board: Board, battlefield: Battlefield, galley: Galley, charts: Charts) -> bool:
    """Whether an attempt is possible now: allowed, a hex to go to, and a roll that could pass."""
    return (
        avoidance_refusal(galley) is None
        and can_succeed(charts, galley)
        and bool(avoidance_moves(board, battlefield, galley))
    )


def attempt_avoidance(
    board: Board,
    galleys: Battlefield,
    galley_id: GalleyId,
    direction: AvoidDirection,
    charts: Charts,
    dice: Dice,
) -> tuple[dict[GalleyId, Galley], list[Event], bool]:
    """Roll one Avoidance (6.52) `direction`-wards; the battlefield, events and whether it got away.

    IllegalOrder (before the die) if the galley may not avoid that way.
    """
    field = dict(galleys)
    galley = field[galley_id]
    refusal = avoidance_refusal(galley)
    if refusal is not None:
        raise refusal.error()
    moves = avoidance_moves(board, field, galley)
    if direction not in moves:
        why = "Maximum Speed: forward only" if galley.speed is SpeedSide.MAXIMUM else "no free sea hex there"
        raise Refused("6.52", f"{galley_id} cannot avoid {direction.value} ({why})").error()
    roll = dice.d6(f"6.52 {galley_id} attempts Avoidance")
    bonus = charts.fixed.avoidance.half_speed if galley.half_speed else 0
    success = tables.avoidance_succeeds(charts, galley.crew, roll, galley.half_speed)
    modifiers = (("6.53 Half Speed", bonus),) if bonus else ()
    events: list[Event] = [
        DieRolled(rule="6.52", table="Avoidance", natural=roll, modifiers=modifiers,
                  outcome=f"needs {galley.crew} or less: " + ("avoided" if success else "failed"))
    ]
    if not success:
        return field, events, False
    fatigue = tables.avoidance_fatigue(charts)
    galley = replace(galley, position=moves[direction], fatigue=max(galley.fatigue, fatigue))
    events.append(Avoided(rule="6.52", galley=galley_id, direction=direction, position=moves[direction],
                          fatigue=fatigue))
    events.append(MarkerPlaced(rule="6.42", galley=galley_id, marker=f"Fatigued F-{fatigue}"))
    field[galley_id] = to_cruise(galley, events, "6.12")
    return field, events, True
