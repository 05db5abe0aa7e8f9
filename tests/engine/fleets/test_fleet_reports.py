"""Fleet battles through pbem's report and archive machinery (docs/reports.md), in a real headless Chromium.

A whole Salamis game is played through the real protocol (two identities, two
folders); `pbem report` and `pbem archive` write it from the command line; each
page must load from disk with no console error and no request, draw every
element the state has, and the archive must pass `pbem verify`. Every recorded
die of the game must be claimed by the ruleset's view (none "not explained").
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.fleets.events import Fought, PipsRolled, WindRolled
from pbem.reports import report
from pbem.game import store
from pbem.game.referee import Game

from tests.reports.games import play


def pbem(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from pbem.cli.app import main; main()", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Salamis played to its end (the demo players' choices; the bound limit ends it at the latest)."""
    return play(tmp_path_factory.mktemp("salamis"), "fleets", "salamis-480", 10_000)


@pytest.fixture(scope="module")
def salamis(folder: Path) -> Game:
    game = store.load(folder)
    assert game.finished()
    return game


@pytest.fixture(scope="module")
def pages(salamis: Game, folder: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("pages")
    last = max(salamis.resolutions)
    made = {"report": out / "report.html", "archive": out / "archive.html"}
    for args in (("report", str(folder), "--file", str(last), "--out", str(made["report"])),
                 ("archive", str(folder), "--out", str(made["archive"]))):
        result = pbem(*args)
        assert result.returncode == 0, result.stderr
    return made


def _open(browser: Any, path: Path) -> tuple[Any, list[str], list[str]]:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    return page, errors, [u for u in requests if u.split("#")[0] != path.as_uri()]


def test_the_report_draws_every_element_and_fetches_nothing(salamis: Game, pages: dict[str, Path], browser: Any) -> None:
    state = salamis.resolutions[max(salamis.resolutions)].state
    page, errors, requests = _open(browser, pages["report"])
    try:
        assert errors == [] and requests == []
        drawn = page.locator("#board g.element")
        assert drawn.count() == len(state.elements)
        assert sorted(drawn.nth(i).get_attribute("data-id") for i in range(drawn.count())) \
            == sorted(e.id for e in state.elements)
        for e in state.elements[:3]:
            assert page.locator(f"#board g.element[data-id='{e.id}']").get_attribute("data-heading") is not None
        assert page.locator("#board rect.land.coast").count() == 2  # Salamis: the straits between two coasts
        assert page.locator("#board rect.shallows").count() >= 2 and page.locator("#board line.wind").count() == 1
        assert page.locator("#board g.general").count() == sum(1 for e in state.elements if e.general)
        rows = page.locator("#sheets tr[data-element]")
        assert rows.count() == sum(s.start for s in state.sides)  # every element: on the table or lost
        assert page.locator("#sheets tr.gone").count() == len(state.lost)
        assert state.result is not None and state.result in page.locator("header").inner_text()
        box = page.locator("#board svg.fleets-table").bounding_box()
        assert box is not None and box["width"] > 400 and box["height"] > 400
    finally:
        page.close()


def test_the_archive_draws_each_turn_and_verifies(salamis: Game, pages: dict[str, Path], browser: Any) -> None:
    page, errors, requests = _open(browser, pages["archive"])
    try:
        assert errors == [] and requests == []
        spans = report.turn_spans(salamis)
        sections = page.locator("section.turn")
        assert sections.count() == len(spans) > 3
        for i, span in enumerate(spans):
            state = salamis.resolutions[span.last].state
            assert sections.nth(i).locator("g.element").count() == len(state.elements), span.title
        assert page.locator("text=did not explain").count() == 0
    finally:
        page.close()
    result = pbem("verify", str(pages["archive"]))
    assert result.returncode == 0, result.stderr
    assert "its pages match the files" in result.stdout


def test_every_die_of_the_game_is_explained(salamis: Game) -> None:
    kinds: set[str] = set()
    claimed = recorded = 0
    for seq in sorted(salamis.resolutions):
        data = report.context(salamis, report.file_span(salamis, seq))
        (entry,) = data["files"]
        assert entry["unexplained"] == [], f"file {seq}: {entry['unexplained']}"
        for d in entry["dice"]:
            assert len(d["rolls"]) == 1 and d["rolls"][0]["face"] == d["natural"]  # each a single d6
            kinds.add(d["table"])
        claimed += sum(len(d["rolls"]) for d in entry["dice"])
        recorded += entry["rolls"]
    assert claimed == recorded > 0
    events = [e for r in salamis.resolutions.values() for e in r.events]
    assert ("Wind" in kinds) == any(isinstance(e, WindRolled) for e in events)
    assert ("PIPs" in kinds) and any(isinstance(e, PipsRolled) for e in events)
    assert ("Close combat" in kinds) == any(isinstance(e, Fought) for e in events)


def _plain(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or isinstance(value, (str, int, bool))


def test_the_view_is_plain_deterministic_data(salamis: Game) -> None:
    seq = max(salamis.resolutions)
    resolution = salamis.resolutions[seq]
    view = salamis.ruleset.view(resolution.state, resolution.events, salamis.state_before(seq), {})
    assert _plain(view)
    assert json.dumps(view, sort_keys=True) == json.dumps(
        salamis.ruleset.view(resolution.state, resolution.events, salamis.state_before(seq), {}), sort_keys=True)
    assert len(view["events"]) == len(resolution.events)
    assert view["title"].startswith("Salamis: ") and view["result"] == resolution.state.result
    assert all(e["rule"].startswith("rules ") for e in view["events"])
    assert salamis.ruleset.turn(resolution.state) == resolution.state.bound
