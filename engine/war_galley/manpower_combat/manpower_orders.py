"""Manpower-combat decisions (8.1-8.5) as data, and their text notation (docs/manpower-orders.md).

    G5-1 grapple R3-2
    G5-1 grapple RL2-3 pull 2218-2318
    board: G5-1 R4-3 M1, G5-1 R3-2 M2, G4-7 R4-3
    G5-1 fire R4-3 M1, R3-2 M1 flame
    G5-1 fire R4-3
    G5-1 disengage

One order a line. Keywords are read in any case. `Mn` gives the Manpower a
boarding party or shot uses; without it the galley uses all its Manpower.
Every `format_*` prints what its `parse_*` reads back to the same order.
"""

from __future__ import annotations

import re

import msgspec

from engine.errors import NotationError
from engine.numerals import shown, whole
from engine.war_galley.map_and_galleys.galley import GalleyId, format_galley_id, parse_galley_id
from engine.war_galley.map_and_galleys.hexes import SINGLE_SHEET, MapSpec
from engine.war_galley.map_and_galleys.position import Position, format_position, parse_position


class GrappleOrder(msgspec.Struct, frozen=True, tag=True):
    """8.11: `galley` tries to grapple `target`; `pull_to`: where a Harpax pulls it from two hexes."""

    galley: GalleyId
    target: GalleyId
    pull_to: Position | None = None


class BoardingParty(msgspec.Struct, frozen=True):
    """8.22: `galley`'s marines (`manpower`, None for all its M) board `target`."""

    galley: GalleyId
    target: GalleyId
    manpower: int | None = None


class BoardingOrder(msgspec.Struct, frozen=True, tag=True):
    """The Boarding Segment's attempts (8.21-8.22): every party, in the order resolved by target."""

    parties: tuple[BoardingParty, ...]


class Shot(msgspec.Struct, frozen=True):
    """8.43-8.44: fire at `target` with `manpower` (None: all the galley's M), Flame Missiles or not."""

    target: GalleyId
    manpower: int | None = None
    flame: bool = False


class FireOrder(msgspec.Struct, frozen=True, tag=True):
    """8.42: one galley's Missile Fire; several shots only after movement (8.43)."""

    galley: GalleyId
    shots: tuple[Shot, ...]


class DisengageOrder(msgspec.Struct, frozen=True, tag=True):
    """8.32: the active galley tries to cut every grapple before moving."""

    galley: GalleyId


ManpowerOrder = GrappleOrder | BoardingOrder | FireOrder | DisengageOrder

MOST_MANPOWER = 99  # far above any counter's Manpower (the counters here print M1 to M7)
_M = re.compile(r"[Mm](\d+)")


def _manpower(text: str, where: str) -> int:
    match = _M.fullmatch(text)
    if match is None:
        raise NotationError(f"{where}: {text!r} is not a Manpower like M2")
    manpower = whole(match.group(1), MOST_MANPOWER)
    if manpower is None:
        raise NotationError(f"{where}: {shown(text)} is not a Manpower like M2 (at most M{MOST_MANPOWER})")
    return manpower


def _m_text(manpower: int | None) -> str:
    return "" if manpower is None else f" M{manpower}"


# ---------------------------------------------------------------- grapple


_GRAPPLE = re.compile(r"\s*(\S+)\s+grapple\s+(\S+)(?:\s+pull\s+(.+?))?\s*", re.IGNORECASE)


def parse_grapple(text: str, map_: MapSpec = SINGLE_SHEET) -> GrappleOrder:
    match = _GRAPPLE.fullmatch(text)
    if match is None:
        raise NotationError(f"not a grapple order: {text!r} (e.g. 'G5-1 grapple R3-2 [pull 2218-2318]')")
    pull = parse_position(match.group(3), map_) if match.group(3) else None
    return GrappleOrder(parse_galley_id(match.group(1)), parse_galley_id(match.group(2)), pull)


def format_grapple(order: GrappleOrder, map_: MapSpec = SINGLE_SHEET) -> str:
    text = f"{format_galley_id(order.galley)} grapple {format_galley_id(order.target)}"
    return text if order.pull_to is None else f"{text} pull {format_position(order.pull_to, map_)}"


