"""pbem/cliapp.py: commands declared as typed functions, parsed as typer parsed them, bad usage one UsageError."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Annotated, Optional

import pytest

from pbem import cliapp
from pbem.errors import UsageError

app = cliapp.App("prog", "A test program.")
seen: dict[str, object] = {}


@app.command()
def play(
    folder: Annotated[Path, cliapp.Argument(help="The folder.")],
    orders: Annotated[Optional[list[str]], cliapp.Argument(help="Orders.")] = None,
    note: Annotated[str, cliapp.Option(help="A note (100% optional).")] = "",
    count: Annotated[Optional[int], cliapp.Option("--count", help="A number.")] = None,
    pass_: Annotated[bool, cliapp.Option("--pass", help="A flag.")] = False,
    tag: Annotated[list[str], cliapp.Option(help="Repeatable.")] = [],
    key: Annotated[Optional[str], cliapp.Option("--key", envvar="PROG_KEY", help="From the environment too.")] = None,
    colour: bool = True,
) -> None:
    """Play: the first paragraph
    is the summary.

    More words."""
    seen.update(folder=folder, orders=orders, note=note, count=count, pass_=pass_, tag=tag, key=key, colour=colour)


@app.command("all-files")
def all_files(files: Annotated[list[Path], cliapp.Argument(help="At least one.")]) -> int:
    """Take files."""
    seen.update(files=files)
    return 3


def test_types_defaults_and_intermixed_options(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROG_KEY", raising=False)
    app(["play", "here", "--note", "hi", "a1", "--count", "7", "b2", "--tag", "x", "--tag", "y", "--pass", "--no-colour"])
    assert seen == dict(folder=Path("here"), orders=["a1", "b2"], note="hi", count=7, pass_=True, tag=["x", "y"],
                        key=None, colour=False)
    app(["play", "there"])
    assert seen == dict(folder=Path("there"), orders=None, note="", count=None, pass_=False, tag=[], key=None, colour=True)
    monkeypatch.setenv("PROG_KEY", "alice")
    app(["play", "there"])
    assert seen["key"] == "alice"
    app(["play", "there", "--key", "bob"])
    assert seen["key"] == "bob"
    assert app(["all-files", "a", "b"]) == 3 and seen["files"] == [Path("a"), Path("b")]


@pytest.mark.parametrize("args, text", [
    (["nothing-like-it"], "no such command 'nothing-like-it'"),
    (["play"], "required: FOLDER"),
    (["play", "f", "--count", "seven"], "'seven' is not a whole number"),
    (["play", "f", "--cou", "7"], "unrecognized arguments"),  # no abbreviations, as click had none
    (["all-files"], "required: FILES"),
    (["play", "f", "--nope"], "unrecognized arguments: --nope"),
])
def test_bad_usage_is_one_usage_error(args: list[str], text: str) -> None:
    with pytest.raises(UsageError) as caught:
        app(args)
    message = str(caught.value)
    assert text in message and "\n" not in message and caught.value.exit_code == 2


def test_help_lists_commands_by_their_first_paragraph_and_describes_each() -> None:
    result = cliapp.CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "play       Play: the first paragraph is the summary." in result.output
    assert "all-files  Take files." in result.output
    result = cliapp.CliRunner().invoke(app, ["play", "--help"])
    assert result.exit_code == 0 and "More words." in result.output and "100% optional" in result.output
    assert "--no-colour" in result.output and "env: PROG_KEY" in result.output
    assert cliapp.CliRunner().invoke(app, []).exit_code == 2  # no command: the list, and a usage status


def test_runner_keeps_what_a_command_raised() -> None:
    result = cliapp.CliRunner().invoke(app, ["play"])
    assert result.exit_code == 1 and isinstance(result.exception, UsageError)
    with pytest.raises(UsageError):
        cliapp.CliRunner().invoke(app, ["play"], catch_exceptions=False)


def test_a_command_declared_for_typer_still_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    typer = pytest.importorskip("typer")
    monkeypatch.setitem(globals(), "typer", typer)  # the annotations are read in this module's globals
    legacy = cliapp.App("legacy", "Commands written for typer.")

    @legacy.command()
    def old(folder: Annotated[Path, typer.Argument(help="A folder.")],
            times: Annotated[int, typer.Option("--times", help="How often.")] = 1) -> None:
        """An old command."""
        seen.update(old=(folder, times))
        raise typer.Exit(4)

    result = cliapp.CliRunner().invoke(legacy, ["old", "f", "--times", "2"])
    assert result.exit_code == 4 and seen["old"] == (Path("f"), 2)


def test_pbem_help_loads_no_command_code() -> None:
    """`pbem --help` reads docstrings only: no engine, no referee, no typer or pydantic."""
    code = ("import sys; from pbem.cli import app; from pbem import cliapp; from pbem.lazy import loaded; "
            "cliapp.CliRunner().invoke(app, ['--help']); "
            "print(sorted(m for m, module in sys.modules.items() if loaded(module) and (m.split('.')[0] in "
            "('engine', 'typer', 'pydantic', 'click', 'jinja2') or m in ('pbem.referee', 'pbem.session', 'pbem.ruleset'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "[]", loaded
