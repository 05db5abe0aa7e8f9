"""Pass-Through; the Diekplus (7.24-7.25): rowing through a line abreast to rake.

A galley at Maximum Speed whose bow is in the target's Bow or Stern hex,
pointing straight along the target (having got there by moving straight
ahead, or having started there), spends 2 MP to move dead ahead *through*
the target (the one exception to 6.6). It rakes either the target or the
galley beside it on the side it passes (never both), and must end its
movement clear of every ship. The Rake is resolved once the galley stands
clear ("after the Pass-Thru movement is complete", 7.25; the 7.28 example
rakes after the last 2 MP), before anyone reacts to the move that cleared it:
the oars were sheared "during" the pass, so no Avoidance then undoes it.

Readings (docs/combat-notes.md):
- "between two adjacent enemy galleys": the side passed must have an enemy
  galley in one of the target's flank hexes (7.28's play note: an open flank
  calls for a regular Rake). `side` names it; it may be left out when only
  one side is covered.
- Raking the target cripples the side passed; raking the neighbour cripples
  the neighbour's side that faces the target.
- The two hexes passed are the target's; beyond a single-hex target the
  second hex is its Stern (or Bow) hex, which must be free sea.

7.28's example: from 2512-2413 at 6 MP the galley moves 2 MP to 2711-2612
(enemy A's Bow hex), passes through A to 2910-2811 and uses its last 2 MP to
end at 3109-3010, clear; with 5 MP it would end on 3010-2910, on A: illegal.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.war_galley.galley_combat.raking import raker_refusal
from engine.war_galley.galley_combat.ramming import by_id, flank_hexes, target_refusal
from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.map_and_galleys.hexes import Hex, neighbour
from engine.war_galley.map_and_galleys.position import Around, Position, Side
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.moving import Refused

Battlefield = Mapping[GalleyId, Galley]

def passage(position: Position) -> tuple[Hex, Hex]:
    """The two hexes dead ahead of a galley's bow: what a Pass-Through enters."""
    first = neighbour(position.bow, position.facing)
    return first, neighbour(first, position.facing)


def passed(position: Position) -> Position:
    """Where a galley stands after its 2 MP Pass-Through."""
    return Position(passage(position)[1], position.facing, position.double)


def lined_up(mover: Position, target: Position) -> bool:
    """7.24: the mover's bow in the target's Bow hex, head-on, or in its Stern hex, heading the same way."""
    if mover.bow == target.around(Around.BOW):
        return mover.facing == target.facing.opposite
    if mover.bow == target.around(Around.STERN):
        return mover.facing == target.facing
    return False


def beside(battlefield: Battlefield, target: Galley) -> dict[Side, list[GalleyId]]:
    """The target's sides with galleys of its own fleet in its flank hexes: a line abreast (7.24)."""
    assert target.position is not None
    flanks = flank_hexes(target.position)
    found: dict[Side, list[GalleyId]] = {}
    for other in by_id(battlefield.values()):
        if other.id == target.id or other.position is None or other.controller is not target.controller:
            continue
        for h in other.position.hexes:
            if h in flanks and other.id not in found.get(flanks[h], []):
                found.setdefault(flanks[h], []).append(other.id)
    return found


def side_facing(galley: Position, other: Position) -> Side | None:
    """The side of `galley` whose flank hexes hold `other`."""
    flanks = flank_hexes(galley)
    for h in other.hexes:
        if h in flanks:
            return flanks[h]
    return None


def clear_of_ships(battlefield: Battlefield, galley: Galley) -> bool:
    """Whether no other ship shares a hex with `galley` (7.25's end, and 6.6)."""
    if galley.position is None:
        return True
    mine = set(galley.position.hexes)
    return not any(
        other.id != galley.id and other.position is not None and mine & set(other.position.hexes)
        for other in battlefield.values()
    )


def pass_through_plan(
    board: Board,
    battlefield: Battlefield,
    mover: Galley,
    target_id: GalleyId,
    side: Side | None = None,
    rake: GalleyId | None = None,
    *,
    entered_turning: bool = False,
    sails_up: bool | None = None,
) -> tuple[GalleyId, Side] | Refused:
    """The galley raked and the side of it raked if `mover` may Pass-Through `target_id` now, else why not.

    `entered_turning`: the mover got into the Bow/Stern hex by a Bow/Flank move
    this activation (7.24 wants straight ahead).
    """
    if mover.position is None:
        return Refused("9.1", f"{mover.id} is not on the map")
    target = battlefield.get(target_id)
    if target is None or target.position is None:
        return Refused("7.24", f"{target_id} is not on the map")
    if target.controller is mover.controller:
        return Refused("7.24", f"{target_id} is a friendly galley")
    if mover.speed is not SpeedSide.MAXIMUM:
        return Refused("7.24", "a Pass-Through needs Maximum Speed")
    refusal = raker_refusal(mover, sails_up=sails_up)
    if refusal is not None:
        return refusal  # a Pass-Through is made only to Rake (7.24)
    if not lined_up(mover.position, target.position):
        return Refused("7.24", f"{mover.id}'s bow must be in {target_id}'s Bow or Stern hex, pointing dead along it")
    if entered_turning:
        return Refused("7.24", f"{mover.id} entered {target_id}'s Bow/Stern hex turning; it must come straight ahead")
    covered = beside(battlefield, target)
    if side is None:
        if len(covered) != 1:
            why = "no galley beside it: use a regular Rake (7.28 play note)" if not covered else \
                "galleys on both sides: say which side to pass"
            return Refused("7.24", f"Pass-Through of {target_id}: {why}")
        side = next(iter(covered))
    elif side not in covered:
        return Refused("7.24", f"no galley beside {target_id} on its {side.value} side to pass between")
    first, second = passage(mover.position)
    others = {h: o.id for o in battlefield.values() if o.id not in (mover.id, target_id) and o.position
              for h in o.position.hexes}
    if second not in target.position.hexes and (second in others or not board.is_sea(second)):
        return Refused("7.25", f"the hex beyond {target_id} is not free sea")
    if first not in target.position.hexes:
        return Refused("7.24", f"{mover.id} does not point at {target_id}")
    if rake is None or rake == target_id:
        if target.aground is not None:
            return Refused("6.36", f"{target_id} has Run Aground and may not be raked")
        return target_id, side
    if rake not in covered[side]:
        return Refused("7.25", f"{rake} is not beside {target_id} on the {side.value} side passed")
    other = battlefield[rake]
    blocked = target_refusal(mover, other, "raked")
    if blocked is not None:
        return blocked
    assert other.position is not None
    facing = side_facing(other.position, target.position)
    if facing is None:  # beside the target, but bow or stern on to it: no oars on that side to shear (7.21)
        return Refused("7.25", f"{rake} is beside {target_id} but not side by side with it: no side of it is raked")
    return rake, facing
