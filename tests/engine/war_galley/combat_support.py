"""Galleys, battlefields and orders for the galley-combat tests, built directly with `Ratings`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.events import DieRolled, Event
from engine.war_galley.galley_combat.combat_record import CombatOptions, CombatRecord
from engine.war_galley.galley_combat.combat_steps import PlanOutcome
from engine.war_galley.galley_combat.execute_plan import execute_plan
from engine.war_galley.galley_combat.reactions import ReactionOrders, parse_reactions
from engine.war_galley.map_and_galleys.board import OPEN_SEA, Board
from engine.war_galley.map_and_galleys.charts import Charts, load_default_charts
from engine.war_galley.map_and_galleys.galley import Colour, Galley, GalleyId, parse_galley_id
from engine.war_galley.map_and_galleys.position import format_position, parse_position
from engine.war_galley.map_and_galleys.ratings import Ratings, SideRatings, SpeedSide
from engine.war_galley.play.orders import parse_combat_order

CHARTS: Charts = load_default_charts()
SINGLE = {"L", "RL", "T", "Trm"}


def ship(
    name: str,
    where: str | None,
    *,
    crew: int = 3,
    cruise: int = 4,
    maximum: int = 6,
    attack: int = 6,
    defense: int = 6,
    cruise_attack: int | None = None,
    cruise_defense: int | None = None,
    asterisk: bool = False,
    towers: bool = False,
    speed: SpeedSide = SpeedSide.CRUISE,
    **status: object,
) -> Galley:
    """A galley from id and position notation; `attack`/`defense` are printed on both sides unless told."""
    galley_id = parse_galley_id(name)
    position = parse_position(where) if where is not None else None
    double = position.double if position is not None else galley_id.type.value not in SINGLE
    ratings = Ratings(
        type=galley_id.type.value, crew=crew, manpower=2, engines=False, towers=towers, double=double,
        cruise=SideRatings(attack if cruise_attack is None else cruise_attack,
                           defense if cruise_defense is None else cruise_defense, cruise),
        maximum=SideRatings(attack, defense, maximum, asterisk),
    )
    return Galley(id=galley_id, ratings=ratings, position=position, speed=speed, **status)  # type: ignore[arg-type]


def fleet(*galleys: Galley) -> dict[GalleyId, Galley]:
    return {g.id: g for g in galleys}


def gid(name: str) -> GalleyId:
    return parse_galley_id(name)


def where(galley: Galley) -> str:
    assert galley.position is not None
    return format_position(galley.position)


def orders(green: str = "", red: str = "") -> dict[Colour, ReactionOrders]:
    return {Colour.GREEN: parse_reactions(green), Colour.RED: parse_reactions(red)}


def play(
    order: str,
    field: Mapping[GalleyId, Galley],
    dice: Iterable[int] = (),
    *,
    board: Board = OPEN_SEA,
    green: str = "",
    red: str = "",
    drr: bool = False,
    record: CombatRecord = CombatRecord(),
    version: int = 1,
    **hooks: object,
) -> tuple[dict[GalleyId, Galley], list[Event], PlanOutcome, ForcedDice]:
    """Execute a typed order with forced dice; the dice are returned so tests can check none are left."""
    forced = ForcedDice(*dice)
    galleys, events, outcome = execute_plan(
        board, field, parse_combat_order(order), CHARTS, forced, orders(green, red),
        CombatOptions(defensive_reaction_ram=drr, rules_version=version), record=record, **hooks,  # type: ignore[arg-type]
    )
    return galleys, events, outcome, forced


def rolls(events: Iterable[Event], table: str) -> list[DieRolled]:
    return [e for e in events if isinstance(e, DieRolled) and e.table == table]


def of(events: Iterable[Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def at(galley: Galley, **changes: object) -> Galley:
    return replace(galley, **changes)


def behind(where_: str, hexes: int) -> str:
    """The position `hexes` straight back from `where_`: that many Forward steps reach it."""
    from engine.war_galley.map_and_galleys.hexes import neighbour
    from engine.war_galley.map_and_galleys.position import Position

    pos = parse_position(where_)
    bow = pos.bow
    for _ in range(hexes):
        bow = neighbour(bow, pos.facing + 3)
    return format_position(Position(bow, pos.facing, pos.double))
