"""The `pbem` console script: the list of commands from pbem/help.txt, everything else by pbem.cli.

`pbem` and `pbem --help` print the help text shipped with the code
(pbem.helptext), without importing typer or the command line: 21 ms against
77 ms through typer (issue 23, CPU). Anything else, and the list on a terminal
narrower than 80 columns, goes to pbem.cli.main.
"""

from __future__ import annotations

import sys

from pbem import helptext


def main() -> None:
    if helptext.asks_for_list(sys.argv[1:]):
        text = helptext.shipped()
        if text is not None:
            sys.stdout.write(text)
            sys.exit(0)
    from pbem.cli import main as cli_main  # the command line: typer and every command's modules

    cli_main()
