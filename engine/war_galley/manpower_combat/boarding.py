"""Boarding (8.2): marines cross into a Grappled enemy ship to capture it.

In the active player's Boarding Segment, after his squadron has moved. A
boarding party is an activated galley of his, of at least M1, Grappled to
the target (8.21). Parties against one target add their Manpower (8.22);
a galley Grappled to several enemy ships may split its Manpower among them,
never a part below M1. The attackers' total against the defender's
Manpower gives the range on the Boarding Table (2d6); Height Advantage
from Towers is the only DRM (8.24, 8.47).

Readings (docs/manpower-notes.md):
- a galley boards with all its Manpower: split, the parts add up to its M
  (8.22 "distributes his Manpower Rating"); a party without a figure uses
  all of it;
- several parties against one target: the attackers have the Height
  Advantage only if every party has it over the defender; the defender has
  it if it has it over any party;
- the Manpower is declared for the whole segment before any roll, then each
  target's attempt is resolved in the order of the order's first party
  against it; Depletions act at once (8.63) but do not change declared
  parties;
- after a Repulse the target may not be boarded again that turn (8.27:
  "the boarding attempt is finished for that turn").
"""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from msgspec.structs import replace

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import DieRolled, Event
from engine.war_galley.manpower_combat.battlefield import Field, Resolution, enemies, resolved
from engine.war_galley.manpower_combat.depletion import deplete
from engine.war_galley.manpower_combat.manpower_orders import BoardingOrder
from engine.war_galley.manpower_combat.towers import height_advantage
from engine.war_galley.map_and_galleys.charts import BoardingOutcome, RollRange, boarding_range, boarding_result
from engine.war_galley.map_and_galleys.galley import Capture, Colour, Galley, GalleyId
from engine.war_galley.map_and_galleys.ratings import SpeedSide


class Captured(Event, frozen=True, kw_only=True):
    """8.25-8.26: the ship changes hands. `recaptured`: retaken by its own side (8.26)."""

    galley: GalleyId
    by: Colour  # the side that now controls it
    boarders: tuple[GalleyId, ...]
    recaptured: bool


class Repulsed(Event, frozen=True, kw_only=True):
    """8.27: the defenders beat the boarders back; no more boarding of it this turn."""

    galley: GalleyId
    boarders: tuple[GalleyId, ...]


class Attempt(NamedTuple):
    """One target's boarding attempt as declared: the parties, their total M and the roll needed."""

    target: GalleyId
    parties: tuple[tuple[GalleyId, int], ...]
    attackers: int
    defender: int
    modifiers: tuple[tuple[str, int], ...]
    needed: RollRange


def boarding_modifiers(field: Field, boarders: list[Galley], defender: Galley) -> tuple[tuple[str, int], ...]:
    """8.24: Height Advantage, for the attackers only if every party has it."""
    table = field.charts.boarding.modifiers
    devices = field.devices
    if all(height_advantage(devices, b, defender) for b in boarders):
        return (("attacker Height Advantage", table.attacker_height_advantage),)
    if any(height_advantage(devices, defender, b) for b in boarders):
        return (("defender Height Advantage", table.defender_height_advantage),)
    return ()


