"""Group moves (version 2, docs/fleets-rules.md 5.4). DBA 2.2 practice: a group moves straight ahead, shifting
sideways at most half a base width to line up with an enemy; it does not slide obliquely (the fragment keeps the
land game's group moves: "Battles between fleets are fought just like battles between armies")."""

from __future__ import annotations

import pytest

from engine.fleets import play
from engine.fleets.decisions import Move, Shift
from engine.fleets.errors import IllegalOrder
from tests.engine.fleets.support import N, Forced, at, battle, el

PAIR = (el("B1", "Lib", 1200, 800, N, general=True), el("B2", "Lib", 1360, 800, N))


def test_a_group_moves_straight_ahead_with_half_a_base_aside() -> None:
    after, _ = play.apply(battle(*PAIR, wind="S"), Shift(["B1", "B2"], 80, 300), Forced())
    assert at(after, "B1") == (1280, 1100, N) and at(after, "B2") == (1440, 1100, N)


def test_a_group_may_not_slide_sideways_beyond_half_a_base() -> None:
    with pytest.raises(IllegalOrder, match=r"sideways at most half a base \(80p\), not 81p; .* \(rules 5.4, group moves\)"):
        play.apply(battle(*PAIR, wind="S"), Shift(["B1", "B2"], 81, 300), Forced())
    with pytest.raises(IllegalOrder, match="not 200p"):
        play.apply(battle(*PAIR, wind="S"), Shift(["B1", "B2"], 200, 200), Forced())  # 45 degrees oblique


def test_a_single_element_still_moves_obliquely() -> None:
    after, _ = play.apply(battle(*PAIR, wind="S"), Move("B1", to=[[1000, 1000]]), Forced())
    assert at(after, "B1") == (1000, 1000, N)


def test_version_1_let_groups_slide_obliquely() -> None:
    after, _ = play.apply(battle(*PAIR, wind="S", version="1"), Shift(["B1", "B2"], 200, 200), Forced())
    assert at(after, "B1") == (1400, 1000, N)
