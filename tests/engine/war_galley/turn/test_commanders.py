"""Commander Transfer (5.51-5.52), the loss of a commander (5.53) and of the only Admiral (9.2)."""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.events import DieRolled
from engine.war_galley.map_and_galleys.galley import Removal
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.play import dispatch as play
from engine.war_galley.turn.commanders import (
    CommanderLost,
    CommanderRestored,
    FleetWithdraws,
    TransferSettled,
    Transferred,
    max_barred_by_commander,
    transfer_targets,
)
from engine.war_galley.turn.decisions import Activate, Speed, Transfer
from engine.war_galley.turn.state import Award, Phase
from engine.war_galley.turn.status import eliminate
from tests.engine.war_galley.game_support import at, decide, g, skirmish, to_command_phase


def targets(state, name: str) -> list[str]:
    return [str(x) for x in transfer_targets(state, state.commander(name))]


def test_transfer_goes_to_the_nearest_friendly_galley_by_a_path_free_of_enemies() -> None:
    state = skirmish()  # Catulus on R5-50 at 2020-2021; R5-51 at 2220-2221, R5-52 at 2420-2421
    assert targets(state, "Catulus") == ["R5-51"]
    # Enemies on all eight hexes around R5-51: no path reaches it, so the nearest is R5-52.
    walled = at(at(state, "G5-13", "2119-2120"), "G5-11", "2121-2222")
    walled = at(at(walled, "G5-12", "2219-2319"), "G5-14", "2320-2321")
    assert targets(walled, "Catulus") == ["R5-52"]
    fouled = state.with_galley(replace(state.galley(g("R5-51")), fouled_with=frozenset({g("G5-12")})))
    assert targets(fouled, "Catulus") == ["R5-52"]  # never to a Fouled (or Grappled) galley


def test_5_52_a_roll_of_3_to_6_transfers_him_re_and_the_galley_to_cruise() -> None:
    state = to_command_phase(skirmish(), maximum=("R5-51",))
    assert state.galley(g("R5-51")).speed is SpeedSide.MAXIMUM
    with pytest.raises(IllegalOrder, match="5.51"):
        play.apply(state, Transfer(side="rome", commander="Catulus", to=g("R5-52")), ForcedDice())
    state, events = decide(state, Transfer(side="rome", commander="Catulus", to=g("R5-51")), 3)
    assert [type(e) for e in events] == [DieRolled, Transferred]
    catulus = state.commander("Catulus")
    assert catulus.galley == g("R5-51") and catulus.reduced and catulus.range == 1
    assert state.galley(g("R5-51")).speed is SpeedSide.CRUISE
    assert max_barred_by_commander(state, g("R5-51")) is not None  # no Maximum until he is back to normal
    with pytest.raises(IllegalOrder, match="5.51"):  # one attempt a turn
        play.apply(state, Transfer(side="rome", commander="Catulus", to=g("R5-50")), ForcedDice())
    # He flips back at the end of the activation in which he commands.
    state, events = decide(state, Activate(side="rome", squadron="Catulus"))
    assert any(isinstance(e, CommanderRestored) for e in events)
    assert not state.commander("Catulus").reduced and max_barred_by_commander(state, g("R5-51")) is None


def test_5_52_a_roll_of_1_or_2_leaves_him_aboard() -> None:
    state = to_command_phase(skirmish())
    state, events = decide(state, Transfer(side="rome", commander="Catulus", to=g("R5-51")), 2)
    assert [e.outcome for e in events if isinstance(e, DieRolled)] == ["stays aboard"]
    assert state.commander("Catulus").galley == g("R5-50") and not state.commander("Catulus").reduced
    assert state.commander("Catulus").transfer_turn == 1


def test_a_transferred_commanders_galley_may_not_choose_maximum() -> None:
    from engine.war_galley.turn.decisions import Initiative
    from tests.engine.war_galley.game_support import run

    state, _, _ = run(skirmish(), 4, 2)
    state, _ = decide(state, Initiative(side="rome", first="rome"))
    state, _ = decide(state, Transfer(side="rome", commander="Catulus", to=g("R5-51")), 6)
    with pytest.raises(IllegalOrder, match="5.52"):
        play.apply(state, Speed(side="rome", squadron="Catulus", maximum=(g("R5-51"),)), ForcedDice())


