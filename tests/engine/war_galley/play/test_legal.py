"""The legal-action generator offers exactly what the rules allow (engine.war_galley.play.legal)."""

from __future__ import annotations

from engine.war_galley.play import dispatch as play
from engine.war_galley.play.legal import legal
from engine.war_galley.turn.decisions import Initiative, Transfer
from tests.engine.war_galley.game_support import decide, run, skirmish


def test_5_51_a_transfer_is_listed_in_phase_d_where_it_is_accepted() -> None:
    # 5.51: "The decision to Transfer may be made at any time": apply accepts it on the player's turn
    # in D (Speed Level Determination), so the listing must offer it there too.
    state, _, _ = run(skirmish(), 4, 2)
    state, _ = decide(state, Initiative(side="rome", first="rome"))
    assert play.pending(state).kind == "speed"
    listed = [d for d in legal(state) if isinstance(d, Transfer)]
    assert listed and {d.commander for d in listed} == {"Catulus", "Metellus"}
    state, _ = decide(state, listed[0], 3)  # and the listed transfer is accepted, 3-6 succeeds (5.52)
    assert state.commander(listed[0].commander).galley == listed[0].to
