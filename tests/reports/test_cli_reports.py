"""Reports as a player meets them: written by `move` and `receive`, on demand by `pbem report`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def pbem(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from pbem.cli.app import main; main()", *map(str, args)],
                          capture_output=True, text=True, timeout=300)


def ok(*args: str | Path) -> str:
    result = pbem(*args)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def duel(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path, Path]:
    root = tmp_path_factory.mktemp("cli")
    alice_keys, bob_keys, alice, bob = root / "ka", root / "kb", root / "alice", root / "bob"
    ok("keygen", "alice", "--keys", alice_keys)
    ok("keygen", "bob", "--keys", bob_keys)
    ok("new", "duel", "--side", "Red", "--name", "Alice", "--out", alice, "--keys", alice_keys)
    ok("accept", alice / "000000.pbem", "--name", "Bob", "--out", bob, "--keys", bob_keys)
    ok("receive", alice, bob / "000001.pbem", "--keys", alice_keys, "--no-reply")
    # One move and its receipt here, not in a test: every test of the module (on any
    # xdist worker, in any order) starts from a game with a resolved file.
    (root / "moved.txt").write_text(ok("move", alice, "--pass", "--keys", alice_keys))
    (root / "received.txt").write_text(ok("receive", bob, alice / "000002.pbem", "--keys", bob_keys, "--no-reply"))
    return alice_keys, bob_keys, alice, bob


def test_move_and_receive_write_the_reports(duel: tuple[Path, Path, Path, Path]) -> None:
    alice_keys, bob_keys, alice, bob = duel
    moved = (alice.parent / "moved.txt").read_text()
    assert f"report: {alice / 'report' / 'file-000001.html'}" in moved
    received = (alice.parent / "received.txt").read_text()
    assert (bob / "report" / "file-000001.html").is_file()
    preview = bob / "report" / "file-000002-preview.html"
    assert f"report: {preview}" in received
    text = preview.read_text()
    assert "your private preview" in text and "Bob" in text
    # Alice's folder has no preview of a file whose dice only Bob can know yet.
    assert not (alice / "report" / "file-000002-preview.html").exists()
    # The game folder still replays: reports never disturb it.
    ok("verify", bob)


def test_report_on_demand_and_its_errors(duel: tuple[Path, Path, Path, Path], tmp_path: Path) -> None:
    _, _, alice, _ = duel
    out = tmp_path / "r.html"
    assert f"wrote {out}" in ok("report", alice, "--file", "1", "--out", out)
    assert out.read_text().startswith("<!doctype html>")
    assert "turn-01.html" in ok("report", alice, "--turn", "1")
    for args, code, words in [
        (("--file", "1", "--turn", "1"), 2, "not both"),
        (("--file", "7"), 2, "no outcome to report yet"),
        (("--turn", "40"), 2, "turn 40 has no resolved file"),
    ]:
        result = pbem("report", alice, *args)
        assert result.returncode == code and words in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1
    result = pbem("report", tmp_path / "nowhere")
    assert result.returncode == 3


def test_archive_command_and_index(duel: tuple[Path, Path, Path, Path], tmp_path: Path) -> None:
    _, _, alice, _ = duel
    archive = tmp_path / "games" / "duel.html"
    archive.parent.mkdir()
    assert "check it with: pbem verify" in ok("archive", alice, "--out", archive)
    assert "pages match the files" in ok("verify", archive)
    assert "index.html" in ok("archive", "--index", archive.parent)
    assert 'href="duel.html"' in (archive.parent / "index.html").read_text()
    result = pbem("archive", alice)
    assert result.returncode == 2 and "--out" in result.stderr


def test_reach_names_an_unknown_galley_in_one_line(tmp_path: Path) -> None:
    from tests.reports.conftest import EXAMPLES

    result = pbem("report", EXAMPLES / "tauris-game", "--reach", "G5-99", "--out", tmp_path / "x.html")
    assert result.returncode == 2 and "G5-99: no such galley" in result.stderr
