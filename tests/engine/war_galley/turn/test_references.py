"""`references.galley_ids`: every galley id a decision names, in the order written (what the name checks
walk), over every decision of the recorded Tauris game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from engine.war_galley.map_and_galleys.galley import GalleyId, parse_galley_id
from engine.war_galley.play.order_errors import galleys_named
from engine.war_galley.turn.decisions import Squadrons, from_json
from engine.war_galley.turn.references import galley_ids
from pbem.game import folder
from pbem.signed import movefile

GAME = Path(__file__).resolve().parents[4] / "examples" / "tauris-game"


def recursive(value: Any) -> Iterator[GalleyId]:
    """The walk as it was first written: a generator per value."""
    if isinstance(value, GalleyId):
        yield value
    elif isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            yield from recursive(getattr(value, name))
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            yield from recursive(item)


def test_every_recorded_decision_names_the_same_galleys_in_the_same_order() -> None:
    decisions = []
    for path in folder.game_files(GAME):
        body = movefile.parse(path.read_bytes(), str(path)).body
        decisions += [from_json(d) for d in getattr(body, "decisions", [])]
    named = 0
    for decision in decisions:
        expected = tuple(recursive(decision))
        assert galley_ids(decision) == expected and galleys_named(decision) == expected
        named += bool(expected)
    assert named > 50  # the game's activations, speeds and squadrons name galleys


def test_order_is_the_order_of_writing() -> None:
    a, b, c = (parse_galley_id(t) for t in ("R5-3", "G5-1", "R5-1"))
    decision = Squadrons(side="rome", assign=((a, "Catulus"), (b, "Hanno"), (c, "Catulus")))
    assert galley_ids(decision) == (a, b, c)
