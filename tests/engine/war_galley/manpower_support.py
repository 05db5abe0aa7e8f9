"""Galleys and battlefields for the manpower-combat tests (rule 8), built directly."""

from __future__ import annotations

import functools

from engine.war_galley.manpower_combat.battlefield import Field
from engine.war_galley.manpower_combat.devices import NO_DEVICES, Devices
from engine.war_galley.map_and_galleys.board import OPEN_SEA, Board
from engine.war_galley.map_and_galleys.charts import Charts, load_default_charts
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId, parse_galley_id
from engine.war_galley.map_and_galleys.position import parse_position
from engine.war_galley.map_and_galleys.ratings import Ratings, SideRatings

SINGLE = {"L", "RL", "T", "Trm"}


@functools.cache
def charts() -> Charts:
    return load_default_charts()


def gid(text: str) -> GalleyId:
    return parse_galley_id(text)


def ship(
    name: str,
    where: str | None,
    *,
    crew: int = 3,
    manpower: int = 2,
    engines: bool = False,
    towers: bool = False,
    cruise: int = 4,
    maximum: int = 6,
    **status: object,
) -> Galley:
    """A galley from its id and position, e.g. ship("G5-1", "2118-2219", crew=2, sails_up=True)."""
    galley_id = parse_galley_id(name)
    position = parse_position(where) if where is not None else None
    double = position.double if position is not None else galley_id.type.value not in SINGLE
    ratings = Ratings(
        type=galley_id.type.value,
        crew=crew,
        manpower=manpower,
        engines=engines,
        towers=towers,
        double=double,
        cruise=SideRatings(ram_attack=4, ram_defense=6, speed=cruise),
        maximum=SideRatings(ram_attack=6, ram_defense=6, speed=maximum),
    )
    return Galley(id=galley_id, ratings=ratings, position=position, **status)  # type: ignore[arg-type]


def field(*galleys: Galley, devices: Devices = NO_DEVICES, board: Board = OPEN_SEA) -> Field:
    return Field(board, {g.id: g for g in galleys}, charts(), devices)


def link(a: Galley, b: Galley, kind: str = "grappled_with") -> tuple[Galley, Galley]:
    """Two galleys Grappled (or Fouled/Collided) with each other."""
    from msgspec.structs import replace

    return (
        replace(a, **{kind: getattr(a, kind) | {b.id}}),
        replace(b, **{kind: getattr(b, kind) | {a.id}}),
    )
