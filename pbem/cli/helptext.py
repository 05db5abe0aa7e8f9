"""`pbem --help` printed from pbem/cli/help.txt, shipped with the code, without importing typer.

Printing the list of commands through typer costs typer's import and the
command line's modules (the referee, the session, ...): 77 ms of CPU against
20 ms for `python -c pass`, 3.9x the interpreter's start where the target is
3x (issue 16). The text only changes when a command's
registration does, so it ships as data: pbem/cli/help.txt is typer's own help of
the app at 80 columns. click wraps help to min(terminal width, 80) - 2, so
every terminal at least 80 columns wide (and any output that is not a
terminal) gets that same text; a narrower one, or a program named otherwise
than `pbem`, goes through typer. From the file: 21 ms, 1.13x `python -c pass`
(issue 23, CPU medians of 21 paired runs, bytecode compiled).

tests/unit/test_helptext.py checks the file is what typer prints;
`python -m pbem.cli.helptext` writes it afresh after a command's help changed.
"""

from __future__ import annotations

import os
import shutil
import sys

HELP_FILE = os.path.join(os.path.dirname(__file__), "help.txt")
PROG = "pbem"
WIDTH = 80  # click's default max_width: terminals this wide or wider all get the same text
_ASKS = ([], ["--help"])  # the command lines the list of commands answers


def asks_for_list(args: list[str]) -> bool:
    """`pbem` alone or `pbem --help`: the command line wants the list of commands."""
    return args in _ASKS


def shipped() -> str | None:
    """The list of commands as pbem/cli/help.txt has it, if typer would print that text here; else None."""
    if os.path.basename(sys.argv[0]) != PROG or shutil.get_terminal_size().columns < WIDTH:
        return None
    try:
        with open(HELP_FILE, encoding="utf-8") as handle:
            return handle.read()
    except OSError:
        return None  # not installed beside the code (a zip import, say): typer prints it


def write() -> None:
    """Write pbem/cli/help.txt: typer's list of commands at 80 columns (`python -m pbem.cli.helptext`)."""
    from pbem.cli import app as cli
    from pbem.cli import start as cli_start

    os.environ["COLUMNS"] = str(WIDTH)
    with open(HELP_FILE, "w", encoding="utf-8") as handle:
        handle.write(cli_start.list_text(cli.app, PROG))
    print(f"wrote {HELP_FILE}")


if __name__ == "__main__":
    write()
