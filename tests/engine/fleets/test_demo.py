"""`pbem demo --ruleset fleets`: a whole battle through the real protocol, verified from scratch."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pbem.cli.app import app


def test_the_demo_plays_a_whole_battle_and_verifies_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["demo", "--ruleset", "fleets", "--out", str(tmp_path / "demo")])
    assert result.exit_code == 0, result.output
    assert "result: " in result.output and " win" in result.output and "stopped after" not in result.output
    assert "both folders identical" in result.output
    verify = CliRunner().invoke(app, ["verify", str(tmp_path / "demo" / "alice")])
    assert verify.exit_code == 0, verify.output


def test_every_scenario_can_be_demonstrated(tmp_path: Path) -> None:
    for n, name in enumerate(("actium-31", "helsingborg-1362", "open-sea")):
        out = tmp_path / name
        result = CliRunner().invoke(app, ["demo", "--ruleset", "fleets", "--scenario", name, "--seed", str(n), "--out", str(out)])
        assert result.exit_code == 0, result.output
        assert "both folders identical" in result.output
