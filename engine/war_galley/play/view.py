"""War Galley's side of the report contract: `view(state, events)` as plain data (issue 12).

pbem renders what this returns with templates/war_galley/ and adds the
protocol's parts (files, signatures, reveals, where every die came from).
Nothing here is an engine object: dicts, lists, strings, numbers, booleans,
so the templates cannot reach into the rules, and the same state and events
always give the same data (every set is sorted) for archives that re-render
byte for byte. The contract is in docs/reports.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import msgspec

from engine.events import DieRolled, Event
from engine.war_galley.map_and_galleys.galley import Capture, GalleyId
from engine.war_galley.map_and_galleys.hexes import Hex, within
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.play import describe, view_map
from engine.war_galley.play.describe_movement import position_text
from engine.war_galley.play.view_counters import counter, markers, on_map, pieces, type_name
from engine.war_galley.turn.state import PHASE_NAMES, GameState, galley_key

# Where combat happened: the event kinds, the galley hit, and the map's short mark.
ACTIONS = {
    "RamResolved": ("target", "ram", "Ram"),
    "RakeResolved": ("target", "rake", "Rake"),
    "Grappled": (None, "grapple", "Grapple"),
    "GrappleFailed": ("target", "grapple", "Grapple"),
    "Captured": ("galley", "board", "Boarding"),
    "Repulsed": ("galley", "board", "Boarding"),
    "MissileHit": ("target", "missile", "Missiles"),
    "SetOnFire": ("galley", "fire", "Fire"),
    "SankByFire": ("galley", "fire", "Fire"),
    "Sank": ("galley", "sink", "Sank"),
}
_NEEDS = re.compile(r"^needs ([^:]+): (.*)$")


def view(state: GameState, events: Sequence[Any], before: GameState | None = None,
         options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report's data for `state`, after `events` (which began in `before`, if known).

    `options`: {"ranges": True} draws every commander's command range;
    {"reach": ["G3-12", ...]} draws where those galleys could end a move now.
    """
    options = options or {}
    if options.get("pieces"):  # a viewer's frame: the counters alone (pbem/reports/frames.py)
        return {"pieces": pieces(state)}
    spec = state.board.map
    frame = view_map.frame_of(state.board)
    sides = [_side(state, i) for i in range(2)]
    side_class = {s["key"]: s["class"] for s in sides}
    galleys = [counter(state, frame, g, side_class) for g in on_map(state)]
    last_seen = _last_positions(state, events, before)
    return {
        "ruleset": "war-galley",
        "title": _title(state.scenario),
        "scenario": state.scenario,
        "turn": state.turn,
        "phase": PHASE_NAMES[state.phase] + (f" ({state.segment.value})" if state.segment.value else ""),
        "summary": describe.state_summary(state),
        "result": state.result.text if state.result is not None else None,
        "sides": sides,
        "wind": _wind(state),
        "map": {
            **view_map.grid(state.board),
            "galleys": galleys,
            "links": _links(state, frame),
            "paths": _paths(state, frame, events, before, side_class),
            "actions": _actions(state, frame, events, last_seen),
            "ranges": _ranges(state, frame) if options.get("ranges") else [],
            "reach": _reach(state, frame, options.get("reach") or []),
        },
        "pieces": galleys,  # the contract's name for the units on the board (docs/reports.md)
        "events": _rolls_light_their_result([_event(e, spec) for e in events]),
        "dice": _dice(events),
        "sheets": [_sheet(state, s) for s in sides],
        "conditions": _conditions(state),
    }


def turn(state: GameState) -> int:
    return state.turn


# --- the battle --------------------------------------------------------------------------------


def _title(key: str) -> str:
    from engine.war_galley.battles.scenario_files import builtin_scenario

    try:
        scenario = builtin_scenario(key)  # that one file, not every battle's
    except Exception:  # a scenario file the built-ins cannot read: the key is enough
        return key
    return f"{scenario.name}: {scenario.title}" if scenario is not None and scenario.key == key else key


