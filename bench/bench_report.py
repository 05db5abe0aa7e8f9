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

from pbem.reports import archive  # noqa: E402
from pbem.game import referee
from pbem.reports import report
from pbem.game import store
from pbem.game.referee import Resolution  # noqa: E402
from tests.reports.games import play  # noqa: E402


def timed(what: str, run: Callable[[], str], repeat: int = 5, fresh: Callable[[], object] | None = None) -> str:
    """Median and best of `repeat` runs after a warm-up; CPU time (user + sys of this process) beside wall.

    With `fresh`, it is called before each run (untimed) and its answer passed to `run`: the states a
    new process would have (decoded from bytes, no memo holding them), not the warm ones played here."""
    call = (lambda: run(fresh())) if fresh is not None else run  # type: ignore[operator]
    call()  # templates compiled: what a report in a process that has made one costs
    walls, cpus = [], []
    out = ""
    for _ in range(repeat):
        arg = fresh() if fresh is not None else None
        start, cpu = time.perf_counter(), time.process_time()
        out = run(arg) if fresh is not None else run()  # type: ignore[call-arg]
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - start)
    print(f"{what}: median {statistics.median(walls) * 1000:.1f} ms wall ({statistics.median(cpus) * 1000:.1f} ms CPU), "
          f"best {min(walls) * 1000:.1f} ms over {repeat} runs; {len(out.encode()) / 1024:.0f} KiB")
    return out


def decoded(game: referee.Game) -> referee.Game:
    """The game with every state decoded anew from its bytes, as a process that replayed or read the cache has."""
    ruleset, rules = game.ruleset, game.setup.rules_data
    copy = game.copy()
    copy.initial_state = ruleset.load_state(ruleset.state_bytes(game.initial_state), rules)
    for seq in list(game.resolutions):
        r = game.resolutions[seq]
        copy.resolutions[seq] = Resolution(ruleset.load_state(ruleset.state_bytes(r.state), rules), r.events, r.rolls)
    return copy


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        game = store.load(play(Path(tmp), "war-galley", "actium", args.files))
        print(f"Actium: {len(game.files)} files played in {time.perf_counter() - start:.1f} s")
        span = report.turn_spans(game)[-1]
        state = game.resolutions[span.last].state
        print(f"  turn report of {span.title} (files {span.first}-{span.last}), "
              f"{sum(1 for g in state.galleys if g.position is not None)} counters")
        timed("Actium turn report, states decoded anew (target < 150 ms)", lambda g: report.render(g, span),
              fresh=lambda: decoded(game))
        timed("  the same, states already asked about (warm)", lambda: report.render(game, span))
        events = [e for seq in range(span.first, span.last + 1) for e in game.resolutions[seq].events]
        timed("  of which the ruleset's view (warm)", lambda: str(game.ruleset.view(state, events, game.state_before(span.first), {})))
        rules = game.setup.rules_data
        timed("  of which the ruleset's pending, state decoded anew", lambda s: str(game.ruleset.pending(s)),
              fresh=lambda: game.ruleset.load_state(game.ruleset.state_bytes(state), rules))
        timed("Actium one-file report", lambda: report.render(game, report.file_span(game, span.last)))
        timed(f"Actium archive ({len(report.turn_spans(game))} turns)", lambda: archive.render(game), repeat=3)
    tauris = store.load(ROOT / "examples" / "tauris-game")
    timed(f"Tauris archive ({len(tauris.files)} files, {len(report.turn_spans(tauris))} turns)",
          lambda: archive.render(tauris), repeat=3)


if __name__ == "__main__":
    main()
