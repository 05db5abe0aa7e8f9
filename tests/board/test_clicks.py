"""Random clicking builds only orders the rules accept (issue 25's acceptance, in part).

Random click paths over the Caesarians' first activation of Tauris (and the decisions before it):
every order text the clicks build, at every step, passes the same check `pbem check` and
`pbem move` make (parse, then the rules' own check, pbem.game.referee.check_decisions).
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.board.tables import deciding_table
from tests.reports.games import play

WALKS = 40
PBEM = str(Path(sys.executable).parent / "pbem")  # the installed command, as a player runs it


@pytest.mark.parametrize("files", [11, 13, 15])  # initiative (3.2), speed (D), the first activation (5.41)
def test_random_clicks_build_only_accepted_orders(tmp_path: Path, files: int) -> None:
    board = deciding_table(tmp_path, "war-galley", "tauris", files)
    chooser = random.Random(files)
    built = set()
    for _ in range(WALKS):
        picks: list[str] = []
        answer = board.options(picks)
        while answer["options"] and len(picks) < 8:
            picks.append(chooser.choice(answer["options"])["key"])
            answer = board.options(picks)
            if answer["order"]:
                assert board.check([answer["order"]])["ok"]
                built.add(answer["order"])
    assert len(built) >= 2  # initiative offers two; an activation dozens


def test_pbem_play_prints_its_address_and_a_bad_folder_is_a_clean_error(tmp_path: Path) -> None:
    run = subprocess.run([PBEM, "play", str(tmp_path / "none"), "--no-browser"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and run.returncode != 70
    assert "Traceback" not in run.stderr and run.stderr.strip().count("\n") == 0
    play(tmp_path, "war-galley", "tauris", 4)
    proc = subprocess.Popen([PBEM, "play", str(tmp_path / "host"), "--no-browser",
                             "--keys", str(tmp_path / "keys" / "host")], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("your table for game ") and "http://127.0.0.1:" in line
    finally:
        proc.terminate()
        proc.wait(timeout=30)
