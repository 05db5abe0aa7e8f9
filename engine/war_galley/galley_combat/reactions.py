"""Standing reaction orders: how the inactive side reacts while the active side moves (6.5, 6.7, 8.42).

At the table the inactive player decides on the spot whether to avoid, ram in
reaction or fire back. By mail he cannot, so each side declares beforehand
what its galleys do, fleet-wide with per-galley exceptions (docs/reactions.md):

    default: avoid=ram-position by=away ram=eligible fire=attacked missiles=flame
    G3-12 G3-14: avoid=never
    G5-86: avoid=adjacent by=back

`parse_reactions` / `format_reactions` round-trip. The deciding functions
(`avoid_decision`, `rams_in_reaction`, `fires_in_reaction`) are pure: orders
plus situation in, a decision out. `respond_to_move` applies the decisions of
every inactive galley the instant an active galley has moved.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping
from typing import NamedTuple

import msgspec

from engine.dice import Dice
from engine.errors import NotationError
from engine.events import Event
from engine.war_galley.galley_combat.avoidance import (
    AvoidDirection,
    attempt_avoidance,
    avoidance_moves,
    may_attempt,
)
from engine.war_galley.galley_combat.combat_record import CombatOptions, CombatRecord
from engine.war_galley.galley_combat.defensive_ram import crossed_bows, defensive_reaction_ram, reaction_ram_refusal
from engine.war_galley.galley_combat.ramming import (
    FirepotsHook,
    RamResult,
    enemies_near,
    id_key,
    ram_geometry,
    rammer_refusal,
)
from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.charts import Charts
from engine.war_galley.map_and_galleys.galley import Colour, Galley, GalleyId, format_galley_id, parse_galley_id
from engine.war_galley.map_and_galleys.hexes import distance
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.movement.moving import Refused

Battlefield = Mapping[GalleyId, Galley]


class AvoidWhen(enum.Enum):
    """When a galley attempts Avoidance (6.51): an enemy has just moved adjacent and..."""

    NEVER = "never"
    ADJACENT = "adjacent"  # ...any enemy
    RAM_CAPABLE = "ram-capable"  # ...an enemy that may still ram this turn (7.11-7.13)
    RAM_POSITION = "ram-position"  # ...such an enemy, bow pointing at it from a flank hex (7.12)


class AvoidBy(enum.Enum):
    """Which way to avoid (6.52): forward, back (Cruise only), or whichever gets further away."""

    FORWARD = "forward"
    BACK = "back"
    AWAY = "away"


class RamReaction(enum.Enum):
    """Defensive Reaction Ram (6.7), where the game uses it."""

    NEVER = "never"
    ELIGIBLE = "eligible"  # whenever eligible


class FirepotsReaction(enum.Enum):
    """Firepots with a Defensive Reaction Ram (8.53 with 6.7, version 2): a Firepot-armed galley ramming in
    reaction rolls them first ("as part of a Ram Attempt ... before resolving the Ram")."""

    NEVER = "never"
    WITH_RAM = "with-ram"


class FireReaction(enum.Enum):
    """Reaction Fire (8.42): at galleys that fired at it, and/or adjacent ones attacking it."""

    NEVER = "never"
    FIRED_UPON = "fired-upon"
    ATTACKED = "attacked"  # an adjacent enemy attempts to Grapple, Ram or Rake it
    ALWAYS = "always"  # either


class MissileChoice(enum.Enum):
    """Which missiles Reaction Fire uses (8.44: the player "states whether he using normal or his Flame Missile
    capability"); `flame`: Flame Missiles whenever it may (Flame-capable, target adjacent: 8.51-8.52), else
    regular missiles."""

    REGULAR = "regular"
    FLAME = "flame"


class FireTrigger(enum.Enum):
    FIRED_UPON = "fired-upon"
    ATTACKED = "attacked"


class Reaction(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """A galley's (or the fleet's) settings; None: not said here, inherited."""

    avoid: AvoidWhen | None = None
    by: AvoidBy | None = None
    ram: RamReaction | None = None
    fire: FireReaction | None = None
    missiles: MissileChoice | None = None
    firepots: FirepotsReaction | None = None  # unsaid: never

    def over(self, base: Reaction) -> Reaction:
        """These settings, falling back on `base` for any not given."""
        return Reaction(
            avoid=self.avoid or base.avoid, by=self.by or base.by,
            ram=self.ram or base.ram, fire=self.fire or base.fire, missiles=self.missiles or base.missiles,
            firepots=self.firepots or base.firepots,
        )


# With no orders, nothing happens: a galley reacts only when its side said so.
# `missiles` unsaid is regular missiles (fires_flame_in_reaction).
STANDING = Reaction(avoid=AvoidWhen.NEVER, by=AvoidBy.AWAY, ram=RamReaction.NEVER, fire=FireReaction.NEVER)


class GalleyReaction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    galley: GalleyId
    reaction: Reaction


class ReactionOrders(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One side's standing reaction orders: a fleet-wide default and per-galley overrides (by id)."""

    default: Reaction = Reaction()
    overrides: tuple[GalleyReaction, ...] = ()

    def for_galley(self, galley: GalleyId) -> Reaction:
        """The complete settings in force for `galley`."""
        fleet = self.default.over(STANDING)
        for override in self.overrides:
            if override.galley == galley:
                return override.reaction.over(fleet)
        return fleet


