"""Galley combat in the turn (issue 5 wired into the sequence of play): scripted turns with forced dice.

The Skirmish battle (tests/engine/game_support.py): Rome's quinqueremes R5-50..53 against
Carthage's G5-11..14 (Crew 3, M4, Cruise 4, Maximum 7, Ram Defense 7). Galleys are placed
by hand after phase D; Rome activates first.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.events import Event
from engine.war_galley.galley_combat.avoidance import Avoided
from engine.war_galley.galley_combat.raking import RakeResolved
from engine.war_galley.galley_combat.ramming import RamResolved, RamResult
from engine.war_galley.galley_combat.reactions import parse_reactions
from engine.war_galley.galley_combat.sinking import Sank
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.notation import format_decision, parse_decision
from engine.war_galley.turn import sequence, status
from engine.war_galley.turn.decisions import Activate, AnyDecision, Reactions
from engine.war_galley.turn.state import GameState, Segment
from engine.war_galley.turn.victory import VPAwarded
from tests.engine.war_galley.game_support import at, g, skirmish, to_command_phase


def battle() -> GameState:
    """Turn 1, phase E, Rome to activate; the Catulus and Hanno squadrons far from the fight."""
    state = to_command_phase(skirmish())
    for galley, where in (("R5-50", "1005-1006"), ("R5-51", "1405-1406"), ("G5-11", "1025-1026"),
                          ("G5-14", "1425-1426")):
        state = at(state, galley, where)
    return state


def order(state: GameState, text: str, side: str = "rome") -> AnyDecision:
    """A decision as a player types it; it must print back to the same decision."""
    decision = parse_decision(text, side, state.board.map)
    assert parse_decision(format_decision(decision, state.board.map), side, state.board.map) == decision
    return decision


def apply(state: GameState, decision: AnyDecision, *faces: int) -> tuple[GameState, list[Event]]:
    dice = ForcedDice(*faces)
    state, events = play.apply(state, decision, dice)
    assert dice.unused == [], f"dice left over: {dice.unused}"
    return state, events


def of(events: list[Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def test_a_ram_in_the_activation_scores_the_targets_ram_defense() -> None:
    state = at(at(battle(), "R5-52", "3115-3216"), "G5-12", "3015-3016")
    state, events = apply(state, order(state, "activate Metellus: R5-52 cruise 0: R:G5-12"), 6, 6)
    (ram,) = of(events, RamResolved)
    assert ram.result is RamResult.FOULED and state.galley(g("G5-12")).rammed
    assert g("G5-12") in state.galley(g("R5-52")).fouled_with
    assert [(e.side, e.vp, e.reason) for e in of(events, VPAwarded)] == [("rome", 7, "rammed")]
    assert g("R5-52") in state.record.ram_attempts and (g("G5-12"), g("R5-52")) in state.rammed_by
    assert state.segment is Segment.PHASE_PASS  # nobody is Grappled: no Boarding Segment


def test_a_rake_on_the_pass_and_the_fatigue_check_counts_it() -> None:
    # G5-12 faces up at 3015-3016; R5-52 rows down its starboard side at Maximum and rakes it.
    state = at(at(battle(), "R5-52", "3114-3113"), "G5-12", "3015-3016")
    state = state.with_galley(replace(state.galley(g("R5-52")), speed=state.galley(g("R5-52")).speed.MAXIMUM))
    decision = order(state, "activate Metellus: R5-52 max 1: F K:G5-12")
    # The Rake Table's 2d6: 6 + 2, +1 (Speed 7 against 4): Crippled; then 6.42's Fatigue check, 1 + 1 (Rake attempt).
    state, events = apply(state, decision, 6, 2, 1)
    (rake,) = of(events, RakeResolved)
    assert rake.raker == g("R5-52") and rake.target == g("G5-12")
    fatigue = [e for e in events if getattr(e, "table", "").startswith("Fatigue")]
    assert fatigue and ("made a Rake attempt", 1) in fatigue[0].modifiers
    assert state.galley(g("G5-12")).crippled


def test_avoidance_by_the_standing_orders_in_force_when_rome_moves() -> None:
    state = at(at(battle(), "R5-52", "3118-3119"), "G5-13", "3015-3016")
    state, _ = apply(state, order(state, "activate Catulus:"))  # Rome's first activation: nothing
    assert play.pending(state).kind == "automatic"
    state, _ = sequence.advance(state, ForcedDice())
    # Carthage, deciding, sets its standing orders (no dice) and activates Hanno's squadron in the same file.
    orders = order(state, "reactions: default: avoid=adjacent by=away", "carthage")
    assert isinstance(orders, Reactions)
    state, events = apply(state, orders)
    assert dict(state.reactions)["carthage"] == parse_reactions("default: avoid=adjacent by=away")
    state, _ = apply(state, order(state, "activate Hanno:", "carthage"))
    state, _ = sequence.advance(state, ForcedDice())
    before = state.galley(g("G5-13")).position
    # R5-52 rows down G5-13's starboard side: adjacent after its second step; the Crew check (1: needs 3 or
    # less) succeeds.
    state, events = apply(state, order(state, "activate Metellus: R5-52 cruise 2: F F"), 1)
    (avoided,) = of(events, Avoided)
    assert avoided.galley == g("G5-13")
    moved = state.galley(g("G5-13"))
    assert moved.position != before and moved.fatigue == 2 and g("G5-13") in state.fresh_fatigue


def test_a_reaction_order_is_refused_out_of_turn_but_any_decision_time_will_do() -> None:
    state = battle()
    decision = Reactions(side="carthage", orders=parse_reactions("default: fire=always"))
    try:
        play.apply(state, decision, ForcedDice())
    except Exception as error:  # WrongPlayer: Rome decides now
        assert "rome" in str(error)
    else:
        raise AssertionError("Carthage set orders on Rome's turn")
    state, _ = apply(state, Reactions(side="rome", orders=parse_reactions("default: avoid=never")))
    assert play.pending(state).side == "rome"


def test_g4_sinking_takes_the_whole_chain_down_and_scores_each_galley() -> None:
    # 7.17's play note: A (Rammed) Grappled with B, B Fouled with C: A's 6 sinks all three.
    state = battle()
    a, b, c = g("G5-12"), g("R5-51"), g("G5-14")
    state = state.with_galley(replace(state.galley(a), rammed=True, grappled_with=frozenset({b})))
    state = state.with_galley(replace(state.galley(b), grappled_with=frozenset({a}), fouled_with=frozenset({c})))
    state = state.with_galley(replace(state.galley(c), fouled_with=frozenset({b})))
    afloat, events = status.sinking(state, ForcedDice(5))
    assert not of(events, Sank) and afloat.galley(a).position is not None
    sunk, events = status.sinking(state, ForcedDice(6))
    assert [(e.galley, e.dragged_by) for e in of(events, Sank)] == [(a, None), (b, a), (c, a)]
    assert all(sunk.galley(x).position is None for x in (a, b, c))
    assert (sunk.vp("rome"), sunk.vp("carthage")) == (14, 7)


def test_the_status_phase_clears_what_lasts_a_turn() -> None:
    state = at(at(battle(), "R5-52", "3115-3216"), "G5-12", "3015-3016")
    state, _ = apply(state, order(state, "activate Metellus: R5-52 cruise 0: R:G5-12"), 1, 1)  # a Collision
    assert state.galley(g("R5-52")).collided_with and state.record.ram_attempts
    cleared = status.end_of_turn(state)
    assert not cleared.galley(g("R5-52")).collided_with and not cleared.record.ram_attempts


def test_an_activation_with_every_order_kind_round_trips_in_notation() -> None:
    state = battle()
    text = ("activate Metellus: R5-52 max 6: F J F R:G5-12:BP F; R5-52 firepots; R5-52 disengage; "
            "R5-52 fire G5-12 M1, G5-13 M3 flame @2; R5-52 grapple G5-12 pull 2218-2318")
    decision = order(state, text)
    assert isinstance(decision, Activate) and decision.fire[0].after_step == 2
    assert format_decision(decision, state.board.map) == text
