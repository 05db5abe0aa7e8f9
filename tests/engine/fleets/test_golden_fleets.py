"""A golden fleet battle: examples/salamis-fleets-game replays byte for byte (every die and state hash
recomputed from file 0) to the same end, so a rules change that would alter it fails."""

from __future__ import annotations

from pathlib import Path

from pbem.game import folder
from pbem.game import referee

GAME = Path(__file__).resolve().parents[3] / "examples" / "salamis-fleets-game"


def test_the_recorded_salamis_replays_to_the_same_end() -> None:
    paths = folder.game_files(GAME)
    replayed = referee.replay([p.read_bytes() for p in paths], [str(p) for p in paths])
    assert len(replayed.files) == 21
    assert replayed.finished()
    assert replayed.result() == "Greeks win: the Persians have lost 4 of 12 elements (4 lost to 3)"
    text = [replayed.ruleset.describe_event(e) for r in replayed.resolutions.values() for e in r.events]
    assert any("flees" in t for t in text) and any("recoil" in t for t in text) and any("destroyed" in t for t in text)


GAME_2 = Path(__file__).resolve().parents[3] / "examples" / "salamis-fleets-2-game"


def test_the_recorded_salamis_of_version_2_replays_to_the_same_end() -> None:
    """Fleets version 2 (issue 27): command distance (2-PIP moves), a lost general, destroyed and wrecked elements."""
    paths = folder.game_files(GAME_2)
    replayed = referee.replay([p.read_bytes() for p in paths], [str(p) for p in paths])
    assert len(replayed.files) == 15 and replayed.finished() and replayed.ruleset.version == "2"
    assert replayed.result() == "Persians win: the Greeks have lost their general's element (4 lost to 2)"
    text = [replayed.ruleset.describe_event(e) for r in replayed.resolutions.values() for e in r.events]
    assert any(t.endswith("2 PIPs") for t in text) and any("destroyed" in t for t in text)
    assert any("wrecked" in t for t in text)
