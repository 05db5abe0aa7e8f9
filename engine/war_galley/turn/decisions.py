"""The decisions a player makes, as tagged msgspec Structs with a JSON form.

Each is one step the rules ask a player for (engine/war_galley/play/legal.py lists them;
docs/orders.md gives their typed notation). A decision that rolls dice ends
its author's file (docs/protocol.md), so an activation carries the movement
plans of all its galleys: one decision, one email.
"""

from __future__ import annotations

from typing import Any, Union

import msgspec

from engine.errors import IllegalOrder
from engine.war_galley.galley_combat.reactions import ReactionOrders
from engine.war_galley.manpower_combat.manpower_orders import BoardingParty, FireOrder, GrappleOrder
from engine.war_galley.map_and_galleys.galley import GalleyId
from engine.war_galley.movement.steps import Plan


class Decision(msgspec.Struct, frozen=True, tag_field="kind", kw_only=True, omit_defaults=True):
    """Base: every decision names the side making it."""

    side: str


class Deploy(Decision, frozen=True, tag="deploy"):
    """Set-up (scenario deployment): where each free galley goes, and each free commander's galley."""

    galleys: tuple[tuple[GalleyId, str], ...] = ()  # positions in the battle's notation, e.g. N3719-N3720
    commanders: tuple[tuple[str, GalleyId], ...] = ()


class Squadrons(Decision, frozen=True, tag="squadrons"):
    """Phase B (5.24): commanders forming their squadron by Line Astern (5.22), and galleys
    in range of two commanders assigned to one."""

    line_astern: tuple[str, ...] = ()
    assign: tuple[tuple[GalleyId, str], ...] = ()


class Initiative(Decision, frozen=True, tag="initiative"):
    """Phase C (3.2): the winner names the side that goes first in D, E and F."""

    first: str


class Speed(Decision, frozen=True, tag="speed"):
    """Phase D (6.12): one squadron's Speed Levels; the galleys named go to Maximum, the rest Cruise.

    `rest` (a shortcut, engine.war_galley.play.shortcuts): "cruise" or "max", the side's standing choice for its
    squadrons still to choose, applied each time the alternation comes back to it."""

    squadron: str
    maximum: tuple[GalleyId, ...] = ()
    rest: str = ""


class Missiles(msgspec.Struct, frozen=True, omit_defaults=True):
    """8.42: a galley's Missile Fire in its Movement Segment: after `after_step` steps of its plan
    (0: before it moves), or after its movement (None), when it may split its fire (8.43)."""

    order: FireOrder
    after_step: int | None = None


class Activate(Decision, frozen=True, tag="activate"):
    """E/1 or F (5.41): a squadron's movement segment, the orders of each galley that acts.

    Per galley, in the order of play: `disengage` (8.32, before moving), its
    movement plan with combat steps (6.13, 7), its Missile Fire (`fire`,
    8.42), a grapple attempt at the end of its movement (`grapple`, 8.11);
    `firepots` names the galleys that drop firepots with their Ram (8.53).
    Galleys without orders do nothing (still activated). `refloat` lists
    aground galleys that try to get off (6.36) after the others have acted.
    """

    squadron: str
    plans: tuple[Plan, ...] = ()
    refloat: tuple[GalleyId, ...] = ()
    also: str | None = None  # the second squadron of a successful Double Activation (5.42)
    disengage: tuple[GalleyId, ...] = ()
    fire: tuple[Missiles, ...] = ()
    grapple: tuple[GrappleOrder, ...] = ()
    firepots: tuple[GalleyId, ...] = ()
    # A shortcut (engine.war_galley.play.shortcuts): the Boarding Segment's parties declared with the activation, for the
    # grapples that hold (8.21); () boards nothing; None: decided in the Boarding Segment, after the grapples.
    board: tuple[BoardingParty, ...] | None = None


class Double(Decision, frozen=True, tag="double"):
    """E (5.42): the Admiral attempts a Double Activation of his squadron and `other`."""

    other: str