def _side(state: GameState, index: int) -> dict[str, Any]:
    info = state.sides[index]
    on_map = list(state.galleys_of(info.key))
    return {
        "key": info.key, "name": info.name, "colour": info.colour.name.lower(), "class": info.colour.name.lower(),
        "vp": state.vp(info.key), "vp_needed": info.vp_needed, "vp_ratio": info.vp_ratio,
        "galleys_on_map": len(on_map),
        "initiative": state.initiative == info.key,
    }


def _wind(state: GameState) -> dict[str, Any] | None:
    if state.wind is None:
        return None
    direction = int(state.wind.direction)
    return {"direction": direction, "strength": state.wind.strength, "angle": view_map.ANGLES[direction] + 90,
            "words": f"blowing toward hexside direction {direction}, strength {state.wind.strength}"}


def _links(state: GameState, frame: view_map.Frame) -> list[dict[str, str]]:
    """Fouled and Grappled drawn as a line between the two galleys, each pair once."""
    out = []
    seen: set[tuple[str, str, str]] = set()
    for galley in on_map(state):
        for kind, partners in (("grappled", galley.grappled_with), ("fouled", galley.fouled_with)):
            for other_id in sorted(partners, key=galley_key):
                key = (kind, *sorted((str(galley.id), str(other_id))))
                if key in seen or not state.has_galley(other_id):
                    continue
                seen.add(key)  # type: ignore[arg-type]
                drawn = view_map.link(frame, galley, state.galley(other_id), kind)
                if drawn is not None:
                    out.append(drawn)
    return out


def _last_positions(state: GameState, events: Sequence[Any], before: GameState | None) -> dict[GalleyId, Position]:
    """Each galley's last known position: now, else where the events or `before` last saw it (a sunk galley)."""
    seen: dict[GalleyId, Position] = {}
    if before is not None:
        seen.update({g.id: g.position for g in before.galleys if g.position is not None})
    for event in events:
        position = getattr(event, "position", None)
        galley = getattr(event, "galley", None)
        if isinstance(position, Position) and isinstance(galley, GalleyId):
            seen[galley] = position
    seen.update({g.id: g.position for g in state.galleys if g.position is not None})
    return seen


def _paths(state: GameState, frame: view_map.Frame, events: Sequence[Any], before: GameState | None,
           side_class: dict[str, str]) -> list[dict[str, str]]:
    """Each galley's track through these events: from where `before` had it, through every step."""
    tracks: dict[GalleyId, list[Position]] = {}
    for event in events:
        name = type(event).__name__
        if name in ("Stepped", "Avoided", "Retracted", "Placed", "HarpaxPulled"):
            galley = event.galley
            if galley not in tracks:
                start = _position_in(before, galley)
                tracks[galley] = [start] if start is not None else []
            tracks[galley].append(event.to if name == "HarpaxPulled" else event.position)
    out = []
    for galley_id in sorted(tracks, key=galley_key):
        points = view_map.polyline(frame, tracks[galley_id])
        if " " not in points:
            continue  # turned in place: nothing to draw
        side = state.side_of(galley_id.colour)
        if state.has_galley(galley_id):
            side = state.controller(state.galley(galley_id))
        out.append({"galley": str(galley_id), "points": points, "class": side_class[side]})
    return out


def _position_in(state: GameState | None, galley_id: GalleyId) -> Position | None:
    if state is None or not state.has_galley(galley_id):
        return None
    return state.galley(galley_id).position


def _actions(state: GameState, frame: view_map.Frame, events: Sequence[Any],
             seen: dict[GalleyId, Position]) -> list[dict[str, str]]:
    """Where rams, rakes, grapples, boardings, missiles and fire happened, one mark per kind and hex."""
    out: list[dict[str, str]] = []
    placed: set[tuple[str, str]] = set()
    for number, event in enumerate(events):
        entry = ACTIONS.get(type(event).__name__)
        if entry is None:
            continue
        field, kind, words = entry
        galley = event.line.target if field is None else getattr(event, field)
        position = seen.get(galley)
        if position is None:
            continue
        x, y = view_map.centre_text(frame, position.bow)
        if (kind, x + y) in placed:
            continue
        placed.add((kind, x + y))
        out.append({"kind": kind, "x": x, "y": y, "words": words, "event": number,
                    "title": describe.event_words(event, state.board.map)})
    return out


