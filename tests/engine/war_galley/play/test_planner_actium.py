"""The planner's pruned search lists exactly what the full search listed, on real Actium battlefields.

`full_search` is the planner as it was before it skipped legs that only spent
more (engine.war_galley.play.planner): every leg expanded. The states are 20
Actium Individual Squadron and Activation decisions, taken from a 2,100-file
game made by random legal play (moves 1500-2058), stored in the engine's
canonical encoding (data/actium-states.jsonl.gz). Every galley's end
positions, paths included, and the whole legal listing must be the same.
"""

from __future__ import annotations

import gzip
from functools import cache
from importlib.resources import files

import pytest

from engine.errors import IllegalOrder
from engine.war_galley.map_and_galleys.galley import Galley
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data, load_rules_data
from engine.war_galley.movement.moving import Ending, Leg, Mover, Refused, Surroundings, begin, finish, surroundings
from engine.war_galley.play import legal as listing
from engine.war_galley.play.planner import Reach, _key, _path, end_positions, next_steps
from engine.war_galley.turn.sequence import decision_due
from engine.war_galley.turn.state import GameState
from engine.war_galley import battles
from engine.war_galley.turn.state_bytes import decode_state


def full_search(surroundings: Surroundings, galley: Galley, *, mp: int | None = None,
                max_turns: int | None = None) -> list[Reach]:
    """The planner's search before pruning, as it was: the reference."""
    mover = Mover(surroundings, galley)
    start = begin(mover, mp)
    if isinstance(start, Refused):
        raise start.error()
    parents: dict[Leg, tuple[Leg, object] | None] = {_key(start): None}
    buckets: list[list[Leg]] = [[] for _ in range(start.budget + 1)]
    buckets[0].append(start)
    best: dict[tuple[Position, Ending | None], Leg] = {}
    for bucket in buckets:
        index = 0
        while index < len(bucket):
            leg = bucket[index]
            index += 1
            if (max_turns is None or leg.turns <= max_turns) and finish(mover, leg) is None:
                place = (leg.position, leg.ended)
                held = best.get(place)
                if held is None or (leg.spent, leg.turns) < (held.spent, held.turns):
                    best[place] = leg
            if leg.ended is not None:
                continue
            parent = _key(leg)
            for step, after in next_steps(mover, leg):
                key = _key(after)
                if key in parents:
                    continue
                parents[key] = (parent, step)
                buckets[after.spent].append(after)
    reaches = [Reach(leg.position, leg.spent, _path(parents, leg), leg.turns, leg.ended)  # type: ignore[arg-type]
               for leg in best.values()]
    reaches.sort(key=lambda r: (r.mp, r.position, r.ending is not None))
    return reaches


@cache
def actium_states() -> tuple[GameState, ...]:
    rules = load_rules_data(default_rules_data())
    data = gzip.decompress(files("tests.engine.war_galley.play").joinpath("data/actium-states.jsonl.gz").read_bytes())
    states = tuple(decode_state(line, rules) for line in data.splitlines())
    battles.load(name for name, _ in states[0].extra.rules)  # read from bytes: its rules' modules, as load_state does
    return states


def _planned(plan, state: GameState, galley: Galley, **options: object) -> list[Reach] | str:  # type: ignore[no-untyped-def]
    around = surroundings(state.board, state.galleys, galley, state.wind, state.turn, state.charts)
    try:
        return plan(around, galley, **options)
    except IllegalOrder as error:
        return str(error)


def test_the_states_are_individual_and_activation_decisions() -> None:
    kinds = [due.kind for due in map(decision_due, actium_states()) if due is not None]
    assert len(kinds) == 20 and set(kinds) == {"individual", "activate"}


