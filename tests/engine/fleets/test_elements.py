"""The fragment's element table and basing, as the rules data gives them."""

from __future__ import annotations

import math

from tests.engine.fleets.support import RULES


def test_the_five_types_with_the_fragments_combat_values_and_speeds() -> None:
    table = {t.code: (t.name, t.cv, t.speed) for t in RULES.types}
    assert table == {
        "Cat": ("Cataphracts", 3, 300),
        "Lib": ("Liburnians", 2, 400),
        "Lng": ("Longships", 2, 300),
        "Wr": ("Warships", 2, 200),
        "Tr": ("Transports", 1, 200),
    }


def test_galleys_are_the_oared_types_and_ships_the_sailing_ones() -> None:
    kinds = {t.code: t.kind for t in RULES.types}
    assert kinds == {"Cat": "galley", "Lib": "galley", "Lng": "galley", "Wr": "ship", "Tr": "ship"}


def test_only_ships_and_longships_gain_from_the_wind_astern() -> None:
    assert {t.code for t in RULES.types if t.astern_bonus} == {"Lng", "Wr", "Tr"}


def test_bases_are_square_40mm_at_15mm_scale_and_turns_are_measured_by_the_far_corner() -> None:
    n = RULES.numbers
    assert n.base_width == 40 * 100 // 25  # 40 mm, 100p to the inch
    assert n.pivot_quarter == math.ceil(math.pi / 2 * (n.base_width / 2) * math.sqrt(2))


def test_the_fragments_fixed_distances() -> None:
    n = RULES.numbers
    assert (n.drift, n.upwind_or_shallows, n.wind_astern_bonus, n.backward_penalty, n.flee) == (100, 100, 100, 100, 400)
    assert (n.general_bonus, n.rear_support) == (1, 1)
    assert (n.deploy_depth, n.piece_length, n.width_num, n.width_den, n.shallows_max) == (600, 600, 2, 3, 300)
    assert (n.open_water, n.centre_clear, n.pieces_one_coast, n.pieces_two_coasts) == (1600, 600, 2, 1)
