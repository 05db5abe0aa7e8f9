"""Line Astern (5.22) found through the hex index (command._lines) gives what asking every pair gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from engine.war_galley.map_and_galleys.galley import Galley
from engine.war_galley.map_and_galleys.hexes import Direction, Hex
from engine.war_galley.map_and_galleys.position import Position
from engine.war_galley.turn import command
from engine.war_galley.turn.state import GameState
from tests.engine.war_galley.game_support import skirmish


def _pairwise_line_from(state: GameState, head: Galley) -> tuple:
    """The line as the rules read before the index: every friend asked with command._leads."""
    friends = [g for g in state.galleys_of(state.controller(head)) if g.position is not None]
    line = [head]
    while True:
        last = line[-1]
        followers = sorted(((form, f) for f in friends if f not in line and (form := command._leads(last, f)) is not None),
                           key=lambda pair: pair[0])
        if not followers:
            break
        line.append(followers[0][1])
    return tuple(g.id for g in line) if len(line) > 1 else ()


def _pairwise_line_astern(state: GameState, commander) -> tuple:
    ship = command.command_ship(state, commander)
    if ship is None:
        return ()
    friends = list(state.galleys_of(state.controller(ship)))

    def leader(g: Galley) -> Galley | None:
        return next((f for f in friends if f.id != g.id and command._leads(f, g) is not None), None)

    head: Galley | None = ship
    ahead = leader(ship)
    if ahead is not None:
        head = ahead if leader(ahead) is None or leader(ahead) == ship else None
    if head is None:
        return ()
    if head is ship:
        return _pairwise_line_from(state, ship)
    # 5.22: a Command Ship second in line has the line run from the head through it (rules-notes, issue 11).
    rest = _pairwise_line_from(state, ship) or (ship.id,)
    return (head.id, *(g for g in rest if g != head.id))


_BASE = skirmish()
# Positions in a small patch of sea, so lines form often.
_positions = st.builds(lambda c, r, d: Position(Hex(c, r), Direction(d)),
                       st.integers(20, 25), st.integers(18, 23), st.integers(0, 5))


@settings(max_examples=150, deadline=None)
@given(st.lists(_positions, min_size=len(_BASE.galleys), max_size=len(_BASE.galleys)))
def test_the_index_finds_the_lines_every_pair_finds(positions: list[Position]) -> None:
    seen: set[Hex] = set()
    galleys = []
    for galley, position in zip(_BASE.galleys, positions):
        if galley.position is None or not galley.ratings.double or seen & set(position.hexes):
            galleys.append(galley)
            continue
        seen |= set(position.hexes)
        galleys.append(replace(galley, position=position))
    state = replace(_BASE, galleys=tuple(galleys))
    for c in state.commanders:
        assert command.line_astern(state, c) == _pairwise_line_astern(state, c)
    for g in state.galleys:
        if g.position is not None:
            assert command.line_from(state, g) == _pairwise_line_from(state, g)
