"""Ecnomus' two admirals (5.13, 5.53, 9.2): "if one is killed, the other becomes the sole admiral".

The book, Ecnomus' PLAY NOTE: "The Romans had two admirals for this battle:
Manlius and Regulus. Both may use the Admiral rules. However, if one is
killed, the other becomes the sole admiral." 9.2: "If a fleet loses its only
admiral (this does not apply to fleets with more than one active admiral)
the player rolls one die". Version 2 reads it so (docs/rules-notes.md);
version 1, which kept the lost Manlius an admiral, still judges its games.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.events import DieRolled
from engine.war_galley.map_and_galleys.galley import Removal
from engine.war_galley.ruleset import RULESET
from engine.war_galley.turn.commanders import CommanderLost, FleetWithdraws, SoleAdmiral
from engine.war_galley.turn.initiative import active_admirals
from engine.war_galley.turn.state import RULES_VERSION, Phase
from engine.war_galley.turn.status import eliminate
from tests.engine.war_galley.scenario_support import deployed, drive


def _ecnomus(version: str):  # type: ignore[no-untyped-def]
    state = RULESET.at_version(version).judging(deployed("ecnomus"))
    assert state.rules_version == int(version)
    state = drive(state, lambda s: s.phase is Phase.COMMAND)  # squadrons formed (phase B): 5.53 needs mates
    # Manlius commands his Squadron I as the book deploys it (the do-nothing player left him alone).
    first = tuple(g for g, group in state.extra.groups if group == "Squadron I")
    squadrons = tuple(replace(q, galleys=first) if q.key == "Manlius" else
                      replace(q, galleys=tuple(g for g in q.galleys if g not in first)) for q in state.squadrons)
    return replace(state, squadrons=tuple(q for q in squadrons if q.galleys))


def _sink_flagship(state, name: str, *faces: int):  # type: ignore[no-untyped-def]
    ship = state.commander(name).galley
    dice = ForcedDice(*faces)
    state, events = eliminate(state, ship, Removal.SUNK, "sunk", dice, "7.17")
    assert dice.unused == []
    return state, events


def test_once_manlius_is_lost_regulus_is_the_sole_admiral_and_losing_him_rolls_9_2() -> None:
    state = _ecnomus("2")
    assert [a.name for a in active_admirals(state, "romans")] == ["Manlius", "Regulus"]
    state, events = _sink_flagship(state, "Manlius")  # no die: Regulus still commands (9.2 does not apply)
    assert not [e for e in events if isinstance(e, DieRolled)]
    manlius = state.commander("Manlius")
    assert manlius.galley is not None and manlius.permanent_re  # 5.53: placed with his squadron, RE for good
    assert not manlius.admiral  # ... and no longer an admiral: "the other becomes the sole admiral"
    assert [(e.lost, e.admirals) for e in events if isinstance(e, SoleAdmiral)] == [("Manlius", ("Regulus",))]
    assert [a.name for a in active_admirals(state, "romans")] == ["Regulus"]
    state, events = _sink_flagship(state, "Regulus", 6)  # 9.2: 6 + Regulus' Initiative 2 = 8 > 6: withdraws
    roll = [e for e in events if isinstance(e, DieRolled)][-1]
    assert roll.rule == "9.2" and roll.modifiers[0] == ("the Admiral's Initiative", 2)
    assert any(isinstance(e, FleetWithdraws) for e in events)
    assert state.result is not None and state.result.kind == "withdrawal" and state.result.winner == "carthaginians"


def test_both_admirals_lost_together_the_second_is_the_fleets_only_admiral() -> None:
    state = _ecnomus("2")
    regulus_ship = state.commander("Regulus").galley
    state = state.with_commander(replace(state.commander("Manlius"), galley=regulus_ship))
    state, events = _sink_flagship(state, "Regulus", 1)  # one 9.2 roll, for the last of them
    assert [e.rule for e in events if isinstance(e, DieRolled)] == ["9.2"]
    assert [e.commander for e in events if isinstance(e, CommanderLost)] == ["Regulus", "Manlius"]


def test_version_1_kept_the_lost_manlius_an_admiral_so_losing_regulus_rolled_nothing() -> None:
    state = _ecnomus("1")
    assert RULES_VERSION not in dict(state.options)  # version 1's states say no version: their bytes as before
    state, _ = _sink_flagship(state, "Manlius")
    assert state.commander("Manlius").admiral
    state, events = _sink_flagship(state, "Regulus")
    assert not [e for e in events if isinstance(e, DieRolled)] and state.result is None