def _ranges(state: GameState, frame: view_map.Frame) -> list[dict[str, str]]:
    """Every commander's command range (5.2): the hexes within range of his Command Ship."""
    out = []
    for commander in sorted(state.commanders, key=lambda c: c.name):
        if commander.galley is None or not state.has_galley(commander.galley):
            continue
        ship = state.galley(commander.galley)
        if ship.position is None:
            continue
        hexes: set[Hex] = set()
        for h in ship.position.hexes:
            hexes.update(within(h, commander.range))
        side = state.controller(ship)
        out.append({"commander": commander.name, "range": commander.range,
                    "class": state.side(side).colour.name.lower(),
                    "path": view_map.area_path(frame, hexes, state.board.map)})
    return out


def _reach(state: GameState, frame: view_map.Frame, wanted: Sequence[str]) -> list[dict[str, Any]]:
    """Where each named galley could end a move now (the planner the rules use, 6.3)."""
    from engine.errors import IllegalOrder
    from engine.war_galley.map_and_galleys.galley import parse_galley_id
    from engine.war_galley.movement.moving import surroundings
    from engine.war_galley.play.planner import end_positions

    out = []
    for text in wanted:
        galley_id = parse_galley_id(text)
        if not state.has_galley(galley_id):
            raise KeyError(f"{text}: no such galley in this battle")
        galley = state.galley(galley_id)
        if galley.position is None:
            out.append({"galley": str(galley_id), "path": "", "count": 0, "words": "not on the map"})
            continue
        around = surroundings(state.board, state.galleys, galley, state.wind, state.turn, state.charts)
        try:
            reaches = end_positions(around, galley)
        except IllegalOrder as exc:
            out.append({"galley": str(galley_id), "path": "", "count": 0, "words": str(exc)})
            continue
        bows = {r.position.bow for r in reaches}
        out.append({"galley": str(galley_id), "path": view_map.area_path(frame, bows, state.board.map),
                    "count": len(reaches),
                    "words": f"{len(reaches)} end positions, bows in {len(bows)} hexes, at its current speed side"})
    return out


# --- what happened -----------------------------------------------------------------------------


def _event(event: Any, spec: Any) -> dict[str, Any]:
    rule = getattr(event, "rule", "")
    return {"kind": type(event).__name__, "rule": rule, "text": describe.event_words(event, spec),
            "die": isinstance(event, DieRolled),
            "phase": isinstance(event, Event) and type(event).__name__ == "PhaseBegan",
            "pieces": view_map.sorted_ids(_named(event))}


