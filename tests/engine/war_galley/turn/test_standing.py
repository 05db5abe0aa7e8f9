"""Standing orders for phases B-D (engine.war_galley.turn.standing): what the rules then do without asking."""

from __future__ import annotations

import pytest

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.play import dispatch as play
from engine.war_galley.play import legal, notation
from engine.war_galley.turn import standing
from engine.war_galley.turn.decisions import Initiative, Standing
from engine.war_galley.turn.initiative import FirstPlayerChosen
from engine.war_galley.turn.sequence import SpeedChosen
from engine.war_galley.turn.state import Phase
from tests.engine.war_galley.game_support import decide, run, skirmish


def test_a_standing_initiative_choice_is_made_when_the_side_wins_the_roll_3_2() -> None:
    state = standing.set_orders(skirmish(), Standing(side="rome", first="carthage"))
    state, events, _ = run(state, 4, 2)  # Rome 4+3 v Carthage 2+1: Rome wins and is not asked
    assert [(e.side, e.first) for e in events if isinstance(e, FirstPlayerChosen)] == [("rome", "carthage")]
    assert state.phase is Phase.SPEED and play.pending(state).side == "carthage"


def test_the_losers_standing_choice_changes_nothing() -> None:
    state = standing.set_orders(skirmish(), Standing(side="carthage", first="carthage"))
    state, _, _ = run(state, 4, 2)
    assert play.pending(state).kind == "initiative" and play.pending(state).side == "rome"


def test_standing_speed_sets_each_squadron_in_its_turn_and_the_opponent_is_still_asked_6_12() -> None:
    state, _, _ = run(skirmish(), 4, 2)
    state, _ = decide(state, Standing(side="rome", speed="max"))  # with a decision, no dice
    state, events = decide(state, Initiative(side="rome", first="rome"))
    chosen = [e for e in events if isinstance(e, SpeedChosen) and e.side == "rome" and not e.automatic]
    assert chosen and all(e.standing and e.maximum for e in chosen)
    assert all(state.galley(g).speed is SpeedSide.MAXIMUM for e in chosen for g in e.maximum)
    assert play.pending(state).kind == "speed" and play.pending(state).side == "carthage"
    text = [notation.format_decision(d) for d in legal.legal(state)]
    assert "standing: ask" not in text  # carthage has none to withdraw


def test_this_turn_orders_lapse_with_the_turn() -> None:
    state = standing.set_orders(skirmish(), Standing(side="rome", first="rome", this_turn=True))
    assert standing.first(state, "rome") == "rome"
    state, _, _ = run(state, 4, 2)  # given in turn 0 (the deployment): turn 1 asks again
    assert play.pending(state).kind == "initiative" and standing.first(state, "rome") is None
    state, _, _ = run(standing.set_orders(skirmish(), Standing(side="rome", first="rome")), 4, 2)
    state = standing.set_orders(state, Standing(side="rome"))  # `standing: ask`: asked again
    assert standing.first(state, "rome") is None and standing.speed(state, "rome") is None


def test_a_bad_standing_order_is_refused_with_its_rule() -> None:
    state, _, _ = run(skirmish(), 4, 2)
    with pytest.raises(IllegalOrder, match=r"^3\.2: standing initiative: no side 'persia'"):
        play.apply(state, Standing(side="rome", first="persia"), ForcedDice())
    with pytest.raises(IllegalOrder, match=r"^6\.12"):
        play.apply(state, Standing(side="rome", speed="fast"), ForcedDice())


def test_notation_reads_back_what_it_prints() -> None:
    for text in ("standing: squadrons by range; initiative rome first; speed cruise",
                 "standing: this turn: initiative carthage first", "standing: ask"):
        assert notation.format_decision(notation.parse_decision(text, "rome")) == text


def test_the_rulesets_description_shows_the_standing_orders() -> None:
    from engine.war_galley.ruleset import RULESET

    state = skirmish()
    assert "standing orders" not in RULESET.describe(state)
    state = standing.set_orders(state, Standing(side="rome", squadrons=True, speed="cruise"))
    assert RULESET.describe(state).endswith(
        "; standing orders: Rome squadrons by range (5.24), every squadron cruise (6.12)")
