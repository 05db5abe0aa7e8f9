"""pbem.cli.start builds only the command a run names (or the bare list of commands): what it prints and
how it fails must be exactly what typer's whole app gives, for every command, its help and its usage errors."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Sequence

import pytest
import typer.main

from pbem.cli import start as cli_start
from pbem.cli.app import app


def run(command: object, args: Sequence[str]) -> tuple[str, str]:
    """(what it printed, how it ended) for one command line, as pbem.cli.app.main runs it."""
    out = io.StringIO()
    ended = "returned"
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            command.main(args=list(args), prog_name="pbem", standalone_mode=False)  # type: ignore[attr-defined]
        except SystemExit as exc:
            ended = f"exit {exc.code}"
        except Exception as exc:  # usage errors: main() prints their message in one line
            message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
            ended = f"{type(exc).__name__} {getattr(exc, 'exit_code', '')}: {message}"
    return out.getvalue(), ended


def whole_app() -> object:
    return typer.main.get_group(app)


NAMES = [cli_start._name(info) for info in app.registered_commands]


def test_every_command_is_registered_once() -> None:
    assert len(NAMES) == len(set(NAMES)) and {"status", "move", "receive", "verify", "legal"} <= set(NAMES)


@pytest.mark.parametrize("args", [[], ["--help"], ["statu"], ["--bogus"], ["--help", "status"]])
def test_the_list_of_commands_is_the_whole_apps(args: list[str]) -> None:
    fast = cli_start.command_for(app, args)
    assert sorted(fast.commands) == sorted(NAMES)
    assert run(fast, args) == run(whole_app(), args)


@pytest.mark.parametrize("name", NAMES)
def test_each_commands_help_and_usage_errors_are_the_whole_apps(name: str) -> None:
    # Only command lines that end in help or a usage error: a bare `demo` or `watch` would really run.
    for args in ([name, "--help"], [name, "--no-such-option"], [name, "--help", "--no-such-option"]):
        fast = cli_start.command_for(app, args)
        assert list(fast.commands) == [name]
        assert run(fast, args) == run(whole_app(), args), args


def test_the_app_keeps_every_command_afterwards() -> None:
    before = list(app.registered_commands)
    cli_start.command_for(app, ["status"])
    cli_start.command_for(app, ["--help"])
    assert app.registered_commands == before
