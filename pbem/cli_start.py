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
"""

from __future__ import annotations

import atexit
import copy
import gc
import inspect
from collections.abc import Sequence
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


def command_for(app: typer.Typer, args: Sequence[str]) -> Any:
    """The click command that runs `args`: the app with only the command they name, or the list of all."""
    infos = app.registered_commands
    named = args[0] if args and not args[0].startswith("-") else None
    chosen = [info for info in infos if _name(info) == named]
    try:
        app.registered_commands = chosen or [_listing(info) for info in infos]
        return typer.main.get_group(app)  # a group even of one command (get_command would make it the app)
    finally:
        app.registered_commands = infos


# Young objects a cyclic collection waits for (Python's default: 700). A command makes a few hundred
# thousand objects that live until it ends (its modules, the game's files, the state): by default each
# is traversed by two or three collections that find next to nothing (a 2,000-file replay makes no
# garbage cycles worth the name: its peak memory is the same with the collector off).
_YOUNG = 100_000
_settled = False


def settle_collector() -> None:
    """Collect cycles rarely, and not at exit: at Actium's size the collector's passes cost a `status`
    ~40 ms and the interpreter's last full collection at exit ~40 ms more, over objects the end of the
    process frees anyway. Still bounded: a long run (watch, demo, verify) collects every 100,000 objects."""
    global _settled
    if _settled:
        return
    _settled = True
    gc.set_threshold(_YOUNG, 50, 100)
    atexit.register(gc.freeze)  # frozen objects are out of the final collection's reach


def list_text(app: typer.Typer, prog: str) -> str:
    """What `pbem --help` prints: typer's help of the list of commands, as its --help option prints it."""
    group = command_for(app, ["--help"])
    with group.context_class(group, info_name=prog) as ctx:
        return ctx.get_help() + "\n"
