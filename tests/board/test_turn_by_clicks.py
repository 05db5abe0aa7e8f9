"""Issue 25's acceptance: two players, two homes, Tauris turn 1 played to its end by clicks only.

Each player has his own key folder and game folder and his own `pbem play` table in real headless
Chromium. Every file is decided on the page (a squadron, then each galley and one of its lit end
positions on the map; every other decision a click on one of its legal options; a file with nothing
to decide sent as it is), signed and saved by the page's Send, and handed to the opponent's folder as
`pbem receive` takes it; his page sees it arrive and redraws (the check it makes every few seconds,
made at once here). Both folders then verify from their first file.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from pbem.board import server, table
from pbem.exchange import intake
from pbem.game import session, store
from tests.reports.games import play

MOST_FILES = 90  # turn 1 of Tauris takes some 35 files; a loop past this is a bug, not a long game


# What a decision offers, in the order a player takes it, and whether the click goes to the map (force:
# an SVG counter or end the overlay may cover)
_OFFERED = {"#options button.squadron": False, "#board g.counter.clickable": True,
            "#play-overlay g.offer.end": True, "#options button": False}
_COUNT = "selectors => selectors.map(s => document.querySelectorAll(s).length)"


def _decide(page: Any, chooser: random.Random) -> None:
    """Click a whole decision: as long as options are offered, one of them (on the map where it is drawn)."""
    for _ in range(60):
        page.wait_for_selector("body[data-ready='1']:not([data-busy])")
        counts = page.evaluate(_COUNT, list(_OFFERED))  # one round trip for the four counts
        for (selector, force), count in zip(_OFFERED.items(), counts):
            if count:  # a squadron, else a galley on the map (not the list), else an end, else a button
                page.locator(selector).nth(chooser.randrange(count)).click(force=force)
                break
        else:
            return
    raise AssertionError("a decision that never ends offering options")


def _arrived(page: Any) -> None:
    """The opponent's file is in the folder: the page's own check finds it and redraws the table."""
    with page.expect_event("load"):
        page.evaluate("setTimeout(watch, 0)")
    page.wait_for_selector("body[data-ready='1']:not([data-busy])")


@pytest.mark.long
def test_two_players_play_tauris_turn_1_by_clicks(tmp_path: Path, browser: Any, artifacts: Path) -> None:
    play(tmp_path, "war-galley", "tauris", 2)  # the invitation and its acceptance: `pbem new`, `pbem join`
    roles = ("host", "guest")
    boards = {r: server.Board(table.open_table(tmp_path / r, tmp_path / "keys" / r, None,
                                               tmp_path / r / "no-mail.toml")).start() for r in roles}
    pages = {r: browser.new_page(viewport={"width": 1400, "height": 900}) for r in roles}
    errors: list[str] = []
    for page in pages.values():
        page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        for role in roles:
            pages[role].goto(boards[role].url)
        chooser = random.Random(25)
        ruleset = boards["host"].table.game.ruleset
        sent = 0
        def turn() -> int:
            state = boards["host"].table.game.resolved_state
            return 0 if state is None else int(ruleset.turn(state))  # no state before the first file resolves

        while turn() < 2:
            assert sent < MOST_FILES
            role = boards["host"].table.game.next_author
            page, other = pages[role], "guest" if role == "host" else "host"
            page.wait_for_selector("body[data-ready='1']:not([data-busy])")
            _decide(page, chooser)
            page.wait_for_selector("#send:not([disabled])")
            page.click("#send")
            page.wait_for_selector("#sent:has-text('wrote ')")
            path = Path(page.inner_text("#sent").split("wrote ", 1)[1].split(": ", 1)[0])
            session.receive(tmp_path / other, intake.incoming(path))
            _arrived(pages[other])
            sent += 1
            if sent == 20:
                pages[other].screenshot(path=str(artifacts / "play-turn1.png"))
        assert sent >= 20 and errors == []
        for role in roles:  # a replay from file 0 of each folder: every signature, link and state
            game = store.load(tmp_path / role, use_cache=False)
            assert len(game.files) == sent + 2 and ruleset.turn(game.resolved_state) == 2
    finally:
        for role in roles:
            pages[role].close()
            boards[role].stop()
