"""bench/person_files.py's model (issue 24): the floor never exceeds what a player writes with the
defaults, and every offered advance order never makes him write more than the defaults or none."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))

import person_files  # noqa: E402


def test_the_floor_the_defaults_and_every_advance_order_come_in_order_for_a_game_turn_of_tauris() -> None:
    written = {}
    for mode in person_files.MODES:
        files, person, floor = person_files.play_files("tauris", 0, 1, mode)
        assert all(person[t] <= files[t] for t in files)
        written[mode] = sum(person[t] for t in files if t >= 1), sum(floor[t] for t in files if t >= 1)
    (without, _), (defaults, floor), (advance, _) = (written[m] for m in person_files.MODES)
    assert 0 < floor <= defaults < without
    assert advance <= defaults
