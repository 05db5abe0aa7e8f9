"""Build only the part of the command line that this run uses (issue 16: start-up cost).

typer turns every registered command into a click command at every start:
it reads each function's signature and annotations and makes its options,
about half of what `pbem --help` costs beyond importing typer, and paid again
by every `pbem status`. A command line that names a command needs that one
alone; one that names none (`pbem`, `pbem --help`, a misspelt command) needs
only the list of names and the first line of each one's help, so each command
stands there as its name and help on a function without parameters. Both are
typer's own objects, built by typer from the same registrations: help, usage
errors and exit codes are what the whole app gives (tests/unit/test_cli_start.py
compares them).

What it buys (issue 23, CPU): building the whole app takes 15.9-16.4 ms, the
status command alone 0.5 ms; pbem status examples/tauris-game is 1.11x slower
without it (31 paired runs), 7.3x `python -c pass` where the target is 6x.
`pbem --help` does not use it (pbem/cli/help.txt); `pbem` on a narrow terminal does.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import typer
import typer.main


def _name(info: Any) -> str:
    return info.name or typer.main.get_command_name(info.callback.__name__)


def _listed() -> None:
    """Never run: stands for a command in the list `pbem --help` prints."""


def _listing(info: Any) -> Any:
    """The command as the list of commands shows it: its name and help, no parameters to build."""
    stand_in = copy.copy(info)
    stand_in.name = _name(info)
    stand_in.help = inspect.cleandoc(info.help) if info.help is not None else inspect.getdoc(info.callback)
    stand_in.callback = _listed
    return stand_in


@contextmanager
def narrowed(app: typer.Typer, args: Sequence[str]) -> Iterator[typer.Typer]:
    """The app holding only the command `args` name (or the list of all), while the block runs; typer's
    CliRunner, which builds the app it is given, runs a command in-process so (tests/in_process.py)."""
    infos = app.registered_commands
    named = args[0] if args and not args[0].startswith("-") else None
    chosen = [info for info in infos if _name(info) == named]
    try:
        app.registered_commands = chosen or [_listing(info) for info in infos]
        yield app
    finally:
        app.registered_commands = infos


def command_for(app: typer.Typer, args: Sequence[str]) -> Any:
    """The click command that runs `args`: the app with only the command they name, or the list of all."""
    with narrowed(app, args):
        return typer.main.get_group(app)  # a group even of one command (get_command would make it the app)


def list_text(app: typer.Typer, prog: str) -> str:
    """What `pbem --help` prints: typer's help of the list of commands, as its --help option prints it."""
    group = command_for(app, ["--help"])
    with group.context_class(group, info_name=prog) as ctx:
        return ctx.get_help() + "\n"
