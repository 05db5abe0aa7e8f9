"""`pbem play` as a player starts it: the installed command prints the table's address, and a bad folder is
a clean error. (The random clicking of issue 25's acceptance: tests/board/test_random_clicks.py.)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.reports.games import play

PBEM = str(Path(sys.executable).parent / "pbem")  # the installed command, as a player runs it


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
