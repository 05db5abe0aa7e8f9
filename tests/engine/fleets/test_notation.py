"""The orders notation (docs/fleets-orders.md): every example parses and prints back as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.fleets.decisions import Move, SetTerrain, Shift, from_json, to_json
from engine.fleets.errors import FleetsError, NotationError
from engine.fleets.notation import format_decision, parse_decision

DOC = Path(__file__).resolve().parents[3] / "docs" / "fleets-orders.md"


def examples() -> list[str]:
    lines = [m.group(1) for m in re.finditer(r"^    (\S.*)$", DOC.read_text(), re.MULTILINE)]
    return [line.split("#")[0].strip() for line in lines]


def test_the_document_has_an_example_of_every_kind() -> None:
    kinds = {to_json(parse_decision(line))["kind"] for line in examples()}
    assert kinds == {"fleet", "terrain", "wind", "attack", "place", "place-rest", "move", "shift", "wheel", "back", "drift", "end", "concede"}


@pytest.mark.parametrize("line", examples())
def test_every_example_round_trips(line: str) -> None:
    decision = parse_decision(line)
    assert format_decision(decision) == line
    assert from_json(to_json(decision)) == decision


def test_case_and_spacing_do_not_matter() -> None:
    assert parse_decision("  g3   TURN e  to 1400,1700 ") == Move("G3", 90, [[1400, 1700]])
    assert parse_decision("g1 g2 by 0,-200") == Shift(["G1", "G2"], 0, -200)
    assert parse_decision("terrain coast s") == SetTerrain([["S", 0]])


@pytest.mark.parametrize("line,words", [
    ("", "empty"),
    ("fly away", "unknown order"),
    ("G3", "what should G3 do"),
    ("G3 to 12,x", "not a point"),
    ("G3 turn up", "not a facing"),
    ("G1 G2 to 100,100", "a group moves with"),
    ("G3 back far", "whole number"),
    ("place G3 at 1,1", "place G3 at"),
    ("terrain island 1,1 2,2", "at least one `coast"),
    ("terrain coast S / volcano 1,1 2,2", "cannot read terrain"),
    ("G3 contact P5 to 1,1", "cannot read"),
])
def test_bad_lines_say_what_is_wrong(line: str, words: str) -> None:
    with pytest.raises(NotationError, match=words):
        parse_decision(line)


def test_a_decision_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(FleetsError):
        from_json({"kind": "move"})
    with pytest.raises(FleetsError):
        from_json({"kind": "end", "extra": 1})
