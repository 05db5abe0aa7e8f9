"""The `pbem` console script: the list of commands from pbem/cli/help.txt, everything else by pbem.cli.app.

`pbem` and `pbem --help` print the help text shipped with the code
(pbem.cli.helptext), without importing typer or the command line: 21 ms against
77 ms through typer (issue 23, CPU). Anything else, and the list on a terminal
narrower than 80 columns, goes to pbem.cli.app.main.
"""

from __future__ import annotations

import sys

from pbem.cli import helptext


def main() -> None:
    if helptext.asks_for_list(sys.argv[1:]):
        text = helptext.shipped()
        if text is not None:
            sys.stdout.write(text)
            sys.exit(0)
    from pbem.cli.app import main as cli_main  # the command line: typer and every command's modules

    cli_main()
