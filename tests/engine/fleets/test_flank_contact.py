"""Contact on an enemy's flank or rear (base): it turns to face if free; if it is fighting to its front, the
attacker costs it 1 and a beaten element so caught is destroyed."""

from __future__ import annotations

import pytest

from engine.fleets import play, space
from engine.fleets.decisions import Move
from engine.fleets.errors import IllegalOrder
from engine.fleets.events import Turned
from tests.engine.fleets.support import E, N, S, W, Forced, at, battle, el


def test_a_free_enemy_contacted_in_the_rear_turns_to_face() -> None:
    state = battle(el("B1", "Lib", 1200, 1300, S), el("R1", "Cat", 1200, 1000, S), wind="E")
    after, events = play.apply(state, Move("B1", contact="R1", edge="rear"), Forced())
    assert at(after, "B1") == (1200, 1160, S) and at(after, "R1") == (1200, 1000, N)
    assert space.front_partner(after, after.element("B1")) == after.element("R1")  # type: ignore[arg-type]
    assert events[0].contact == "R1"


def test_a_flank_contact_on_an_engaged_enemy_costs_it_one_and_a_beaten_one_is_destroyed() -> None:
    # R1 faces S fighting B2 to its front; B1 comes against R1's left flank (R1's left, facing S, is east)
    state = battle(el("B1", "Lib", 1600, 1000, W), el("B2", "Cat", 1200, 840, N), el("R1", "Cat", 1200, 1000, S), wind="E")
    state, _ = play.apply(state, Move("B1", contact="R1", edge="left"), Forced())
    assert at(state, "B1") == (1360, 1000, W) and at(state, "R1") == (1200, 1000, S)  # no turn: it fights B2
    after, events = play.close_combat(state, Forced(3, 3))  # B2 3+3 = 6, R1 3+3-1 = 5: beaten, would recoil
    assert events[0].totals == [6, 5] and "enemy on flank or rear -1" in events[0].factors[1]  # type: ignore[attr-defined]
    assert after.element("R1") is None


def test_when_its_front_is_clear_it_turns_on_the_flank_attacker() -> None:
    state = battle(el("B1", "Lib", 1360, 1000, W), el("R1", "Cat", 1200, 1000, S), wind="E")
    after, events = play.close_combat(state, Forced(1, 1))
    assert isinstance(events[0], Turned) and at(after, "R1") == (1200, 1000, E)
    assert events[1].a == "B1" and events[1].b == "R1"  # type: ignore[attr-defined]


def test_transports_may_not_contact_a_flank_either() -> None:
    state = battle(el("B1", "Tr", 1200, 1300, S), el("R1", "Cat", 1200, 1000, S), wind="E")
    with pytest.raises(IllegalOrder, match="Transports may not move into contact"):
        play.apply(state, Move("B1", contact="R1", edge="rear"), Forced())



def test_flank_attackers_recoil_when_their_front_friend_is_beaten() -> None:
    # DBA 2.2 practice (version 2, docs/fleets-rules.md 7.5): an element against an enemy's flank falls back
    # when the friend fighting that enemy's front is beaten
    from engine.fleets import play
    from tests.engine.fleets.support import E, Forced, N, S, at, battle, el

    def fought(version: str):  # type: ignore[no-untyped-def]
        state = battle(el("B1", "Lng", 1200, 800, N), el("R1", "Cat", 1200, 960, S),
                       el("B2", "Lng", 1040, 960, E), wind="N", version=version)  # B2's front on R1's right flank
        return play.close_combat(state, Forced(1, 6))[0]  # B1 3 v R1 9 less 1 for B2 on its flank: doubled
    after = fought("2")
    assert after.element("B1") is None and at(after, "B2") == (880, 960, E)
    assert at(fought("1"), "B2") == (1040, 960, E)
