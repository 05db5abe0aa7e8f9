"""The fleet battle as pbem's report contract wants it (docs/reports.md, "The view contract").

Plain data only: the table (engine/fleets/view.py, drawn by templates/fleets/table.svg.j2),
both fleets' record sheets, every event in words with its rule section, and one
dice entry per die the rules roll, in the order play.py rolls them (wind: the
attacker's die then the defender's; a combat: the first element's die then its
opponent's; the PIP die), so pbem can join each to its recorded roll.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.fleets import describe, scenario, victory
from engine.fleets.events import (
    AggressionRolled, AttackerSide, Drifted, FleetChosen, Fought, FollowedUp, GameOver, Moved, PipsRolled, Placed,
    Recoiled, TerrainSet, Turned, WindChosen, WindRolled,
)
from engine.fleets.geometry import HEADING_NAMES
from engine.fleets.state import State
from engine.fleets.view import table_view

# docs/fleets-rules.md sections, as error messages cite them
RULE: dict[type, str] = {
    AggressionRolled: "rules 1.5", FleetChosen: "rules 1.5", TerrainSet: "rules 2.2", WindChosen: "rules 3.1", WindRolled: "rules 3.1", AttackerSide: "rules 4.1",
    Placed: "rules 4.2", PipsRolled: "rules 5.4", Moved: "rules 5.4", Drifted: "rules 5.9", Fought: "rules 7.1",
    Recoiled: "rules 7.5", Turned: "rules 6.2", FollowedUp: "rules 7.7", GameOver: "rules 8.1",
}
PHASE_WORDS = {
    "aggression": "set-up: dicing for aggression", "fleet-defender": "set-up: the defender chooses his fleet",
    "fleet-attacker": "set-up: the attacker chooses his fleet",
    "terrain": "set-up: the defender lays out the terrain", "wind-pick": "set-up: the defender picks the wind's point",
    "wind-roll": "set-up: dicing for the wind", "attacker-side": "set-up: the attacker chooses his side",
    "deploy-defender": "set-up: the defender deploys", "deploy-attacker": "set-up: the attacker deploys",
    "pips": "between bounds", "move": "movement", "combat": "close combat", "over": "the battle is over",
}
SET_UP = ("aggression", "fleet-defender", "fleet-attacker", "terrain", "wind-pick", "wind-roll", "attacker-side", "deploy-defender", "deploy-attacker")


def turn(state: State) -> int:
    """The game turn is the bound: 0 during set-up."""
    return state.bound


def phase_words(state: State) -> str:
    words = PHASE_WORDS[state.phase]
    if state.phase == "move":
        words = f"bound {state.bound}, {state.side(state.moving).name} moving, {state.pips} PIP(s) left"
    elif state.bound and state.phase != "over":
        words = f"bound {state.bound}: {words}"
    return words


def _die(event: int, rule: str, table: str, cross_index: str, natural: int, modifiers: list[list[Any]],
         needed: str, result: str) -> dict[str, Any]:
    return {"event": event, "rule": rule, "table": table, "cross_index": cross_index,
            "modifiers": modifiers, "natural": natural, "adjusted": natural + sum(v for _, v in modifiers),
            "needed": needed, "result": result, "reuses": False}


def _factors(words: str) -> list[list[Any]]:
    """'G3: Cat +3, general +1' -> [['combat value Cat', 3], ['general', 1]] (combat.factors' words)."""
    out: list[list[Any]] = []
    for i, word in enumerate(words.split(": ", 1)[1].split(", ")):
        reason, value = word.rsplit(" ", 1)
        out.append([f"combat value {reason}" if i == 0 else reason, int(value)])
    return out


def _fight_result(event: Fought, me: int) -> str:
    mine, theirs = event.totals[me], event.totals[1 - me]
    if event.outcome == "tie":
        return "equal totals: no result (7.3)"
    if mine > theirs:
        return f"wins: {event.outcome}"
    return event.outcome


def dice_of(events: list[Any], state: State) -> list[dict[str, Any]]:
    dice: list[dict[str, Any]] = []
    for n, ev in enumerate(events):
        if isinstance(ev, AggressionRolled):
            for a, b in ev.dice:
                for key, die in zip(ev.sides, (a, b)):
                    dice.append(_die(n, "rules 1.5", "Aggression", key, die, [], "the higher die attacks",
                                     "equal: dice again" if a == b else ("attacks" if key == ev.attacker else "defends")))
        elif isinstance(ev, WindRolled):
            dice.append(_die(n, "rules 3.1", "Wind", f"attacker counts clockwise from {ev.start}", ev.attacker_die, [],
                             "", f"{ev.attacker_die} point(s) clockwise"))
            dice.append(_die(n, "rules 3.1", "Wind", "defender counts counter-clockwise", ev.defender_die, [], "",
                             f"{ev.defender_die} point(s) back: the wind comes from {ev.wind}"))
        elif isinstance(ev, PipsRolled):
            dice.append(_die(n, "rules 5.4", "PIPs", describe.event_words(ev, state).split(": ", 1)[0], ev.pips, [], "",
                             f"{ev.pips} PIP(s)"))
        elif isinstance(ev, Fought):
            for me, (ident, other) in enumerate(((ev.a, ev.b), (ev.b, ev.a))):
                mods = _factors(ev.factors[me])
                dice.append(_die(n, "rules 7.1", "Close combat", f"{ident} against {other}", ev.dice[me], mods,
                                 f"more than {other}'s total of {ev.totals[1 - me]}", _fight_result(ev, me)))
    return dice


@lru_cache(maxsize=16)
def _parsed(key: str) -> scenario.ScenarioSpec | None:
    data = scenario.builtin(key)
    return scenario.parse(data, key) if data is not None else None


def _builtin(state: State) -> scenario.ScenarioSpec | None:
    """The built-in battle the state was set up from, if it is one (a file of the same key may differ)."""
    spec = _parsed(state.scenario)
    return spec if spec is not None and spec.title == state.title else None


def title(state: State) -> str:
    """'Salamis: the straits, 480 BC' for a built-in battle; the state carries only the second half."""
    spec = _builtin(state)
    return f"{spec.name}: {state.title}" if spec is not None else state.title


def _lost_types(state: State, before: State | None) -> dict[str, str]:
    """Lost elements are off the state: their types from the built-in scenario's fleets, else the state before."""
    known: dict[str, str] = {}
    spec = _builtin(state)
    start = scenario.initial_state(spec, state.rules) if spec is not None else None
    for s in (start, before, state):
        if s is not None:
            known.update({e.id: e.type for e in s.elements + s.to_place})
    return known


def sheets(state: State, before: State | None) -> list[dict[str, Any]]:
    """Each fleet's elements: type, combat value, speed, where it is (or that it is lost), the general."""
    rules = state.rules
    types = _lost_types(state, before)
    out = []
    for number, side in enumerate(state.sides):
        rows = []
        for e in [e for e in state.elements if e.side == side.key]:
            t = rules.type(e.type)
            rows.append({"id": e.id, "type": t.code, "type_name": t.name, "cv": t.cv, "speed": t.speed,
                         "general": e.general, "status": "on the table" + (", moved" if e.id in state.done else ""),
                         "position": f"{e.x},{e.y}", "facing": HEADING_NAMES[e.heading], "lost": False})
        for e in [e for e in state.to_place if e.side == side.key]:
            t = rules.type(e.type)
            rows.append({"id": e.id, "type": t.code, "type_name": t.name, "cv": t.cv, "speed": t.speed,
                         "general": e.general, "status": "not yet deployed", "position": "", "facing": "",
                         "lost": False})
        prefix = side.general.rstrip("0123456789")  # ids read prefix + number (scenario.py)
        mine = [i for i in state.lost if i.rstrip("0123456789") == prefix]
        for ident in mine:
            code = types.get(ident, "")
            t = rules.type(code) if code else None
            rows.append({"id": ident, "type": code, "type_name": t.name if t else "", "cv": t.cv if t else "",
                         "speed": t.speed if t else "", "general": ident == side.general, "status": "lost",
                         "position": "", "facing": "", "lost": True})
        set_up = state.phase in SET_UP
        lost = 0 if set_up else victory.losses(state, side)
        threshold = -(-side.start // rules.numbers.loss_fraction_den)
        out.append({"key": side.key, "name": side.name, "class": f"side{number + 1}", "general": side.general,
                    "general_lost": side.general in state.lost, "start": side.start, "lost": lost,
                    "breaks_at": threshold, "attacker": side.key == state.attacker, "elements": rows})
    return out


def named(event: Any) -> list[str]:
    """The elements an event names (an id, a list of ids, the two of a combat): what a viewer lights."""
    out: set[str] = set()
    for field in ("id", "a", "b"):
        if isinstance(getattr(event, field, None), str):
            out.add(getattr(event, field))
    for field in ("ids", "wrecked", "gone"):
        out.update(i for i in getattr(event, field, None) or [] if isinstance(i, str))
    return sorted(out)


def view(state: State, events: list[Any], before: State | None = None,
         options: dict[str, Any] | None = None) -> dict[str, Any]:
    table = table_view(state)
    table.pop("events")
    if (options or {}).get("pieces"):  # a viewer's frame: the bases alone (pbem/reports/frames.py)
        return {"pieces": table["elements"]}
    return {
        "ruleset": "fleets",
        "title": title(state),
        "turn": turn(state),
        "phase": phase_words(state),
        "summary": describe.state_summary(state),
        "result": state.result,
        "table": table,
        "pieces": table["elements"],  # the contract's name for the units on the board (docs/reports.md)
        "wind": f"from {state.wind}" if state.wind else "",
        "bound": state.bound, "bound_limit": state.bound_limit,
        "moving": state.side(state.moving).name if state.moving else "",
        "pips": state.pips if state.phase == "move" else None,
        "sheets": sheets(state, before),
        "events": [{"kind": type(ev).__name__, "rule": RULE.get(type(ev), ""),
                    "text": f"{describe.event_words(ev, state)} ({RULE[type(ev)]})" if type(ev) in RULE
                    else describe.event_words(ev, state),
                    "die": isinstance(ev, (AggressionRolled, WindRolled, PipsRolled, Fought)),
                    "phase": isinstance(ev, (PipsRolled, GameOver)), "pieces": named(ev)}
                   for ev in events],
        "dice": dice_of(events, state),
    }
