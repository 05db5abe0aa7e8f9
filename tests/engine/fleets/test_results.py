"""Close combat and the fragment's results table, row by row, with forced dice."""

from __future__ import annotations

import pytest

from engine.fleets import play, results
from engine.fleets.state import State
from tests.engine.fleets.support import N, S, Forced, at, battle, el

# ----- the table itself --------------------------------------------------------------------------

TYPES = ("Cat", "Lib", "Lng", "Wr", "Tr")


@pytest.mark.parametrize("winner", TYPES)
def test_liburnians(winner: str) -> None:
    for downwind in (True, False):
        assert results.result("Lib", winner, "beaten", downwind) == ("flee" if winner == "Cat" else "recoil")
        assert results.result("Lib", winner, "doubled", downwind) == ("recoil" if winner == "Tr" else "destroyed")


@pytest.mark.parametrize("loser", ("Cat", "Lng"))
@pytest.mark.parametrize("winner", TYPES)
def test_cataphracts_and_longships(loser: str, winner: str) -> None:
    for downwind in (True, False):
        assert results.result(loser, winner, "beaten", downwind) == ("destroyed" if winner == "Lib" else "recoil")
        assert results.result(loser, winner, "doubled", downwind) == ("recoil" if winner == "Tr" else "destroyed")


@pytest.mark.parametrize("winner", TYPES)
def test_warships(winner: str) -> None:
    beaten = {True: "recoil", False: "stands"}
    for downwind in (True, False):
        assert results.result("Wr", winner, "beaten", downwind) == ("destroyed" if winner == "Lib" else beaten[downwind])
        doubled = "recoil" if winner == "Tr" and downwind else "destroyed"
        assert results.result("Wr", winner, "doubled", downwind) == doubled


@pytest.mark.parametrize("winner", TYPES)
def test_transports(winner: str) -> None:
    assert results.result("Tr", winner, "beaten", True) == "recoil"
    assert results.result("Tr", winner, "beaten", False) == "stands"
    assert results.result("Tr", winner, "doubled", True) == "destroyed"
    assert results.result("Tr", winner, "doubled", False) == "destroyed"


# ----- fought out on the table ---------------------------------------------------------------------


def fight(state: State, *dice: int) -> tuple[State, list[object]]:
    return play.close_combat(state, Forced(*dice))


def pair(blue: str, red: str, wind: str = "E", **kw: object) -> State:
    """Blue at 1200,800 facing N, red in front contact at 1200,960 facing S."""
    return battle(el("B1", blue, 1200, 800, N, **kw), el("R1", red, 1200, 960, S), wind=wind)  # type: ignore[arg-type]


def test_beaten_and_doubled_by_totals() -> None:
    from engine.fleets.combat import outcome

    assert outcome(5, 5) == "tie" and outcome(4, 5) == "beaten" and outcome(3, 6) == "doubled" and outcome(4, 7) == "beaten"


def test_a_tie_changes_nothing() -> None:
    state = pair("Lib", "Lib")
    after, events = fight(state, 3, 3)
    assert after.elements == state.elements and events[0].outcome == "tie"  # type: ignore[attr-defined]


def test_liburnian_beaten_by_cataphracts_flees_400p() -> None:
    after, events = fight(pair("Lib", "Cat"), 1, 1)  # 3 against 4: beaten
    assert at(after, "B1") == (1200, 400, S)  # turned about, 400p away
    assert "B1 beaten: flee" in events[0].outcome  # type: ignore[attr-defined]


def test_liburnian_beaten_by_others_recoils_one_base_depth() -> None:
    after, _ = fight(pair("Lib", "Lng"), 1, 2)
    assert at(after, "B1") == (1200, 640, N)


def test_cataphracts_and_longships_beaten_by_liburnians_are_destroyed() -> None:
    for kind in ("Cat", "Lng"):
        after, _ = fight(pair(kind, "Lib"), 1, 3)  # Cat 4 v Lib 5; Lng 3 v 5
        assert after.element("B1") is None and after.lost == ("B1",)


def test_cataphracts_beaten_by_others_recoil() -> None:
    after, _ = fight(pair("Cat", "Cat"), 1, 2)
    assert at(after, "B1") == (1200, 640, N)


def test_warships_beaten_recoil_only_downwind() -> None:
    downwind = pair("Wr", "Cat", wind="N")  # blowing south: B1's recoil (south) is downwind
    after, _ = fight(downwind, 2, 2)  # 4 v 5
    assert at(after, "B1") == (1200, 640, N)
    upwind = pair("Wr", "Cat", wind="S")
    after, events = fight(upwind, 2, 2)
    assert at(after, "B1") == (1200, 800, N) and "stands" in events[0].outcome  # type: ignore[attr-defined]
    after, _ = fight(pair("Wr", "Lib", wind="N"), 2, 3)
    assert after.element("B1") is None


def test_warships_doubled_recoil_from_transports_only_downwind() -> None:
    after, _ = fight(pair("Wr", "Tr", wind="N"), 1, 5)  # 3 v 6
    assert at(after, "B1") == (1200, 640, N)
    after, _ = fight(pair("Wr", "Tr", wind="S"), 1, 5)
    assert after.element("B1") is None
    after, _ = fight(pair("Wr", "Cat", wind="N"), 1, 3)  # 3 v 6
    assert after.element("B1") is None


