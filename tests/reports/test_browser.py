"""Reports and archives in real headless Chromium (Debian's /usr/bin/chromium through playwright).

Each page is opened from disk with every network request recorded; it must
load with no console error and fetch nothing, show every galley, the events
and the record sheets; screenshots are kept as artifacts (tests/artifacts/).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.reports import archive
from pbem.reports import report
from pbem.game.referee import Game
from tests.reports.conftest import HOSTILE_NAME


class Visit:
    """A page opened from disk, with what it logged, requested and popped up."""

    def __init__(self, browser: Any, path: Path, width: int = 1400) -> None:
        self.page = browser.new_page(viewport={"width": width, "height": 900})
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.url = path.resolve().as_uri()
        self.page.goto(self.url)

    def fetched(self) -> list[str]:
        return [u for u in self.requests if u.split("#")[0] != self.url]


def _state(game: Game, span: report.Span) -> Any:
    return game.resolutions[span.last].state


@pytest.mark.parametrize("battle", ["tauris", "actium"])
def test_a_turn_report_loads_and_shows_every_galley(battle: str, request: pytest.FixtureRequest, browser: Any,
                                                      tmp_path: Path, artifacts: Path) -> None:
    game: Game = request.getfixturevalue(battle)
    span = report.turn_spans(game)[-1]
    path = report.write(tmp_path / f"{battle}.html", report.render(game, span))
    visit = Visit(browser, path)
    page = visit.page
    state = _state(game, span)
    on_map = sorted(str(g.id) for g in state.galleys if g.position is not None)
    drawn = page.eval_on_selector_all("svg.map g.counter", "els => els.map(e => e.dataset.galley)")
    assert sorted(drawn) == on_map
    assert page.locator("#happened li.event").count() == sum(len(game.resolutions[s].events)
                                                             for s in range(span.first, span.last + 1))
    rows = page.locator("table.fleet tbody tr").count()
    assert rows == len(state.galleys)
    assert page.locator("table.fleet").count() == 2
    assert page.locator("svg.map").first.is_visible()
    page.screenshot(path=str(artifacts / f"report-{battle}.png"), full_page=False)
    page.locator(".mapbox").screenshot(path=str(artifacts / f"report-{battle}-map.png"))
    page.emulate_media(media="print")
    page.screenshot(path=str(artifacts / f"report-{battle}-print.png"), full_page=False)
    assert visit.errors == [] and visit.fetched() == [] and visit.dialogs == []
    page.close()


def test_the_archive_steps_to_its_last_turn(tauris: Game, browser: Any, tmp_path: Path, artifacts: Path) -> None:
    path = archive.write(tauris, tmp_path / "tauris-archive.html")
    visit = Visit(browser, path)
    page = visit.page
    spans = report.turn_spans(tauris)
    assert page.locator("section.turn").count() == len(spans)
    page.locator("#t0 a[rel=next]").click()  # follow the "next" links: no script needed
    for _ in spans[2:]:
        page.locator("section.turn:target a[rel=next]").click()
    assert page.evaluate("location.hash") == f"#t{len(spans) - 1}"
    last = page.locator(f"#t{len(spans) - 1}")
    state = _state(tauris, spans[-1])
    assert last.locator("g.counter").count() == sum(1 for g in state.galleys if g.position is not None)
    assert last.locator(".result").first.inner_text().startswith("The game is over")
    page.keyboard.press("ArrowRight")  # the viewer's script: the arrow keys step through the events
    assert page.get_attribute("#viewer", "data-seq") == str(spans[0].first)
    page.keyboard.press("Shift+ArrowRight")  # and with Shift, the files
    assert page.get_attribute("#viewer", "data-seq") == str(spans[0].first + 1)
    last.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "archive-tauris-last-turn.png"))
    assert visit.errors == [] and visit.fetched() == [] and visit.dialogs == []
    page.close()


def test_hostile_text_shows_as_text_in_every_page(hostile: Game, browser: Any, tmp_path: Path) -> None:
    pages = [report.write(tmp_path / "report.html", report.render(hostile, report.latest_span(hostile))),
             archive.write(hostile, tmp_path / "archive.html")]
    pages.append(archive.index(tmp_path))
    for path in pages:
        visit = Visit(browser, path)
        page = visit.page
        assert visit.dialogs == [], path
        assert page.locator("#injected").count() == 0 and page.locator("img").count() == 0
        scripts = page.eval_on_selector_all("script:not([type])", "els => els.map(e => e.textContent)")
        assert all("alert" not in s for s in scripts)
        assert HOSTILE_NAME in page.locator("body").inner_text(), path
        assert visit.errors == [] and visit.fetched() == []
        page.close()
    visit = Visit(browser, pages[0])
    assert "onerror" in visit.page.locator(".note blockquote").first.inner_text()  # the note, as text


def test_a_duel_report_loads(browser: Any, tmp_path: Path) -> None:
    from pbem.game import store
    from tests.reports.conftest import EXAMPLES

    game = store.load(EXAMPLES / "duel-game")
    path = report.write(tmp_path / "duel.html", report.render(game, report.turn_spans(game)[2]))
    visit = Visit(browser, path)
    assert visit.page.locator("figure.duellist").count() == 2 and visit.page.locator("li.event").count() > 0
    assert visit.errors == [] and visit.fetched() == []


def test_a_modified_scenario_is_marked_where_the_reader_looks_first(modified: Game, browser: Any,
                                                                    tmp_path: Path) -> None:
    """The mark and its note are on screen at the top of the turn report and of the archive, not only in the
    markup (tests/reports/test_provenance_marks.py checks the HTML of every page)."""
    pages = [report.write(tmp_path / "report.html", report.render(modified, report.turn_spans(modified)[-1])),
             archive.write(modified, tmp_path / "archive.html")]
    for path in pages:
        visit = Visit(browser, path)
        mark = visit.page.locator("h1 .modified-mark")
        assert mark.is_visible() and mark.inner_text() == "MODIFIED"
        assert mark.bounding_box()["y"] < 200  # at the top, before any map
        note = visit.page.locator("ul.provenance li").first
        assert note.is_visible() and "not the built-in tauris" in note.inner_text()
        assert visit.page.title().startswith("MODIFIED: Tauris")
        assert visit.errors == [] and visit.fetched() == []
        visit.page.close()
