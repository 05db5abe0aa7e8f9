"""Victory (9.1): the VP ledger, thresholds, concession, halt; sinking in G/4 (7.17)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.map_and_galleys.galley import Capture
from engine.war_galley.map_and_galleys.hexes import Hex
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.orders import parse_order
from engine.war_galley.turn import status, victory
from engine.war_galley.turn.decisions import AcceptHalt, Activate, Concede, ProposeHalt
from engine.war_galley.turn.state import Award
from tests.engine.war_galley.game_support import decide, g, skirmish, to_command_phase


def vp(state) -> tuple[int, int]:
    return state.vp("rome"), state.vp("carthage")


def test_rammed_aground_or_sunk_enemy_galleys_are_worth_their_ram_defense_once() -> None:
    state = skirmish()
    state, events = victory.damaged(state, g("G5-11"), "rammed")
    assert vp(state) == (7, 0) and events[0].reason == "rammed"
    state, events = victory.damaged(state, g("G5-11"), "sunk")  # rammed, then sunk: still once
    assert vp(state) == (7, 0) and events == []
    state, _ = victory.damaged(state, g("R5-50"), "ran aground")
    assert vp(state) == (7, 7)


def test_running_aground_in_a_move_scores_for_the_enemy() -> None:
    state = to_command_phase(skirmish())
    state = replace(state, board=state.board.with_land([Hex(20, 18)]))  # two hexes ahead of R5-50
    state, events = decide(state, Activate(side="rome", squadron="Catulus", plans=(parse_order("R5-50 cruise 2: F F"),)))
    assert state.galley(g("R5-50")).aground is not None and vp(state) == (0, 7)


def test_capture_bonus_lost_on_later_damage_and_capture_lost_on_recapture() -> None:
    state = skirmish()
    state, _ = victory.captured(state, g("G5-12"))
    assert vp(state) == (8, 0)  # Ram Defense 7 + the Capture Bonus
    captured = state.with_galley(replace(state.galley(g("G5-12")), capture=Capture.CAPTURED))
    later, events = victory.damaged(captured, g("G5-12"), "rammed")
    assert vp(later) == (7, 0) and events[0].reason == "the captured galley rammed"
    retaken, _ = victory.recaptured(captured, g("G5-12"))
    assert vp(retaken) == (0, 0)


def test_a_rammed_then_captured_galley_counts_its_ram_defense_once() -> None:
    state, _ = victory.damaged(skirmish(), g("G5-12"), "rammed")
    state, _ = victory.captured(state, g("G5-12"))
    assert vp(state) == (8, 0)
    state, _ = victory.recaptured(state, g("G5-12"))
    assert vp(state) == (7, 0)  # the ram stays; the capture and its bonus go


def test_thresholds_at_least_n_vp_and_twice_the_enemy() -> None:
    state = skirmish()  # both sides need 14
    give = lambda rome, carthage: replace(state, awards=(Award(g("G5-11"), "rome", "damage", rome),  # noqa: E731
                                                          Award(g("R5-50"), "carthage", "damage", carthage)))
    assert victory.check(give(13, 0)) is None
    assert victory.check(give(14, 7)).winner == "rome"
    assert victory.check(give(14, 8)) is None  # not twice the enemy's
    assert victory.check(give(7, 21)).winner == "carthage"


def test_a_fleet_with_no_galley_left_ends_the_game_most_vp_wins() -> None:
    state = skirmish()
    for name in ("G5-11", "G5-12", "G5-13", "G5-14"):
        state = state.with_galley(replace(state.galley(g(name)), position=None))
    state = replace(state, awards=(Award(g("R5-50"), "carthage", "damage", 7),))
    result = victory.check(state)
    assert result is not None and result.winner == "carthage"


def test_concession_and_a_halt_by_agreement() -> None:
    state = to_command_phase(skirmish())
    conceded, _ = play.apply(state, Concede(side="rome"), ForcedDice())
    assert conceded.result.winner == "carthage" and conceded.result.kind == "concession"
    assert play.pending(conceded).finished
    with pytest.raises(IllegalOrder, match="9.1"):
        play.apply(conceded, Concede(side="carthage"), ForcedDice())
    state = replace(state, awards=(Award(g("G5-11"), "rome", "damage", 7),))
    with pytest.raises(IllegalOrder, match="9.1"):
        play.apply(state, AcceptHalt(side="rome"), ForcedDice())
    state, _ = decide(state, ProposeHalt(side="rome"))
    state, _ = decide(state, Activate(side="rome", squadron="Catulus"))
    assert state.halt_proposed == "rome" and play.pending(state).side == "carthage"
    halted, _ = play.apply(state, AcceptHalt(side="carthage"), ForcedDice())
    assert halted.result.kind == "minor" and halted.result.winner == "rome"
    declined, _ = decide(state, Activate(side="carthage", squadron="Hanno"))
    assert declined.halt_proposed is None  # carrying on declines


def test_7_17_sinking_in_g4_takes_fouled_partners_down() -> None:
    state = skirmish()
    rammed = replace(state.galley(g("G5-11")), rammed=True, fouled_with=frozenset({g("R5-50")}))
    state = state.with_galley(rammed)
    state = state.with_galley(replace(state.galley(g("R5-50")), fouled_with=frozenset({g("G5-11")})))
    afloat, _ = status.sinking(state, ForcedDice(5))
    assert afloat.galley(g("G5-11")).position is not None
    dice = ForcedDice(6, 2, 2)  # sinks; then both admirals' 9.2 rolls (Hanno aboard G5-11, Catulus aboard R5-50)
    sunk, events = status.sinking(state, dice)
    assert sunk.galley(g("G5-11")).position is None and sunk.galley(g("R5-50")).position is None
    assert vp(sunk) == (7, 7)


def test_9_1_the_capture_bonus_is_the_rules_datas() -> None:
    state = skirmish()
    text = state.rules.charts.replace("bonus_vp = 1 ", "bonus_vp = 2 ")
    assert text != state.rules.charts
    state, _ = victory.captured(replace(state, rules=replace(state.rules, charts=text)), g("G5-12"))
    assert vp(state) == (9, 0)  # Ram Defense 7 + a Capture Bonus of 2