@pytest.mark.parametrize("index", range(0, 20, 4))
def test_every_galleys_end_positions_are_the_full_searchs(index: int) -> None:
    state = actium_states()[index]
    galleys = [g for g in state.galleys if g.position is not None]
    assert len(galleys) > 20
    for galley in galleys:
        for options in ({}, {"max_turns": 1}, {"max_turns": 2}, {"mp": 3}):
            assert _planned(end_positions, state, galley, **options) == _planned(full_search, state, galley, **options)


@pytest.mark.parametrize("index", range(20))
def test_the_listing_is_the_one_the_full_search_gave(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    state = actium_states()[index]
    listing._REACHES.clear()
    fast = listing.legal(state)
    monkeypatch.setattr(listing, "end_positions", full_search)
    monkeypatch.setattr(listing, "_horizon", lambda around, galley: None)  # nothing kept: every galley searched
    assert fast == listing.legal(state)
    assert len(fast) > 1


def test_a_galley_is_searched_again_only_when_something_within_its_reach_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    # An Individual Squadrons phase lists every galley left at each file; between two listings one galley
    # has moved. The galleys whose horizon (engine.war_galley.play.legal._horizon) is as it was keep their
    # end positions, and the listing is the one searching every galley afresh gives.
    from engine.dice import ForcedDice
    from engine.war_galley.play import dispatch
    from engine.war_galley.turn import sequence
    from engine.war_galley.turn.decisions import Individual

    state = next(s for s in actium_states() if decision_due(s).kind == "individual")
    listing._REACHES.clear()
    moving = next(d for d in listing.legal(state) if isinstance(d, Individual) and d.if_free and d.if_free.plans
                  and not (d.if_free.fire or d.if_free.grapple))
    state, _ = dispatch.apply(state, moving, ForcedDice(1, *[4] * 20))
    state, _ = sequence.advance(state, ForcedDice(*[4] * 20))
    assert decision_due(state).kind == "individual"
    searched: list[object] = []
    monkeypatch.setattr(listing, "end_positions",
                        lambda around, galley, **kw: searched.append(galley.id) or end_positions(around, galley, **kw))
    kept = listing.legal(state)
    listed = {d.galley for d in kept if isinstance(d, Individual)}
    assert len(listed) > 5 and len(set(searched)) < len(listed) / 2
    monkeypatch.setattr(listing, "_horizon", lambda around, galley: None)
    searched.clear()
    assert listing.legal(state) == kept
    assert set(searched) >= listed


def test_the_steps_the_planner_leaves_out_are_ones_the_rules_refuse() -> None:
    # engine.war_galley.movement.manoeuvres' CRUISE_ONLY and BEFORE_MOVING, which the planner does not try:
    # from every leg a galley reaches, at Maximum the first are refused, once moving the second.
    from engine.war_galley.map_and_galleys.ratings import SpeedSide
    from engine.war_galley.movement.manoeuvres import BEFORE_MOVING, CRUISE_ONLY
    from engine.war_galley.movement.moving import advance
    from engine.war_galley.play.planner import CANDIDATES

    tried = {"cruise-only": 0, "sails": 0}
    for state, galley in ((s, g) for s in actium_states()[::3] for g in s.galleys if g.position is not None):
        mover = Mover(surroundings(state.board, state.galleys, galley, state.wind, state.turn, state.charts), galley)
        first = begin(mover, None)
        if isinstance(first, Refused):
            continue
        legs, seen = [first], {first}
        while legs and len(seen) < 60:
            leg = legs.pop()
            for step in CANDIDATES[leg.position.double]:
                after = advance(mover, leg, step)
                if isinstance(step, CRUISE_ONLY) and mover.speed is SpeedSide.MAXIMUM:
                    assert isinstance(after, Refused), (galley.id, step)
                    tried["cruise-only"] += 1
                if isinstance(step, BEFORE_MOVING) and leg.started:
                    assert isinstance(after, Refused), (galley.id, step)
                    tried["sails"] += 1
                if not isinstance(after, Refused) and after not in seen:
                    seen.add(after)
                    legs.append(after)
    assert tried["cruise-only"] and tried["sails"]