def test_doubled_galleys_recoil_from_transports_else_destroyed() -> None:
    after, _ = fight(pair("Lng", "Tr"), 1, 5)  # 3 v 6
    assert at(after, "B1") == (1200, 640, N)
    after, _ = fight(pair("Lng", "Lng"), 1, 4)  # 3 v 6
    assert after.element("B1") is None


def test_transports_beaten_recoil_if_downwind_doubled_destroyed() -> None:
    after, _ = fight(pair("Tr", "Tr", wind="N"), 1, 2)  # 2 v 3
    assert at(after, "B1") == (1200, 640, N)
    after, _ = fight(pair("Tr", "Tr", wind="S"), 1, 2)
    assert at(after, "B1") == (1200, 800, N)
    after, _ = fight(pair("Tr", "Tr", wind="N"), 1, 3)  # 2 v 4
    assert after.element("B1") is None


def test_ships_follow_up_recoiling_opponents_downwind_except_liburnians() -> None:
    after, events = fight(pair("Lng", "Wr", wind="N"), 1, 3)  # Lng 3 v Wr 5: beaten, recoils south (downwind)
    assert at(after, "B1") == (1200, 640, N) and at(after, "R1") == (1200, 800, S)
    after, _ = fight(pair("Lib", "Wr", wind="N"), 1, 3)
    assert at(after, "B1") == (1200, 640, N) and at(after, "R1") == (1200, 960, S)  # no follow-up against Lib
    after, _ = fight(pair("Cat", "Wr", wind="S"), 1, 4)  # Cat 4 v Wr 6: recoil south is upwind: no follow-up
    assert at(after, "B1") == (1200, 640, N) and at(after, "R1") == (1200, 960, S)
    after, _ = fight(pair("Lng", "Cat", wind="N"), 1, 2)  # galleys do not follow up
    assert at(after, "R1") == (1200, 960, S)


def test_the_general_adds_one_in_contact() -> None:
    after, events = fight(pair("Lib", "Lib", general=True), 2, 3)  # 2+2+1 = 5 v 5
    assert events[0].outcome == "tie" and events[0].totals == [5, 5]  # type: ignore[attr-defined]


def test_galleys_supported_by_a_second_rank_against_galleys_add_one() -> None:
    rear = el("B2", "Lib", 1200, 640, N)
    state = battle(el("B1", "Lib", 1200, 800, N), rear, el("R1", "Lib", 1200, 960, S))
    _, events = fight(state, 2, 3)
    assert events[0].totals == [5, 5]  # type: ignore[attr-defined]
    ships = battle(el("B1", "Lib", 1200, 800, N), rear, el("R1", "Wr", 1200, 960, S))
    _, events = fight(ships, 2, 3)
    assert events[0].totals == [4, 5]  # not against ships  # type: ignore[attr-defined]
    offset = battle(el("B1", "Lib", 1200, 800, N), el("B2", "Lib", 1201, 640, N), el("R1", "Lib", 1200, 960, S))
    _, events = fight(offset, 2, 3)
    assert events[0].totals == [4, 5]  # type: ignore[attr-defined]


def test_a_supported_galley_that_recoils_pushes_its_second_rank_back() -> None:
    state = battle(el("B1", "Lib", 1200, 800, N), el("B2", "Lib", 1200, 640, N), el("R1", "Lib", 1200, 960, S))
    after, _ = fight(state, 1, 5)  # 4 v 7: beaten
    assert at(after, "B1") == (1200, 640, N) and at(after, "B2") == (1200, 480, N)


def test_a_recoil_blocked_by_anything_else_destroys() -> None:
    state = battle(el("B1", "Lib", 1200, 800, N), el("B2", "Lib", 1250, 640, N), el("R1", "Lib", 1200, 960, S))
    after, _ = fight(state, 1, 3)
    assert after.element("B1") is None


def test_an_overlapped_flank_costs_one() -> None:
    state = battle(el("B1", "Lib", 1200, 800, N), el("R1", "Lib", 1200, 960, S), el("R2", "Lib", 1360, 960, S))
    _, events = fight(state, 3, 3)
    assert events[0].totals == [4, 5]  # type: ignore[attr-defined]


def test_recoiling_onto_land_destroys() -> None:
    from engine.fleets.geometry import Rect
    from engine.fleets.table import Piece

    reef = Piece("reef", Rect(1100, 600, 1300, 700), 0)
    state = battle(el("B1", "Lib", 1200, 800, N), el("R1", "Lib", 1200, 960, S), pieces=(reef,))
    after, events = fight(state, 1, 3)
    assert after.element("B1") is None and events[1].fate == "wrecked"  # type: ignore[attr-defined]


def test_transports_do_not_follow_up_into_contact() -> None:
    # fragment: "Transports may not move into contact with enemy" (version 2): not by a follow-up either
    def tr_wins(version: str):  # type: ignore[no-untyped-def]
        state = battle(el("B1", "Lng", 1200, 800, N), el("R1", "Tr", 1200, 960, S), wind="N", version=version)
        return fight(state, 1, 5)[0]  # Lng 3 v Tr 6: doubled by Tr, so it recoils south, downwind
    after = tr_wins("2")
    assert at(after, "B1") == (1200, 640, N) and at(after, "R1") == (1200, 960, S)
    assert at(tr_wins("1"), "R1") == (1200, 800, S)  # version 1 followed up