def check_boarding(
    field: Field,
    order: BoardingOrder,
    *,
    side: Colour,
    activated: Collection[GalleyId],
    repulsed: Collection[GalleyId] = (),
) -> list[Attempt]:
    """The attempts `order` declares for `side`; IllegalOrder naming the rule that forbids one.

    `activated`: the galleys activated this phase (8.22); `repulsed`: targets
    that repulsed a boarding earlier this turn (8.27).
    """
    minimum = field.charts.boarding.min_attacker
    if not order.parties:
        raise IllegalOrder("8.21", "a boarding order names at least one boarding party")
    split: dict[GalleyId, list[int]] = {}
    by_target: dict[GalleyId, list[tuple[GalleyId, int]]] = {}
    named: set[tuple[GalleyId, GalleyId]] = set()
    for party in order.parties:
        boarder = field.galley(party.galley, "8.21")
        target = field.galley(party.target, "8.21")
        if boarder.controller is not side:
            raise IllegalOrder("8.21", f"{boarder.id} is not {side.name.title()}'s to command")
        if boarder.id not in activated:
            raise IllegalOrder("8.22", f"{boarder.id} was not activated this phase")
        if boarder.capture is not Capture.NONE:
            raise IllegalOrder("8.25", f"{boarder.id} is a Captured ship: it may grapple but never board")
        if boarder.manpower < minimum:
            raise IllegalOrder("8.21", f"{boarder.id} has M{boarder.manpower}: boarders need at least M{minimum}")
        if not enemies(boarder, target):
            raise IllegalOrder("8.21", f"{target.id} is not an enemy ship")
        if target.id not in boarder.grappled_with or boarder.id not in target.grappled_with:
            raise IllegalOrder("8.11", f"{boarder.id} is not Grappled with {target.id}: only Grappled ships board")
        if target.id in repulsed:
            raise IllegalOrder("8.27", f"{target.id} repulsed a boarding this turn: no more attempts until next turn")
        if (boarder.id, target.id) in named:
            raise IllegalOrder("8.22", f"{boarder.id} names {target.id} twice")
        manpower = boarder.manpower if party.manpower is None else party.manpower
        if manpower < minimum:
            raise IllegalOrder("8.22", f"a boarding party needs at least M{minimum}, not M{manpower}")
        named.add((boarder.id, target.id))
        split.setdefault(boarder.id, []).append(manpower)
        by_target.setdefault(target.id, []).append((boarder.id, manpower))
    for galley_id, parts in split.items():
        have = field.galleys[galley_id].manpower
        if sum(parts) != have:
            raise IllegalOrder(
                "8.22", f"{galley_id} distributes its M{have} among its targets, not M{sum(parts)} ({parts})"
            )
    attempts = []
    for target_id, parties in by_target.items():
        defender = field.galleys[target_id]
        total = sum(m for _, m in parties)
        boarders = [field.galleys[g] for g, _ in parties]
        attempts.append(
            Attempt(
                target_id,
                tuple(parties),
                total,
                defender.manpower,
                boarding_modifiers(field, boarders, defender),
                boarding_range(field.charts, total, defender.manpower),
            )
        )
    return attempts


def _captured(target: Galley, side: Colour) -> Galley:
    """8.25-8.26: skeleton crew (Crew and M 0 via `capture`), no Maximum Speed."""
    status = Capture.RECAPTURED if side is target.id.colour else Capture.CAPTURED
    return replace(target, capture=status, speed=SpeedSide.CRUISE)


def board(
    field: Field,
    order: BoardingOrder,
    dice: Dice,
    *,
    side: Colour,
    activated: Collection[GalleyId],
    repulsed: Collection[GalleyId] = (),
) -> Resolution:
    """Resolve the Boarding Segment's attempts (8.23-8.28), one 2d6 per target.

    The caller adds every target of a `Repulsed` event to its repulsed set
    for the turn, and every defender of one to its "repulsed a boarding"
    set for 8.32's +1.
    """
    attempts = check_boarding(field, order, side=side, activated=activated, repulsed=repulsed)
    current = field
    events: list[Event] = []
    for attempt in attempts:
        natural = dice.two_d6(f"8.23 boarding {attempt.target}")
        adjusted = natural + sum(v for _, v in attempt.modifiers)
        result = boarding_result(field.charts, attempt.attackers, attempt.defender, adjusted)
        captured = result.outcome is BoardingOutcome.CAPTURED
        events.append(DieRolled(
            rule="8.23",
            table=f"Boarding Table, M{attempt.attackers} vs M{attempt.defender} needs {attempt.needed}",
            natural=natural, modifiers=attempt.modifiers, outcome="Captured" if captured else "Repulsed",
        ))
        boarders = tuple(g for g, _ in attempt.parties)
        changed: list[Galley] = []
        if result.attacker_depleted:  # 8.28: each boarding party
            for galley_id in boarders:
                after, event = deplete(current.galleys[galley_id], rule="8.28", cause="boarding")
                changed.append(after)
                events.append(event)
        defender = current.galleys[attempt.target]
        if captured:
            defender = _captured(defender, side)
            events.append(Captured(rule="8.25" if defender.capture is Capture.CAPTURED else "8.26",
                                   galley=defender.id, by=side, boarders=boarders,
                                   recaptured=defender.capture is Capture.RECAPTURED))
        else:
            events.append(Repulsed(rule="8.27", galley=defender.id, boarders=boarders))
            if result.defender_depleted:
                defender, event = deplete(defender, rule="8.28", cause="boarding")
                events.append(event)
        changed.append(defender)
        current = current.with_galleys(changed)
    return resolved(current, [], events)
