"""The board (2.2): the coast beyond a map edge (6.31), found from the edge's own row or column."""

from __future__ import annotations

import pytest

from engine.war_galley.battles.setup import new_game
from engine.war_galley.map_and_galleys.board import Edge, _beyond
from engine.war_galley.map_and_galleys.hexes import MapSpec, neighbours
from engine.war_galley.ruleset import RULESET

SCENARIOS = [s.name for s in RULESET.scenarios()]


def every_hex_beyond(map_: MapSpec, edge: Edge) -> set:
    """The reference: ask every hex of the map for its neighbours beyond the edge."""
    on_map = list(map_.hexes())
    limit = {
        Edge.TOP: lambda h: h.row < min(x.row for x in on_map),
        Edge.BOTTOM: lambda h: h.row > max(x.row for x in on_map),
        Edge.LEFT: lambda h: h.col < min(x.col for x in on_map),
        Edge.RIGHT: lambda h: h.col > max(x.col for x in on_map),
    }[edge]
    return {n for h in on_map for n in neighbours(h) if not map_.contains(n) and limit(n)}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_hexes_beyond_each_edge_are_those_every_hex_of_the_map_finds(scenario: str) -> None:
    state = new_game(RULESET.builtin_scenario(scenario), RULESET.default_rules_data(), {})
    for edge in Edge:
        found = _beyond(state.board.map, edge)
        assert found == every_hex_beyond(state.board.map, edge)
        assert found  # every edge has hexes beyond it
