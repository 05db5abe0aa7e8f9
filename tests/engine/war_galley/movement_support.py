"""Galleys, boards and plans for the movement tests, built directly (no rules data files)."""

from __future__ import annotations

from collections.abc import Iterable

from msgspec.structs import replace

from engine.events import Event
from engine.war_galley.map_and_galleys.board import OPEN_SEA, Board
from engine.war_galley.map_and_galleys.charts import load_default_charts
from engine.war_galley.map_and_galleys.galley import Galley, parse_galley_id
from engine.war_galley.map_and_galleys.hexes import SINGLE_SHEET, MapSpec
from engine.war_galley.map_and_galleys.position import format_position, parse_position
from engine.war_galley.map_and_galleys.ratings import Ratings, SideRatings, SpeedSide
from engine.war_galley.movement.moving import Surroundings, move, surroundings
from engine.war_galley.movement.speed import Wind
from engine.war_galley.play.orders import parse_order

CHARTS = load_default_charts()

TYPES_SINGLE = {"L", "RL", "T", "Trm"}


def ratings(
    kind: str = "5",
    *,
    crew: int = 3,
    cruise: int = 4,
    maximum: int = 6,
    double: bool | None = None,
    towers: bool = False,
    manpower: int = 2,
) -> Ratings:
    """A counter's ratings; single-hex for lembi, transports and tremiolas unless told."""
    if double is None:
        double = kind not in TYPES_SINGLE
    return Ratings(
        type=kind,
        crew=crew,
        manpower=manpower,
        engines=False,
        towers=towers,
        double=double,
        cruise=SideRatings(ram_attack=4, ram_defense=6, speed=cruise),
        maximum=SideRatings(ram_attack=6, ram_defense=6, speed=maximum),
    )


def galley(
    name: str,
    where: str | None,
    *,
    map_: MapSpec = SINGLE_SHEET,
    cruise: int = 4,
    maximum: int = 6,
    crew: int = 3,
    towers: bool = False,
    **status: object,
) -> Galley:
    """A galley from its id and position notation, e.g. galley("G5-1", "2319-2320", fatigue=2)."""
    galley_id = parse_galley_id(name)
    position = parse_position(where, map_) if where is not None else None
    double = position.double if position is not None else None
    counter = ratings(galley_id.type.value, crew=crew, cruise=cruise, maximum=maximum, double=double, towers=towers)
    return Galley(id=galley_id, ratings=counter, position=position, **status)  # type: ignore[arg-type]


def around(
    mover: Galley,
    others: Iterable[Galley] = (),
    *,
    board: Board = OPEN_SEA,
    wind: Wind | None = None,
    turn: int = 1,
) -> Surroundings:
    return surroundings(board, [mover, *others], mover, wind, turn, CHARTS)


def run(
    order: str,
    mover: Galley,
    others: Iterable[Galley] = (),
    *,
    board: Board = OPEN_SEA,
    wind: Wind | None = None,
    turn: int = 1,
) -> tuple[Galley, list[Event]]:
    """Carry out a typed order for `mover` (whose speed side must match the order's, 6.12)."""
    plan = parse_order(order)
    return move(around(mover, others, board=board, wind=wind, turn=turn), mover, plan)


def at(mover: Galley, side: SpeedSide) -> Galley:
    return replace(mover, speed=side)


def where(g: Galley, map_: MapSpec = SINGLE_SHEET) -> str:
    assert g.position is not None
    return format_position(g.position, map_)
