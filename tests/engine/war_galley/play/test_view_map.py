"""The report map's fixed grid, kept between processes by a key that must not depend on a set's order."""

from __future__ import annotations

import subprocess
import sys

from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.hexes import Hex, MapSpec
from engine.war_galley.play import view_map

LAND = [Hex(col, row) for col in range(10, 40) for row in range(0, 28, 3)]


def test_equal_boards_have_one_grid_key_whatever_order_their_land_was_built_in() -> None:
    forward = Board(MapSpec.short_edge(), frozenset(LAND))
    backward = Board(MapSpec.short_edge(), frozenset(reversed(LAND)))
    assert forward == backward
    assert view_map.grid_key(forward) == view_map.grid_key(backward)


def test_the_grid_key_is_the_same_in_another_process() -> None:
    # Set order varies between processes (it did for Actium's land): the drawing kept by one process
    # must be found by the next, or every turn report draws 3,000 hexes again.
    code = ("from engine.war_galley.map_and_galleys.board import Board\n"
            "from engine.war_galley.map_and_galleys.hexes import Hex, MapSpec\n"
            "from engine.war_galley.play import view_map\n"
            "land = [Hex(c, r) for c in range(10, 40) for r in range(0, 28, 3)]\n"
            "print(view_map.grid_key(Board(MapSpec.short_edge(), frozenset(land))))\n")
    keys = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
            for _ in range(3)}
    assert keys == {view_map.grid_key(Board(MapSpec.short_edge(), frozenset(LAND)))}
