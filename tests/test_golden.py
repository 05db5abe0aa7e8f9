"""Golden games: the recorded examples replay byte for byte (every recorded die
and state hash recomputed from file 0) to the same result."""

from pathlib import Path

import pytest

from pbem.game import folder
from pbem.game import referee

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize(
    "game, files, result",
    [
        ("tauris-game", 122, "Publius Vatinius (Caesarian) win with 35 VP"),
        ("duel-game", 110, "Red wins"),
        # issue 26: Tauris by two players a side (examples/record_team_game.py, through the real commands)
        ("tauris-team-game", 104, "play halted by agreement, minor victory: Publius Vatinius (Caesarian) win"),
    ],
)
def test_recorded_game_replays_to_the_same_end(game: str, files: int, result: str) -> None:
    paths = folder.game_files(EXAMPLES / game)
    replayed = referee.replay([p.read_bytes() for p in paths], [str(p) for p in paths])
    assert len(replayed.files) == files
    assert replayed.finished() and (replayed.result() or "").startswith(result)


def test_sample_orders_parse_and_print_back() -> None:
    from engine.war_galley.map_and_galleys.hexes import MapSpec
    from engine.war_galley.play import notation

    lines = [l for l in (EXAMPLES / "orders-tauris.txt").read_text().splitlines() if l and not l.startswith("#")]
    assert len(lines) == 4
    for line in lines:
        decision = notation.parse_decision(line, "caesarians", MapSpec.single())
        assert notation.format_decision(decision) == line


def test_the_team_game_was_played_by_all_four_seats_each_for_his_own_commands() -> None:
    """examples/tauris-team-game: every decision signed by the seat holding its command (the replay checks
    that); here, that the squadron commanders' seats, not only the leads, gave orders."""
    paths = folder.game_files(EXAMPLES / "tauris-team-game")
    replayed = referee.replay([p.read_bytes() for p in paths], [str(p) for p in paths])
    assert replayed.team is not None
    ordered = {f.body.seat for f in replayed.files[2:] if f.body.decisions}
    assert ordered == {"alice", "bob", "carol", "dave"}
