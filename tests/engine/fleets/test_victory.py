"""Victory (docs/fleets-rules.md 8): a fleet that has lost its general's element or a third of its elements, and more
than the enemy, loses; at the scenario's bound limit (nightfall) a battle no fleet has lost is a draw (version 2:
DBA knows no win on losses short of breaking the enemy)."""

from __future__ import annotations

import msgspec

from engine.fleets import victory
from tests.engine.fleets.support import N, S, battle, el


def _state(version: str = "2", **changes: object):  # type: ignore[no-untyped-def]
    state = battle(el("B1", "Lib", 800, 800, N, general=True), el("R1", "Lib", 800, 1600, S, general=True),
                   version=version)
    return msgspec.structs.replace(state, **changes)


def test_a_fleet_that_lost_its_general_loses_in_plain_english() -> None:
    state = _state(elements=_state().elements[:1], lost=("R1",))
    assert victory.verdict(state) == "Blue win: the Red have lost their general's element (12 lost to 11)"
    old = _state("1", elements=_state().elements[:1], lost=("R1",))
    assert victory.verdict(old) == "Blue win: the Red have lost its general's element (12 lost to 11)"


def test_at_nightfall_an_unbroken_battle_is_a_draw_whatever_the_losses() -> None:
    blue = [el(f"B{i}", "Lib", 200 + 300 * i, 800, N, general=i == 1) for i in range(1, 7)]
    red = [el(f"R{i}", "Lib", 200 + 300 * i, 1600, S, general=i == 1) for i in range(1, 6)]  # one of six lost
    for version, text in (("2", "a draw at nightfall after 30 bounds, neither fleet broken (0 lost to 1)"),
                          ("1", "Blue win on losses after 30 bounds (0 lost to 1)")):
        state = battle(*blue, *red, version=version)
        sides = tuple(msgspec.structs.replace(s, start=6) for s in state.sides)
        state = msgspec.structs.replace(state, sides=sides, bound=30, lost=("R6",))
        assert victory.verdict(state) == text
        assert victory.verdict(msgspec.structs.replace(state, bound=29)) is None