def reaction_orders(default: Reaction = Reaction(), overrides: Mapping[GalleyId, Reaction] | None = None) -> ReactionOrders:
    """Orders in canonical form (overrides sorted by galley id)."""
    pairs = sorted((overrides or {}).items(), key=lambda pair: id_key(pair[0]))
    return ReactionOrders(default, tuple(GalleyReaction(g, r) for g, r in pairs))


def orders_for(reactions: Mapping[Colour, ReactionOrders], galley: Galley) -> Reaction:
    """The settings in force for `galley`: its controller's orders (a Captured galley obeys its captor)."""
    return reactions.get(galley.controller, ReactionOrders()).for_galley(galley.id)


# --- notation ----------------------------------------------------------------

_KEYS: dict[str, type[enum.Enum]] = {"avoid": AvoidWhen, "by": AvoidBy, "ram": RamReaction, "fire": FireReaction,
                                     "missiles": MissileChoice, "firepots": FirepotsReaction}
_LINE = re.compile(r"\s*([^:]+?)\s*:(.*)")


def parse_reaction(text: str) -> Reaction:
    """Settings like `avoid=ram-position by=away ram=never fire=attacked` (any subset, any order)."""
    values: dict[str, enum.Enum] = {}
    for token in text.split():
        key, _, value = token.partition("=")
        key = key.lower()
        if key not in _KEYS:
            raise NotationError(f"unknown reaction setting {token!r}; settings are {', '.join(_KEYS)}")
        if key in values:
            raise NotationError(f"{key!r} is set twice")
        kind = _KEYS[key]
        try:
            values[key] = kind(value.lower())
        except ValueError:
            allowed = " ".join(member.value for member in kind)  # type: ignore[attr-defined]
            raise NotationError(f"{token!r}: {key} is one of {allowed}") from None
    return Reaction(**values)  # type: ignore[arg-type]


def format_reaction(reaction: Reaction) -> str:
    return " ".join(f"{key}={getattr(reaction, key).value}" for key in _KEYS if getattr(reaction, key) is not None)


def parse_reactions(text: str) -> ReactionOrders:
    """Every line `who: settings`; `who` is `default` or galley ids; `#` comments and blanks skipped."""
    default: Reaction | None = None
    overrides: dict[GalleyId, Reaction] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0]
        if not line.strip():
            continue
        match = _LINE.fullmatch(line)
        try:
            if match is None:
                raise NotationError(f"not a reaction order: {line.strip()!r} (expected e.g. 'default: avoid=never')")
            who, settings = match.groups()
            reaction = parse_reaction(settings)
            if who.lower() == "default":
                if default is not None:
                    raise NotationError("the fleet default is given twice")
                default = reaction
                continue
            for name in re.split(r"[\s,]+", who.strip()):
                galley = parse_galley_id(name)
                if galley in overrides:
                    raise NotationError(f"{name} is given twice")
                overrides[galley] = reaction
        except NotationError as error:
            raise NotationError(f"line {number}: {error}") from None
    return reaction_orders(default or Reaction(), overrides)


def format_reactions(orders: ReactionOrders) -> str:
    """The orders as text `parse_reactions` reads back (canonical orders give equal orders)."""
    lines = [f"default: {format_reaction(orders.default)}".rstrip()]
    lines += [f"{format_galley_id(o.galley)}: {format_reaction(o.reaction)}".rstrip() for o in orders.overrides]
    return "\n".join(lines) + "\n"


# --- deciding ----------------------------------------------------------------


