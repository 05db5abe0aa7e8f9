"""The listing's Double Line Astern deployment (engine.war_galley.play.deploy_examples._chains): its search keeps
the dead ends it met (a galley with so many still to place that no line fits behind it) and never searches
them again. That must find exactly the line the plain depth-first search finds; here the plain search is
written out again and both are run where it matters: the Romans' deployment at Drepanum (their remaining
galleys "in double Line Astern"), where most heads cannot hold a line of ten.
"""

from __future__ import annotations

import random

from engine.war_galley.battles.deployment import zone_positions
from engine.war_galley.map_and_galleys.hexes import Hex
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.play import deploy_examples
from engine.war_galley.play.legal import legal
from engine.war_galley.ruleset import RULESET
from engine.war_galley.turn.sequence import decision_due
from engine.war_galley.turn.state import DeployGroup, GameState
from tests.engine.war_galley.scenario_support import RecordedDice, apply, new


def _plain_extend(state: GameState, group: DeployGroup, line: list[Position], length: int,
                  busy: set[Hex]) -> list[Position] | None:
    """The search as it was first written: every follower clear of `busy`, depth first, nothing kept."""
    if len(line) >= length:
        return line
    for p in deploy_examples._followers(state, group, line[-1]):
        if set(p.hexes) & busy:
            continue
        got = _plain_extend(state, group, [*line, p], length, busy | set(p.hexes))
        if got is not None:
            return got
    return None


def _plain_chains(state: GameState, group: DeployGroup, chosen: list[str], taken: set[Hex],
                  variant: int) -> list[tuple[str, Position]] | None:
    assert group.zone is not None
    heads = zone_positions(state, group.zone, True, taken)
    heads.sort(key=lambda p: (-p.bow.col, p.bow.row) if variant == 0 else (p.bow.col, p.bow.row))
    half = (len(chosen) + 1) // 2
    busy = set(taken)
    lines = []
    for length in (half, len(chosen) - half):
        line = next((found for head in heads if not set(head.hexes) & busy
                     for found in [_plain_extend(state, group, [head], length, busy | set(head.hexes))]
                     if found is not None), None)
        if line is None:
            return None
        lines.append(line)
        for p in line:
            busy.update(p.hexes)
    return list(zip(chosen, [p for line in lines for p in line]))


def _roman_deployment() -> GameState:
    rng = random.Random("drepanum-battle0")
    dice = RecordedDice(rng)
    state, _ = RULESET.advance(new("drepanum-battle", {}), dice)
    while (due := decision_due(state)) is not None and due.kind == "deploy" and due.side != "romans":
        state = apply(state, rng.choice(legal(state)), dice)
    assert due is not None and due.kind == "deploy" and due.side == "romans"
    return state


def test_the_chains_kept_dead_ends_find_the_line_the_plain_search_finds() -> None:
    state = _roman_deployment()
    task = state.deploy[0]
    groups = [g for g in task.groups if g.zone is not None and "double_line_astern" in g.constraints]
    assert groups, "Drepanum's Romans deploy a Double Line Astern"
    for group in groups:
        chosen = list(group.galleys)
        for variant in (0, 1):
            found = deploy_examples._chains(state, group, chosen, set(), variant)
            assert found is not None and len(found) == len(chosen)
            assert found == _plain_chains(state, group, chosen, set(), variant)
