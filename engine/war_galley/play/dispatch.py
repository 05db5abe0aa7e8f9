"""`apply` and `pending`: a decision checked against whose turn it is and dispatched to its rule.

Every check runs before the first die: each rule module validates the
whole decision before it rolls, and once it rolls it does not refuse.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.adapter import Pending
from engine.dice import Dice
from engine.errors import IllegalOrder, WrongPlayer
from engine.events import Event
from engine.memo import by_identity
from engine.war_galley.battles import deployment
from engine.war_galley.galley_combat.reactions import orders_refusal
from engine.war_galley.play import chain, order_errors, shortcuts, transfer_orders
from engine.war_galley.turn import activation, boarding_segment, commanders, initiative, sequence, standing, victory
from engine.war_galley.turn.decisions import (
    AcceptHalt,
    Activate,
    AnyDecision,
    Boarding,
    Concede,
    Deploy,
    Double,
    Individual,
    Initiative,
    ProposeHalt,
    Reactions,
    Speed,
    Squadrons,
    Standing,
    Transfer,
)
from engine.war_galley.turn.state import GameState, Phase


class HaltProposed(Event, frozen=True, kw_only=True):
    side: str


class ReactionsSet(Event, frozen=True, kw_only=True):
    """The side's standing reaction orders from now on (6.5, 6.7, 8.42; docs/reactions.md)."""

    side: str


class StandingSet(Event, frozen=True, kw_only=True):
    """The side's standing orders for phases B-D from now on (engine.war_galley.turn.standing)."""

    side: str
    squadrons: bool = False
    first: str = ""
    speed: str = ""
    this_turn: bool = False


@by_identity(4)  # asked of one state by the referee's check of a file and again when it resolves the next
def pending(state: GameState) -> Pending:
    if state.result is not None:
        return Pending(None, "over", state.result.text, finished=True)
    due = sequence.decision_due(state)
    if due is None:
        return Pending(None, "automatic", sequence.describe_phase(state), automatic=True)
    return Pending(due.side, due.kind, f"{sequence.describe_phase(state)}: {due.prompt}")


_KINDS: dict[str, tuple[type, ...]] = {
    "deploy": (Deploy,),
    "squadrons": (Squadrons,),
    "initiative": (Initiative,),
    "speed": (Speed,),
    "activate": (Activate, Double),
    "individual": (Individual,),
    "commit": (),  # secret choices come as protocol dicts (engine.war_galley.battles.choices), never as decisions
    "open": (),
    "board": (Boarding,),
}


def apply(state: GameState, decision: AnyDecision, dice: Dice) -> tuple[GameState, list[Event]]:
    if state.result is not None:
        raise IllegalOrder("9.1", f"the game is over: {state.result.text}")
    due = sequence.decision_due(state)
    if due is None:
        raise IllegalOrder("3.1", f"no decision is wanted now ({sequence.describe_phase(state)})")
    if decision.side != due.side:
        raise WrongPlayer(f"{due.side} decides now ({due.prompt}), not {decision.side}")
    if state.halt_proposed is not None and state.halt_proposed != decision.side and not isinstance(decision, AcceptHalt):
        state = replace(state, halt_proposed=None)  # carrying on declines the offer
    order_errors.check_names(state, decision)  # an unknown name is refused as such, before the rules
    if isinstance(decision, Concede):
        return victory.end(state, victory.concession(state, decision.side))
    if isinstance(decision, ProposeHalt):
        return replace(state, halt_proposed=decision.side), [HaltProposed(rule="9.1", side=decision.side)]
    if isinstance(decision, AcceptHalt):
        if state.halt_proposed != state.other(decision.side):
            raise IllegalOrder("9.1", "the other side has not proposed to halt")
        return victory.end(state, victory.halt(state))
    if isinstance(decision, Reactions):
        # Any time the side decides; no dice. The orders in force when the active side signs are used.
        refusal = orders_refusal(decision.orders, state.combat_options())
        if refusal is not None:
            raise refusal.error()
        orders = tuple((k, o) for k, o in state.reactions if k != decision.side)
        state = replace(state, reactions=tuple(sorted((*orders, (decision.side, decision.orders)))))
        return state, [ReactionsSet(rule="6.5", side=decision.side)]
    if isinstance(decision, Standing):  # like reactions: any time the side decides; no dice
        return standing.set_orders(state, decision), [StandingSet(rule="3.1", side=decision.side,
                                                                  squadrons=decision.squadrons,
                                                                  first=decision.first, speed=decision.speed,
                                                                  this_turn=decision.this_turn)]
    if isinstance(decision, Transfer):
        if due.kind not in commanders.TRANSFER_WHEN or state.current is not None:
            raise IllegalOrder("5.51", "a transfer is made on your turn in phases B, D, E or F, "
                                       "not in the middle of an activation")
        return transfer_orders.transfer(state, decision, dice, apply)
    if not isinstance(decision, _KINDS[due.kind]):
        raise IllegalOrder("3.1", f"{due.prompt}: a {decision.__struct_config__.tag} decision does not fit")
    if isinstance(decision, Deploy):
        return deployment.apply_deploy(state, decision)
    if isinstance(decision, Squadrons):
        return sequence.settle_squadrons(state, decision)
    if isinstance(decision, Initiative):
        return initiative.choose_first(state, decision)
    if isinstance(decision, Speed):
        return shortcuts.choose_speed(state, decision)
    if isinstance(decision, Double):
        if state.current is not None or state.phase is not Phase.COMMAND:
            raise IllegalOrder("5.42", "a Double Activation is declared at the start of an activation in phase E")
        return activation.apply_double(state, decision, dice)
    if isinstance(decision, Individual):
        return chain.apply(state, decision, dice)
    if isinstance(decision, Boarding):
        return boarding_segment.apply_boarding(state, decision, dice)
    assert isinstance(decision, Activate)
    try:
        return shortcuts.activate(state, decision, dice)
    except IllegalOrder as exc:  # raised before any die: say which galley's orders it is about
        raise order_errors.about_galley(state, decision, exc) from None
