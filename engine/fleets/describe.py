"""States and events in words, for `pbem status`, the demo and reports."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.fleets import space, victory
from engine.fleets.events import (
    AggressionRolled, AttackerSide, Drifted, FleetChosen, Fought, FollowedUp, GameOver, Moved, PipsRolled, Placed,
    Recoiled, TerrainSet, Turned, WindChosen, WindRolled,
)
from engine.fleets.geometry import placing
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
        lost = victory.losses(state, side) if state.phase not in ("aggression", "fleet-defender", "fleet-attacker", "terrain", "wind-pick", "wind-roll", "attacker-side",
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
    return (f"{e.id} {e.type} at {placing(e.x, e.y, e.heading)}"
            + (" (general)" if e.general else "") + (f", in contact with {partner.id}" if partner else ""))


def _drifted(event: Drifted) -> str:
    text = f"{' and '.join(event.ids)} drift {event.dx},{event.dy}"
    if event.wrecked:
        text += f"; {', '.join(event.wrecked)} wrecked on land"
    if event.gone:
        text += f"; {', '.join(event.gone)} drift off the table"
    return text


def _fought(event: Fought) -> str:
    return (f"{event.a} ({event.factors[0].split(': ', 1)[1]}) rolls {event.dice[0]} = {event.totals[0]} against "
            f"{event.b} ({event.factors[1].split(': ', 1)[1]}) {event.dice[1]} = {event.totals[1]}: "
            + ("no result" if event.outcome == "tie" else event.outcome))


_FATES = {"recoils": "{both} recoil", "destroyed": "{first} is destroyed", "wrecked": "{first} is wrecked on land",
          "gone": "{first} is driven off the table", "flees": "{first} flees"}

# Each event's words; `name` gives a side's name from its key.
_WORDS: dict[type, Callable[[Any, Callable[[str], str]], str]] = {
    AggressionRolled: lambda e, name: "Aggression dice: " + "; ".join(
        f"{name(e.sides[0])} {a}, {name(e.sides[1])} {b}" for a, b in e.dice) + f": the {name(e.attacker)} attack",
    FleetChosen: lambda e, name: f"The {name(e.side)} choose their fleet: {' '.join(e.types)} (general: element {e.general})",
    TerrainSet: lambda e, name: "The defender lays out the terrain",
    WindChosen: lambda e, name: f"The defender counts the wind from {e.point}",
    WindRolled: lambda e, name: (f"Wind dice: attacker {e.attacker_die} clockwise, defender {e.defender_die} "
                                 f"counter-clockwise from {e.start}: the wind comes from {e.wind}"),
    AttackerSide: lambda e, name: f"The {name(e.side)} attack from the {e.edge} edge",
    Placed: lambda e, name: f"{e.id} placed at {placing(e.x, e.y, e.heading)}",
    PipsRolled: lambda e, name: f"Bound {e.bound}: the {name(e.side)} roll {e.pips} PIP(s)",
    Moved: lambda e, name: f"{e.order}: {e.cost}p of {e.allowance}p" + (f", into contact with {e.contact}" if e.contact else "")
    + (f", {e.pips} PIPs" if e.pips != 1 else ""),
    Drifted: lambda e, name: _drifted(e),
    Fought: lambda e, name: _fought(e),
    Recoiled: lambda e, name: (_FATES[e.fate].format(both=" and ".join(e.ids), first=e.ids[0]) if e.fate in _FATES
                               else f"{e.ids[0]} {e.fate}"),
    Turned: lambda e, name: f"{e.id} turns to face {e.toward}",
    FollowedUp: lambda e, name: f"{e.id} follows up",
    GameOver: lambda e, name: f"Battle over: {e.result}",
}


def event_words(event: Any, state: State | None = None) -> str:
    def name(key: str) -> str:
        return next((s.name for s in state.sides if s.key == key), key) if state is not None else key

    words = _WORDS.get(type(event))
    return words(event, name) if words is not None else repr(event)
