"""A fleet element's card on the board (the ruleset's `explain`, as `pbem legal GAME ID` prints it).

(Every listed order reached by clicks, and random clicks over both rulesets' positions building only orders the
rules accept: tests/board/test_random_clicks.py, over the recorded games' positions.)
"""

from __future__ import annotations

from pathlib import Path

from tests.board.tables import deciding_table


def test_a_fleet_element_has_a_card(tmp_path: Path) -> None:
    board = deciding_table(tmp_path, "fleets", "open-sea", 11)
    piece = next(o["piece"] for o in board.options([])["options"] if o["kind"] == "piece")
    card = board.card(piece)
    assert card["data"]["id"] == piece and "combat value" in card["text"] and "speed" in card["text"]
