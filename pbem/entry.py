"""The `pbem` console script: the list of commands from the kept text, everything else by pbem.cli.

`pbem` and `pbem --help` print the text typer printed last time for the same
code and terminal (pbem.helptext), without importing typer; anything else,
and a first `pbem --help`, goes to pbem.cli.main.
"""

from __future__ import annotations

import sys


def main() -> None:
    from pbem import helptext

    if helptext.asks_for_list(sys.argv[1:]):
        text = helptext.kept()
        if text is not None:
            sys.stdout.write(text)
            sys.exit(0)
    from pbem.cli import main as cli_main

    cli_main()