class Individual(Decision, frozen=True, tag="individual"):
    """F (5.31): activate one Individual Squadron galley; its Crew check is rolled.

    `if_free` / `if_held` (a shortcut, engine.war_galley.play.shortcuts): the galley's activation for either result
    of the Crew check, checked before the die; the one the die picks is carried out at once. An
    alternative left out is decided after the die, in the next file, as without the shortcut."""

    galley: GalleyId
    if_free: Activate | None = None
    if_held: Activate | None = None
    # A shortcut (engine.war_galley.play.chain): the side's next Individual Squadron galley, when the rules ask the
    # side again at once (the opponent has none left, 5.31); checked on every state this one can leave.
    then: Individual | None = None


class Boarding(Decision, frozen=True, tag="board"):
    """E/2 (8.2): the Boarding Segment's parties, all declared at once; none: no boarding."""

    parties: tuple[BoardingParty, ...] = ()


class Reactions(Decision, frozen=True, tag="reactions"):
    """6.5, 6.7, 8.42: the side's standing reaction orders from now on (docs/reactions.md); no dice."""

    orders: ReactionOrders


# What a side may decide after a transfer's die, still on its turn (engine.war_galley.turn.commanders.TRANSFER_WHEN).
FollowUp = Union[Squadrons, Speed, Activate, Double, Individual]


class Transfer(Decision, frozen=True, tag="transfer"):
    """5.51-5.52: try to move a commander to a galley nearby (rolls the die).

    `if_done` / `if_failed` (a shortcut, engine.war_galley.play.transfer_orders): the side's next decision for
    either result of the die, checked before it; the one the die picks is carried out at once."""

    commander: str
    to: GalleyId
    if_done: FollowUp | None = None
    if_failed: FollowUp | None = None


class Standing(Decision, frozen=True, tag="standing"):
    """The side's standing orders for phases B-D from now on (engine.war_galley.turn.standing); no dice.

    `squadrons`: form squadrons by range alone each phase B (5.24); `first`: the side that goes first
    when it wins the initiative (3.2); `speed`: "cruise" or "max" for each of its squadrons in phase D
    (6.12). Nothing set: the rules ask it each time, as without the shortcut. `this_turn`: for the game
    turn it is given in only."""

    squadrons: bool = False
    first: str = ""
    speed: str = ""
    this_turn: bool = False  # for the game turn it is given in only


class Concede(Decision, frozen=True, tag="concede"):
    """9.1: cede victory to the other side."""


class ProposeHalt(Decision, frozen=True, tag="propose-halt"):
    """9.1: offer to halt play by agreement (minor victory to the side with most VP)."""


class AcceptHalt(Decision, frozen=True, tag="accept-halt"):
    """9.1: accept the opponent's offer to halt."""


AnyDecision = Union[
    Deploy, Squadrons, Initiative, Speed, Activate, Double, Individual, Boarding, Reactions, Transfer, Concede,
    ProposeHalt, AcceptHalt, Standing,
]

KINDS: dict[type[Decision], str] = {
    cls: cls.__struct_config__.tag for cls in AnyDecision.__args__  # type: ignore[attr-defined]
}


def to_json(decision: Decision) -> Any:
    """The decision as plain JSON values, for signing in a move file."""
    return msgspec.json.decode(msgspec.json.encode(decision))


_BY_KIND: dict[str, type[Decision]] = {kind: cls for cls, kind in KINDS.items()}


def from_json(value: Any) -> AnyDecision:
    """A decision from its JSON form; IllegalOrder if it is not one.

    A value naming a known kind is converted to that kind's struct, which is what the tagged union
    does with it, about ten times faster: msgspec keeps a struct's type information but works a
    Union's out again at every call. A value that fails is converted as the union, whose message
    the refusal quotes.
    """
    kind = value.get("kind") if isinstance(value, dict) else None
    cls = _BY_KIND.get(kind) if isinstance(kind, str) else None
    if cls is not None:
        try:
            return msgspec.convert(value, cls)  # type: ignore[return-value]
        except msgspec.ValidationError:
            pass  # refused as its kind: the union's conversion below refuses it too, with the message quoted
    try:
        return msgspec.convert(value, AnyDecision)  # type: ignore[return-value]
    except msgspec.ValidationError as exc:
        raise IllegalOrder("decision", f"not a War Galley decision: {exc}") from None
