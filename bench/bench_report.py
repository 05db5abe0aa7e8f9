"""How long a turn report and a whole archive take to render, and how big they are (prints, never asserts).

    python bench/bench_report.py [--files N]

Plays Actium through the real protocol (two identities, two folders) for N
files (default 12: deployment and the start of turn 1, all 110 counters on
the two joined sheets), then times rendering one turn report of Actium
(target: under 150 ms), the whole archive of that game, and the recorded
Tauris game's archive (examples/tauris-game, 114 files).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem import archive, referee, report  # noqa: E402
from tests.reports.games import play  # noqa: E402


def timed(what: str, run: Callable[[], str], repeat: int = 5) -> str:
    run()  # templates compiled, caches warm: what a second report in the same process costs
    times = []
    out = ""
    for _ in range(repeat):
        start = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - start)
    print(f"{what}: median {statistics.median(times) * 1000:.1f} ms, best {min(times) * 1000:.1f} ms "
          f"over {repeat} runs; {len(out.encode()) / 1024:.0f} KiB")
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        game = referee.load(play(Path(tmp), "war-galley", "actium", args.files))
        print(f"Actium: {len(game.files)} files played in {time.perf_counter() - start:.1f} s")
        span = report.turn_spans(game)[-1]
        state = game.resolutions[span.last].state
        print(f"  turn report of {span.title} (files {span.first}-{span.last}), "
              f"{sum(1 for g in state.galleys if g.position is not None)} counters")
        timed("Actium turn report (target < 150 ms)", lambda: report.render(game, span))
        events = [e for seq in range(span.first, span.last + 1) for e in game.resolutions[seq].events]
        timed("  of which the ruleset's view", lambda: str(game.ruleset.view(state, events, game.state_before(span.first), {})))
        timed("  of which the ruleset's pending (the engine's, not the report's)", lambda: str(game.ruleset.pending(state)))
        timed("Actium one-file report", lambda: report.render(game, report.file_span(game, span.last)))
        timed(f"Actium archive ({len(report.turn_spans(game))} turns)", lambda: archive.render(game), repeat=3)
    tauris = referee.load(ROOT / "examples" / "tauris-game")
    timed(f"Tauris archive ({len(tauris.files)} files, {len(report.turn_spans(tauris))} turns)",
          lambda: archive.render(tauris), repeat=3)


if __name__ == "__main__":
    main()
