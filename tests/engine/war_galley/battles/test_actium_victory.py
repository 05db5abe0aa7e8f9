"""Actium's victory (the book's last Actium Victory paragraph, after the Historical Note).

"The Octavian Player wins when he has at least 135 VP, and that number is at
least twice that of the enemy. The Antonian Player wins when he has at least
150 VP, and that number is at least twice that of the enemy. If neither of the
above happens, and/or the players halt play by mutual agreement, a minor,
indecisive victory goes to he who has the most VP." And: "If both Antony and
Cleopatra are alive and not in Octavian's hands when the game ends, if the
Antonians have not won, give the Antonians an additional 20 VP."
"""

from __future__ import annotations

import random

from engine.dice import ForcedDice
from engine.war_galley.map_and_galleys.galley import Removal
from engine.war_galley.turn.state import GameState, Phase
from engine.war_galley.turn.status import eliminate
from tests.engine.war_galley.scenario_support import SeededDice, deployed, drive


def _sink_until(state: GameState, side: str, vp: int) -> GameState:
    """Sink the enemy's galleys without commanders aboard (no 9.2 roll, no lost leader) until `side` has `vp`."""
    enemy = state.other(side)
    for galley in list(state.galleys_of(enemy)):
        if state.vp(side) >= vp:
            break
        if state.commander_on(galley.id):
            continue
        state, _ = eliminate(state, galley.id, Removal.SUNK, "sunk", ForcedDice(), "7.17")
    assert state.vp(side) >= vp
    return state


def _to_victory_phase(state: GameState) -> GameState:
    """Do-nothing play through the turn's phase H (the game over there, or the next turn begun)."""
    turn = state.turn
    return drive(state, lambda s: s.phase is Phase.OVER or s.turn > turn, SeededDice(random.Random(3)))


def test_the_book_sets_actiums_thresholds() -> None:
    state = deployed("actium")
    assert [(s.key, s.vp_needed, s.vp_ratio) for s in state.sides] == [("octavians", 135, 2), ("antonians", 150, 2)]


def test_octavian_wins_in_phase_h_on_135_vp_twice_the_enemys() -> None:
    state = _sink_until(deployed("actium"), "octavians", 135)
    assert state.result is None  # a win is judged in phase H (9.1), not the instant the VP come
    state = _to_victory_phase(state)
    assert state.phase is Phase.OVER and state.result is not None
    assert state.result.winner == "octavians" and state.result.kind == "victory"
    assert "needed 135" in state.result.text


def test_the_antonians_win_on_150_vp_twice_the_enemys() -> None:
    state = _sink_until(deployed("actium"), "antonians", 150)
    state = _to_victory_phase(state)
    assert state.result is not None and state.result.winner == "antonians" and state.result.kind == "victory"
    assert "needed 150" in state.result.text


def test_135_vp_short_of_twice_the_enemys_is_no_win_and_play_goes_on() -> None:
    state = _sink_until(deployed("actium"), "antonians", 70)
    state = _sink_until(state, "octavians", 135)
    assert state.vp("octavians") < 2 * state.vp("antonians")
    state = _to_victory_phase(state)
    assert state.result is None and state.turn == 2


def test_a_halt_without_a_win_is_a_minor_victory_with_the_leaders_20_vp_to_the_antonians() -> None:
    from engine.war_galley.turn.victory import halt

    state = _sink_until(deployed("actium"), "octavians", 1)
    assert 0 < state.vp("octavians") < 20 and state.vp("antonians") == 0
    result = halt(state)  # Antony and Cleopatra alive, aboard, not captured; the Antonians have not won
    assert result.kind == "minor" and result.winner == "antonians" and "survive: 20 VP" in result.text
    # "If this does not allow them to have more VP than the Octavians, then the Octavian still wins."
    state = _sink_until(state, "octavians", 21)
    result = halt(state)
    assert result.kind == "minor" and result.winner == "octavians" and "survive: 20 VP" in result.text


# A played end (issue 27: "Actium ends on its thresholds in a played test"). A late-game state is made by sinking
# galleys without commanders until one more Ram would cross the threshold; then the side activates a Command
# Squadron and rams by a real decision (its dice forced), and do-nothing play runs the turn to phase H, where 9.1
# judges the book's thresholds. The same state with the Ram missing is no win: play goes on into turn 2.
from engine.war_galley.map_and_galleys.ratings import SpeedSide  # noqa: E402
from engine.war_galley.play import dispatch as play  # noqa: E402
from engine.war_galley.play.notation import parse_decision  # noqa: E402
from tests.engine.war_galley.game_support import at, g  # noqa: E402

