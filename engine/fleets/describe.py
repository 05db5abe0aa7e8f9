"""States and events in words, for `pbem status`, the demo and reports."""

from __future__ import annotations

from typing import Any

from engine.fleets import space, victory
from engine.fleets.events import (
    AttackerSide, Drifted, Fought, FollowedUp, GameOver, Moved, PipsRolled, Placed, Recoiled, TerrainSet,
    Turned, WindChosen, WindRolled,
)
from engine.fleets.geometry import HEADING_NAMES
from engine.fleets.state import State
from engine.fleets.table import Terrain


def terrain_words(t: Terrain) -> str:
    parts = [f"coast {c.edge} (shallows {c.shallows}p)" for c in t.coasts]
    parts += [f"{p.kind} {p.land.x0},{p.land.y0}-{p.land.x1},{p.land.y1} (shallows {p.shallows}p)" for p in t.pieces]
    return f"{t.size}p table; " + ", ".join(parts)


def state_summary(state: State) -> str:
    lines = [f"{state.title}"]
    if state.terrain is not None:
        lines.append(terrain_words(state.terrain))
    if state.wind is not None:
        lines.append(f"wind from {state.wind}")
    if state.attacker_edge is not None:
        lines.append(f"{state.side(state.attacker).name} attack from {state.attacker_edge}")
    for side in state.sides:
        mine = [e for e in state.elements if e.side == side.key]
        lost = victory.losses(state, side) if state.phase not in ("terrain", "wind-pick", "wind-roll", "attacker-side",
                                                                   "deploy-defender", "deploy-attacker") else 0
        lines.append(f"{side.name}: {len(mine)} on the table, {lost} lost, general {side.general}"
                     + ("" if side.general not in state.lost else " (lost)"))
    if state.phase == "move":
        lines.append(f"bound {state.bound}: {state.side(state.moving).name} to move, {state.pips} PIP(s) left")
    if state.result:
        lines.append(state.result)
    return "; ".join(lines)


def element_line(state: State, ident: str) -> str:
    e = state.element(ident)
    if e is None:
        return ident
    partner = space.front_partner(state, e)
    return (f"{e.id} {e.type} at {e.x},{e.y} facing {HEADING_NAMES[e.heading]}"
            + (" (general)" if e.general else "") + (f", in contact with {partner.id}" if partner else ""))


def event_words(event: Any, state: State | None = None) -> str:
    def name(key: str) -> str:
        return next((s.name for s in state.sides if s.key == key), key) if state is not None else key

    if isinstance(event, TerrainSet):
        return "The defender lays out the terrain"
    if isinstance(event, WindChosen):
        return f"The defender counts the wind from {event.point}"
    if isinstance(event, WindRolled):
        return (f"Wind dice: attacker {event.attacker_die} clockwise, defender {event.defender_die} counter-clockwise "
                f"from {event.start}: the wind comes from {event.wind}")
    if isinstance(event, AttackerSide):
        return f"The {name(event.side)} attack from the {event.edge} edge"
    if isinstance(event, Placed):
        return f"{event.id} placed at {event.x},{event.y} facing {HEADING_NAMES.get(event.heading, event.heading)}"
    if isinstance(event, PipsRolled):
        return f"Bound {event.bound}: the {name(event.side)} roll {event.pips} PIP(s)"
    if isinstance(event, Moved):
        extra = f", into contact with {event.contact}" if event.contact else ""
        return f"{event.order}: {event.cost}p of {event.allowance}p{extra}"
    if isinstance(event, Drifted):
        text = f"{' and '.join(event.ids)} drift {event.dx},{event.dy}"
        if event.wrecked:
            text += f"; {', '.join(event.wrecked)} wrecked on land"
        if event.gone:
            text += f"; {', '.join(event.gone)} drift off the table"
        return text
    if isinstance(event, Fought):
        return (f"{event.a} ({event.factors[0].split(': ', 1)[1]}) rolls {event.dice[0]} = {event.totals[0]} against "
                f"{event.b} ({event.factors[1].split(': ', 1)[1]}) {event.dice[1]} = {event.totals[1]}: "
                + ("no result" if event.outcome == "tie" else event.outcome))
    if isinstance(event, Recoiled):
        return {"recoils": f"{' and '.join(event.ids)} recoil", "destroyed": f"{event.ids[0]} is destroyed",
                "wrecked": f"{event.ids[0]} is wrecked on land", "gone": f"{event.ids[0]} is driven off the table",
                "flees": f"{event.ids[0]} flees"}.get(event.fate, f"{event.ids[0]} {event.fate}")
    if isinstance(event, Turned):
        return f"{event.id} turns to face {event.toward}"
    if isinstance(event, FollowedUp):
        return f"{event.id} follows up"
    if isinstance(event, GameOver):
        return f"Battle over: {event.result}"
    return repr(event)
