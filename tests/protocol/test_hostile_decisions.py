"""Hostile War Galley decisions: validly signed JSON of every kind, fed through the contract.

A player signs whatever JSON he likes as a decision. The ruleset must refuse
every malformed one with its illegal-order error (before any die), or apply
it; once a decision has rolled a die it must not fail at all (pbem/game/ruleset.py).
Anything else (KeyError, TypeError, RecursionError...) used to reach the CLI
as rc 70, in `receive` and in a third party's `verify`, naming no file.
"""

from __future__ import annotations

import copy
import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.game import referee
from pbem.game import ruleset as rulesets
from pbem.signed.dice import DiceStream, NoDiceYet, SealedDice

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tauris-game"
RULESET = rulesets.find("war-galley")


@lru_cache(maxsize=1)
def decision_points() -> tuple[tuple[Any, tuple[Any, ...]], ...]:
    """Every state of the recorded Tauris battle where a side must decide, with its legal decisions."""
    game = referee.replay([p.read_bytes() for p in sorted(EXAMPLE.glob("*.pbem"))], [str(p) for p in sorted(EXAMPLE.glob("*.pbem"))])
    points = []
    for seq in sorted(game.resolutions):
        state = game.resolutions[seq].state
        pending = RULESET.pending(state)
        if pending.side is not None and not pending.finished:
            points.append((state, tuple(RULESET.legal(state))))
    assert len(points) > 50
    return tuple(points)


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1),
    st.sampled_from([0, -1, 1, 2, 99, 10**15, -(2**53 - 1)]),
    st.text(max_size=12),
    st.sampled_from(["", "G5-99", "R3-1", "N0000-N0001", "3421-3422", "off", "Nobody", "pompeians", "caesarians",
                     "activate", "speed", "deploy", "board", "stern", "bow", "port", "starboard", "\x1b[2J"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)),
    max_leaves=30,
)
KINDS = ["deploy", "squadrons", "initiative", "speed", "activate", "double", "individual", "board", "reactions",
         "transfer", "concede", "propose-halt", "accept-halt"]


def deep(depth: int) -> Any:
    value: Any = 1
    for level in range(depth):
        value = [value] if level % 2 else {"a": value}
    return value


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value (the value itself included)."""
    found = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, at + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, at + (index,))
    return found


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _is_galley_id(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"colour", "type", "number"}


def _put(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    value = copy.deepcopy(value)
    holder = value
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = new
    return value


@st.composite
def hostile(draw: st.DrawFn, legal: tuple[Any, ...]) -> Any:
    """A decision a cheater might sign: a legal one with any part replaced, garbage, or a shape pushed to extremes."""
    how = draw(st.sampled_from(["unknown", "unknown", "mutate", "mutate", "mutate", "tagged", "garbage", "huge", "deep"]))
    base = draw(st.sampled_from(legal)) if legal else {"kind": "concede", "side": "pompeians"}
    if how == "unknown":  # well-formed, but naming a galley, commander, squadron or side not in the battle
        ids = [p for p in _paths(base) if _is_galley_id(_get(base, p))]
        names = [p for p in _paths(base) if isinstance(_get(base, p), str) and p and p[-1] != "kind"]
        if ids and (not names or draw(st.booleans())):
            path = draw(st.sampled_from(ids))
            galley = dict(_get(base, path), number=draw(st.integers(min_value=60, max_value=2**53 - 1)))
            return _put(base, path, galley)
        if names:
            return _put(base, draw(st.sampled_from(names)), draw(st.sampled_from(["Nobody", "RL2-99", "G5-1", "red", ""])))
        return base
    if how == "mutate":
        path = draw(st.sampled_from(_paths(base)))
        return _put(base, path, draw(json_values))
    if how == "tagged":
        fields = draw(st.dictionaries(st.sampled_from(["side", "galleys", "commanders", "squadron", "plans", "first",
                                                       "maximum", "galley", "parties", "orders", "to", "commander",
                                                       "other", "also", "refloat", "fire", "grapple", "assign"]),
                                      json_values, max_size=5))
        return dict(fields, kind=draw(st.sampled_from(KINDS)))
    if how == "garbage":
        return draw(json_values)
    if how == "huge":  # as long as a 1 MiB file allows
        path = draw(st.sampled_from([p for p in _paths(base) if p]) if len(_paths(base)) > 1 else st.just(("x",)))
        item = draw(st.sampled_from([base.get(path[0]) if isinstance(base, dict) else 1, {"colour": "R", "type": "4", "number": 1}, 0]))
        return _put(base, path[:1], [item] * 20_000)
    return _put(base, draw(st.sampled_from(_paths(base))), deep(draw(st.integers(min_value=1, max_value=31))))


@st.composite
def cases(draw: st.DrawFn) -> tuple[int, Any]:
    """(which decision point, a hostile decision there): the point by number, so a failure prints short."""
    point = draw(st.integers(min_value=0, max_value=len(decision_points()) - 1))
    return point, draw(hostile(decision_points()[point][1]))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(cases())
def test_every_hostile_decision_is_refused_as_illegal_or_applied(case: tuple[int, Any]) -> None:
    point, decision = case
    state = decision_points()[point][0]
    try:
        RULESET.apply(state, decision, SealedDice())
    except RULESET.illegal_errors:
        return
    except NoDiceYet:
        # Checked and rolling: with real dice it must now go through without any error.
        key = hashlib.sha256(repr(decision).encode()).digest()
        dice = DiceStream(key, "0" * 32, hashlib.sha256(b"hostile").digest())
        new_state, events = RULESET.apply(state, decision, dice)
        assert RULESET.state_bytes(new_state)
        return
    # Applied without dice: the new state must still encode (its hash goes in the next file).
    new_state, _ = RULESET.apply(state, decision, SealedDice())
    assert RULESET.state_bytes(new_state)
