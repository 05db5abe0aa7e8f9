"""Drepanum (scenario book): the Roman Line Astern as one squadron, and the run-aground VP.

Line Astern command: "as long as the Romans remain in Line Astern as they
enter, they do not need to follow strict command/squadron rules. Thus, the
entire fleet, except for the Vanguard, is treated as one Squadron, until
... the Roman player decides to break the formation." READING: in phase B,
while every galley of the listed groups on the map follows another of them
(5.22, form 1 or echelon) but for at most two heads (a double Line Astern),
they and those still to enter form one Command Squadron under the first of
their commanders aboard (the Admiral first); once the formation is broken
the rule lapses for the rest of the game.

Run aground: the Romans earn `vp` for every galley Run Aground in the
city's hexes; it is removed (not eliminated: it gives Carthage nothing) and
may not return. The port start (engine.war_galley.battles.setup, engine.war_galley.turn.entry) needs no hook.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.events import Event
from engine.war_galley.battles.zones import follows
from engine.war_galley.map_and_galleys.galley import GalleyId, Removal
from engine.war_galley.movement.moving import RanAground
from engine.war_galley.turn.entry import queue_of
from engine.war_galley.turn.extra import flag, group_galleys
from engine.war_galley.turn.hooks import Params, SpecialRule, hook
from engine.war_galley.turn.state import Award, GameState, Squadron

RULE = "Drepanum, Roman Line Astern"


def _in_line(state: GameState, galleys: list[GalleyId]) -> bool:
    positions = [state.galley(g).position for g in galleys if state.galley(g).position is not None]
    heads = [p for p in positions if not any(q is not p and follows(q, p) for q in positions)]  # type: ignore[arg-type]
    return len(heads) <= 2


@hook("squadrons", "line_astern_command")
def one_squadron(state: GameState, params: Params, side: str, formed: tuple[Squadron, ...]) -> tuple[Squadron, ...]:
    broken = f"line-astern-broken:{side}"
    if side != params["side"] or broken in state.extra.flags:
        return formed
    members = [g for group in params["groups"] for g in group_galleys(state, group)]
    if not _in_line(state, members):
        return formed  # the flag is set by `broken_now` in the same phase
    mine = set(members)
    chosen = [g for s in formed for g in s.galleys if g in mine]
    leaders = sorted((c for c in state.commanders_of(side) if c.galley in mine),
                     key=lambda c: (not c.admiral, c.name))
    if not leaders or not chosen:
        return formed
    rest = tuple(replace(s, galleys=tuple(g for g in s.galleys if g not in mine)) for s in formed)
    rest = tuple(s for s in rest if s.galleys and s.commander not in {c.name for c in leaders})
    lead = leaders[0].name
    return (*rest, Squadron(lead, side, tuple(chosen), lead, line_astern=True))


def broken_now(state: GameState) -> GameState:
    """Phase B: once the Line Astern is broken the rule lapses for good."""
    from engine.war_galley.turn.hooks import named
    for params in named(state, "line_astern_command"):
        members = [g for group in params["groups"] for g in group_galleys(state, group)]
        if not _in_line(state, members):
            state = flag(state, f"line-astern-broken:{params['side']}")
    return state


@hook("after", "run_aground_vp")
def run_aground(state: GameState, params: Params, keys: tuple[str, ...], before: GameState,
                events: list[Event]) -> tuple[GameState, list[Event]]:
    out: list[Event] = []
    hexes = {state.board.map.parse(h) for h in params["hexes"]}
    for e in events:
        if not isinstance(e, RanAground) or e.hex not in hexes or state.side_of(e.galley.colour) != params["side"]:
            continue
        galley = state.galley(e.galley)
        if galley.position is None:
            continue
        vp = int(params["vp"])
        awards = tuple(a for a in state.awards if not (a.galley == e.galley and a.kind == "damage"))
        state = replace(state, awards=(*awards, Award(e.galley, params["side"], "special", vp)))
        state = state.with_galley(replace(galley, position=None, removed=Removal.EXITED, aground=None))
        out.append(SpecialRule(rule="Drepanum, Victory", special="run_aground_vp",
                               text=f"{e.galley} ran aground in Drepanum: {vp} VP to {params['side']}, removed"))
    return state, out


def waiting_in(state: GameState, galley: GalleyId) -> bool:
    return queue_of(state, galley) is not None


@hook("command_phase", "line_astern_command")
def _phase_b(state: GameState, params: Params) -> GameState:
    """Phase B (engine.war_galley.turn.sequence consults `command_phase`): is the Line Astern broken now?"""
    return broken_now(state)
