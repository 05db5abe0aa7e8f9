"""Turn Initiative (3.2, 5.13): 1d6 + the Admiral's Initiative, high total chooses who goes first.

Ties roll again. The winner's one choice applies to phases D, E and F (3.2
play note). A scenario may give the first turn's initiative to a side
(Lade, the Aegatian Isles) and give a fleet without an admiral a modifier
(Lade's Ionians, -1). With several admirals (5.13) the side rolls with its
best one; if it wins and goes first, that admiral's squadron must be the
first it activates in E (engine.war_galley.turn.activation).
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import DieRolled, Event
from engine.war_galley.turn.decisions import Initiative
from engine.war_galley.turn.state import CommanderState, GameState


class InitiativeWon(Event, frozen=True, kw_only=True):
    side: str
    given: bool = False  # by the scenario, without a roll


class FirstPlayerChosen(Event, frozen=True, kw_only=True):
    side: str  # who chose
    first: str


def active_admirals(state: GameState, side: str) -> list[CommanderState]:
    """The side's admirals still aboard a galley on the map, best Initiative first."""
    found = [
        c for c in state.commanders_of(side)
        if c.admiral and c.galley is not None and state.galley(c.galley).position is not None
    ]
    return sorted(found, key=lambda c: (-c.rating, c.name))


def _modifiers(state: GameState, side: str) -> tuple[tuple[str, int], ...]:
    mods: list[tuple[str, int]] = []
    admirals = active_admirals(state, side)
    if admirals:
        mods.append((f"Admiral {admirals[0].name}'s Initiative", admirals[0].rating))
    drm = state.side(side).initiative_drm
    if drm:
        mods.append(("no admiral (scenario)", drm))
    return tuple(mods)


def roll_initiative(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """Phase C: the roll (or the scenario's first-turn gift); the winner then chooses."""
    events: list[Event] = []
    given = state.first_turn_initiative if state.turn == 1 else None
    if given is not None:
        winner = given
        events.append(InitiativeWon(rule="3.2", side=winner, given=True))
    else:
        a, b = (s.key for s in state.sides)
        while True:
            totals = {}
            for side in (a, b):
                mods = _modifiers(state, side)
                natural = dice.d6(f"3.2 initiative {side}")
                totals[side] = natural + sum(v for _, v in mods)
                events.append(DieRolled(rule="3.2", table=f"Initiative ({side})", natural=natural,
                                        modifiers=mods, outcome=str(totals[side])))
            if totals[a] != totals[b]:
                winner = a if totals[a] > totals[b] else b
                break
            events.append(InitiativeWon(rule="3.2", side=""))  # a tie: roll again
        events.append(InitiativeWon(rule="3.2", side=winner))
    admirals = active_admirals(state, winner)
    return replace(state, initiative=winner, initiative_admiral=admirals[0].name if admirals else None), events


def choose_first(state: GameState, decision: Initiative) -> tuple[GameState, list[Event]]:
    if state.initiative != decision.side:
        raise IllegalOrder("3.2", f"{state.initiative} won the initiative and chooses")
    if decision.first not in (s.key for s in state.sides):
        raise IllegalOrder("3.2", f"no side {decision.first!r}")
    return replace(state, first=decision.first, to_move=decision.first), [
        FirstPlayerChosen(rule="3.2", side=decision.side, first=decision.first)
    ]
