"""Manpower combat in the turn (issue 6 wired into the sequence of play): scripted turns with forced dice.

R5-52 (Rome, Metellus' squadron) lies alongside G5-13 (Carthage, Gisgo aboard): a common flank
hexside. Quinqueremes: Crew 3, M4, Ram Defense 7.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.war_galley.galley_combat.reactions import parse_reactions
from engine.war_galley.manpower_combat.boarding import Captured
from engine.war_galley.manpower_combat.devices import Devices
from engine.war_galley.manpower_combat.disengage import Disengaged, FoulFreed
from engine.war_galley.manpower_combat.fire import SankByFire, SetOnFire
from engine.war_galley.manpower_combat.grappling import Grappled
from engine.war_galley.manpower_combat.missiles import MissileHit
from engine.war_galley.play import dispatch as play
from engine.war_galley.turn import status
from engine.war_galley.turn.commanders import CommanderLost
from engine.war_galley.turn.decisions import Boarding
from engine.war_galley.turn.movement_segment import OrderLapsed
from engine.war_galley.turn.state import GameState, Segment
from engine.war_galley.turn.victory import VPAwarded
from tests.engine.war_galley.game_support import at, decide, g

from .test_integration_combat import apply, battle, of, order


def alongside() -> GameState:
    return at(at(battle(), "R5-52", "3115-3116"), "G5-13", "3015-3016")


def grappled(state: GameState) -> GameState:
    a, b = state.galley(g("R5-52")), state.galley(g("G5-13"))
    state = state.with_galley(replace(a, grappled_with=frozenset({b.id})))
    return state.with_galley(replace(b, grappled_with=frozenset({a.id})))


def test_a_grapple_then_the_boarding_segment_captures_for_vp_and_loses_the_commander() -> None:
    state = alongside()
    state, events = apply(state, order(state, "activate Metellus: R5-52 grapple G5-13"), 6)
    (grapple,) = of(events, Grappled)
    assert grapple.line.grappler == g("R5-52") and state.grapple_lines == (grapple.line,)
    assert g("R5-52") in state.grapple_tried
    # The player sees the grapple, then decides the Boarding Segment (E/2).
    assert state.segment is Segment.BOARDING and play.pending(state).kind == "board"
    assert play.pending(state).side == "rome"
    decision = order(state, "board: R5-52 G5-13")
    state, events = apply(state, decision, 6, 6)  # M4 against M4
    (captured,) = of(events, Captured)
    assert captured.galley == g("G5-13") and state.controller(state.galley(g("G5-13"))) == "rome"
    assert [(e.vp, e.reason) for e in of(events, VPAwarded)] == [(7, "captured"), (1, "Capture Bonus")]
    assert [(e.commander, e.galley) for e in of(events, CommanderLost)] == [("Gisgo", None)]
    assert state.segment is Segment.PHASE_PASS


def test_no_boarding_is_a_decision_too_and_a_repulse_bars_more_boarding_this_turn() -> None:
    state = grappled(alongside())
    state, _ = apply(state, order(state, "activate Metellus:"))
    assert state.segment is Segment.BOARDING
    assert apply(state, Boarding(side="rome"))[0].segment is Segment.PHASE_PASS
    state, events = apply(state, order(state, "board: R5-52 G5-13"), 1, 1)
    assert not of(events, Captured) and state.repulsed == (g("G5-13"),)


def test_missile_fire_and_the_targets_simultaneous_reaction_fire() -> None:
    state = alongside()
    state = replace(state, reactions=(("carthage", parse_reactions("default: fire=fired-upon")),))
    state, events = apply(state, order(state, "activate Metellus: R5-52 fire G5-13"), 6, 6)
    hits = of(events, MissileHit)
    assert [(h.galley, h.target) for h in hits] == [(g("R5-52"), g("G5-13")), (g("G5-13"), g("R5-52"))]
    assert state.galley(g("G5-13")).depletions == 1 and state.galley(g("R5-52")).depletions == 1
    assert g("R5-52") in state.fired and g("G5-13") in state.record.reaction_fired


def test_fire_during_movement_after_a_given_step() -> None:
    state = at(at(battle(), "R5-52", "3118-3119"), "G5-13", "3015-3016")
    # After its second step R5-52 is alongside G5-13's starboard flank: it shoots, then rows on.
    state, events = apply(state, order(state, "activate Metellus: R5-52 cruise 3: F F F; R5-52 fire G5-13 @2"), 6)
    steps = [type(e).__name__ for e in events]
    assert steps.index("MissileHit") < len(steps) - 1 - steps[::-1].index("Stepped")


def test_grapple_disengage_before_moving_then_the_plan() -> None:
    state = grappled(alongside())
    decision = order(state, "activate Metellus: R5-52 disengage; R5-52 cruise 2: B")
    state, events = apply(state, decision, 6)
    assert of(events, Disengaged) and not state.galley(g("R5-52")).grappled_with
    assert not state.galley(g("G5-13")).grappled_with
    held = grappled(alongside())
    held, events = apply(held, order(held, "activate Metellus: R5-52 disengage; R5-52 cruise 2: B"), 1)
    assert [e.order for e in of(events, OrderLapsed)] == ["movement"]
    assert held.galley(g("R5-52")).position == alongside().galley(g("R5-52")).position


def test_g1_foul_disengage_and_g2_firefight_spread_and_burning_out() -> None:
    state = alongside()
    a, b = state.galley(g("R5-52")), state.galley(g("G5-13"))
    state = state.with_galley(replace(a, fouled_with=frozenset({b.id})))
    state = state.with_galley(replace(b, fouled_with=frozenset({a.id})))
    freed, events = status.foul_disengage(state, _dice(1, 6))  # rolls in id order: G5-13 fails, R5-52 frees
    assert of(events, FoulFreed) and not freed.galley(g("R5-52")).fouled_with
    assert freed.galley(g("R5-52")).half_speed
    burning = grappled(state)
    burning = burning.with_galley(replace(burning.galley(g("G5-13")), on_fire=True))
    spread, events = status.galley_recovery(burning, _dice(4))  # 4: burns on and spreads
    assert [e.galley for e in of(events, SetOnFire)] == [g("R5-52")] and spread.galley(g("R5-52")).on_fire
    sunk, events = status.galley_recovery(burning, _dice(6))  # 6: burnt out and sunk
    assert of(events, SankByFire) and sunk.galley(g("G5-13")).position is None
    assert [(e.side, e.vp, e.reason) for e in of(events, VPAwarded)] == [("rome", 7, "burnt and sunk")]
    assert not sunk.galley(g("R5-52")).grappled_with and [e.commander for e in of(events, CommanderLost)] == ["Gisgo"]


def _dice(*faces: int) -> ForcedDice:
    return ForcedDice(*faces)


def test_8_42_every_adjacent_enemy_may_fire_at_a_galley_attempting_to_grapple() -> None:
    """ "against adjacent enemy galleys that are attempting to Grapple, Ram, or Rake": not only the one attacked."""
    state = at(alongside(), "G5-14", "3215-3216")  # alongside R5-52's other flank
    state = replace(state, reactions=(("carthage", parse_reactions("default: fire=attacked")),))
    state, events = apply(state, order(state, "activate Metellus: R5-52 grapple G5-13"), 6, 6, 6)
    hits = of(events, MissileHit)
    assert [(h.galley, h.target) for h in hits] == [(g("G5-13"), g("R5-52")), (g("G5-14"), g("R5-52"))]
    assert {g("G5-13"), g("G5-14")} <= state.record.reaction_fired


def test_8_42_reaction_fire_is_once_per_squadron_phase_so_each_enemy_squadron_may_be_answered() -> None:
    """8.42 "once per phase during an opponent's Movement segment": the phase is the Squadron Phase (5.41 "one
    Squadron Phase at a time. Only one squadron may be activated per phase"; 5.42 "two Command Squadrons in one
    phase"). G5-13 answers Metellus' squadron, then Catulus' in the same phase E; twice in one phase it may not."""
    state = at(alongside(), "R5-51", "2915-2916")  # on G5-13's other flank
    state = replace(state, reactions=(("carthage", parse_reactions("default: fire=fired-upon")),))
    state, events = decide(state, order(state, "activate Metellus: R5-52 fire G5-13"), 6, 6)
    assert len(of(events, MissileHit)) == 2 and g("G5-13") in state.record.reaction_fired
    state, _ = decide(state, order(state, "activate Gisgo:", "carthage"))
    state, events = decide(state, order(state, "activate Catulus: R5-51 fire G5-13"), 6, 6)
    assert state.phase.value == "E"
    assert [(h.galley, h.target) for h in of(events, MissileHit)] == [(g("R5-51"), g("G5-13")),
                                                                     (g("G5-13"), g("R5-51"))]


def test_8_42_reaction_fire_is_once_within_one_squadron_phase() -> None:
    """Two galleys of one activation fire at G5-13: it answers the first only (8.42 "once per phase")."""
    state = at(at(at(battle(), "R5-50", "3115-3116"), "R5-51", "2915-2916"), "G5-13", "3015-3016")
    state = replace(state, reactions=(("carthage", parse_reactions("default: fire=fired-upon")),))
    state, events = decide(state, order(state, "activate Catulus: R5-50 fire G5-13; R5-51 fire G5-13"), 6, 6, 6)
    assert [(h.galley, h.target) for h in of(events, MissileHit)] == [
        (g("R5-50"), g("G5-13")), (g("G5-13"), g("R5-50")), (g("R5-51"), g("G5-13"))]


def test_8_44_reaction_fire_may_be_flame_missiles_when_the_orders_say_so() -> None:
    """8.44: the player "states whether he using normal or his Flame Missile capability" - in Reaction Fire
    too. G5-13 (Flame-capable) answers with Flame Missiles: a D/F, then the F roll sets R5-52 On Fire (8.51)."""
    flame = Devices(flame_galleys=frozenset({g("G5-13")}))
    start = replace(grappled(alongside()), devices=flame)  # +1 to both: the target is Grappled (8.44)
    state = replace(start, reactions=(("carthage", parse_reactions("default: fire=fired-upon missiles=flame")),))
    # R5-52 rolls 1 (+1: nothing); G5-13 (M2, column 1-2) rolls 6 (+1: D/F); the F roll 4 sets R5-52 On Fire.
    state, events = apply(state, order(state, "activate Metellus: R5-52 fire G5-13"), 1, 6, 4)
    hits = of(events, MissileHit)
    assert [(h.galley, h.flame, h.result) for h in hits] == [(g("R5-52"), False, "-"), (g("G5-13"), True, "D/F")]
    assert state.galley(g("R5-52")).on_fire
    # Without the order, the same dice give regular missiles: a D/F without the F roll, no fire.
    plain = replace(start, reactions=(("carthage", parse_reactions("default: fire=fired-upon")),))
    plain, events = apply(plain, order(plain, "activate Metellus: R5-52 fire G5-13"), 1, 6)
    assert [h.flame for h in of(events, MissileHit)] == [False, False] and not plain.galley(g("R5-52")).on_fire


def test_8_52_flame_reaction_fire_falls_back_to_regular_missiles_at_two_hexes() -> None:
    """Flame Missiles reach one hex only (8.52): at two hexes the same order fires regular missiles."""
    state = at(alongside(), "R5-52", "3215-3216")  # a clear hex (3115-3116 side) between them
    state = replace(state, devices=Devices(flame_galleys=frozenset({g("G5-13")})),
                    reactions=(("carthage", parse_reactions("default: fire=fired-upon missiles=flame")),))
    state, events = apply(state, order(state, "activate Metellus: R5-52 fire G5-13"), 1, 6)
    assert [(h.galley, h.flame) for h in of(events, MissileHit)] == [(g("R5-52"), False), (g("G5-13"), False)]


def test_7_16_a_galley_rammed_twice_may_fire_at_either_rammer() -> None:
    """7.16 Rammed: "It may Fire, but only at the galley that rammed it": each galley that rammed it did. G5-13,
    Rammed earlier by R5-50, is rammed again by R5-52 (Fouled); it may still shoot at R5-50."""
    state = at(at(at(battle(), "G5-13", "3015-3016", rammed=True), "R5-50", "2915-2916"), "R5-52", "3115-3216")
    state = replace(state, rammed_by=((g("G5-13"), g("R5-50")),))
    state, events = decide(state, order(state, "activate Metellus: R5-52 cruise 0: R:G5-13"), 6, 6)
    assert [r for t, r in state.rammed_by if t == g("G5-13")] == [g("R5-50"), g("R5-52")]
    assert state.to_move == "carthage"
    state, events = decide(state, order(state, "activate Gisgo: G5-13 fire R5-50", "carthage"), 6)
    assert [(h.galley, h.target) for h in of(events, MissileHit)] == [(g("G5-13"), g("R5-50"))]
