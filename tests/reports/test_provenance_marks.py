"""A modified scenario is marked on every page (issue 22, item 8).

`status`, `new` and `accept` said MODIFIED, but the turn report, the archive
and the archive index showed a copy of a built-in battle with one line changed
under the built-in title (which the scenario's own data supplies) with no
mark. Every page now carries the mark beside the title, in the page's <title>,
and a note for each thing that is not the built-in: scenario, rules data,
options (pbem/reports/provenance.py, templates/pbem/_mark.html.j2, _provenance.html.j2).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pbem.reports import archive
from pbem.reports import provenance
from pbem.reports import report
from pbem.game import ruleset as rulesets
from pbem.game.referee import Game


class Page(HTMLParser):
    """What a reader sees first: the <title>, the <h1>'s text, the marks, the notes, the index's cells."""

    VOID = {"meta", "link", "br", "img", "input", "hr", "col", "area", "base", "source", "wbr", "path", "use"}

    def __init__(self, html: str) -> None:
        super().__init__()
        self.title = self.h1 = ""
        self.marks: list[str] = []
        self.notes: list[str] = []
        self.cells: list[str] = []
        self._open: list[tuple[str, set[str]]] = []  # the elements the parser is inside, with their classes
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "td":
            self.cells.append("")
        if tag not in self.VOID:
            self._open.append((tag, set((dict(attrs).get("class") or "").split())))

    def handle_endtag(self, tag: str) -> None:
        while self._open and self._open.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        tags = [tag for tag, _ in self._open]
        inside = {name for _, classes in self._open for name in classes}
        self.title += data if "title" in tags else ""
        self.h1 += data if "h1" in tags else ""
        if "modified-mark" in inside:
            self.marks.append(data)
        if "provenance" in inside and tags[-1] == "li":
            self.notes.append(data)
        if "td" in tags and self.cells:
            self.cells[-1] += data


def test_the_game_is_the_built_in_battle_in_all_but_its_bytes(modified: Game, tauris: Game) -> None:
    assert modified.setup.scenario_name == tauris.setup.scenario_name == "tauris"
    assert modified.setup.scenario_data != tauris.setup.scenario_data


def test_the_turn_report_marks_a_modified_scenario(modified: Game, tauris: Game) -> None:
    page = Page(report.render(modified, report.turn_spans(modified)[-1]))
    assert page.title.startswith("MODIFIED: Tauris")
    assert page.marks == ["MODIFIED"] and page.h1.strip().startswith("MODIFIED Tauris")
    assert len(page.notes) == 1 and page.notes[0].startswith("Scenario tauris: MODIFIED, not the built-in tauris")
    plain = Page(report.render(tauris, report.turn_spans(tauris)[-1]))
    assert plain.marks == [] and plain.notes == [] and not plain.title.startswith("MODIFIED")


def test_the_archive_and_its_index_mark_a_modified_scenario(modified: Game, tauris: Game, tmp_path: Path) -> None:
    made = archive.write(modified, tmp_path / "modified.html")
    archive.write(tauris, tmp_path / "tauris.html")
    page = Page(made.read_text(encoding="utf-8"))
    assert page.title.startswith("MODIFIED: Tauris") and page.marks == ["MODIFIED"]
    assert page.notes and "MODIFIED, not the built-in tauris" in page.notes[0]
    meta = json.loads(re.search(r'name="pbem-archive" content="([^"]*)"', made.read_text()).group(1)
                      .replace("&#34;", '"'))
    assert meta["mark"] == "MODIFIED"
    index = Page(archive.index(tmp_path).read_text(encoding="utf-8"))
    battles = index.cells[0::5]  # the first cell of each row: the battle
    assert len(battles) == 2
    marked = [cell for cell in battles if cell.strip().startswith("MODIFIED")]
    assert len(marked) == 1 and "MODIFIED, not the built-in tauris" in marked[0]
    assert index.marks == ["MODIFIED"]
    assert archive.verify(made)[1] == "its pages match the files"


def test_rules_data_a_scenario_not_built_in_and_options_are_named() -> None:
    war_galley = rulesets.find("war-galley")
    builtin, rules = war_galley.builtin_scenario("tauris"), war_galley.default_rules_data()
    assert provenance.page_marks("war-galley", "tauris", builtin, builtin, rules, rules, {}) == {"mark": None, "notes": []}
    other_rules = provenance.page_marks("war-galley", "tauris", builtin, builtin, rules + b"\n# x\n", rules, {})
    assert other_rules["mark"] == "MODIFIED" and other_rules["notes"][0].startswith("Rules data: MODIFIED")
    own = provenance.page_marks("war-galley", "my-tauris", builtin, None, rules, rules, {"budget": 300})
    assert own["mark"] == "NOT BUILT IN" and "this game's own" in own["notes"][0]
    assert own["notes"][1] == "Game options: budget=300."
    options_only = provenance.page_marks("war-galley", "tauris", builtin, builtin, rules, rules, {"budget": 300})
    assert options_only["mark"] is None and options_only["notes"] == ["Game options: budget=300."]
