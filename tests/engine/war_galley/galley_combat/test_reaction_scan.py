"""The reactions (6.51, 6.7, 8.42) look only at the enemy galleys near the mover (`enemies_near`).

Property: over random crowds of galleys, orders and dice, `respond_to_move` and
`fire_back` do exactly what they did when every galley on the map was asked, in
id order: the same galleys afterwards, the same events, the same dice rolled.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from engine.dice import DiceExhausted, ForcedDice
from engine.events import DieRolled
from engine.war_galley.galley_combat import defensive_ram, reactions
from engine.war_galley.galley_combat.combat_record import CombatOptions, CombatRecord
from engine.war_galley.galley_combat.ramming import by_id, enemies_near
from engine.war_galley.galley_combat.reactions import (
    AvoidBy,
    AvoidWhen,
    FireReaction,
    RamReaction,
    Reaction,
    adjacent,
    fire_back,
    reaction_orders,
    respond_to_move,
)
from engine.war_galley.map_and_galleys.board import OPEN_SEA
from engine.war_galley.map_and_galleys.galley import Colour, Galley, GalleyId
from engine.war_galley.map_and_galleys.hexes import DIRECTIONS, Hex, neighbour
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from tests.engine.war_galley.combat_support import CHARTS, ship


def every_enemy_by_id(battlefield: dict[GalleyId, Galley], mover: Galley) -> list[Galley]:
    """The scan the reactions made before `enemies_near`: every enemy galley on the map, by id."""
    return [other for other in by_id(battlefield.values())
            if other.id != mover.id and other.position is not None and other.controller is not mover.controller]


@contextlib.contextmanager
def scanning_everyone() -> Iterator[None]:
    """The reactions as they were: asking every galley on the map."""
    saved = reactions.enemies_near, defensive_ram.enemies_near
    reactions.enemies_near = defensive_ram.enemies_near = every_enemy_by_id  # type: ignore[assignment]
    try:
        yield
    finally:
        reactions.enemies_near, defensive_ram.enemies_near = saved


def _enum(kind):  # type: ignore[no-untyped-def]
    return st.none() | st.sampled_from(list(kind))


# Orders that react more often than not, so that most examples avoid, ram or fire.
settings_ = st.builds(Reaction, st.sampled_from([AvoidWhen.ADJACENT, AvoidWhen.ADJACENT, *AvoidWhen]), _enum(AvoidBy),
                      st.sampled_from([RamReaction.ELIGIBLE, *RamReaction]), _enum(FireReaction))


@st.composite
def crowds(draw: st.DrawFn) -> tuple[dict[GalleyId, Galley], GalleyId, Position]:
    """Up to 16 galleys packed round hex 3015 (now and then overlapping), a mover among them and where it
    moved from (one hex back)."""
    galleys: dict[GalleyId, Galley] = {}
    taken: set[Hex] = set()
    # Now and then one galley shares a hex with another, as while one passes through another (7.24).
    overlaps = draw(st.integers(0, 4)) == 0
    for number in range(1, draw(st.integers(2, 16)) + 1):
        colour = draw(st.sampled_from(["R", "G"]))
        double = draw(st.booleans())
        bow = Hex(draw(st.integers(28, 32)), draw(st.integers(13, 17)))
        position = Position(bow, DIRECTIONS[draw(st.integers(0, 5))], double)
        if taken & set(position.hexes) and not overlaps:
            continue
        taken |= set(position.hexes)
        name = f"{colour}{'5' if double else 'L'}-{number}"
        galley = ship(name, None, crew=draw(st.integers(0, 6)), speed=draw(st.sampled_from(list(SpeedSide))),
                      fatigue=draw(st.sampled_from([0, 0, 2])), attack=draw(st.sampled_from([0, 6])))
        galleys[galley.id] = replace(galley, position=position)
    ids = sorted(galleys, key=str)
    mover = draw(st.sampled_from(ids))
    now = galleys[mover].position
    assert now is not None
    before = Position(neighbour(now.bow, now.facing + 3), now.facing, now.double)
    return galleys, mover, before


faces = st.lists(st.integers(1, 6), min_size=30, max_size=30)


def _outcome(call):  # type: ignore[no-untyped-def]
    """What a call did, or the error it raised (forced dice may run out: then both must run out alike)."""
    try:
        return call()
    except DiceExhausted as error:
        return ("exhausted", str(error))


@settings(max_examples=300, deadline=None)
@given(crowds(), settings_, settings_, st.booleans(), faces)
def test_respond_to_move_asks_only_the_galleys_near_and_does_the_same(
    crowd: tuple[dict[GalleyId, Galley], GalleyId, Position], red: Reaction, green: Reaction, drr: bool,
    rolls: list[int],
) -> None:
    galleys, mover, before = crowd
    orders = {Colour.RED: reaction_orders(red), Colour.GREEN: reaction_orders(green)}
    options = CombatOptions(defensive_reaction_ram=drr)

    def run() -> tuple[object, list[int]]:
        dice = ForcedDice(*rolls)
        done = _outcome(lambda: respond_to_move(OPEN_SEA, galleys, mover, before, CHARTS, dice, CombatRecord(),
                                                orders, options))
        return done, [roll.face for roll in dice.rolls]

    fast = run()
    with scanning_everyone():
        slow = run()
    assert fast == slow


@settings(max_examples=300, deadline=None)
@given(crowds(), settings_, settings_)
def test_fire_back_asks_only_the_galleys_near_and_fires_the_same(
    crowd: tuple[dict[GalleyId, Galley], GalleyId, Position], red: Reaction, green: Reaction,
) -> None:
    galleys, attacker, _ = crowd
    orders = {Colour.RED: reaction_orders(red), Colour.GREEN: reaction_orders(green)}
    near = [g.id for g in every_enemy_by_id(galleys, galleys[attacker])]
    target = near[0] if near else attacker

    def hook(field, firer, at, what, dice):  # type: ignore[no-untyped-def]
        # Galleys with an even number "may not fire after all" (no events): they keep their Reaction Fire.
        if firer.number % 2 == 0:
            return field, []
        return field, [DieRolled(rule="8.45", table="Missile Table", natural=dice.d6(f"{firer}"), outcome=str(firer))]

    def run() -> object:
        dice = ForcedDice(*range(1, 7), *range(1, 7))
        return fire_back(galleys, target, attacker, "ram", dice, CombatRecord(), orders, hook), dice.unused

    fast = run()
    with scanning_everyone():
        slow = run()
    assert fast == slow


def test_enemies_near_holds_every_enemy_adjacent_to_the_mover_in_id_order() -> None:
    mover = ship("G5-1", "3015-3016")
    field = {g.id: g for g in [
        mover,
        ship("R5-9", "3114-3113"),  # alongside, to starboard
        ship("R5-2", "2916-2917"),  # alongside, to port
        ship("R5-3", "3014-3013"),  # bow to bow, head-on
        ship("G5-4", "2915-2914"),  # a friend: not an enemy
        ship("R5-5", "3315-3316"),  # two hexes off
    ]}
    found = [g.id for g in enemies_near(field, mover)]
    assert found == sorted(found, key=lambda g: (g.colour.value, g.type.value, g.number))
    assert set(found) == {g.id for g in every_enemy_by_id(field, mover)
                          if g.position is not None and mover.position is not None
                          and adjacent(g.position, mover.position)}
    assert [str(g) for g in found] == ["R5-2", "R5-3", "R5-9"]


def test_galleys_sharing_a_hex_are_all_found() -> None:
    mover = ship("G5-1", "3015-3016")
    passed, passing = ship("R5-2", "3114-3113"), ship("R5-3", "3114-3214")  # both fill 3114
    field = {g.id: g for g in (mover, passed, passing)}
    assert [str(g.id) for g in enemies_near(field, mover)] == ["R5-2", "R5-3"]


def test_a_galley_off_the_map_has_no_one_near() -> None:
    mover, other = ship("G5-1", None), ship("R5-1", "3015-3016")
    assert enemies_near({mover.id: mover, other.id: other}, mover) == []
