"""`pbem play`'s targets (issue 25): the page ready (< 1 s), a galley's reachable positions after its click
(< 200 ms).

Prints figures (median of several runs); it asserts nothing. Tauris and Actium are each played on to their
first activation (5.41), and the table of the player who decides it is opened. "page" is the server's
rendering alone; "ready in Chromium" is from the request to the page's data-ready mark (drawn, panned,
its first options asked and checked), in Debian's headless Chromium. "a galley's click" is the server's
answer (its end positions and attacks, pbem.board.table); "lit" is from the click on the galley's counter
on the map to the first frame with its end positions drawn on the board, timed in the page (then its card
is fetched and the order text checked: the page idle again).
Run: python bench/bench_play.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.board import server, table  # noqa: E402
from tests.reports.games import play  # noqa: E402

IDLE = "body[data-ready='1']:not([data-busy])"
# timed in the page (performance.now), not through the test driver's round trips: a click on the galley's counter
# as a player's, until its end positions are on the board at the next frame, and until the page is idle again
CLICK = """async (galley) => {
  const counter = document.querySelector(`g.counter[data-galley="${CSS.escape(galley)}"]`);
  const start = performance.now();
  counter.dispatchEvent(new MouseEvent("click", {bubbles: true}));
  const until = (done) => new Promise((resolve) => {
    const look = () => done() ? resolve(performance.now() - start) : requestAnimationFrame(look);
    look();
  });
  const lit = await until(() => document.querySelector("#play-overlay g.offer.end"));
  const idle = await until(() => !document.body.dataset.busy);
  return [lit, idle];
}"""


def _median_ms(work, runs: int = 7) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def _in_chromium(board: table.Table, squadron: str | None, galley: str | None,
                 runs: int = 5) -> tuple[float, float, float]:
    """(page ready, a galley's end positions lit after the click on its counter, and the page idle again), ms."""
    from playwright.sync_api import sync_playwright

    served = server.Board(board).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
            page: Any = browser.new_page(viewport={"width": 1400, "height": 900})

            def load() -> None:
                page.goto(served.url)
                page.wait_for_selector(IDLE)

            ready = _median_ms(load, runs)
            lit = idle = float("nan")
            if squadron and galley:
                page.click(f"#options button[data-key='{squadron}']")
                page.wait_for_selector(f"{IDLE} g.counter.clickable[data-galley='{galley}']")

                lits, idles = [], []
                for _ in range(runs):
                    lit_ms, idle_ms = page.evaluate(CLICK, galley)
                    lits.append(lit_ms / 1000)
                    idles.append(idle_ms / 1000)
                    page.click("#back")  # the galley unchosen: its counter clickable again
                    page.wait_for_selector(f"{IDLE} g.counter.clickable[data-galley='{galley}']")
                lit, idle = statistics.median(lits) * 1000, statistics.median(idles) * 1000
            browser.close()
    finally:
        served.stop()
    return ready, lit, idle


def _deciding(root: Path) -> table.Table:
    for role in ("host", "guest"):
        board = table.open_table(root / role, root / "keys" / role, None, None)
        if board.my_decision():
            return board
    raise AssertionError("no one to decide")


def main() -> None:
    for scenario, files in (("tauris", 15), ("actium", 8)):
        root = Path(tempfile.mkdtemp())
        play(root, "war-galley", scenario, files, until=lambda pending: pending.kind == "activate")
        board = _deciding(root)
        galleys_on_map = sum(1 for g in board.state.galleys if g.position is not None)
        print(f"{scenario}: file {board.game.next_seq}, {galleys_on_map} galleys on the map; "
              f"{board.options([])['prompt']}")
        print(f"{scenario}: page (report drawing + panel) {_median_ms(board.page):.0f} ms")
        first = board.options([])
        squadrons = [o["key"] for o in first["options"] if o["kind"] == "squadron"]
        squadron = max(squadrons, key=lambda s: len(board.options([s])["options"])) if squadrons else None
        galley = None
        if squadron:
            galley_option = board.options([squadron])["options"][0]
            galley = galley_option["galley"]
            ms = _median_ms(lambda: board.options([squadron, galley_option["key"]]))
            count = len(board.options([squadron, galley_option["key"]])["options"])
            print(f"{scenario}: a galley's click ({galley} of {squadron[3:]}), {count} options "
                  f"(end positions and attacks) {ms:.0f} ms")
            picks = [squadron]  # each galley but the last moved to its first end position: the last one's click
            while True:  # is answered by replaying the clicks before it (the page sends its whole click path)
                galleys = [o["key"] for o in board.options(picks)["options"] if o["kind"] == "galley"]
                ends = [o["key"] for o in board.options([*picks, galleys[0]])["options"] if o["kind"] == "end"]
                if len(galleys) == 1 or not ends:
                    break
                picks += [galleys[0], ends[0]]
            last = [*picks, galleys[0]]
            ms = _median_ms(lambda: board.options(last))
            print(f"{scenario}: the click on the last of {len(picks) // 2 + 1} galleys ({galleys[0][2:]}, after "
                  f"{len(picks) - 1} clicks), {len(board.options(last)['options'])} options {ms:.0f} ms")
        ready, lit, idle = _in_chromium(board, squadron, galley)
        print(f"{scenario}: page ready in Chromium {ready:.0f} ms; {galley}'s end positions lit {lit:.0f} ms "
              f"after the click on its counter (its card shown and the order checked: {idle:.0f} ms)")


if __name__ == "__main__":
    main()
