"""The archive as a viewer (issue 25), in real headless Chromium: file by file and event by event over the
turn's own map, each side's view, and everything still there with scripts off; and the frames it carries
re-render byte for byte, so `pbem verify` still checks the whole page."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from pbem.errors import StateMismatch
from pbem.game.referee import Game
from pbem.reports import archive, report
from tests.reports.test_browser import Visit

FRAMES = re.compile(r'<script type="application/json" id="pbem-frames">(.*?)</script>', re.S)


@pytest.fixture(scope="module")
def made(tauris: Game, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return archive.write(tauris, tmp_path_factory.mktemp("viewer") / "tauris.html")


def _frames(path: Path) -> list[dict[str, Any]]:
    match = FRAMES.search(path.read_text())
    assert match is not None
    return json.loads(match.group(1))["frames"]


def _to_file(page: Any, seq: int) -> None:
    field = page.locator("#viewer .viewer-file")
    field.fill(str(seq))
    field.dispatch_event("change")
    page.evaluate("document.activeElement.blur()")  # the arrow keys step only outside the field
    assert page.get_attribute("#viewer", "data-seq") == str(seq)


def _hull(page: Any, section: str, galley: str) -> str:
    return page.get_attribute(f"#{section} [data-piece='{galley}'] polygon", "points")


def test_frames_and_pages_render_byte_for_byte_and_verify(tauris: Game, made: Path, tmp_path: Path) -> None:
    assert archive.render(tauris) == archive.render(tauris) == made.read_text()
    assert "its pages match the files" in archive.verify(made)[1]
    frames = _frames(made)
    assert [f["seq"] for f in frames] == sorted(tauris.resolutions)
    first = tauris.resolutions[frames[0]["seq"]].state
    assert len(frames[0]["set"]) == sum(1 for g in first.galleys if g.position is not None)
    edited = tmp_path / "edited.html"  # a counter moved in the frames alone is an edited page
    text = made.read_text()
    moved = next(f for f in frames[1:] if f["set"])
    galley, markup = next(iter(moved["set"].items()))
    old = json.dumps(markup, ensure_ascii=False)[1:-1].replace("</", "<\\/")
    assert old in text
    changed = text.replace(old, old.replace('points=\\"', 'points=\\"1,1 ', 1), 1)
    assert changed != text
    edited.write_text(changed)
    with pytest.raises(StateMismatch, match="edited after it was made"):
        archive.verify(edited)


def test_stepping_file_by_file_moves_the_counters(tauris: Game, made: Path, browser: Any) -> None:
    frames = _frames(made)
    spans = report.turn_spans(tauris)
    span = next(s for s in spans if s.last - s.first >= 3)
    section = f"t{spans.index(span)}"
    # a galley that moved between two files of this turn: its hull's points differ
    seqs = [f["seq"] for f in frames]
    full: list[dict[str, str]] = []
    for f in frames:
        full.append({**{k: v for k, v in (full[-1] if full else {}).items() if k not in f["gone"]}, **f["set"]})
    hull = re.compile(r'<polygon class="hull [^"]*" points="([^"]*)"')

    def moved(s: int, g: str) -> bool:
        before, after = full[seqs.index(s)].get(g), full[seqs.index(s + 1)].get(g)
        return bool(before and after and hull.findall(before) != hull.findall(after))

    a, b, galley = next((s, s + 1, g) for s in range(span.first, span.last)
                        for g in frames[seqs.index(s + 1)]["set"] if moved(s, g))
    visit = Visit(browser, made)
    page = visit.page
    drawn_last = _hull(page, section, galley)  # the turn's map draws its last file
    _to_file(page, a)
    at_a = _hull(page, section, galley)
    page.click("#viewer .viewer-nextFile")
    assert page.get_attribute("#viewer", "data-seq") == str(b)
    at_b = _hull(page, section, galley)
    assert at_a != at_b, f"{galley} did not move from file {a} to {b}"
    assert f'points="{at_b}"' in frames[seqs.index(b)]["set"][galley]
    _to_file(page, span.last)
    assert _hull(page, section, galley) == drawn_last
    page.keyboard.press("Shift+ArrowLeft")  # from a file's first event: the file before
    assert page.get_attribute("#viewer", "data-seq") == str(span.last - 1)
    page.keyboard.press("Shift+ArrowRight")
    assert page.get_attribute("#viewer", "data-seq") == str(span.last)
    assert visit.errors == [] and visit.fetched() == []
    page.close()


def test_stepping_event_by_event_lights_the_events_pieces(made: Path, browser: Any) -> None:
    visit = Visit(browser, made)
    page = visit.page
    target = page.locator("li.event[data-pieces]").nth(5)
    article = target.locator("xpath=ancestor::article").get_attribute("id")
    seq = int(article.split("-")[1])
    _to_file(page, seq)
    wanted = target.get_attribute("data-pieces").split(" ")
    text = target.locator(".text").inner_text()
    for _ in range(200):
        if page.locator("li.event.pbem-current .text").inner_text() == text:
            break
        page.keyboard.press("ArrowRight")
    assert page.locator("li.event.pbem-current .text").inner_text() == text
    lit = page.eval_on_selector_all(".pbem-lit", "els => els.map(e => e.dataset.piece)")
    on_board = page.eval_on_selector_all(f"#{article} >> xpath=ancestor::section//*[@data-piece]",
                                         "els => els.map(e => e.dataset.piece)")
    assert lit and sorted(lit) == sorted(p for p in wanted if p in on_board)
    assert text in page.locator("#viewer .viewer-now").inner_text()  # the event itself, in the bar
    step = int(page.get_attribute("#viewer", "data-step"))
    page.keyboard.press("ArrowLeft")
    assert int(page.get_attribute("#viewer", "data-step")) == step - 1
    assert page.locator("li.event.pbem-current .text").all_inner_texts() != [text]
    assert visit.errors == [] and visit.fetched() == []
    page.close()


def test_each_sides_view_turns_the_map_and_names_him_you(tauris: Game, made: Path, browser: Any,
                                                        tmp_path: Path) -> None:
    visit = Visit(browser, made)
    page = visit.page
    radios = page.locator("#viewer input[name=pbem-side]")
    assert radios.count() == 3
    turned = []
    for index, player in enumerate((tauris.player("host"), tauris.player("guest")), 1):
        assert player is not None
        radios.nth(index).check()
        you = page.eval_on_selector_all(".player.pbem-you", "els => els.map(e => e.textContent)")
        assert you and set(you) == {player.name}
        assert page.locator(f".pbem-you[data-side]:not([data-side='{player.side}'])").count() == 0
        mark = page.evaluate("getComputedStyle(document.querySelector('.player.pbem-you'), '::after').content")
        assert "you" in mark
        board = page.evaluate("getComputedStyle(document.querySelector('[data-board]')).transform")
        turned.append(board != "none")
        page.screenshot(path=str(tmp_path / f"side-{index}.png"))
    assert sorted(turned) == [False, True], "one fleet starts above the other: its view turns the map"
    page.evaluate("document.activeElement.blur()")  # arrow keys on a radio button choose another side
    for _ in range(20):  # stepping redraws counters: they stay marked as his
        page.keyboard.press("Shift+ArrowRight")
    assert page.locator(f"[data-piece][data-side='{player.side}']").count() > 0
    assert page.locator(f"[data-piece][data-side='{player.side}']:not(.pbem-you)").count() == 0
    radios.nth(0).check()
    assert page.evaluate("getComputedStyle(document.querySelector('[data-board]')).transform") == "none"
    assert page.locator(".pbem-you").count() == 0
    assert visit.errors == [] and visit.fetched() == []
    page.close()


def test_with_scripts_off_every_event_is_there(tauris: Game, made: Path, browser: Any) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(made.resolve().as_uri())
    assert page.locator("#viewer").count() == 0
    shown = page.eval_on_selector_all("section.turn li.event .text", "els => els.map(e => e.textContent)")
    wanted = [e["text"] for span in report.turn_spans(tauris) for f in report.context(tauris, span)["files"]
              for e in f["events"]]
    assert shown == wanted and len(wanted) > 100
    assert page.locator("script[type='application/x-pbem-file']").count() == len(tauris.files)
    assert page.locator("section.turn").count() == len(report.turn_spans(tauris))
    context.close()


def test_a_turns_marks_of_what_happened_show_the_steps_alone(made: Path, browser: Any) -> None:
    visit = Visit(browser, made)
    page = visit.page
    mark = page.locator("section.turn [data-board] [data-event]").first
    section = mark.locator("xpath=ancestor::section").get_attribute("id")
    index = int(mark.get_attribute("data-event"))
    assert page.locator(f"#{section} [data-board] [data-event]").count() > 1
    li = page.locator(f"#{section} li.event").nth(index)
    seq = int(li.locator("xpath=ancestor::article").get_attribute("id").split("-")[1])
    _to_file(page, seq)
    text = li.locator(".text").inner_text()
    for _ in range(300):
        if page.locator("li.event.pbem-current .text").inner_text() == text:
            break
        page.keyboard.press("ArrowRight")
    shown = page.eval_on_selector_all(f"#{section} [data-board] [data-event]",
                                      "els => els.filter(e => getComputedStyle(e).display !== 'none').map(e => e.dataset.event)")
    assert shown == [str(index)]
    page.click("#viewer .viewer-file")  # to another turn: this one's marks are all back
    _to_file(page, int(page.get_attribute("#viewer .viewer-file", "max")))
    if page.locator(f"#{section} #file-{page.get_attribute('#viewer', 'data-seq')}").count() == 0:
        assert page.locator(f"#{section} [data-event].pbem-quiet").count() == 0
    assert visit.errors == []
    page.close()


# the pieces drawn on the board that shows file `seq` (the section of its turn): each one's hull, and whether
# it is marked as the viewing player's
# What the page shows now, in one round trip a file: the file the viewer is at, whether the view is
# turned, and each piece drawn on the board of file `seq`'s turn (its hull, side, and whether marked his).
_DRAWN = """seq => {
  const board = document.getElementById(`file-${seq}`).closest("section.turn").querySelector("[data-board]");
  const out = {};
  for (const p of board.querySelectorAll("[data-piece]")) {
    const hull = p.querySelector("polygon.hull");
    out[p.dataset.piece] = [hull ? hull.getAttribute("points") : null, p.dataset.side || "", p.classList.contains("pbem-you")];
  }
  return [document.getElementById("viewer").dataset.seq, document.body.classList.contains("pbem-turned"), out];
}"""


@pytest.mark.parametrize("role", ["host", "guest"])
def test_each_sides_view_steps_from_the_first_file_to_the_last(tauris: Game, made: Path, browser: Any,
                                                               role: str) -> None:
    """Issue 25's acceptance: in each side's view, from the first file to the last, file by file (Shift+→): every
    file with an outcome is shown, on its turn's board, its counters where the frames put them (each hull), the
    player's own marked, the view turned (or not) throughout as it was chosen."""
    frames = _frames(made)
    seqs = [f["seq"] for f in frames]
    # every file but the invitation (0) and the closing file, which reveals the last dice and decides nothing
    assert seqs == list(range(1, len(tauris.files) - 1)) and not tauris.files[-1].body.decisions
    full: list[dict[str, str]] = []
    for f in frames:
        full.append({**{k: v for k, v in (full[-1] if full else {}).items() if k not in f["gone"]}, **f["set"]})
    hull = re.compile(r'<polygon class="hull [^"]*" points="([^"]*)"')
    player = tauris.player(role)
    assert player is not None
    visit = Visit(browser, made)
    page = visit.page
    page.locator("#viewer input[name=pbem-side]").nth(1 if role == "host" else 2).check()
    page.evaluate("document.activeElement.blur()")  # the arrow keys step only outside the radio buttons
    turned = page.evaluate("document.body.classList.contains('pbem-turned')")
    _to_file(page, seqs[0])
    shown = []
    for index, seq in enumerate(seqs):
        at, turned_now, drawn = page.evaluate(_DRAWN, seq)
        assert at == str(seq)
        shown.append(seq)
        assert set(drawn) == set(full[index]), f"file {seq}: other pieces than its frame's"
        for piece, (points, side, mine) in drawn.items():
            assert [points] == hull.findall(full[index][piece])[:1], f"file {seq}: {piece} not where the frame puts it"
            assert mine == (side == player.side), f"file {seq}: {piece} marked wrongly for {player.side}"
        assert turned_now == turned
        page.keyboard.press("Shift+ArrowRight")
    assert shown == seqs and page.get_attribute("#viewer", "data-seq") == str(seqs[-1])  # the last stays the last
    assert visit.errors == [] and visit.fetched() == []
    page.close()
