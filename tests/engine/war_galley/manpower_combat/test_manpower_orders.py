"""The manpower-order notation round-trips (engine.war_galley.manpower_combat.manpower_orders, docs/manpower-orders.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError
from engine.war_galley.manpower_combat.manpower_orders import (
    BoardingOrder,
    BoardingParty,
    DisengageOrder,
    FireOrder,
    GrappleOrder,
    Shot,
    format_manpower_order,
    parse_manpower_order,
)
from engine.war_galley.map_and_galleys.position import parse_position
from tests.engine.war_galley.manpower_support import gid


@pytest.mark.parametrize(
    "text, order",
    [
        ("G5-1 grapple R3-2", GrappleOrder(gid("G5-1"), gid("R3-2"))),
        ("G5-1 grapple RL2-3 pull 2218-2318", GrappleOrder(gid("G5-1"), gid("RL2-3"), parse_position("2218-2318"))),
        ("board: G5-1 R4-3 M1, G5-1 R3-2 M2, G4-7 R4-3",
         BoardingOrder((BoardingParty(gid("G5-1"), gid("R4-3"), 1), BoardingParty(gid("G5-1"), gid("R3-2"), 2),
                        BoardingParty(gid("G4-7"), gid("R4-3"))))),
        ("G5-1 fire R4-3 M1, R3-2 M1 flame",
         FireOrder(gid("G5-1"), (Shot(gid("R4-3"), 1), Shot(gid("R3-2"), 1, True)))),
        ("G5-1 fire R4-3", FireOrder(gid("G5-1"), (Shot(gid("R4-3")),))),
        ("Gcat3-26 fire R5-83 flame", FireOrder(gid("Gcat3-26"), (Shot(gid("R5-83"), None, True),))),
        ("G5-1 disengage", DisengageOrder(gid("G5-1"))),
    ],
)
def test_each_order_reads_and_prints_back(text: str, order) -> None:
    assert parse_manpower_order(text) == order
    assert format_manpower_order(order) == text


def test_keywords_and_ids_in_any_case() -> None:
    assert parse_manpower_order("g5-1 GRAPPLE r3-2") == GrappleOrder(gid("G5-1"), gid("R3-2"))
    assert parse_manpower_order("BOARD: g5-1 r3-2 m2").parties[0].manpower == 2


@pytest.mark.parametrize("text", ["G5-1 ram R3-2", "board: G5-1", "G5-1 fire R3-2 X2", "G5-1 grapple",
                                  "G5-1 fire R3-2 M1 M2", ""])
def test_bad_orders_say_so(text: str) -> None:
    with pytest.raises(NotationError):
        parse_manpower_order(text)


ids = st.builds(lambda c, n: gid(f"{c}5-{n}"), st.sampled_from("RG"), st.integers(1, 99))
manpower = st.one_of(st.none(), st.integers(0, 12))


@given(st.one_of(
    st.builds(GrappleOrder, ids, ids),
    st.builds(lambda ps: BoardingOrder(tuple(ps)), st.lists(st.builds(BoardingParty, ids, ids, manpower),
                                                            min_size=1, max_size=4)),
    st.builds(lambda g, ss: FireOrder(g, tuple(ss)), ids,
              st.lists(st.builds(Shot, ids, manpower, st.booleans()), min_size=1, max_size=3)),
    st.builds(DisengageOrder, ids),
))
def test_every_order_round_trips(order) -> None:
    assert parse_manpower_order(format_manpower_order(order)) == order
