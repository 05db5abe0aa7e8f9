"""The legal-action generator's combat plans (engine/war_galley/play/legal_combat.py): it offers the attacks 7.1-7.3
allow, each passing `apply`."""

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
