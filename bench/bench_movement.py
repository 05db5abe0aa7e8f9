"""How long the movement planner takes to list every end position (prints, never asserts).

    python bench/bench_movement.py

Cases: the fastest galleys (a trireme at Maximum 8, a tremiola at Maximum
7 + 2 under sail, single counter) alone on the open sea, and the same galleys
in the middle of an Actium-sized crowd: both fleets in their lines on the two
joined sheets, 110 counters. Last, every galley of the crowd listed once, as
a legal-move listing or a fuzzer would.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from msgspec.structs import replace

from engine.war_galley.map_and_galleys.board import Board, Edge
from engine.war_galley.map_and_galleys.galley import Colour, Galley, GalleyId, GalleyType
from engine.war_galley.map_and_galleys.hexes import Direction, Hex, MapSpec
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.map_and_galleys.ratings import Ratings, SideRatings, SpeedSide
from engine.war_galley.movement.moving import surroundings
from engine.war_galley.movement.speed import Wind
from engine.war_galley.play.planner import end_positions

ACTIUM = MapSpec.short_edge()


def counter(kind: str, cruise: int, maximum: int, double: bool = True) -> Ratings:
    return Ratings(
        type=kind, crew=3, manpower=2, engines=False, towers=False, double=double,
        cruise=SideRatings(4, 4, cruise), maximum=SideRatings(6, 4, maximum),
    )


TRIREME = counter("3", 5, 8)
TREMIOLA = counter("Trm", 5, 7, double=False)
FIVER = counter("5", 4, 7)


def fleet_line(colour: Colour, first: int, bow_row: int, facing: Direction, count: int, step: int = 1) -> list[Galley]:
    """Line abreast: bows in one row, every `step` columns from global column `first`."""
    kind = GalleyType.QUINQUEREME
    return [
        Galley(id=GalleyId(colour, kind, 100 + bow_row * 100 + n), ratings=FIVER,
               position=Position(Hex(first + n * step, bow_row), facing))
        for n in range(count)
    ]


def actium_crowd() -> list[Galley]:
    """Octavian: front line N3719..S3319 heading east (bows xx19), reserves in xx22;
    Antony: lines in xx09 and xx05 heading west. 110 counters, as the scenario has."""
    green, red = Colour.GREEN, Colour.RED
    east, west = Direction.UP, Direction.DOWN  # the xx28 edge is West
    return [
        *fleet_line(green, 37, 19, east, 45),  # N3719 .. S3319
        *fleet_line(green, 38, 22, east, 20, step=2),  # reserve line
        *fleet_line(red, 44, 9, west, 30),  # RW, C, LW: N4409 .. S2309
        *fleet_line(red, 53, 5, west, 15),  # Cleopatra's reserve
    ]


def timed(label: str, work: Callable[[], int], repeat: int = 7) -> None:
    work()  # warm up
    times, count = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        count = work()
        times.append(time.perf_counter() - start)
    print(f"{label:<62} {statistics.median(times) * 1000:8.1f} ms  ({count} end positions)")


def main() -> None:
    sea = Board(ACTIUM)
    actium = Board(ACTIUM).with_coast(
        Edge.TOP, openings=[h for h in ACTIUM.hexes() if h.row == 0 and 46 <= h.col <= 64]
    )
    wind = Wind(Direction.DOWN_RIGHT)  # Actium's "N1000 pointing into N1100"

    def fast(kind: GalleyType, ratings: Ratings, where: Position, speed: SpeedSide, sails: bool = False) -> Galley:
        return Galley(id=GalleyId(Colour.GREEN, kind, 1), ratings=ratings, position=where,
                      speed=speed, sails_up=sails)

    open_water = Position(Hex(50, 14), Direction.UP)
    trireme = fast(GalleyType.TRIREME, TRIREME, open_water, SpeedSide.MAXIMUM)
    tremiola = fast(GalleyType.TREMIOLA, TREMIOLA, Position(Hex(50, 14), Direction.UP, False),
                    SpeedSide.MAXIMUM, sails=True)
    cruiser = fast(GalleyType.TRIREME, TRIREME, open_water, SpeedSide.CRUISE)

    def listing(board: Board, galley: Galley, others: list[Galley]) -> Callable[[], int]:
        def run() -> int:
            there = surroundings(board, others, galley, wind)
            return len(end_positions(there, galley))
        return run

    print("Listing every end position (median of 7 runs)")
    timed("open sea: trireme, Maximum 8", listing(sea, trireme, []))
    timed("open sea: tremiola under sail, Maximum 7+2", listing(sea, tremiola, []))
    timed("open sea: trireme, Cruise 5 (facing changes, backwater)", listing(sea, cruiser, []))

    crowd = actium_crowd()
    # The fast galley takes the place of the front-line galley with its bow on N5019:
    # neighbours on both flanks, the reserve line behind, Antony's line ten rows ahead.
    slot = Hex(50, 19)
    others = [g for g in crowd if g.position is not None and g.position.bow != slot]
    print(f"Actium crowd: {len(others)} other galleys on two joined sheets, fast galley in the front line")
    double_slot, single_slot = Position(slot, Direction.UP), Position(slot, Direction.UP, False)
    timed("crowd: trireme, Maximum 8", listing(actium, replace(trireme, position=double_slot), others))
    timed("crowd: tremiola under sail, Maximum 7+2",
          listing(actium, replace(tremiola, position=single_slot), others))
    timed("crowd: trireme, Cruise 5", listing(actium, replace(cruiser, position=double_slot), others))

    def everyone() -> int:
        total = 0
        for galley in crowd:
            total += len(end_positions(surroundings(actium, crowd, galley, wind), galley))
        return total

    timed(f"crowd: all {len(crowd)} galleys listed once (Cruise 4 each)", everyone, repeat=3)


if __name__ == "__main__":
    main()
