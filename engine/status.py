"""Status Resolution (3.1 G): G/1 Foul Disengage, G/2 Galley Recovery, G/3 Fatigue Recovery, G/4 Sinking.

Also `eliminate`, the one way a galley leaves play for good (sunk, stuck),
so that its commanders (5.53, 9.2) and the VP (9.1) are always settled.

Foul Disengage (8.35) frees the pair: the galley that rolled the success
gets the Half Speed marker; its partner, freed with it, rolls no more.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine import commanders, fatigue, victory
from engine.charts import Disengage, FireOutcome, disengage_success, firefight_result, sinks
from engine.dice import Dice
from engine.events import DieRolled, Event
from engine.galley import GalleyId, Removal
from engine.state import GameState, Phase, PhaseBegan, Segment, galley_key


class Disengaged(Event, frozen=True, kw_only=True):
    galley: GalleyId
    partner: GalleyId


class FireChanged(Event, frozen=True, kw_only=True):
    galley: GalleyId
    fire: str  # out, burning, spread


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


def foul_disengage(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """G/1 (8.35): 1d6 on the Foul Disengage Table for each Fouled galley; no modifiers."""
    events: list[Event] = []
    for gid in [g.id for g in state.galleys if g.fouled_with and g.position is not None]:
        galley = state.galley(gid)
        if not galley.fouled_with:
            continue  # freed by its partner's success
        natural = dice.d6(f"8.35 foul disengage {gid}")
        ok = disengage_success(state.charts, Disengage.FOUL, galley.crew, natural)
        events.append(DieRolled(rule="8.35", table=f"Foul Disengage (Crew {galley.crew})", natural=natural,
                                outcome="disengaged" if ok else "still Fouled"))
        if ok:
            for partner in sorted(galley.fouled_with, key=galley_key):
                p = state.galley(partner)
                state = state.with_galley(replace(p, fouled_with=p.fouled_with - {gid}))
                events.append(Disengaged(rule="8.35", galley=gid, partner=partner))
            state = state.with_galley(replace(state.galley(gid), fouled_with=frozenset(), half_speed=True))
    return state, events


def galley_recovery(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """G/2: fight fires (8.54, the Firefight Table), spread them, then remove every Masts Down marker (6.24)."""
    events: list[Event] = []
    for gid in [g.id for g in state.galleys if g.on_fire and g.position is not None]:
        galley = state.galley(gid)
        if galley.position is None:
            continue
        natural = dice.d6(f"8.54 firefight {gid}")
        result = firefight_result(state.charts, natural)
        events.append(DieRolled(rule="8.54", table="Firefight", natural=natural,
                                outcome=result.fire.value + (", spreads" if result.spreads else "")))
        if result.spreads:
            for other in sorted(galley.fouled_with | galley.grappled_with, key=galley_key):
                o = state.galley(other)
                if not o.on_fire and o.position is not None:
                    state = state.with_galley(replace(o, on_fire=True))
                    events.append(FireChanged(rule="8.54", galley=other, fire="spread"))
        if result.fire is FireOutcome.OUT:
            state = state.with_galley(replace(state.galley(gid), on_fire=False))
            events.append(FireChanged(rule="8.54", galley=gid, fire="out"))
        elif result.fire is FireOutcome.SUNK:
            state, more = eliminate(state, gid, Removal.SUNK, "burnt and sunk", dice, "8.54")
            events += more
    for galley in state.galleys:
        if galley.mast_down:
            state = state.with_galley(replace(galley, mast_down=False))
            events.append(MarkerRemoved(rule="6.24", galley=galley.id, marker="Masts Down"))
    return state, events


def sinking(state: GameState, dice: Dice) -> tuple[GameState, list[Event]]:
    """G/4 (7.17): 1d6 for each Rammed galley; a sinking takes its Fouled and Grappled partners with it."""
    events: list[Event] = []
    for gid in [g.id for g in state.galleys if g.rammed and g.position is not None]:
        galley = state.galley(gid)
        if galley.position is None:
            continue
        natural = dice.d6(f"7.17 sinking {gid}")
        down = sinks(state.charts, natural)
        events.append(DieRolled(rule="7.17", table="Sinking", natural=natural, outcome="sinks" if down else "afloat"))
        if down:
            partners = sorted(galley.fouled_with | galley.grappled_with, key=galley_key)
            state, more = eliminate(state, gid, Removal.SUNK, "sunk", dice, "7.17")
            events += more
            for partner in partners:
                state, more = eliminate(state, partner, Removal.SUNK, "dragged down", dice, "3.1")
                events += more
    return state, events


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
    return state, events
