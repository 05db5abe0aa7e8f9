"""pbem.game.paused: a decision applied once, paused at its first die, gives what applying it afresh gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.game import referee
from pbem.game import store
from pbem.signed.dice import DiceStream, NoDiceYet, SealedDice
from pbem.signed.movefile import Move
from pbem.game.paused import Paused

TAURIS = Path(__file__).resolve().parents[2] / "examples" / "tauris-game"


@pytest.fixture(scope="module")
def game() -> referee.Game:
    return store.load(TAURIS, use_cache=False)


def _rolling(game: referee.Game) -> list[tuple[int, object, object]]:
    """(file, state, last decision) for the files whose last decision rolls dice."""
    found = []
    for seq in range(2, len(game.files) - 1):
        body = game.files[seq].body
        if not isinstance(body, Move) or not body.decisions:
            continue
        state = game.state_before(seq)
        for decision in body.decisions[:-1]:
            state, _ = game.ruleset.apply(state, decision, SealedDice())
        try:
            game.ruleset.apply(state, body.decisions[-1], SealedDice())
        except NoDiceYet:
            found.append((seq, state, body.decisions[-1]))
    return found


def test_resumed_at_the_first_die_it_gives_the_same_state_events_and_dice(game: referee.Game) -> None:
    rolling = _rolling(game)
    assert len(rolling) > 20  # the recorded game rolls in most files
    ruleset = game.ruleset
    for seq, state, decision in rolling:
        key = bytes.fromhex(game.files[seq + 1].body.reveal)
        fresh_dice = DiceStream(key, game.game_id, game.files[seq].hash)
        fresh_state, fresh_events = ruleset.apply(state, decision, fresh_dice)
        paused = Paused(ruleset.apply, state, decision)
        assert not paused.finished
        dice = DiceStream(key, game.game_id, game.files[seq].hash)
        resumed_state, resumed_events = paused.resume(dice)
        assert ruleset.state_bytes(resumed_state) == ruleset.state_bytes(fresh_state)
        assert resumed_events == fresh_events
        assert dice.rolls == fresh_dice.rolls


def test_a_decision_with_no_die_finishes_at_once(game: referee.Game) -> None:
    seq = 3
    state = game.state_before(seq)
    decision = game.files[seq].body.decisions[0]
    expected = game.ruleset.apply(state, decision, SealedDice())  # a deployment: no die
    paused = Paused(game.ruleset.apply, state, decision)
    assert paused.finished and paused.result is not None
    assert game.ruleset.state_bytes(paused.result[0]) == game.ruleset.state_bytes(expected[0])


def test_an_illegal_decision_raises_its_own_error_before_any_die(game: referee.Game) -> None:
    state = game.state_before(10)
    with pytest.raises(game.ruleset.illegal_errors):
        Paused(game.ruleset.apply, state, {"kind": "speed", "side": "nobody", "squadron": "none"})


def test_cancelled_it_ends_its_greenlet(game: referee.Game) -> None:
    _, state, decision = _rolling(game)[0]
    paused = Paused(game.ruleset.apply, state, decision)
    assert not paused.ended  # held at its first die
    paused.cancel()
    assert paused.ended and paused.spent and not paused.finished
    paused.cancel()  # a second cancel does nothing


def test_an_error_after_the_first_die_is_raised_by_resume(game: referee.Game) -> None:
    _, state, decision = _rolling(game)[0]

    class Broken:
        def d6(self, purpose: str) -> int:
            raise ValueError(f"no die for {purpose}")

        two_d6 = d6

    paused = Paused(game.ruleset.apply, state, decision)
    with pytest.raises(ValueError, match="no die for"):
        paused.resume(Broken())
    assert paused.ended
