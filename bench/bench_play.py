"""`pbem play`'s targets (issue 25): the page ready (< 1 s), a galley's reachable positions after its click
(< 200 ms).

Prints figures (median of several runs); it asserts nothing. Tauris is played to the first activation
(5.41); Actium (over 400 galleys) into its set-up, where the page is drawn. "page" is the server's
rendering alone; "ready in Chromium" is from the request to the page's data-ready mark (drawn, panned,
its first options asked and checked), in Debian's headless Chromium.
Run: python bench/bench_play.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.board import server, table  # noqa: E402
from tests.reports.games import play  # noqa: E402


def _median_ms(work, runs: int = 7) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def _ready_ms(board: table.Table, runs: int = 5) -> float:
    from playwright.sync_api import sync_playwright

    served = server.Board(board).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})

            def load() -> None:
                page.goto(served.url)
                page.wait_for_selector("body[data-ready='1']:not([data-busy])")

            ms = _median_ms(load, runs)
            browser.close()
    finally:
        served.stop()
    return ms


def main() -> None:
    for scenario, files, role in (("tauris", 15, "guest"), ("actium", 8, "host")):
        root = Path(tempfile.mkdtemp())
        play(root, "war-galley", scenario, files)
        board = table.open_table(root / role, root / "keys" / role, None, None)
        print(f"{scenario}: page (report drawing + panel) {_median_ms(board.page):.0f} ms")
        print(f"{scenario}: page ready in Chromium {_ready_ms(board):.0f} ms")
        first = board.options([])
        squadrons = [o["key"] for o in first["options"] if o["kind"] == "squadron"]
        if not squadrons:
            print(f"{scenario}: no activation at file {files}: {first['prompt']}")
            continue
        galleys = [o["key"] for o in board.options([squadrons[0]])["options"]]
        ms = _median_ms(lambda: board.options([squadrons[0], galleys[0]]))
        count = len(board.options([squadrons[0], galleys[0]])["options"])
        print(f"{scenario}: a galley's click, {count} options (end positions and attacks) {ms:.0f} ms")


if __name__ == "__main__":
    main()