def test_5_52_a_commander_re_for_good_who_transfers_bars_maximum_until_he_has_commanded() -> None:
    # 5.52 "The galley may not use Maximum Speed until the SqC resumes his normal ratings": a commander
    # lost once (5.53, RE for the rest of the game) who transfers still bars it, for the transfer's span.
    from tests.engine.war_galley.game_support import commander as with_commander

    state = to_command_phase(with_commander(skirmish(), "Catulus", reduced=True, permanent_re=True))
    state, _ = decide(state, Transfer(side="rome", commander="Catulus", to=g("R5-51")), 4)
    assert max_barred_by_commander(state, g("R5-51")) is not None
    state, events = decide(state, Activate(side="rome", squadron="Catulus"))
    assert any(isinstance(e, TransferSettled) for e in events)
    assert not any(isinstance(e, CommanderRestored) for e in events)  # he stays RE (5.53)
    assert max_barred_by_commander(state, g("R5-51")) is None and state.commander("Catulus").reduced


def sunk_with_catulus(*faces: int):
    state = to_command_phase(skirmish())
    dice = ForcedDice(*faces)
    state, events = eliminate(state, g("R5-50"), Removal.SUNK, "sunk", dice, "7.17")
    assert dice.unused == []
    return state, events


def test_5_53_a_lost_commander_joins_the_nearest_galley_of_his_squadron_re_for_good() -> None:
    state, events = sunk_with_catulus(1)  # 9.2: 1 + 3 + 1 (behind on VP) = 5: fights on
    lost = [e for e in events if isinstance(e, CommanderLost)]
    assert [(e.commander, str(e.galley)) for e in lost] == [("Catulus", "R5-51")]
    catulus = state.commander("Catulus")
    assert catulus.reduced and catulus.permanent_re and catulus.rating == 2
    assert state.vp("carthage") == 7  # R5-50's Ram Defense (9.1)
    assert state.result is None


def test_5_53_with_no_galley_left_in_his_squadron_he_is_gone() -> None:
    state = to_command_phase(skirmish())
    state, events = eliminate(state, g("R5-52"), Removal.STUCK, "stuck", ForcedDice(), "6.36")
    assert [(e.commander, e.galley) for e in events if isinstance(e, CommanderLost)] == [("Metellus", None)]
    assert state.commander("Metellus").galley is None


def test_9_2_losing_the_only_admiral_the_fleet_withdraws_above_6() -> None:
    state, events = sunk_with_catulus(3)  # 3 + 3 (Initiative) + 1 (fewer VP) = 7 > 6
    roll = [e for e in events if isinstance(e, DieRolled)][-1]
    assert roll.modifiers == (("the Admiral's Initiative", 3), ("fewer VP than the enemy", 1))
    assert roll.adjusted == 7 and any(isinstance(e, FleetWithdraws) for e in events)
    assert state.phase is Phase.OVER and state.result is not None
    assert state.result.winner == "carthage" and state.result.kind == "withdrawal"
    assert "32" in state.result.text  # 7 VP + the 25 VP bonus


def test_9_2_the_withdrawing_fleet_still_ahead_is_only_a_draw() -> None:
    state = to_command_phase(skirmish())
    state = replace(state, awards=(Award(g("G5-11"), "rome", "damage", 40),))
    state, events = eliminate(state, g("R5-50"), Removal.STUCK, "stuck", ForcedDice(4), "6.36")  # 4 + 3 = 7
    assert state.result is not None and state.result.winner is None and state.result.kind == "draw"


def test_9_2_does_not_apply_with_another_active_admiral() -> None:
    state = to_command_phase(skirmish())
    state = state.with_commander(replace(state.commander("Metellus"), admiral=True, initiative=1))
    state, events = eliminate(state, g("R5-50"), Removal.SUNK, "sunk", ForcedDice(), "7.17")
    assert not [e for e in events if isinstance(e, DieRolled)] and state.result is None


def test_9_2_the_only_admiral_lost_when_his_flagship_sinks_in_g4_rolls() -> None:
    # Sinking (G/4) removes the galley before the casualties are settled: 9.2 asks about the fleet before.
    from engine.war_galley.turn.status import sinking

    state = to_command_phase(skirmish())
    state = state.with_galley(replace(state.galley(g("R5-50")), rammed=True))
    dice = ForcedDice(6, 3)  # 7.17: a 6 sinks her; 9.2: 3 + 3 (Initiative) + 1 (fewer VP) = 7 > 6
    state, events = sinking(state, dice)
    assert dice.unused == []
    roll = [e for e in events if isinstance(e, DieRolled)][-1]
    assert roll.rule == "9.2" and roll.adjusted == 7
    assert any(isinstance(e, FleetWithdraws) for e in events)
    assert state.result is not None and state.result.kind == "withdrawal"
