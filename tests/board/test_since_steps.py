"""`pbem play`'s "since your last file" step by step, in real headless Chromium (issue 25): the board
follows each file, the event's galleys are lit, the event and its dice are shown as the report shows them,
and back at the newest file the board offers its clicks again."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.board import server
from pbem.game.ruleset import Pending
from tests.board.tables import deciding_table

HULL = re.compile(r'<polygon class="hull [^"]*" points="([^"]*)"')


def _second_activation() -> Any:
    """The player's activation after the opponent's first: what happened since holds a squadron's moves."""
    seen = [0]

    def until(pending: Pending) -> bool:
        seen[0] += "(5.41)" in pending.prompt
        return seen[0] >= 2
    return until


@pytest.fixture()
def board(tmp_path: Path) -> Iterator[server.Board]:
    board = server.Board(deciding_table(tmp_path, "war-galley", "tauris", 13, _second_activation(),
                                        tmp_path / "no-mail.toml")).start()
    yield board
    board.stop()


def _hulls(page: Any) -> dict[str, str]:
    return dict(page.eval_on_selector_all(
        "#board [data-piece]", "els => els.map(e => [e.dataset.piece, e.querySelector('polygon').getAttribute('points')])"))


def test_since_steps_file_by_file_with_the_map_following(board: server.Board, browser: Any, artifacts: Path) -> None:
    data = board.table.since_frames()
    frames = data["frames"]
    full: list[dict[str, str]] = []
    for f in frames:
        full.append({**{k: v for k, v in (full[-1] if full else {}).items() if k not in f["gone"]}, **f["set"]})
    expected = [{k: HULL.findall(v)[0] for k, v in state.items()} for state in full]
    moved = [i for i in range(1, len(frames)) if expected[i] != expected[i - 1]]
    assert moved, f"nothing moved in files {[f['seq'] for f in frames]} (the test wants a squadron's moves)"

    page = browser.new_page(viewport={"width": 1500, "height": 950})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(board.url)
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#since-viewer").count() == 1
    newest = _hulls(page)
    side = board.table.status()["side"]
    mine = page.eval_on_selector_all("#board [data-piece].pbem-you", "els => els.map(e => e.dataset.side)")
    assert mine and set(mine) == {side}  # your own counters marked, your side named "you"
    assert page.locator(f"#board .side-key.pbem-you[data-side='{side}']").count() == 1
    assert newest == expected[-1]  # the board draws the newest state, as the last frame does

    page.click("#since-viewer .viewer-nextEvent")  # the first step: the board as it stood before
    assert page.get_attribute("#since-viewer", "data-seq") == str(frames[0]["seq"])
    assert _hulls(page) == expected[0]
    assert page.get_attribute("body", "data-replay") == "1"
    lit_seen = False
    for _ in range(400):
        page.click("#since-viewer .viewer-nextEvent")
        index = [f["seq"] for f in frames].index(int(page.get_attribute("#since-viewer", "data-seq")))
        assert _hulls(page) == expected[index]
        current = page.locator("#since li.event.pbem-current")
        if current.count():
            text = current.locator(".text").inner_text()
            assert text in page.inner_text("#since-viewer .viewer-now")
            named = (current.get_attribute("data-pieces") or "").split()
            lit = page.eval_on_selector_all("#board .pbem-lit", "els => els.map(e => e.dataset.piece)")
            assert sorted(lit) == sorted(n for n in named if n in expected[index])
            lit_seen = lit_seen or bool(lit)
            if current.locator("details.die-detail").count():  # a die: explained in the bar as in the report
                assert page.locator("#since-viewer .viewer-now details.die-detail").count() >= 1
        if page.get_attribute("#since-viewer", "data-step") == str(page.locator("#since-viewer .viewer-slider")
                                                                     .get_attribute("max")):
            break
    assert lit_seen
    page.screenshot(path=str(artifacts / "play-since-steps.png"))
    assert _hulls(page) == newest and page.get_attribute("body", "data-replay") == ""
    assert page.locator("#board [data-piece].pbem-you").count() == len(mine)  # still marked once redrawn
    page.wait_for_function("!document.body.dataset.busy")
    assert page.locator("#options button").count() > 0  # the decision's clicks, offered again
    assert errors == []
    page.close()


def test_the_since_frames_hold_no_secret(board: server.Board) -> None:
    page = board.table.page()
    block = re.search(r'<script type="application/json" id="pbem-since-frames">(.*?)</script>', page, re.S)
    assert block is not None and json.loads(block.group(1))["frames"]
    assert board.table.outlook is not None and board.table.outlook.reveal.hex() not in page