# ---------------------------------------------------------------- board


_BOARD = re.compile(r"\s*board\s*:(.*)", re.IGNORECASE | re.DOTALL)


def parse_boarding(text: str) -> BoardingOrder:
    match = _BOARD.fullmatch(text)
    if match is None:
        raise NotationError(f"not a boarding order: {text!r} (e.g. 'board: G5-1 R4-3 M1, G5-1 R3-2 M2')")
    parties = []
    for clause in (c.strip() for c in match.group(1).split(",")):
        words = clause.split()
        if len(words) not in (2, 3):
            raise NotationError(f"boarding party {clause!r}: say 'boarder target [Mn]'")
        manpower = _manpower(words[2], "boarding party") if len(words) == 3 else None
        parties.append(BoardingParty(parse_galley_id(words[0]), parse_galley_id(words[1]), manpower))
    return BoardingOrder(tuple(parties))


def format_boarding(order: BoardingOrder) -> str:
    clauses = (
        f"{format_galley_id(p.galley)} {format_galley_id(p.target)}{_m_text(p.manpower)}" for p in order.parties
    )
    return "board: " + ", ".join(clauses)


# ---------------------------------------------------------------- fire


_FIRE = re.compile(r"\s*(\S+)\s+fire\s+(.+?)\s*", re.IGNORECASE | re.DOTALL)


def parse_fire(text: str) -> FireOrder:
    match = _FIRE.fullmatch(text)
    if match is None:
        raise NotationError(f"not a fire order: {text!r} (e.g. 'G5-1 fire R4-3 M1, R3-2 M1 flame')")
    shots = []
    for clause in (c.strip() for c in match.group(2).split(",")):
        words = clause.split()
        flame = bool(words) and words[-1].lower() == "flame"
        if flame:
            words = words[:-1]
        if len(words) not in (1, 2):
            raise NotationError(f"shot {clause!r}: say 'target [Mn] [flame]'")
        manpower = _manpower(words[1], "shot") if len(words) == 2 else None
        shots.append(Shot(parse_galley_id(words[0]), manpower, flame))
    return FireOrder(parse_galley_id(match.group(1)), tuple(shots))


def format_fire(order: FireOrder) -> str:
    shots = (
        f"{format_galley_id(s.target)}{_m_text(s.manpower)}{' flame' if s.flame else ''}" for s in order.shots
    )
    return f"{format_galley_id(order.galley)} fire " + ", ".join(shots)


# ---------------------------------------------------------------- disengage


_DISENGAGE = re.compile(r"\s*(\S+)\s+disengage\s*", re.IGNORECASE)


def parse_disengage(text: str) -> DisengageOrder:
    match = _DISENGAGE.fullmatch(text)
    if match is None:
        raise NotationError(f"not a disengage order: {text!r} (e.g. 'G5-1 disengage')")
    return DisengageOrder(parse_galley_id(match.group(1)))


def format_disengage(order: DisengageOrder) -> str:
    return f"{format_galley_id(order.galley)} disengage"


# ---------------------------------------------------------------- any


def parse_manpower_order(text: str, map_: MapSpec = SINGLE_SHEET) -> ManpowerOrder:
    """Read any one manpower order, by its keyword."""
    words = text.split()
    if words and words[0].lower().startswith("board"):
        return parse_boarding(text)
    keyword = words[1].lower() if len(words) > 1 else ""
    if keyword == "grapple":
        return parse_grapple(text, map_)
    if keyword == "fire":
        return parse_fire(text)
    if keyword == "disengage":
        return parse_disengage(text)
    raise NotationError(f"not a manpower order: {text!r} (grapple, board:, fire or disengage)")


def format_manpower_order(order: ManpowerOrder, map_: MapSpec = SINGLE_SHEET) -> str:
    if isinstance(order, GrappleOrder):
        return format_grapple(order, map_)
    if isinstance(order, BoardingOrder):
        return format_boarding(order)
    if isinstance(order, FireOrder):
        return format_fire(order)
    return format_disengage(order)
