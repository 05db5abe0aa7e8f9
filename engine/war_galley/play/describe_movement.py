"""Movement, markers and galley-state events in words (registered in `describe._WORDS`).

Hexes and positions are written in the battle's own notation (`N3719`,
`S1719-1720` on joined sheets) when the caller names the map
(`describe.event_words(event, map_)`), else in the single-sheet notation. A
hex on no sheet is written in the global notation, marked as such
(`global 6512/4`), never raised.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from typing import Any, Callable

from engine.war_galley.map_and_galleys.hexes import SINGLE_SHEET, Hex, MapSpec
from engine.war_galley.map_and_galleys.position import Position, format_position
from engine.war_galley.movement.steps import describe as step_words

# The map of the battle being described; set by describe.event_words for one call.
MAP: ContextVar[MapSpec] = ContextVar("map", default=SINGLE_SHEET)


def position_text(p: Position, map_: MapSpec) -> str:
    """A position as reports write it: the battle's notation (`N3719-N3720`), or marked global
    when off every sheet (a galley driven off the map has no printed hex)."""
    if map_.contains(p.bow) and (not p.double or map_.contains(p.stern)):
        return format_position(p, map_)
    return f"global {p.bow}-{p.stern}" if p.double else f"global {p.bow}/{int(p.facing)}"


def hex_words(h: Hex) -> str:
    map_ = MAP.get()
    return map_.format(h) if map_.contains(h) else f"global {h}"


def position_words(p: Position) -> str:
    return position_text(p, MAP.get())


def galleys_words(galleys: Any) -> str:
    return ", ".join(sorted(str(g) for g in galleys))


def _step(step: Any) -> str:
    """A step in its words with what qualifies it: `moving into a Bow/Flank hex to port`."""
    text = step_words(step)
    target = getattr(step, "target", None)
    if target is not None:
        text += f" {target}" if text.endswith("ing") else f" against {target}"
    side = getattr(step, "side", None)
    if side is not None:
        text += f" to {side.value}"
    swing = getattr(step, "swing", None)
    if swing is not None:
        text += f", {swing.value} half swinging"
    return text


def _marker_placed(e: Any) -> str:
    if e.marker == "Cruise Speed":
        return f"{e.galley} flips to its Cruise Speed side"
    if e.marker.startswith("Fouled with "):
        return f"Fouled marker on {e.galley} ({e.marker[0].lower()}{e.marker[1:]})"
    detail = re.fullmatch(r"(.*) \((.*)\)", e.marker)
    if detail:
        return f"{detail.group(1)} marker on {e.galley} ({detail.group(2)})"
    return f"{e.marker} marker on {e.galley}"


def _retracted(e: Any) -> str:
    where = position_words(e.position)
    return f"{e.galley} Retracts" + (f", backwatering to {where}" if e.backwatered else f", staying at {where}")


MOVEMENT_WORDS: dict[str, Callable[[Any], str]] = {
    "Stepped": lambda e: f"{e.galley}: {_step(e.step)}, now at {position_words(e.position)}; {e.spent} MP spent",
    "MPExpended": lambda e: f"{e.galley} spends {e.mp} MP without moving",
    "RanAground": lambda e: f"{e.galley} runs aground in {hex_words(e.hex)}",
    "Refloated": lambda e: f"{e.galley} refloats, now at {position_words(e.position)}",
    "Wrecked": lambda e: f"{e.galley} is wrecked, stuck fast for good",
    "LeftMap": lambda e: f"{e.galley} leaves the map for good",
    "MarkerPlaced": _marker_placed,
    "MarkerRemoved": lambda e: f"{e.marker} marker removed from {e.galley}",
    "Retracted": _retracted,
    "PassedThrough": lambda e: f"{e.galley} passes through {e.target}, now at {position_words(e.position)}",
    "Placed": lambda e: f"{e.galley} turns about and is placed to ram at {position_words(e.position)}",
    "HarpaxPulled": lambda e: f"{e.galley} is pulled by the Harpax from {position_words(e.source)} "
                              f"to {position_words(e.to)}",
    "TowersJettisoned": lambda e: f"{e.galley} jettisons its Towers",
    "Depleted": lambda e: f"{e.galley} takes {e.count} Depletion{'s' if e.count != 1 else ''}"
                          + (f" from {e.cause}" if e.cause else "")
                          + f": {e.depletions} on its marker, Manpower now M{e.manpower}",
    "GrappleCut": lambda e: f"the grapple between {e.galley} and {e.partner} is cut",
    "Disengaged": lambda e: f"{e.galley} disengages for {e.mp_cost} MP, {e.mp_left} MP left to move",
    "StillGrappled": lambda e: f"{e.galley} is still Grappled to {galleys_words(e.partners)}",
    "FoulFreed": lambda e: f"{e.galley} is no longer Fouled with {galleys_words(e.partners)}: "
                           "its Fouled marker becomes Half Speed",
    "FireOut": lambda e: f"the fire aboard {e.galley} is out",
}
