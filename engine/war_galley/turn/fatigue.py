"""Crew Fatigue (6.42-6.45, 7.36): the check after a galley that began its movement at Maximum.

A new F marker counts from the next turn: the Fatigue Recovery segment of
the turn it was placed leaves it alone. That is the reading both examples
need: 6.43's "an F-3 will fatigue the crew for the next 3 turns", and 6.44's
F-2 galley whose "highest possible Speed next turn is 2" (Cruise 4 - 2).
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import Dice
from engine.events import DieRolled, Event
from engine.war_galley.map_and_galleys.charts import avoidance_fatigue, fatigue_result
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId, MoveRecord
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.speed import excess_over_cruise
from engine.war_galley.turn import hooks
from engine.war_galley.turn.state import GameState


class Fatigued(Event, frozen=True, kw_only=True):
    galley: GalleyId
    level: int  # the F-# marker


class Recovered(Event, frozen=True, kw_only=True):
    """G/3 (6.45): the marker goes down one step, or off from F-1."""

    galley: GalleyId
    level: int  # 0: no longer fatigued


def _mark(state: GameState, galley: Galley, level: int, rule: str) -> tuple[GameState, list[Event]]:
    if level <= 0:
        return state, []
    # 6.12: a fatigued galley is flipped to Cruise at once; a higher marker replaces a lower one.
    tired = replace(galley, fatigue=max(galley.fatigue, level), speed=SpeedSide.CRUISE)
    state = state.with_galley(tired)
    fresh = state.fresh_fatigue if galley.id in state.fresh_fatigue else (*state.fresh_fatigue, galley.id)
    return replace(state, fresh_fatigue=fresh), [Fatigued(rule=rule, galley=galley.id, level=tired.fatigue)]


def check(
    state: GameState, galley_id: GalleyId, dice: Dice, *, ram_attempt: bool = False, rake_attempt: bool = False
) -> tuple[GameState, list[Event]]:
    """6.42: 1d6 + MP beyond Cruise (+1 ram attempt, +1 rake attempt) on the galley's Crew column."""
    galley = state.galley(galley_id)
    level, roll = _roll(state, galley, galley.moved, dice, ram_attempt, rake_attempt)
    state, events = _mark(state, galley, level, "6.43")
    return state, [roll, *events]


def check_galley(state: GameState, galley: Galley, moved: MoveRecord | None, dice: Dice, *, ram_attempt: bool,
                 rake_attempt: bool) -> tuple[Galley, list[Event]]:
    """`check` for a galley of the movement segment as it stands the moment it has done (version 2's 6.42,
    "after each galley completes its actions"): `moved` its MoveRecord of this activation, None if it did not
    move; the galley marked, and the events. `state` is the game the activation began in (the battle's rules)."""
    level, roll = _roll(state, galley, moved, dice, ram_attempt, rake_attempt)
    if level <= 0:
        return galley, [roll]
    tired = replace(galley, fatigue=max(galley.fatigue, level), speed=SpeedSide.CRUISE)  # as `_mark`
    return tired, [roll, Fatigued(rule="6.43", galley=galley.id, level=tired.fatigue)]


def _roll(state: GameState, galley: Galley, moved: MoveRecord | None, dice: Dice, ram_attempt: bool,
          rake_attempt: bool) -> tuple[int, DieRolled]:
    table = state.charts.fatigue
    used = moved.spent if moved is not None else 0
    # 6.22: the wind's MP come "without incurring Fatigue" (a Tremiola's +2 at Maximum, 6.25).
    wind = moved.wind if moved is not None else 0
    mods: list[tuple[str, int]] = []
    over = excess_over_cruise(galley.ratings, used - wind)
    if over:
        words = f"{used} MP used, Cruise Speed {galley.ratings.cruise.speed}" + (f" + {wind} by the wind" if wind else "")
        mods.append((words, over * table.modifiers.per_mp_over_cruise))
    if ram_attempt:
        mods.append(("made a Ram attempt", table.modifiers.ram_attempt))
    if rake_attempt:
        mods.append(("made a Rake attempt", table.modifiers.rake_attempt))
    mods += hooks.fatigue_modifiers(state, galley)  # Side's pestilence
    natural = dice.d6(f"6.42 fatigue {galley.id}")
    adjusted = natural + sum(v for _, v in mods)
    level = fatigue_result(state.charts, galley.crew, adjusted)
    roll = DieRolled(rule="6.42", table=f"Fatigue (Crew {galley.crew})", natural=natural, modifiers=tuple(mods),
                     outcome=f"F-{level}" if level else "No Effect")
    return level, roll


def after_avoidance(state: GameState, galley_id: GalleyId) -> tuple[GameState, list[Event]]:
    """6.52: a successful Avoidance is an automatic F-2 (the chart's fixed number)."""
    return _mark(state, state.galley(galley_id), avoidance_fatigue(state.charts), "6.52")


def after_anastrophe(state: GameState, galley_id: GalleyId) -> tuple[GameState, list[Event]]:
    """7.36: an Anastrophe fatigues automatically, by Crew, on row 7A."""
    galley = state.galley(galley_id)
    return _mark(state, galley, fatigue_result(state.charts, galley.crew, 0, anastrophe=True), "7.36")


def recover(state: GameState) -> tuple[GameState, list[Event]]:
    """G/3 (6.45): F-1 markers come off, higher ones go down a step; this turn's new ones stay."""
    events: list[Event] = []
    for galley in state.galleys:
        if galley.fatigue <= 0 or galley.id in state.fresh_fatigue:
            continue
        level = galley.fatigue - 1
        state = state.with_galley(replace(galley, fatigue=level))
        events.append(Recovered(rule="6.45", galley=galley.id, level=level))
    return replace(state, fresh_fatigue=()), events
