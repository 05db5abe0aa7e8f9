"""The fleet table drawn in a real headless Chromium: every base visible on the table, bows on the facing side."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

from engine.datafiles import templates_dir
from engine.fleets.view import table_view
from tests.engine.fleets.test_view import deployed_salamis

def test_the_table_renders_in_chromium(tmp_path: Path, browser: Any) -> None:
    view = table_view(deployed_salamis())
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates_dir())), autoescape=True)
    svg = env.get_template(view["template"]).render(v=view)
    page_file = tmp_path / "table.html"
    page_file.write_text(f"<!doctype html><html><body style='margin:0'><div style='width:700px'>{svg}</div></body></html>")
    page = browser.new_page(viewport={"width": 800, "height": 800})
    try:
        page.goto(page_file.as_uri())
        sea = page.locator("rect.sea").bounding_box()
        assert sea is not None and sea["width"] > 500
        bases = page.locator("g.element")
        assert bases.count() == 24
        for i in range(bases.count()):
            box = bases.nth(i).locator("rect").bounding_box()
            assert box is not None and sea["x"] <= box["x"] and box["x"] + box["width"] <= sea["x"] + sea["width"] + 1
        greek = page.locator("g[data-id='G1']")
        body, bow = greek.locator("rect").bounding_box(), greek.locator("polygon.bow").bounding_box()
        assert body and bow and bow["y"] > body["y"] + body["height"] / 2  # facing S: the bow is below, on screen
        assert page.locator("line.wind").count() == 1 and page.locator("rect.land.coast").count() == 2
        assert page.locator("g.general").count() == 2
        # each base shows its type under its id; the wind's label is drawn after (above) every base
        assert greek.locator("text.type").text_content() == "Lib"
        assert page.evaluate("""() => { const label = document.querySelector('text.wind-label');
            return [...document.querySelectorAll('g.element')].every(
                g => g.compareDocumentPosition(label) & Node.DOCUMENT_POSITION_FOLLOWING); }""")
    finally:
        page.close()
