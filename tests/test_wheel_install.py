"""Install as users install: build the wheel, install it into a fresh venv, play the demo elsewhere.

The wheel must carry the rules data, scenarios and templates (data packages
found where Python imports them from): a plain `pip install` of it, with the
dependencies from the package index, gives a `pbem` that works from any
folder, far from the source tree. pipx installs the same way (its own venv
and `pip install` of the wheel); this test does that by hand.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(argv: list[str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PBEM_KEYS", "PBEM_KEY")}
    env["HOME"] = str(cwd)
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp_path = tmp_path_factory.mktemp("wheel")
    source = tmp_path / "source"  # a clean copy: no egg-info or build/ of the worktree leaks into the wheel
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".venv", ".git", "*.egg-info", "build", "dist", "__pycache__", ".pytest_cache"))
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(source)], tmp_path)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("pbem-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("scenarios/") and n.endswith("tauris.toml") for n in names), names
    # the store of every shipped rules data and scenario by hash (docs/protocol.md, "Upgrades")
    assert any(n.startswith("scenarios/war_galley/pinned/rules/") and n.endswith(".json") for n in names), names
    assert any(n.startswith("scenarios/fleets/pinned/rules/") for n in names), names
    assert any(n.startswith("templates/") for n in names)
    assert "engine/contract.py" in names  # the contract pbem and engine both import
    # Dice Duel is a ruleset like the others: its package, its data and templates travel in the wheel
    assert {"engine/duel/ruleset.py", "scenarios/duel/rules.json", "templates/duel/board.html.j2"} <= set(names), names
    assert not any(n.startswith("pbem/duel") for n in names)
    assert "pbem/cli/help.txt" in names  # `pbem --help` without typer (pbem.cli.helptext)
    assert not any(n.startswith("tests/") for n in names)
    return wheel


@pytest.mark.long
def test_the_wheel_installs_and_plays_from_another_folder(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    assert _run([sys.executable, "-m", "venv", str(venv)], tmp_path).returncode == 0
    installed = _run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)], tmp_path)
    assert installed.returncode == 0, installed.stderr

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    pbem = str(venv / "bin" / "pbem")
    helped = _run([pbem, "--help"], elsewhere)
    assert helped.returncode == 0 and helped.stdout == (ROOT / "pbem" / "cli" / "help.txt").read_text(encoding="utf-8")
    listed = _run([pbem, "scenarios"], elsewhere)
    assert listed.returncode == 0 and "tauris" in listed.stdout, listed.stderr
    duel = _run([pbem, "scenarios", "--ruleset", "duel"], elsewhere)  # engine/duel/ and scenarios/duel/ installed
    assert duel.returncode == 0 and "quick" in duel.stdout and "Red v Blue" in duel.stdout, duel.stderr
    demo = _run([pbem, "demo", "--out", "game"], elsewhere)
    assert demo.returncode == 0, demo.stderr
    assert "both folders identical" in demo.stdout and "files per game turn" in demo.stdout
    verified = _run([pbem, "verify", "game/alice"], elsewhere)
    assert verified.returncode == 0 and verified.stdout.startswith("ok: game"), verified.stderr
    # The installed package runs from the venv, not from the source tree.
    where = _run([str(venv / "bin" / "python"), "-c", "import engine, pbem; print(pbem.__file__, engine.__file__)"], elsewhere)
    assert str(venv) in where.stdout and str(ROOT) not in where.stdout


@pytest.mark.skipif(shutil.which("pipx") is None, reason="pipx is not installed here (checked by hand: see the closing note)")
def test_pipx_installs_the_wheel(wheel: Path, tmp_path: Path) -> None:
    env_home = {"PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(tmp_path / "bin")}
    os.environ.update(env_home)
    try:
        done = _run(["pipx", "install", str(wheel)], tmp_path)
    finally:
        for name in env_home:
            os.environ.pop(name)
    assert done.returncode == 0, done.stderr
    listed = _run([str(tmp_path / "bin" / "pbem"), "scenarios"], tmp_path)
    assert listed.returncode == 0 and "tauris" in listed.stdout