def _rolls_light_their_result(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A roll names no galley: it takes those of the event after it, the result it decides (a Crew
    Check's, a missile's hit, a ram's), as the rules record a roll before its outcome."""
    following: list[str] = []
    for entry in reversed(entries):
        if not entry["die"]:
            following = entry["pieces"]
        elif not entry["pieces"]:
            entry["pieces"] = list(following)
    return entries


def _named(value: Any, depth: int = 0) -> set[GalleyId]:
    """Every galley an event names, in any field (a line's target, a list of boarders): what a viewer lights."""
    if isinstance(value, GalleyId):
        return {value}
    found: set[GalleyId] = set()
    if depth > 3:  # events hold ids a level or two down; nothing deeper is a galley
        return found
    if isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            found |= _named(getattr(value, name), depth + 1)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            found |= _named(item, depth + 1)
    return found


def _dice(events: Sequence[Any]) -> list[dict[str, Any]]:
    """Every roll on a table, explained; `natural` is the sum of the dice it read (pbem matches them)."""
    out = []
    for number, event in enumerate(events):
        if not isinstance(event, DieRolled):
            continue
        needed, result = "", event.outcome
        match = _NEEDS.match(event.outcome)
        if match:
            needed, result = match.group(1), match.group(2)
        table, cross = _cross_index(event)
        out.append({
            "event": number, "rule": event.rule, "table": table, "cross_index": cross,
            "modifiers": [[why, value] for why, value in event.modifiers],
            "natural": event.natural, "adjusted": event.adjusted, "needed": needed, "result": result,
            # 7.16: the Retraction is read from the Ram's own dice, not rolled again.
            "reuses": event.table == "Retraction",
        })
    return out


_INDEX = re.compile(r"^(.*?)(?:,\s*|\s*\()(.+?)\)?$")


def _cross_index(event: DieRolled) -> tuple[str, str]:
    """Split `Fatigue (Crew 3)` / `Missile Table, column 2` into the table and its cross-index."""
    cross = getattr(event, "cross_index", "")
    if cross:
        return event.table, cross
    if "(" in event.table or ", column" in event.table:
        match = _INDEX.match(event.table)
        if match:
            return match.group(1).strip(), match.group(2).strip()
    return event.table, ""


# --- the Fleet Battle Sheets ---------------------------------------------------------------------


def _ratings(side: Any) -> str:
    return f"{side.ram_attack}{'*' if side.anastrophe else ''}/{side.ram_defense}/{side.speed}"


def _sheet(state: GameState, side: dict[str, Any]) -> dict[str, Any]:
    key = side["key"]
    colour = state.side(key).colour
    rows = []
    squadron_of = {g: s.key for s in state.squadrons for g in s.galleys}
    for galley in sorted(state.galleys, key=lambda g: galley_key(g.id)):
        if galley.id.colour is not colour:  # a captured galley stays on its own side's sheet, marked
            continue
        status = [m["words"] for m in markers(state, galley) if m["code"] not in ("★", "☆")]
        if galley.removed is not None:
            status.insert(0, f"{galley.removed.value}")
        elif galley.position is None:
            status.insert(0, "off the map (not yet entered)")
        if state.controller(galley) != key and galley.position is not None:
            status.insert(0, f"held by the {state.side(state.controller(galley)).name}")
        rows.append({
            "id": str(galley.id), "type": type_name(galley), "crew": galley.crew, "crew_printed": galley.ratings.crew,
            "manpower": galley.manpower, "manpower_printed": galley.ratings.manpower,
            "engines": galley.ratings.engines, "towers": galley.ratings.towers,
            "cruise": _ratings(galley.ratings.cruise), "maximum": _ratings(galley.ratings.maximum),
            "speed": "Maximum" if galley.speed.value == "max" else "Cruise",
            "position": position_text(galley.position, state.board.map) if galley.position else "—",
            "squadron": squadron_of.get(galley.id, ""),
            "commanders": [c.name for c in sorted(state.commander_on(galley.id), key=lambda c: c.name)],
            "status": status,
            "sunk": galley.removed is not None,
            "captured": galley.capture is Capture.CAPTURED,
        })
    commanders = [{
        "name": c.name, "admiral": c.admiral, "galley": str(c.galley) if c.galley else "gone",
        "range": c.range, "initiative": c.rating, "reduced": c.reduced,
        "ratings": f"range {c.command_range}, initiative {c.initiative}; RE range {c.re_command_range}, "
                   f"RE initiative {c.re_initiative}",
    } for c in sorted(state.commanders_of(key), key=lambda c: (not c.admiral, c.name))]
    squadrons = [{"key": s.key, "commander": s.commander, "galleys": [str(g) for g in s.galleys],
                  "line_astern": s.line_astern, "individual": s.individual}
                 for s in state.squadrons if s.side == key]
    awards = [{"galley": str(a.galley), "kind": a.kind, "vp": a.vp}
              for a in state.awards if a.side == key]
    return {"key": key, "name": side["name"], "class": side["class"], "galleys": rows, "commanders": commanders,
            "squadrons": squadrons, "awards": awards, "vp": side["vp"], "vp_needed": side["vp_needed"]}


def _conditions(state: GameState) -> list[str]:
    out = []
    for info in state.sides:
        if info.vp_needed is not None:
            out.append(f"{info.name} win with {info.vp_needed} VP and at least {info.vp_ratio} times the enemy's (9.1)")
    if state.wind_rule.mode != "none":
        out.append(f"wind: {state.wind_rule.mode} (6.2)")
    else:
        out.append("no wind rules in this battle (6.2)")
    for name, _ in state.extra.rules:
        out.append(f"special rule: {name}")
    for key, value in state.options:
        out.append(f"option {key}: {value}")
    if state.first_turn_initiative:
        out.append(f"the {state.side(state.first_turn_initiative).name} have the first turn's initiative")
    return out
