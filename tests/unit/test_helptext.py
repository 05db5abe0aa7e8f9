"""pbem.helptext / pbem.entry: `pbem --help` from the kept text is exactly what typer prints, and a kept
text that is damaged, foreign, for another terminal or not private is never printed."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from engine import usercache
from pbem.cli import app


def whole_app_help(columns: int) -> str:
    """What typer's whole app prints for `pbem --help` at that terminal width."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", str(columns))
        with contextlib.suppress(SystemExit):
            typer.main.get_group(app).main(args=["--help"], prog_name="pbem", standalone_mode=False)
    return out.getvalue()


def run(cache: Path, *args: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    """The console script's own entry, as `pbem ARGS` runs it, with its own cache folder."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "COLUMNS": str(columns)}
    code = "import sys; sys.argv[0] = 'pbem'; from pbem.entry import main; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=60)


def kept_files(cache: Path) -> list[Path]:
    folder = cache / "pbem" / "help"
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".")) if folder.exists() else []


def test_first_and_kept_help_are_typers_own(tmp_path: Path) -> None:
    first = run(tmp_path, "--help")
    assert first.returncode == 0 and first.stderr == ""
    assert first.stdout == whole_app_help(80)
    [kept] = kept_files(tmp_path)
    assert kept.stat().st_mode & 0o777 == 0o600 and (kept.parent.stat().st_mode & 0o777) == 0o700
    again = run(tmp_path, "--help")
    assert again.returncode == 0 and again.stdout == first.stdout


def test_pbem_alone_prints_the_list_not_a_usage_error(tmp_path: Path) -> None:
    alone = run(tmp_path)
    assert alone.returncode == 0 and alone.stderr == ""
    assert alone.stdout == whole_app_help(80)
    assert run(tmp_path).stdout == alone.stdout  # and from the kept text


def test_another_width_is_another_text(tmp_path: Path) -> None:
    wide = run(tmp_path, "--help", columns=80).stdout
    narrow = run(tmp_path, "--help", columns=60).stdout
    assert narrow == whole_app_help(60) and narrow != wide
    assert len(kept_files(tmp_path)) == 2
    assert run(tmp_path, "--help", columns=60).stdout == narrow


def test_a_damaged_kept_text_is_printed_afresh(tmp_path: Path) -> None:
    run(tmp_path, "--help")
    [kept] = kept_files(tmp_path)
    kept.write_bytes(kept.read_bytes().replace(b"Commands:", b"Orders:  "))
    again = run(tmp_path, "--help")
    assert again.returncode == 0 and again.stdout == whole_app_help(80)
    assert b"Commands:" in kept.read_bytes()  # and kept right again


def test_a_kept_text_others_can_write_is_not_printed(tmp_path: Path) -> None:
    run(tmp_path, "--help")
    [kept] = kept_files(tmp_path)
    forged = b"Usage: pbem forged\n"

    def well_formed() -> None:  # a forged entry, checksummed as pbem keeps its own
        kept.unlink()
        usercache.store(str(kept.parent), kept.name, forged)

    well_formed()
    os.chmod(kept, 0o666)
    assert run(tmp_path, "--help").stdout == whole_app_help(80)
    well_formed()
    assert run(tmp_path, "--help").stdout == forged.decode()  # the same entry, private: printed as kept
    os.chmod(kept.parent, 0o777)
    assert run(tmp_path, "--help").stdout == whole_app_help(80)


def test_anything_but_the_list_goes_to_the_cli(tmp_path: Path) -> None:
    run(tmp_path, "--help")
    status_help = run(tmp_path, "status", "--help")
    assert status_help.returncode == 0 and "Usage: pbem status" in status_help.stdout
    bogus = run(tmp_path, "--bogus")
    assert bogus.returncode == 2 and bogus.stderr.startswith("pbem: usage error: No such option: --bogus")