THRESHOLD = {"octavians": 135, "antonians": 150}


def _ram_vp(state: GameState, target: str) -> int:
    """9.1: a galley Rammed gives "its Ram Defense to its enemy"."""
    from engine.war_galley.turn.victory import damaged

    side = state.other(next(s.key for s in state.sides if state.galley(g(target)) in state.galleys_of(s.key)))
    return damaged(state, g(target), "rammed")[0].vp(side) - state.vp(side)


def _just_short(state: GameState, side: str, keep: str) -> GameState:
    """Sink the enemy's galleys without commanders, `keep` aside, until Ramming `keep` would reach the threshold."""
    ram_vp = _ram_vp(state, keep)
    for galley in list(state.galleys_of(state.other(side))):
        gap = THRESHOLD[side] - ram_vp - state.vp(side)
        if gap <= 0:
            break
        if state.commander_on(galley.id) or str(galley.id) == keep:
            continue
        sunk, _ = eliminate(state, galley.id, Removal.SUNK, "sunk", ForcedDice(), "7.17")
        if sunk.vp(side) < THRESHOLD[side]:
            state = sunk
    assert THRESHOLD[side] - ram_vp <= state.vp(side) < THRESHOLD[side]
    return state


def _to_activate(state: GameState, side: str) -> GameState:
    return drive(state, lambda s: s.phase is Phase.COMMAND and play.pending(s).side == side
                 and play.pending(s).kind == "activate", SeededDice(random.Random(5)))


def _ram(side: str, faces: tuple[int, ...]) -> tuple[GameState, GameState]:
    """`side`'s Command Squadron rams: the state before and after its activation."""
    state = deployed("actium")  # phase B next: the galleys are sunk before the squadrons are formed
    enemy = state.other(side)
    target = next(str(x.id) for x in state.galleys_of(enemy) if not state.commander_on(x.id)
                  and x.ratings.type in ("4", "5"))
    state = _to_activate(_just_short(state, side, target), side)
    assert THRESHOLD[side] - _ram_vp(state, target) <= state.vp(side) < THRESHOLD[side]
    squadron = next(q for q in state.squadrons if q.side == side and q.key not in state.activated
                    and not q.individual and any(not state.commander_on(x) for x in q.galleys))
    rammer = next(str(x) for x in squadron.galleys if not state.commander_on(x))
    # 7.12: the rammer's bow on the target's flank, in open sea between the fleets (rows 10-18 are clear)
    state = at(state, target, "S3015-S3016")
    state = at(state, rammer, "S3115-S3216", speed=SpeedSide.MAXIMUM)
    order = parse_decision(f"activate {squadron.key}: {rammer} max 0: R:{target}", side, state.board.map)
    after, _ = play.apply(state, order, ForcedDice(*faces))
    return state, after


def _the_end(state: GameState) -> GameState:
    from engine.war_galley.ruleset import RULESET

    turn = state.turn
    state, _ = RULESET.advance(state, SeededDice(random.Random(3)))  # the steps after the activation, then play
    return drive(state, lambda s: s.phase is Phase.OVER or s.turn > turn, SeededDice(random.Random(3)))


def test_a_ram_in_play_takes_the_octavians_to_135_and_they_win_in_phase_h() -> None:
    before, after = _ram("octavians", (6, 6, 6, 6, 6, 6, 6))
    assert before.vp("octavians") < 135 <= after.vp("octavians") and after.result is None  # judged in phase H
    assert after.vp("octavians") >= 2 * after.vp("antonians")
    end = _the_end(after)
    assert end.phase is Phase.OVER and end.result is not None
    assert end.result.winner == "octavians" and end.result.kind == "victory" and "needed 135" in end.result.text


def test_the_ram_missing_leaves_them_short_and_play_goes_on() -> None:
    before, after = _ram("octavians", (1, 1, 6, 6, 6, 6, 6))
    assert after.vp("octavians") == before.vp("octavians") < 135
    end = _the_end(after)
    assert end.result is None and end.turn == 2


def test_a_ram_in_play_takes_the_antonians_to_150_and_they_win_in_phase_h() -> None:
    before, after = _ram("antonians", (6, 6, 6, 6, 6, 6, 6))
    assert before.vp("antonians") < 150 <= after.vp("antonians") and after.result is None
    end = _the_end(after)
    assert end.phase is Phase.OVER and end.result is not None
    assert end.result.winner == "antonians" and end.result.kind == "victory" and "needed 150" in end.result.text
