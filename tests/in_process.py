"""`pbem` run in this process, as the console script runs it (pbem.cli.app.main): only the named
command is built (pbem.cli.start.narrowed), with the app's own hooks (the state caches of a command
that succeeded). Building the whole typer app for every call cost the mail games a third of their time."""

from __future__ import annotations

from typing import Any

from typer.testing import CliRunner

from pbem.cli.app import app
from pbem.cli.start import narrowed


def invoke(*args: str, catch_exceptions: bool = True) -> Any:
    """typer's Result: exit_code, output, exception."""
    with narrowed(app, args):
        return CliRunner().invoke(app, list(args), catch_exceptions=catch_exceptions)


def run(*args: str) -> str:
    """The output of a command that must succeed (an exception in it is raised, with its traceback)."""
    result = invoke(*args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def code_and_output(*args: str) -> tuple[int, str]:
    result = invoke(*args, catch_exceptions=False)
    return result.exit_code, result.output
