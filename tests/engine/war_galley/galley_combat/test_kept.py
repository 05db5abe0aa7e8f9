"""`Kept`: answers about a battlefield reused only for the very same galley objects."""

from __future__ import annotations

from msgspec.structs import replace

from engine.war_galley.galley_combat.kept import Kept
from tests.engine.war_galley.combat_support import ship


def test_an_answer_is_found_for_the_same_objects_only() -> None:
    a, b = ship("G5-1", "3015-3016"), ship("R5-1", "3115-3114")
    kept: Kept[str] = Kept(size=2)
    assert kept.keep(("k",), (a, b), "answer") == "answer"
    assert kept.find(("k",), (a, b)) == "answer"
    assert kept.find(("other key",), (a, b)) is None
    assert kept.find(("".join("k"),), (a, b)) == "answer"  # an equal key is the same question
    assert kept.find(("k",), (b, a)) is None  # another order: an answer may depend on it
    assert kept.find(("k",), (a,)) is None
    moved = replace(b, fatigue=2)
    assert kept.find(("k",), (a, moved)) is None
    # An equal galley that is another object is not taken for the same: identity alone, never a guess.
    assert kept.find(("k",), (a, replace(b))) is None


def test_the_oldest_answer_goes_first() -> None:
    a, b, c = (ship(name, None) for name in ("G5-1", "G5-2", "G5-3"))
    kept: Kept[int] = Kept(size=2)
    kept.keep((), (a,), 1)
    kept.keep((), (b,), 2)
    kept.keep((), (c,), 3)
    assert [kept.find((), (g,)) for g in (a, b, c)] == [None, 2, 3]
