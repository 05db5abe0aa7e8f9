"""The report map's fixed grid: the same drawing whatever order a board's land was built in, in any process.

Set order varies between processes (it did for Actium's land); a report must
not: the same game gives the same page, byte for byte, on every machine.
"""

from __future__ import annotations

import json
import subprocess
import sys

from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.hexes import Hex, MapSpec
from engine.war_galley.play import view_map

LAND = [Hex(col, row) for col in range(10, 40) for row in range(0, 28, 3)]


def _drawn(board: Board) -> str:
    return json.dumps(view_map._draw_grid(board), sort_keys=True)


def test_equal_boards_draw_one_grid_whatever_order_their_land_was_built_in() -> None:
    forward = Board(MapSpec.short_edge(), frozenset(LAND))
    backward = Board(MapSpec.short_edge(), frozenset(reversed(LAND)))
    assert forward == backward
    assert _drawn(forward) == _drawn(backward)


def test_the_grid_is_drawn_the_same_in_another_process() -> None:
    code = ("import json\n"
            "from engine.war_galley.map_and_galleys.board import Board\n"
            "from engine.war_galley.map_and_galleys.hexes import Hex, MapSpec\n"
            "from engine.war_galley.play import view_map\n"
            "land = [Hex(c, r) for c in range(10, 40) for r in range(0, 28, 3)]\n"
            "print(json.dumps(view_map._draw_grid(Board(MapSpec.short_edge(), frozenset(land))), sort_keys=True))\n")
    drawings = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
                for _ in range(3)}
    assert drawings == {_drawn(Board(MapSpec.short_edge(), frozenset(LAND)))}
