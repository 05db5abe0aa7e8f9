"""A transfer with the next decision for either result of its die (5.52, engine.war_galley.play.transfer_orders)."""

from __future__ import annotations

import pytest

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.play import dispatch as play
from engine.war_galley.play import legal, notation
from engine.war_galley.play.shortcuts import uses_shortcut
from engine.war_galley.turn.commanders import Transferred
from engine.war_galley.turn.decisions import Initiative, Speed, Transfer, from_json, to_json
from engine.war_galley.turn.sequence import SpeedChosen
from tests.engine.war_galley.game_support import decide, g, run, skirmish

CRUISE = Speed(side="rome", squadron="Catulus")
MAXIMUM = Speed(side="rome", squadron="Catulus", maximum=(g("R5-51"),))
TRANSFER = Transfer(side="rome", commander="Catulus", to=g("R5-51"), if_done=CRUISE, if_failed=MAXIMUM)


def speed_phase():
    state, _, _ = run(skirmish(), 4, 2)
    state, _ = decide(state, Initiative(side="rome", first="rome"))
    return state


def test_the_die_transfers_him_and_the_transferred_follow_up_is_carried_out_at_once() -> None:
    state, events = decide(speed_phase(), TRANSFER, 6)
    assert [type(e) for e in events][:2] == [type(events[0]), Transferred]
    assert any(isinstance(e, SpeedChosen) and e.squadron == "Catulus" and e.maximum == () for e in events)
    assert "Catulus" in state.speed_set and state.commander("Catulus").galley == g("R5-51")


def test_he_stays_aboard_and_the_stays_follow_up_is_carried_out() -> None:
    state, events = decide(speed_phase(), TRANSFER, 2)
    assert not any(isinstance(e, Transferred) for e in events)
    assert "Catulus" in state.speed_set and state.galley(g("R5-51")).speed is SpeedSide.MAXIMUM


def test_a_follow_up_the_result_forbids_is_refused_before_the_die() -> None:
    # 5.52: the galley receiving him may not use Maximum Speed: checked on the state that result leaves.
    bad = Transfer(side="rome", commander="Catulus", to=g("R5-51"), if_done=MAXIMUM)
    with pytest.raises(IllegalOrder, match=r"^5\.52: transferred: .*Cruise Speed"):
        play.apply(speed_phase(), bad, ForcedDice())  # no face: nothing is rolled
    other_side = Transfer(side="rome", commander="Catulus", to=g("R5-51"), if_failed=Initiative(side="rome", first="rome"))
    with pytest.raises(IllegalOrder, match="stays"):
        play.apply(speed_phase(), other_side, ForcedDice())


def test_a_left_out_result_is_decided_after_the_die_as_without_the_shortcut() -> None:
    state, _ = decide(speed_phase(), Transfer(side="rome", commander="Catulus", to=g("R5-51"), if_done=CRUISE), 1)
    assert "Catulus" not in state.speed_set and play.pending(state).kind == "speed"


def test_notation_and_json_read_back_the_same_decision() -> None:
    text = notation.format_decision(TRANSFER)
    assert text == "transfer Catulus to R5-51 => transferred: speed Catulus: cruise => stays: speed Catulus: max R5-51"
    assert notation.parse_decision(text, "rome") == TRANSFER
    assert from_json(to_json(TRANSFER)) == TRANSFER and uses_shortcut(TRANSFER)
    plain = Transfer(side="rome", commander="Catulus", to=g("R5-51"))
    assert to_json(plain) == {"kind": "transfer", "side": "rome", "commander": "Catulus", "to": to_json(plain)["to"]}


def test_the_listing_offers_a_transfer_with_follow_ups_that_pass_apply() -> None:
    state = speed_phase()
    offered = [d for d in legal.legal(state) if isinstance(d, Transfer) and uses_shortcut(d)]
    assert offered
    for decision in offered:
        for face in (1, 6):
            after, _ = decide(state, decision, face)
            assert len(after.speed_set) > len(state.speed_set)  # the follow-up chose a squadron's Speed Levels
