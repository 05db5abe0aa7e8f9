"""The table of the player the rules wait on: shared by the board tests.

Who that is after a few files, and what he decides, depends on the dice, which come
from the test's keys (PBEM_TEST_SEED, tests/conftest.py); so a test plays on to the decision it wants (`until`) and opens
the table of whoever holds it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from pbem.board import table
from pbem.game.ruleset import Pending
from tests.reports.games import play


def deciding_table(root: Path, ruleset: str, scenario: str, files: int,
                   until: Callable[[Pending], bool] = lambda pending: True,
                   mail: Path | None = None) -> table.Table:
    """Play at least `files` files, on to a decision `until` accepts; the table of the player who decides it."""
    play(root, ruleset, scenario, files, until=until)
    return table_of_the_decider(root, mail)


def table_of_the_decider(root: Path, mail: Path | None = None) -> table.Table:
    """The table of whichever player (`root`/host or `root`/guest) the rules wait on."""
    for role in ("host", "guest"):
        board = table.open_table(root / role, root / "keys" / role, None, mail)
        if board.my_decision():
            return board
    raise AssertionError(f"{root}: no one to decide")
