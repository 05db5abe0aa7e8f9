"""Break-off (version 2, docs/fleets-rules.md 5.8). Fragment: "Lighter galleys will be more likely to effect a
break-off, since base-to-base contact with their elements is assumed to involve significant close-in maneuvering
(unlike other types)." Liburnians and Longships back out of front contact; Cataphracts, heavy and decked, do not."""

from __future__ import annotations

import pytest

from engine.fleets import legal, play
from engine.fleets.decisions import Back
from engine.fleets.errors import IllegalOrder
from tests.engine.fleets.support import N, S, Forced, at, battle, el


@pytest.mark.parametrize("kind", ["Lib", "Lng"])
def test_lighter_galleys_break_off(kind: str) -> None:
    state = battle(el("B1", kind, 1200, 800, N, general=True), el("R1", "Cat", 1200, 960, S), wind="E")
    after, _ = play.apply(state, Back(["B1"], 100), Forced())
    assert at(after, "B1") == (1200, 700, N)


def test_cataphracts_in_contact_cannot_break_off() -> None:
    state = battle(el("B1", "Cat", 1200, 800, N, general=True), el("R1", "Lib", 1200, 960, S), wind="E")
    with pytest.raises(IllegalOrder, match=r"Cataphracts in front contact cannot break off .*\(rules 5.8, break-off\)"):
        play.apply(state, Back(["B1"], 100), Forced())
    assert not any(isinstance(d, Back) for d in legal.legal(state))
    assert any("drifts with its enemy" in k for k in legal.kinds(state))


def test_cataphracts_out_of_contact_still_back_as_galleys() -> None:
    # fragment: "Galleys may move as a group straight backward (no wheeling or oblique moves) at -100p."
    state = battle(el("B1", "Cat", 1200, 800, N, general=True), wind="E")
    after, _ = play.apply(state, Back(["B1"], 200), Forced())
    assert at(after, "B1") == (1200, 600, N)


def test_version_1_let_cataphracts_break_off() -> None:
    state = battle(el("B1", "Cat", 1200, 800, N, general=True), el("R1", "Lib", 1200, 960, S), wind="E", version="1")
    after, _ = play.apply(state, Back(["B1"], 100), Forced())
    assert at(after, "B1") == (1200, 700, N)
