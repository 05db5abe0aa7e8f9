"""Terrain limits (fragment): piece sizes, how many, shallows 0-300p, open water, the centre, gaps."""

from __future__ import annotations

import pytest

from engine.fleets.errors import IllegalOrder
from engine.fleets.geometry import Rect
from engine.fleets.table import Coast, Piece, Terrain, check_terrain, open_water_across
from tests.engine.fleets.support import RULES

N = RULES.numbers


def terrain(coasts: list[tuple[str, int]], *pieces: tuple[str, int, int, int, int, int]) -> Terrain:
    return Terrain(2400, tuple(Coast(e, s) for e, s in coasts),  # type: ignore[arg-type]
                   tuple(Piece(k, Rect(a, b, c, d), s) for k, a, b, c, d, s in pieces))  # type: ignore[arg-type]


def ok(t: Terrain) -> None:
    check_terrain(t, N)


def refused(t: Terrain, words: str) -> None:
    with pytest.raises(IllegalOrder, match=words):
        check_terrain(t, N)


def test_a_piece_600p_long_is_allowed_601p_is_not() -> None:
    ok(terrain([("S", 0)], ("island", 200, 1800, 800, 2000, 0)))
    refused(terrain([("S", 0)], ("island", 200, 1800, 801, 2000, 0)), "600p or less in length")


def test_a_piece_may_be_two_thirds_as_wide_as_long_not_more() -> None:
    ok(terrain([("S", 0)], ("island", 100, 1700, 700, 2100, 0)))  # 600 long, 400 wide
    refused(terrain([("S", 0)], ("island", 100, 1700, 700, 2101, 0)), "two-thirds")


def test_one_coast_allows_two_pieces_two_coasts_one() -> None:
    two = [("island", 100, 1900, 400, 2100, 0), ("reef", 1900, 1900, 2200, 2100, 0)]
    ok(terrain([("S", 0)], *two))
    refused(terrain([("S", 0)], *two, ("reef", 1000, 100, 1200, 250, 0)), "at most 2")
    ok(terrain([("S", 0), ("N", 0)], two[0]))
    refused(terrain([("S", 0), ("N", 0)], *two), "at most 1")
    refused(terrain([]), "one edge")
    refused(terrain([("S", 0), ("N", 0), ("E", 0)]), "one edge")


def test_shallows_extend_0_to_300p() -> None:
    ok(terrain([("S", 300)]))
    ok(terrain([("S", 0)], ("island", 100, 2000, 400, 2100, 300)))
    refused(terrain([("S", 301)]), "0-300p")
    refused(terrain([("S", 0)], ("island", 100, 2000, 400, 2100, 301)), "0-300p")


def test_every_perpendicular_line_keeps_1600p_of_open_water() -> None:
    # two coasts with 300p shallows leave 1800p; an island touching the south shallows takes 200p more
    exact = terrain([("S", 300), ("N", 300)], ("island", 100, 300, 500, 500, 0))
    assert open_water_across(exact, "x") == 1600
    ok(exact)
    short = terrain([("S", 300), ("N", 300)], ("island", 100, 300, 500, 501, 0))
    assert open_water_across(short, "x") == 1599
    refused(short, "only 1599p of open water")


def test_lines_inside_a_coasts_own_shallows_are_not_lines_across_open_water() -> None:
    t = terrain([("W", 300)])
    assert open_water_across(t, "x") == 2400  # the lines x < 300 run along the coast, inside its shallows
    assert open_water_across(t, "y") == 2100


def test_600p_of_open_water_around_the_centre() -> None:
    ok(terrain([("S", 0)], ("island", 1000, 1800, 1400, 2000, 0)))  # exactly 600p from 1200,1200
    refused(terrain([("S", 0)], ("island", 1000, 1799, 1400, 2000, 0)), "within 600p of the centre")
    refused(terrain([("S", 0)], ("island", 1000, 1850, 1400, 2000, 51)), "within 600p of the centre")


def test_gaps_between_shallows_are_at_least_one_base_width() -> None:
    a = ("island", 200, 2000, 600, 2200, 0)
    ok(terrain([("S", 0)], a, ("island", 760, 2000, 1160, 2200, 0)))  # 160p gap
    refused(terrain([("S", 0)], a, ("island", 759, 2000, 1159, 2200, 0)), "narrower than one base width")
    ok(terrain([("S", 0)], a, ("island", 600, 2000, 1000, 2200, 0)))  # touching: no gap at all
    refused(terrain([("N", 100)], ("island", 200, 2000, 600, 2200, 0)), "narrower")  # 100p to the coast's shallows


def test_a_peninsula_runs_out_from_a_coast() -> None:
    ok(terrain([("W", 0)], ("peninsula", 0, 1800, 500, 2100, 0)))
    refused(terrain([("W", 0)], ("peninsula", 10, 1800, 510, 2100, 0)), "from a coast edge")


def test_built_in_scenarios_pass_every_check() -> None:
    from engine.fleets import scenario

    for name in scenario.builtin_names():
        spec = scenario.parse(scenario.builtin(name) or b"")
        if spec.terrain is not None:
            ok(scenario.terrain_of(spec.terrain, 2400))


def test_the_listed_example_terrains_and_the_documented_one_are_all_legal() -> None:
    from engine.fleets.legal import terrain_examples
    from engine.fleets.notation import parse_decision
    from engine.fleets.play import terrain_from
    from tests.engine.fleets.support import battle

    state = battle()
    documented = parse_decision("terrain coast S 100 / island 300,1800 750,2100 100 / reef 1800,500 2100,700 50")
    for example in terrain_examples(2400) + [documented]:
        ok(terrain_from(example, state))  # type: ignore[arg-type]
