"""Any JSON thrown at the fleet rules is refused with the ruleset's own error, never a crash."""

from __future__ import annotations

import random

from hypothesis import example, given, settings, strategies as st

from engine.fleets.errors import FleetsError
from engine.fleets.ruleset import RULESET
from tests.engine.fleets.test_random_play import SeededDice

KINDS = ["fleet", "terrain", "wind", "attack", "place", "place-rest", "move", "shift", "back", "drift", "end", "concede", "x"]
scalars = st.one_of(st.integers(-(2**53), 2**53), st.text(max_size=6), st.booleans(), st.none(),
                    st.sampled_from(["B1", "R1", "G1", "P1", "N", "S", "NE", "island", "reef"]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
                      max_leaves=12)
fields = st.sampled_from(["id", "ids", "x", "y", "heading", "turn", "to", "contact", "dx", "dy", "distance",
                          "point", "edge", "coasts", "pieces", "types", "general", "ahead"])
points = st.lists(st.lists(st.integers(-3000, 3000), max_size=3), max_size=5)
typed = st.fixed_dictionaries({}, optional={
    "id": st.sampled_from(["B1", "R1", "R2", "B12", "Q9"]), "ids": st.lists(st.sampled_from(["B1", "R1", "R2", "R3"]), max_size=4),
    "x": st.integers(-100, 2600), "y": st.integers(-100, 2600), "heading": st.sampled_from([0, 45, 90, 180, 270, 360]),
    "turn": st.sampled_from([0, 90, 180, 270, 1]), "to": points, "contact": st.sampled_from(["B1", "R1", "B2"]),
    "dx": st.integers(-500, 500), "dy": st.integers(-500, 500), "distance": st.integers(-10, 500),
    "point": st.sampled_from(["N", "SW", "X"]), "edge": st.sampled_from(["N", "E", "S", "W", "Q"]),
    "coasts": st.lists(st.lists(st.one_of(st.sampled_from(["N", "S", "Z"]), st.integers(-5, 400)), max_size=3), max_size=3),
    "pieces": st.lists(st.lists(st.one_of(st.sampled_from(["island", "reef", "peninsula", "rock"]), st.integers(-100, 2500)),
                                max_size=7), max_size=3),
})
decisions = st.builds(lambda kind, extra: {"kind": kind, **extra}, st.sampled_from(KINDS),
                      st.one_of(typed, st.dictionaries(fields, values, max_size=5)))


def states() -> list[object]:
    """A state at each kind of decision: terrain, wind, attack, placing, moving (with contacts)."""
    out = []
    state = RULESET.new_game(RULESET.builtin_scenario("open-sea") or b"", RULESET.default_rules_data(), {})
    rng, dice = random.Random(2), SeededDice(2)
    state, _ = RULESET.advance(state, dice)  # the aggression dice
    kinds = set()
    for _ in range(400):
        pending = RULESET.pending(state)
        if pending.finished:
            break
        if pending.kind not in kinds or len(out) < 12:
            kinds.add(pending.kind)
            out.append(state)
        state, _ = RULESET.apply(state, RULESET.choose(state, pending.side or "", rng), dice)
        state, _ = RULESET.advance(state, dice)
    return out


STATES = states()
MOVING = next(i for i, s in enumerate(STATES) if s.phase == "move" and s.pips > 0)  # type: ignore[attr-defined]
MOVER = next(e.id for e in STATES[MOVING].elements if e.side == STATES[MOVING].moving)  # type: ignore[attr-defined]


@settings(max_examples=600, deadline=None)
@given(decisions, st.integers(0, len(STATES) - 1))
@example({"kind": "move", "id": MOVER, "to": [[1]]}, MOVING)
@example({"kind": "move", "id": MOVER, "to": [[]]}, MOVING)
@example({"kind": "terrain", "coasts": [["S"]], "pieces": [["island", 1, 2]]}, 0)
def test_arbitrary_decisions_are_refused_cleanly(decision: dict, which: int) -> None:
    state = STATES[which]
    try:
        RULESET.apply(state, decision, SeededDice(0))
    except FleetsError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.integers(0, len(STATES) - 1))
def test_arbitrary_order_lines_are_refused_cleanly(line: str, which: int) -> None:
    try:
        decision = RULESET.parse_order(line, STATES[which])
    except FleetsError:
        return
    assert RULESET.parse_order(RULESET.format_order(decision), STATES[which]) == decision
