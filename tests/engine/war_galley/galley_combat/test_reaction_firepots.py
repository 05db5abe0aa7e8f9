"""Firepots with a Defensive Reaction Ram (8.53 with 6.7), version 2: Myonessus played with 6.7.

8.53: "Ships that are Firepot-armed (noted in each scenario), roll for success
as part of a Ram Attempt, if they so wish, but before resolving the Ram". 6.7:
a galley whose bow the mover crosses "may attempt to Ram the moving galley ...
the player may Ram using 7.14-7.16" - a Ram Attempt, so the Rhodians'
firepot catastrophes may drop them on it. By mail the wish is a standing
order: `firepots=with-ram` (docs/reactions.md).
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.events import DieRolled
from engine.war_galley.galley_combat.ramming import RamResolved
from engine.war_galley.galley_combat.reactions import (
    FirepotsReaction,
    format_reactions,
    parse_reaction,
    parse_reactions,
)
from engine.war_galley.map_and_galleys.galley import parse_galley_id
from engine.war_galley.map_and_galleys.position import parse_position
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.notation import parse_decision
from engine.war_galley.ruleset import RULESET
from engine.war_galley.turn.decisions import Reactions
from engine.war_galley.turn.state import GameState, Phase
from tests.engine.war_galley.scenario_support import deployed, drive

RHODIAN = "Gcat3-26"  # Myonessus: the Rhodian catastrophes cat3#26-32 carry firepots
MOVE = "activate Polyxenidas: R5-83 cruise 3: F F F"  # its first F puts its bow in the Rhodian's Bow hex


def crossing(version: str, orders: str) -> GameState:
    """Myonessus with 6.7, the Syrians to activate; a Syrian quinquereme about to cross a Rhodian's bow."""
    state = RULESET.at_version(version).judging(deployed("myonessus", {"defensive_reaction_ram": "on"}))
    state = drive(state, lambda s: s.phase is Phase.COMMAND)
    assert state.to_move == "syrians"
    for name, where in (("R5-83", "2913-2813"), (RHODIAN, "3015-3016")):  # a clear stretch of sea
        galley = state.galley(parse_galley_id(name))
        state = state.with_galley(replace(galley, position=parse_position(where, state.board.map)))
    return replace(state, reactions=(*(r for r in state.reactions if r[0] != "allies"),
                                     ("allies", parse_reactions(orders))))


def syrians_move(state: GameState, *faces: int) -> tuple[GameState, list, ForcedDice]:
    dice = ForcedDice(*faces)
    state, events = play.apply(state, parse_decision(MOVE, "syrians", state.board.map), dice)
    return state, events, dice


def test_the_reacting_rhodian_drops_its_firepots_before_its_ram_is_resolved() -> None:
    state = crossing("2", "default: ram=eligible firepots=with-ram")
    # 6.7 Crew check 1 (Crew 3 or less); 8.53 a 6 sets the target On Fire; then the Ramming Table's 2d6.
    state, events, dice = syrians_move(state, 1, 6, 6, 6)
    assert dice.unused == []
    rolls = [e.rule for e in events if isinstance(e, DieRolled)]
    assert rolls[:3] == ["6.7", "8.53", "7.14"]
    ram = next(e for e in events if isinstance(e, RamResolved))
    assert ram.reaction and str(ram.rammer) == RHODIAN
    assert state.galley(parse_galley_id("R5-83")).on_fire


def test_without_the_order_it_rams_without_them() -> None:
    state = crossing("2", "default: ram=eligible")
    state, events, dice = syrians_move(state, 1, 6, 6)
    assert [e.rule for e in events if isinstance(e, DieRolled)][:2] == ["6.7", "7.14"] and dice.unused == []
    assert not state.galley(parse_galley_id("R5-83")).on_fire


def test_a_failed_crew_check_is_no_ram_attempt_and_drops_nothing() -> None:
    state = crossing("2", "default: ram=eligible firepots=with-ram")
    _, events, dice = syrians_move(state, 6)
    assert [e.rule for e in events if isinstance(e, DieRolled)][:1] == ["6.7"] and "8.53" not in [
        e.rule for e in events if isinstance(e, DieRolled)] and dice.unused == []


def test_the_setting_reads_and_prints_back() -> None:
    assert parse_reaction("ram=eligible firepots=with-ram").firepots is FirepotsReaction.WITH_RAM
    orders = parse_reactions("default: ram=eligible firepots=with-ram\nGcat3-27: firepots=never\n")
    assert parse_reactions(format_reactions(orders)) == orders


def test_version_1_had_no_such_setting_and_refuses_it_naming_the_version() -> None:
    state = crossing("1", "default: ram=eligible")
    with pytest.raises(IllegalOrder, match="version 2"):
        play.apply(replace(state, to_move="allies"),
                   Reactions(side="allies", orders=parse_reactions("default: firepots=with-ram")), ForcedDice())


def test_without_6_7_the_setting_is_refused_like_ram_eligible() -> None:
    state = RULESET.judging(deployed("myonessus"))
    state = replace(drive(state, lambda s: s.phase is Phase.COMMAND), to_move="allies")
    with pytest.raises(IllegalOrder, match="6.7"):
        play.apply(state, Reactions(side="allies", orders=parse_reactions("default: firepots=with-ram")),
                   ForcedDice())
