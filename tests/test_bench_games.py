"""The benchmark's long games (bench/games.py): a pure function of scenario, seed and length, so an
interrupted making carries on and ends as if it never stopped."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))

import games  # noqa: E402


def files_of(where: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((where / "game").glob("*.pbem"))}


def test_an_interrupted_making_carries_on_to_the_same_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_BENCH_CACHE", str(tmp_path / "whole"))
    whole = files_of(games.make_game("tauris", 12))
    assert len(whole) == 12

    monkeypatch.setenv("PBEM_BENCH_CACHE", str(tmp_path / "broken"))
    short = games.make_game("tauris", 8)  # stands for a making stopped at file 8
    interrupted = games.game_dir("tauris", 12, 1).with_name(games.game_dir("tauris", 12, 1).name + ".making")
    (short / "complete").unlink()
    short.rename(interrupted)
    resumed = games.make_game("tauris", 12)
    assert not interrupted.exists()
    assert files_of(resumed) == whole


def test_another_seed_is_another_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_BENCH_CACHE", str(tmp_path))
    assert files_of(games.make_game("tauris", 6, seed=1)) != files_of(games.make_game("tauris", 6, seed=2))
