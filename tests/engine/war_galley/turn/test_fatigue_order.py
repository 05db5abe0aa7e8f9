"""6.42's order of dice: "The check is made after each galley completes its actions for the segment."

Version 2 rolls a galley's Fatigue check the moment it has done, before the
next galley of the squadron moves; version 1 rolled every check after the
whole squadron (its recorded games still verify: they are judged by it).
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.war_galley.galley_combat.ramming import RamResolved
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.notation import parse_decision
from engine.war_galley.ruleset import RULESET
from engine.war_galley.turn.fatigue import Fatigued
from engine.war_galley.turn.state import GameState
from tests.engine.war_galley.game_support import at, g, skirmish, to_command_phase


def two_rammers(version: str) -> GameState:
    """Metellus' squadron R5-52 and R5-53, both at Maximum, each bow on an enemy's flank (7.12)."""
    state = to_command_phase(skirmish(), maximum=("R5-52", "R5-53"))
    for galley, where in (("R5-50", "1005-1006"), ("R5-51", "1405-1406"), ("G5-11", "1025-1026"),
                          ("G5-14", "1425-1426"), ("R5-52", "3115-3216"), ("G5-12", "3015-3016"),
                          ("R5-53", "3515-3616"), ("G5-13", "3415-3416")):
        state = at(state, galley, where)
    state = replace(state, squadrons=tuple(replace(s, galleys=(g("R5-52"), g("R5-53"))) if s.key == "Metellus" else s
                                           for s in state.squadrons if s.key != "R5-53"))
    return RULESET.at_version(version).judging(state)


ORDERS = "activate Metellus: R5-52 max 0: R:G5-12; R5-53 max 0: R:G5-13"


def rolled(version: str) -> tuple[list[str], list[type]]:
    state = two_rammers(version)
    dice = ForcedDice(6, 6, 6, 6, 6, 6)  # each Ram's 2d6, each Fatigue check (6 + 1 for the Ram attempt)
    _, events = play.apply(state, parse_decision(ORDERS, "rome", state.board.map), dice)
    assert dice.unused == []
    return [r.purpose for r in dice.rolls], [type(e) for e in events if isinstance(e, (RamResolved, Fatigued))]


def test_version_2_checks_each_galley_the_moment_it_has_done() -> None:
    purposes, kinds = rolled("2")
    assert purposes == ["7.14 R5-52 rams G5-12", "7.14 R5-52 rams G5-12", "6.42 fatigue R5-52",
                        "7.14 R5-53 rams G5-13", "7.14 R5-53 rams G5-13", "6.42 fatigue R5-53"]
    assert kinds == [RamResolved, Fatigued, RamResolved, Fatigued]


def test_version_1_checked_them_all_after_the_squadron() -> None:
    purposes, _ = rolled("1")
    assert purposes == ["7.14 R5-52 rams G5-12", "7.14 R5-52 rams G5-12", "7.14 R5-53 rams G5-13",
                        "7.14 R5-53 rams G5-13", "6.42 fatigue R5-52", "6.42 fatigue R5-53"]


def test_the_same_dice_mark_the_same_galleys_either_way() -> None:
    results = []
    for version in ("1", "2"):
        state = two_rammers(version)
        state, _ = play.apply(state, parse_decision(ORDERS, "rome", state.board.map), ForcedDice(6, 6, 6, 6, 6, 6))
        results.append([(str(x.id), x.fatigue, x.speed) for x in state.galleys])
        assert {g("R5-52"), g("R5-53")} <= set(state.fresh_fatigue)  # 6.43: counted from the next turn
    assert results[0] == results[1]
