"""Status Resolution (3.1 G): G/1 Foul Disengage, G/2 Galley Recovery, G/3 Fatigue Recovery, G/4 Sinking.

Also `eliminate`, the one way a galley leaves play for good (sunk, stuck),
so that its commanders (5.53, 9.2) and the VP (9.1) are always settled.

The segments run the rules' own modules: G/1 engine.war_galley.manpower_combat.disengage (8.35), G/2
engine.war_galley.manpower_combat.fire's Firefight (8.54) then the Masts Down markers (6.24), G/3
engine.war_galley.turn.fatigue (6.45), G/4 engine.war_galley.galley_combat.sinking's transitive chain (7.17); the VP
and commanders they cost come from engine.war_galley.turn.casualties. At the end of the
phase what lasts a turn is cleared (`end_of_turn`).
"""

from __future__ import annotations

from collections.abc import Mapping

from msgspec.structs import replace

from engine.dice import Dice
from engine.events import Event
from engine.war_galley.galley_combat.combat_record import CombatRecord
from engine.war_galley.galley_combat.sinking import sinking_segment
from engine.war_galley.manpower_combat import disengage, fire
from engine.war_galley.manpower_combat.battlefield import Field
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId, Removal
from engine.war_galley.turn import commanders, fatigue, victory
from engine.war_galley.turn.casualties import settle
from engine.war_galley.turn.state import GameState, Phase, PhaseBegan, Segment, galley_key


class MarkerRemoved(Event, frozen=True, kw_only=True):
    galley: GalleyId
    marker: str


class Eliminated(Event, frozen=True, kw_only=True):
    galley: GalleyId
    how: str  # sunk, stuck


def eliminate(state: GameState, galley_id: GalleyId, removal: Removal, how: str, dice: Dice,
              rule: str) -> tuple[GameState, list[Event]]:
    galley = state.galley(galley_id)
    if galley.removed is not None and galley.position is None:
        return state, []
    events: list[Event] = [Eliminated(rule=rule, galley=galley_id, how=how)]
    if removal is Removal.SUNK:
        state, more = victory.damaged(state, galley_id, "sunk")
        events += more
    state, more = commanders.galley_lost(state, galley, dice)
    events += more
    partners = galley.fouled_with | galley.grappled_with | galley.collided_with
    state = state.with_galley(replace(state.galley(galley_id), position=None, removed=removal,
                                      fouled_with=frozenset(), grappled_with=frozenset(), collided_with=frozenset()))
    for other in sorted(partners, key=galley_key):
        o = state.galley(other)
        state = state.with_galley(replace(o, fouled_with=o.fouled_with - {galley_id},
                                          grappled_with=o.grappled_with - {galley_id},
                                          collided_with=o.collided_with - {galley_id}))
    return state, events


def _field(state: GameState) -> Field:
    return Field(state.board, {g.id: g for g in state.galleys}, state.charts, state.devices)


def _galleys(state: GameState, galleys: Mapping[GalleyId, Galley]) -> GameState:
    return replace(state, galleys=tuple(galleys[g.id] for g in state.galleys))


def foul_disengage(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """G/1 (8.35, engine.war_galley.manpower_combat.disengage): every Fouled galley rolls, no modifiers; success: Half Speed."""
    resolution = disengage.foul_disengage(_field(state), dice)
    return _galleys(state, resolution.galleys), resolution.events


def galley_recovery(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """G/2: the Firefight (8.54, engine.war_galley.manpower_combat.fire) with its spread and VP, then every Masts Down marker comes off (6.24)."""
    before = {g.id: g for g in state.galleys}
    resolution = fire.firefight(_field(state), dice)
    state = _galleys(state, resolution.galleys)
    state, more = settle(state, resolution.events, before, dice)
    events = [*resolution.events, *more]
    for galley in state.galleys:
        if galley.mast_down:
            state = state.with_galley(replace(galley, mast_down=False))
            events.append(MarkerRemoved(rule="6.24", galley=galley.id, marker="Masts Down"))
    return state, events


def sinking(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """G/4 (7.17, engine.war_galley.galley_combat.sinking): each Rammed galley rolls; it takes every galley Grappled or Fouled
    with it down, and those bound to them, transitively. VP and commanders follow (9.1, 5.53)."""
    before = {g.id: g for g in state.galleys}
    galleys, events = sinking_segment(before, state.charts, dice)
    state = _galleys(state, galleys)
    state, more = settle(state, events, before, dice)
    return state, [*events, *more]


def end_of_turn(state: GameState) -> GameState:
    """What lasts a turn ends: Collisions (7.16), the combat record, grapple attempts, fire used,
    retractions and repulses; grapple lines of grapples no longer in force are forgotten."""
    galleys = tuple(replace(g, collided_with=frozenset()) if g.collided_with else g for g in state.galleys)
    held = {g.id: g.grappled_with for g in galleys}
    lines = tuple(line for line in state.grapple_lines if line.target in held.get(line.grappler, frozenset()))
    rammed_by = tuple((t, r) for t, r in state.rammed_by if state.galley(t).position is not None)
    return replace(state, galleys=galleys, record=CombatRecord(), grapple_tried=(), fired=(), retracted=(),
                   repulsed=(), boarders=(), grapple_lines=lines, rammed_by=rammed_by)


def _recovery(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    return fatigue.recover(state)


SEGMENTS = (
    (Segment.DISENGAGE, "8.35", foul_disengage),
    (Segment.GALLEY_RECOVERY, "3.1", galley_recovery),
    (Segment.FATIGUE_RECOVERY, "6.45", _recovery),
    (Segment.SINKING, "7.17", sinking),
)


def status_phase(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """G/1 to G/4 in the order 3.1 lists them; a withdrawal (9.2) ends it at once."""
    events: list[Event] = []
    for segment, rule, run in SEGMENTS:
        state = replace(state, segment=segment)
        events.append(PhaseBegan(rule=rule, turn=state.turn, phase=Phase.STATUS, segment=segment))
        state, more = run(state, dice)
        events += more
        if state.result is not None:
            break
    return end_of_turn(state), events