def adjacent(a: Position, b: Position) -> bool:
    """Whether two counters touch without overlapping."""
    return not set(a.hexes) & set(b.hexes) and bool(a.adjacent() & set(b.hexes))


def threatens_ram(charts: Charts, mover: Galley, record: CombatRecord, *, mover_faced: bool = False) -> bool:
    """Whether `mover` may still attempt a Ram this turn (7.11-7.13)."""
    return rammer_refusal(charts, mover, record, faced=mover_faced) is None


def avoid_decision(
    reaction: Reaction,
    board: Board,
    battlefield: Battlefield,
    galley: Galley,
    mover: Galley,
    charts: Charts,
    record: CombatRecord = CombatRecord(),
    *,
    mover_faced: bool = False,
) -> AvoidDirection | None:
    """Which way `galley` tries to avoid the just-moved `mover` under `reaction`, or None (no attempt)."""
    when = reaction.avoid or STANDING.avoid
    if when is AvoidWhen.NEVER or galley.position is None or mover.position is None:
        return None
    if not adjacent(galley.position, mover.position):
        return None
    if when in (AvoidWhen.RAM_CAPABLE, AvoidWhen.RAM_POSITION):
        if not threatens_ram(charts, mover, record, mover_faced=mover_faced):
            return None
        if when is AvoidWhen.RAM_POSITION and ram_geometry(mover.position, galley.position) is not None:
            return None
    if not may_attempt(board, battlefield, galley, charts):
        return None
    moves = avoidance_moves(board, battlefield, galley)
    by = reaction.by or STANDING.by
    if by is AvoidBy.FORWARD:
        return AvoidDirection.FORWARD if AvoidDirection.FORWARD in moves else None
    if by is AvoidBy.BACK:
        return AvoidDirection.BACK if AvoidDirection.BACK in moves else None
    mover_hexes = mover.position.hexes

    def clearance(direction: AvoidDirection) -> int:
        return min(distance(a, b) for a in moves[direction].hexes for b in mover_hexes)

    # Away: the move that ends further from the mover; forward on a tie.
    return max(moves, key=lambda d: (clearance(d), d is AvoidDirection.FORWARD))


def orders_refusal(orders: ReactionOrders, options: CombatOptions) -> Refused | None:
    """Why a side may not give these standing orders in this game, or None.

    6.7 is an optional rule: where the game does not use it, `ram=eligible`
    orders a reaction the rules do not have, so it is refused, not kept and ignored.
    """
    settings = [("default", orders.default), *((format_galley_id(o.galley), o.reaction) for o in orders.overrides)]
    for who, reaction in settings:
        if reaction.firepots is not None and options.rules_version < 2:
            return Refused("8.53", f"{who}: firepots= is a setting of War Galley's rules version 2; this game "
                                   f"is judged by version {options.rules_version}")
    if options.defensive_reaction_ram:
        return None
    for who, reaction in settings:
        if reaction.firepots is FirepotsReaction.WITH_RAM:
            return Refused("6.7", f"{who}: firepots=with-ram drops firepots with a Defensive Reaction Ram, an "
                                  "optional rule this game does not use")
        if reaction.ram is RamReaction.ELIGIBLE:
            return Refused("6.7", f"{who}: ram=eligible orders a Defensive Reaction Ram, an optional rule this "
                                  "game does not use")
    return None


def rams_in_reaction(reaction: Reaction) -> bool:
    return (reaction.ram or STANDING.ram) is RamReaction.ELIGIBLE


def fires_in_reaction(reaction: Reaction, trigger: FireTrigger) -> bool:
    fire = reaction.fire or FireReaction.NEVER
    return fire is FireReaction.ALWAYS or fire.value == trigger.value


def firepots_in_reaction(reaction: Reaction) -> bool:
    """8.53 with 6.7: whether a Firepot-armed galley ramming in reaction drops its firepots first."""
    return reaction.firepots is FirepotsReaction.WITH_RAM


def fires_flame_in_reaction(reaction: Reaction) -> bool:
    """8.44: whether its Reaction Fire is Flame Missiles where they may be fired (else regular)."""
    return reaction.missiles is MissileChoice.FLAME


# --- applying ----------------------------------------------------------------

# Reaction Fire (8.42) belongs to the manpower rules: given the battlefield, the firing galley,
# the galley it fires at, what provoked it ("ram", "rake") and the dice, it returns the
# battlefield and events.
# The hook returns no events when the galley may not fire after all: it keeps its Reaction Fire.
ReactionFireHook = Callable[[Battlefield, GalleyId, GalleyId, str, Dice], tuple[Battlefield, list[Event]]]


