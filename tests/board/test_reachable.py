"""Every order `pbem legal` lists is reachable by clicks, and random clicks over fleet battles build only
orders the rules accept (issue 25's acceptance, the fleets' half and the listing's).

Positions come from real games, played through the real protocol (tests.reports.games): Tauris for War
Galley, the open-sea battle for fleets (set-up, deployment and the bounds of moves).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pbem.board import table
from tests.board.tables import deciding_table

WALKS = 25


def _orders_by_clicks(board: table.Table, picks: list[str], depth: int) -> set[str]:
    """Every order text the click tree under `picks` builds, `depth` clicks deep."""
    answer: dict[str, Any] = board.options(picks)
    found = {answer["order"]} if answer["order"] else set()
    if depth:
        for option in answer["options"]:
            found |= _orders_by_clicks(board, [*picks, option["key"]], depth - 1)
    return found


@pytest.mark.parametrize(("ruleset", "scenario", "files"), [
    ("war-galley", "tauris", 11), ("war-galley", "tauris", 15),  # initiative (3.2); the first activation (5.41)
    ("fleets", "open-sea", 2), ("fleets", "open-sea", 4), ("fleets", "open-sea", 6),  # fleet; terrain; deploying
    ("fleets", "open-sea", 11),  # moves
])
def test_every_listed_order_is_reachable_by_clicks(tmp_path: Path, ruleset: str, scenario: str, files: int) -> None:
    board = deciding_table(tmp_path, ruleset, scenario, files)
    rules = board.game.ruleset
    listed = {rules.format_order(d) for d in rules.legal(board.state)}
    top = board.options([])["options"]
    # War Galley's click-built activations (sq:) are checked by the random walks; its listed ones are l:N
    reached = set().union(*(_orders_by_clicks(board, [o["key"]], 1) for o in top if not o["key"].startswith("sq:")))
    assert listed and listed <= reached


# by kind, not by file alone: the aggression dice (new keys, new dice each run) decide who chooses a fleet first,
# and so whether a file of acknowledgement comes between the set-up's decisions
@pytest.mark.parametrize(("files", "kind"), [(6, "place"), (11, "move"), (13, "move")])  # 13: moves in contact
def test_random_clicks_over_fleets_build_only_accepted_orders(tmp_path: Path, files: int, kind: str) -> None:
    board = deciding_table(tmp_path, "fleets", "open-sea", files, until=lambda pending: pending.kind == kind)
    chooser = random.Random(files)
    built = set()
    for _ in range(WALKS):
        picks: list[str] = []
        answer = board.options(picks)
        while answer["options"]:
            picks.append(chooser.choice(answer["options"])["key"])
            answer = board.options(picks)
        assert answer["order"], picks
        assert board.check([answer["order"]])["ok"]
        built.add(answer["order"])
    assert len(built) >= 5


def test_a_fleet_element_has_a_card(tmp_path: Path) -> None:
    board = deciding_table(tmp_path, "fleets", "open-sea", 11)
    piece = next(o["piece"] for o in board.options([])["options"] if o["kind"] == "piece")
    card = board.card(piece)
    assert card["data"]["id"] == piece and "combat value" in card["text"] and "speed" in card["text"]
