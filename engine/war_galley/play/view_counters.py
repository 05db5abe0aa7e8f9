"""War Galley's counters as the report draws them: outline, place, markers (the view's `map.galleys`, its
`pieces`), kept by what they are drawn from, since a viewer's frames draw every counter after every file."""

from __future__ import annotations

from typing import Any

from engine.war_galley.map_and_galleys.galley import Capture, Galley
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.play import view_map
from engine.war_galley.play.describe_movement import position_text
from engine.war_galley.turn.state import GameState, galley_key


# Counters by everything one is drawn from: a viewer asks for every counter after every file, and most
# galleys are the very ones they were the file before. The dicts are shared: read, never changed.
# Buys: Actium's 400-frame archive viewer in 0.27 s warm against 1.15 s (bench/bench_play.py).
_COUNTERS: dict[tuple[Any, ...], dict[str, Any]] = {}


def pieces(state: GameState) -> list[dict[str, Any]]:
    """The counters on the map, as the board draws them (templates/war_galley/piece.svg.j2)."""
    frame = view_map.frame_of(state.board)
    side_class = {info.key: info.colour.name.lower() for info in state.sides}
    drawn = (tuple(sorted(side_class.items())), frame.c0, frame.r0, state.board.map)
    out = []
    for galley in on_map(state):
        key = (galley, state.controller(galley), tuple(state.commander_on(galley.id)), drawn)
        found = _COUNTERS.get(key)
        if found is None:
            if len(_COUNTERS) > 50_000:
                _COUNTERS.clear()
            found = _COUNTERS[key] = counter(state, frame, galley, side_class)
        out.append(found)
    return out


def on_map(state: GameState) -> list[Galley]:
    return sorted((g for g in state.galleys if g.position is not None), key=lambda g: galley_key(g.id))


def markers(state: GameState, galley: Galley) -> list[dict[str, str]]:
    """The markers a player knows on this counter: short code for the map, words for the sheet."""
    out: list[tuple[str, str]] = []
    if galley.speed.value == "max":
        out.append(("Max", "Maximum Speed side up (6.11)"))
    if galley.rammed:
        out.append(("R", "Rammed (7.16)"))
    for side in sorted(galley.crippled, key=lambda s: s.value):
        out.append((f"C{side.value[0].upper()}", f"Crippled, {side.value} side (7.28)"))
    if galley.fatigue:
        out.append((f"F{galley.fatigue}", f"Fatigue F-{galley.fatigue} (6.43)"))
    if galley.half_speed:
        out.append(("½", "Half Speed (6.37, 7.16)"))
    if galley.on_fire:
        out.append(("Fire", "On Fire (8.54)"))
    if galley.fouled_with:
        out.append(("Fl", "Fouled with " + ", ".join(view_map.sorted_ids(galley.fouled_with)) + " (7.16)"))
    if galley.grappled_with:
        out.append(("Gr", "Grappled with " + ", ".join(view_map.sorted_ids(galley.grappled_with)) + " (8.12)"))
    if galley.collided_with:
        out.append(("Col", "Collided with " + ", ".join(view_map.sorted_ids(galley.collided_with)) + " (7.16)"))
    if galley.capture is Capture.CAPTURED:
        out.append(("Cap", "Captured (8.25)"))
    elif galley.capture is Capture.RECAPTURED:
        out.append(("Rcp", "Recaptured (8.26)"))
    if galley.sails_up:
        out.append(("S", "Sails raised (6.21)"))
    if galley.mast_down:
        out.append(("MD", "Mast Down (6.24)"))
    if galley.aground is not None:
        out.append(("Agr", f"Run Aground by the {galley.aground.end.value}, turn {galley.aground.turn} (6.31)"))
    if galley.ratings.towers and not galley.towers_jettisoned:
        out.append(("T", "Towers (8.46)"))
    elif galley.towers_jettisoned:
        out.append(("T×", "Towers jettisoned (8.48)"))
    if galley.depletions:
        out.append((f"D{galley.depletions}", f"{galley.depletions} Depletion{'s' if galley.depletions > 1 else ''} (8.61)"))
    for commander in sorted(state.commander_on(galley.id), key=lambda c: c.name):
        code = "Adm" if commander.admiral else "SqC"
        re_side = ", Reduced Effectiveness" if commander.reduced else ""
        out.append(("★" if commander.admiral else "☆",
                    f"{'Admiral' if commander.admiral else 'Squadron Commander'} {commander.name}"
                    f" (command range {commander.range}{re_side}) [{code}]"))
    return [{"code": code, "words": words} for code, words in out]


def counter(state: GameState, frame: view_map.Frame, galley: Galley, side_class: dict[str, str]) -> dict[str, Any]:
    assert galley.position is not None
    side = state.controller(galley)
    marks = markers(state, galley)
    shape, where = _placed(frame, galley.position, state.board.map)
    return {
        "id": str(galley.id),
        "side": side,
        "class": side_class[side],
        "double": galley.position.double,
        "position": where,
        "shape": dict(shape),
        "marks": " ".join(m["code"] for m in marks),
        "title": f"{galley.id} ({type_name(galley)}) at {where}" + "".join(f"; {m['words']}" for m in marks),
    }


# A counter's outline and place in words, by where it stands: a viewer's frames draw every counter after
# every file (an Actium archive: 43,000 counters, nine in ten where they stood the file before).
_PLACES: dict[tuple[Any, ...], tuple[dict[str, Any], str]] = {}


def _placed(frame: view_map.Frame, position: Position, spec: Any) -> tuple[dict[str, Any], str]:
    key = (frame.c0, frame.r0, spec, position)  # a frame's centres follow from its first column and row
    found = _PLACES.get(key)
    if found is None:
        if len(_PLACES) > 50_000:
            _PLACES.clear()
        found = _PLACES[key] = (view_map.counter_shape(frame, position), position_text(position, spec))
    return found


def type_name(galley: Galley) -> str:
    return galley.id.type.name.replace("_", " ").title()
