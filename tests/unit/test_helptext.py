"""pbem.cli.helptext / pbem.cli.entry: `pbem --help` from pbem/cli/help.txt is exactly what typer prints, on every
terminal it is printed on, and typer answers wherever it would print something else."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from pbem.cli import helptext
from pbem.cli.app import app


def whole_app_help(columns: int, *args: str) -> str:
    """What typer's whole app prints for `pbem ARGS` (default --help) at that terminal width."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", str(columns))
        with contextlib.suppress(SystemExit):
            typer.main.get_group(app).main(args=list(args) or ["--help"], prog_name="pbem", standalone_mode=False)
    return out.getvalue()


def run(*args: str, columns: int = 80, prog: str = "pbem") -> subprocess.CompletedProcess[str]:
    """The console script's own entry, as `pbem ARGS` runs it."""
    env = {**os.environ, "COLUMNS": str(columns)}
    code = f"import sys; sys.argv[0] = {prog!r}; from pbem.cli.entry import main; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=60)


def test_the_shipped_text_is_typers_own() -> None:
    shipped = Path(helptext.HELP_FILE).read_text(encoding="utf-8")
    assert shipped == whole_app_help(80), "a command's help changed: run python -m pbem.cli.helptext"
    assert shipped == whole_app_help(200)  # click wraps to at most 80 columns, so every wider terminal gets it


@pytest.mark.parametrize("columns", [80, 132])
def test_pbem_help_prints_the_shipped_text_without_typer(columns: int) -> None:
    code = (
        "import sys; sys.argv = ['pbem', '--help']; from pbem.cli import helptext; "
        "text = helptext.shipped(); print(text is not None, 'typer' in sys.modules, 'pbem.cli.app' in sys.modules)"
    )
    env = {**os.environ, "COLUMNS": str(columns)}
    checked = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert checked.stdout.split() == ["True", "False", "False"]
    printed = run("--help", columns=columns)
    assert printed.returncode == 0 and printed.stderr == "" and printed.stdout == whole_app_help(columns)


def test_pbem_alone_prints_the_list_not_a_usage_error() -> None:
    alone = run()
    assert alone.returncode == 0 and alone.stderr == "" and alone.stdout == whole_app_help(80)


def test_a_narrow_terminal_gets_typers_narrower_text() -> None:
    narrow = run("--help", columns=60)
    assert narrow.returncode == 0 and narrow.stdout == whole_app_help(60)
    assert narrow.stdout != run("--help", columns=80).stdout


def test_another_program_name_is_typers_usage_line() -> None:
    other = run("--help", prog="pbem-dev")
    assert other.returncode == 0 and other.stdout.startswith("Usage: pbem-dev [OPTIONS] COMMAND")


def test_anything_but_the_list_goes_to_the_cli() -> None:
    status_help = run("status", "--help")
    assert status_help.returncode == 0 and status_help.stdout == whole_app_help(80, "status", "--help")
    bogus = run("--bogus")
    assert bogus.returncode == 2 and bogus.stderr.startswith("pbem: usage error: No such option: --bogus")
