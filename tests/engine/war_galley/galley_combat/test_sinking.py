"""That Sinking Feeling (7.17): the G/4 roll, and the A-B-C chain of the play note."""

from __future__ import annotations

from engine.dice import ForcedDice
from engine.war_galley.galley_combat.sinking import Sank, bound_to, sinking_segment
from engine.war_galley.map_and_galleys.galley import Removal
from tests.engine.war_galley.combat_support import CHARTS, fleet, gid, of, rolls, ship

A, B, C, D = gid("R5-1"), gid("G5-2"), gid("R5-3"), gid("G5-4")


def chain(**a: object):
    """A Rammed and Grappled with B; B Fouled with C; D Collided with C only."""
    return fleet(
        ship("R5-1", "3015-3016", rammed=True, grappled_with=frozenset({B}), **a),
        ship("G5-2", "3115-3116", grappled_with=frozenset({A}), fouled_with=frozenset({C})),
        ship("R5-3", "3215-3216", fouled_with=frozenset({B}), collided_with=frozenset({D})),
        ship("G5-4", "3315-3316", collided_with=frozenset({C})),
    )


def test_7_17_a_six_sinks_a_and_everything_bound_to_it() -> None:
    dice = ForcedDice(6)
    field, events = sinking_segment(chain(), CHARTS, dice)
    assert [field[g].removed for g in (A, B, C)] == [Removal.SUNK] * 3
    assert all(field[g].position is None for g in (A, B, C))
    assert [(e.galley, e.dragged_by) for e in of(events, Sank)] == [(A, None), (B, A), (C, A)]
    assert dice.unused == [] and len(rolls(events, "Sinking")) == 1


def test_collided_galleys_stay_afloat_and_lose_their_link() -> None:
    field, _ = sinking_segment(chain(), CHARTS, ForcedDice(6))
    assert field[D].position is not None and field[D].collided_with == frozenset()


def test_one_to_five_stays_afloat_still_rammed() -> None:
    for face in range(1, 6):
        field, events = sinking_segment(chain(), CHARTS, ForcedDice(face))
        assert field[A].rammed and field[A].position is not None and not of(events, Sank)


def test_a_galley_gone_down_with_another_does_not_roll() -> None:
    field = chain()
    field[C] = ship("R5-3", "3215-3216", rammed=True, fouled_with=frozenset({B}))
    dice = ForcedDice(6)  # A rolls first and takes C with it: one die
    _, events = sinking_segment(field, CHARTS, dice)
    assert len(rolls(events, "Sinking")) == 1 and dice.unused == []


def test_each_rammed_galley_rolls_in_order() -> None:
    field = fleet(ship("R5-1", "3015-3016", rammed=True), ship("R5-3", "3215-3216", rammed=True),
                  ship("G5-2", "3115-3116"))
    dice = ForcedDice(6, 2)  # C first, then A
    field, events = sinking_segment(field, CHARTS, dice, order=[C, A, B])
    assert field[C].removed is Removal.SUNK and field[A].position is not None
    assert [e.galley for e in of(events, Sank)] == [C]


def test_bound_to_follows_links_transitively() -> None:
    assert bound_to(chain(), C) == [C, B, A]
