"""The listing offers a Pass-Through that rakes the galley beside (7.25: "during which it attempts to Rake
either galley (not both)"), written `X:G5-11:P:G5-12`, and the listed decision is applied as listed."""

from __future__ import annotations

from engine.dice import ForcedDice
from engine.war_galley.galley_combat.raking import RakeResolved
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.legal import legal
from engine.war_galley.play.notation import format_decision
from engine.war_galley.turn.decisions import Activate
from tests.engine.war_galley.game_support import at, g, skirmish, to_command_phase


def before_the_line():
    """7.28's example: Carthage's line abreast G5-13, G5-11, G5-12 (A is G5-11); Rome's R5-52 at Maximum."""
    state = to_command_phase(skirmish(), maximum=("R5-52",))
    for galley, where in (("R5-50", "1005-1006"), ("R5-51", "1405-1406"), ("G5-14", "1425-1426"),
                          ("R5-52", "2512-2413"), ("G5-11", "2811-2910"), ("G5-12", "2812-2911"),
                          ("G5-13", "2810-2909")):
        state = at(state, galley, where)
    return state


def test_the_listing_offers_raking_the_galley_beside_on_a_pass_through() -> None:
    state = before_the_line()
    listed = [d for d in legal(state) if isinstance(d, Activate) and d.squadron == "Metellus"]
    words = [format_decision(d, state.board.map) for d in listed]
    beside = [d for d, text in zip(listed, words) if "X:G5-11:P:G5-12" in text or "X:G5-11:S:G5-13" in text]
    assert beside, words
    dice = ForcedDice(*[6] * 20)
    after, events = play.apply(state, beside[0], dice)
    rake = next(e for e in events if isinstance(e, RakeResolved))
    assert rake.raker == g("R5-52") and rake.target in (g("G5-12"), g("G5-13"))  # the galley beside, not G5-11
