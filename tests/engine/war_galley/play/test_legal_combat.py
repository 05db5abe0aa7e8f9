"""The legal-action generator's combat plans (engine/war_galley/play/legal_combat.py): it offers the attacks 7.1-7.3
allow, each passing `apply`, and what rule 8 allows a Flame-capable galley (8.44, 8.51-8.52)."""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.war_galley.galley_combat.combat_record import CombatRecord
from engine.war_galley.galley_combat.raking import RakeResolved
from engine.war_galley.movement.steps import PassThrough
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.legal import legal
from engine.war_galley.turn.decisions import Activate
from engine.war_galley.turn.state import GameState
from tests.engine.war_galley.game_support import at, g, skirmish, to_command_phase
from engine.war_galley.galley_combat.reactions import MissileChoice
from engine.war_galley.manpower_combat.devices import Devices
from engine.war_galley.manpower_combat.missiles import MissileHit
from engine.war_galley.play.legal_combat import reaction_examples
from tests.engine.war_galley.test_integration_combat import battle, of


def diekplus_example() -> GameState:
    """7.28's example in the Skirmish: Carthage's line abreast 2812-2911, A (G5-13) 2811-2910, 2810-2909;
    Rome's R5-52 at Maximum in 2512-2413, its one Ram attempt of the turn already made (7.11), so only
    Rakes are open to it."""
    state = to_command_phase(skirmish(), maximum=("R5-52",))
    for galley, where in (("R5-50", "1005-1006"), ("R5-51", "1405-1406"), ("R5-53", "1605-1606"),
                          ("G5-11", "1025-1026"), ("R5-52", "2512-2413"), ("G5-12", "2812-2911"),
                          ("G5-13", "2811-2910"), ("G5-14", "2810-2909")):
        state = at(state, galley, where)
    return replace(state, record=CombatRecord(ram_attempts=frozenset({g("R5-52")})))


def test_7_24_the_diekplus_through_the_middle_of_a_line_abreast_is_offered() -> None:
    """A galley inside a line has galleys on both sides: a Pass-Through of it must name the side passed
    (7.24), so the generator names one; without it the book's own Diekplus was never listed."""
    state = diekplus_example()
    passes = [(decision, step) for decision in legal(state) if isinstance(decision, Activate)
              for plan in decision.plans for step in plan.steps
              if isinstance(step, PassThrough) and step.target == g("G5-13")]
    assert passes, "no Pass-Through of the galley inside the line is listed"
    decision, step = passes[0]
    assert step.side is not None
    # The Rake (2d6 12) cripples A; then R5-52's 6.42 check (1d6) and whatever fire the listing adds.
    state, events = play.apply(state, decision, ForcedDice(6, 6, 1, 1, 1, 1, 1, 1))
    (rake,) = [e for e in events if isinstance(e, RakeResolved)]
    assert rake.target == g("G5-13") and rake.crippled and state.galley(g("G5-13")).crippled == {step.side}


def alongside(flame: bool) -> GameState:
    state = at(at(battle(), "R5-52", "3115-3116"), "G5-13", "3015-3016")
    return replace(state, devices=Devices(flame_galleys=frozenset({g("R5-52")}) if flame else frozenset()))


def shots(state: GameState) -> set[tuple[str, bool]]:
    return {(str(shot.target), shot.flame) for d in legal(state) if isinstance(d, Activate)
            for m in d.fire if m.order.galley == g("R5-52") for shot in m.order.shots}


def test_8_51_a_flame_capable_galley_is_offered_flame_missiles_at_an_adjacent_enemy() -> None:
    state = alongside(flame=True)
    assert ("G5-13", True) in shots(state)
    flaming = next(d for d in legal(state) if isinstance(d, Activate)
                   and any(s.flame for m in d.fire for s in m.order.shots))
    _, events = play.apply(state, flaming, ForcedDice(*[6] * 12))  # every listed decision passes apply
    assert any(h.flame for h in of(events, MissileHit))


def test_a_galley_without_flame_capability_is_never_offered_flame() -> None:
    assert shots(alongside(flame=False)) and not any(flame for _, flame in shots(alongside(flame=False)))


def test_8_44_bold_reaction_orders_use_flame_where_the_side_has_flame_galleys() -> None:
    bold = reaction_examples(alongside(flame=True), "rome")[0].orders.default
    assert bold.missiles is MissileChoice.FLAME
    assert reaction_examples(alongside(flame=True), "carthage")[0].orders.default.missiles is None
