"""How some battles open (scenario book): approach moves and first-turn command.

- Side, `approach_phase`: "The first turn is comprised solely of the Rhodian
  fleet starting to move into position. Command requirements must be met."
  Turn 1: only that side forms squadrons and moves; it has the turn's
  initiative without a roll. Then the regular sequence starts.
- Catana, `pre_battle_move`: the Syracusans deploy "by undergoing a Movement
  segment ... before the actual game/battle begins": turn 1 is that segment,
  every Syracusan galley in one squadron needing no commander, at Cruise
  Speed; the Carthaginians do not move. READING: it is counted as turn 1.
- Ecnomus, `in_command_first_turn`: the Triarii squadron is In Command on
  the first turn regardless of range: its galleys on the map all join the
  squadron of its commander.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.war_galley.map_and_galleys.galley import Galley
from engine.war_galley.turn.extra import group_galleys
from engine.war_galley.turn.hooks import Params, hook
from engine.war_galley.turn.state import GameState, Squadron


@hook("setup", "approach_phase", "pre_battle_move")
def first_turn_initiative(state: GameState, params: Params, facts: Params) -> GameState:
    return replace(state, first_turn_initiative=params["side"])


@hook("squadrons", "approach_phase")
def approach(state: GameState, params: Params, side: str, formed: tuple[Squadron, ...]) -> tuple[Squadron, ...]:
    if state.turn <= int(params.get("turns", 1)) and side != params["side"]:
        return ()
    return formed


@hook("squadrons", "pre_battle_move")
def pre_battle(state: GameState, params: Params, side: str, formed: tuple[Squadron, ...]) -> tuple[Squadron, ...]:
    if state.turn != 1:
        return formed
    if side != params["side"]:
        return ()
    everyone = tuple(g for s in formed for g in s.galleys)
    return (Squadron("Pre-battle move", side, everyone, None, leaderless=True),) if everyone else ()


@hook("maximum", "pre_battle_move")
def cruise(state: GameState, params: Params, galley: Galley) -> tuple[str, str] | None:
    if state.turn == 1 and state.controller(galley) == params["side"]:
        return "Catana", f"{galley.id}: the pre-battle Movement segment is at Cruise Speed"
    return None


@hook("squadrons", "in_command_first_turn")
def in_command(state: GameState, params: Params, side: str, formed: tuple[Squadron, ...]) -> tuple[Squadron, ...]:
    if side != params["side"] or state.turn > int(params.get("turns", 1)):
        return formed
    group = set(g for g in group_galleys(state, params["group"]) if state.galley(g).position is not None)
    leader = next((c.name for c in state.commanders_of(side) if c.group == params["group"] and c.galley in group), None)
    if leader is None:
        return formed
    rest = [replace(s, galleys=tuple(g for g in s.galleys if g not in group)) for s in formed if s.commander != leader]
    own = tuple(sorted(group, key=lambda g: (g.type.value, g.number)))
    return (*[s for s in rest if s.galleys], Squadron(leader, side, own, leader))
