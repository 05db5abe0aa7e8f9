"""Games and a headless Chromium for the report tests (made once per test session)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.game import referee
from pbem.game import store
from tests.reports.games import play

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
HOSTILE_NAME = "<script>alert(1)</script>"
HOSTILE_NOTE = 'Ave! <img src=x onerror="alert(2)"><b id="injected">bold</b> & <a href="https://example.com">x</a>'


@pytest.fixture(scope="session")
def tauris(tmp_path_factory: pytest.TempPathFactory) -> referee.Game:
    """The recorded Tauris game (examples/tauris-game), in a folder of its own."""
    folder = tmp_path_factory.mktemp("tauris") / "game"
    shutil.copytree(EXAMPLES / "tauris-game", folder)
    return store.load(folder)


@pytest.fixture(scope="session")
def actium(tmp_path_factory: pytest.TempPathFactory) -> referee.Game:
    """Actium through its deployment into turn 1: all 110 galleys on the two joined sheets."""
    return store.load(play(tmp_path_factory.mktemp("actium"), "war-galley", "actium", 8))


@pytest.fixture(scope="session")
def modified(tmp_path_factory: pytest.TempPathFactory) -> referee.Game:
    """Tauris from a copy of the built-in scenario with one value changed, under the built-in name."""
    from engine.war_galley.battles.scenario_files import BATTLES_DIR

    root = tmp_path_factory.mktemp("modified")
    text = (BATTLES_DIR / "tauris.toml").read_text(encoding="utf-8")
    assert "difficulty = 2.0" in text
    (root / "tauris.toml").write_text(text.replace("difficulty = 2.0", "difficulty = 2.5", 1), encoding="utf-8")
    return store.load(play(root, "war-galley", str(root / "tauris.toml"), 6))


@pytest.fixture(scope="session")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> referee.Game:
    """Tauris between players who put HTML in a name and in every note."""
    folder = play(tmp_path_factory.mktemp("hostile"), "war-galley", "tauris", 8,
                  names=(HOSTILE_NAME, "Bob <i>the</i> Bold"), note=HOSTILE_NOTE)
    return store.load(folder)


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: tests/artifacts/ (ignored by git), else a temporary folder."""
    folder = Path(__file__).resolve().parent.parent / "artifacts"
    try:
        folder.mkdir(exist_ok=True)
    except OSError:
        folder = tmp_path_factory.mktemp("artifacts")
    return folder