class Response(NamedTuple):
    """What the inactive side did the instant the active galley moved."""

    galleys: dict[GalleyId, Galley]
    events: list[Event]
    record: CombatRecord
    mover_rammed: bool  # a Defensive Reaction Ram struck: the mover stops (6.7)
    extra_mp: int  # failed Defensive Reaction Rams: 1 MP each for the mover (6.7)
    avoided: frozenset[GalleyId]


def respond_to_move(
    board: Board,
    galleys: Battlefield,
    mover_id: GalleyId,
    before: Position | None,
    charts: Charts,
    dice: Dice,
    record: CombatRecord,
    reactions: Mapping[Colour, ReactionOrders],
    options: CombatOptions = CombatOptions(),
    *,
    mover_faced: bool = False,
    reaction_rams: bool = True,
    firepots: FirepotsHook | None = None,
) -> Response:
    """Every reaction the active galley's move from `before` provokes, in id order.

    First Defensive Reaction Rams (6.7) by galleys whose Bow hex it entered,
    then Avoidance (6.51) by galleys it is now adjacent to. `reaction_rams`
    False: the galley was placed, not moved (Anastrophe), so no bow was crossed. `firepots`: the reacting
    galley's firepots with its ram (8.53), decided inside the hook (version 2).
    """
    field = dict(galleys)
    events: list[Event] = []
    rammed, extra = False, 0
    mover = field[mover_id]
    if mover.position is None or (before is not None and set(before.hexes) == set(mover.position.hexes)):
        return Response(field, events, record, False, 0, frozenset())
    if options.defensive_reaction_ram and reaction_rams:
        for galley_id in crossed_bows(field, mover, before):
            galley = field[galley_id]
            if not rams_in_reaction(orders_for(reactions, galley)):
                continue
            if reaction_ram_refusal(charts, galley, field[mover_id], record) is not None:
                continue
            field, more, record, result = defensive_reaction_ram(
                board, field, galley_id, mover_id, charts, dice, record, options, firepots=firepots
            )
            events += more
            if result is RamResult.COLLIDED:
                extra += charts.fixed.defensive_reaction_ram.failed_ram_mover_mp
            elif result is not None:
                rammed = True
                break
    avoided: set[GalleyId] = set()
    for galley in enemies_near(field, field[mover_id]):
        current = field[galley.id]
        direction = avoid_decision(orders_for(reactions, current), board, field, current, field[mover_id], charts,
                                   record, mover_faced=mover_faced)
        if direction is None:
            continue
        field, more, success = attempt_avoidance(board, field, galley.id, direction, charts, dice)
        events += more
        if success:
            avoided.add(galley.id)
    return Response(field, events, record, rammed, extra, frozenset(avoided))


def fire_back(
    galleys: Battlefield,
    target_id: GalleyId,
    attacker_id: GalleyId,
    what: str,
    dice: Dice,
    record: CombatRecord,
    reactions: Mapping[Colour, ReactionOrders],
    hook: ReactionFireHook | None,
) -> tuple[dict[GalleyId, Galley], list[Event], CombatRecord]:
    """8.42: Reaction Fire at an attacker attempting to Grapple, Ram or Rake, from every adjacent enemy galley
    whose orders say so ("against adjacent enemy galleys that are attempting to ..."): the attacked one first,
    then the others by id. Each fires once a (Squadron) Phase."""
    field = dict(galleys)
    attacker = field[attacker_id]
    if hook is None or attacker.position is None:
        return field, [], record
    firers = [target_id, *(g.id for g in enemies_near(field, attacker) if g.id != target_id)]
    events: list[Event] = []
    for firer_id in firers:
        firer, attacker = field[firer_id], field[attacker_id]
        if firer_id in record.reaction_fired or firer.position is None or attacker.position is None:
            continue
        if firer.controller is attacker.controller or not adjacent(firer.position, attacker.position):
            continue
        if not fires_in_reaction(orders_for(reactions, firer), FireTrigger.ATTACKED):
            continue
        fired, more = hook(field, firer_id, attacker_id, what, dice)
        if more:  # it fired (a galley that may not fire keeps its Reaction Fire)
            field, events = dict(fired), [*events, *more]
            record = msgspec.structs.replace(record, reaction_fired=record.reaction_fired | {firer_id})
    return field, events, record
