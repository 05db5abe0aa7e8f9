"""How long pbem's commands take as games grow, against the floor (prints figures, never asserts).

    python bench/bench_commands.py                 # Actium to 2,000 files and Tauris, 5 runs each
    python bench/bench_commands.py --runs 3 --lengths 100,1000,2000
    python bench/bench_commands.py --commands status,move,receive,cold --actium-game DIR   # no verify, a game at hand

Each figure is printed beside its target (issue 16), met or missed by how much.

Games come from bench/games.py (random legal play with two fixed keys; made
once, kept under $PBEM_BENCH_CACHE or $TMPDIR/pbem-bench). Each figure is a
whole `pbem` process, as a player runs it: the median wall time of several
runs after one warm-up, and the largest peak memory (max RSS) of any run,
from the kernel's own accounting of the finished child (os.wait4). Commands
that write (move, receive) get a fresh copy of the folder before every run,
with the local state cache as the previous command left it.

For each length: verify; the floor (bench/floor.py: read every file, check
its Ed25519 signature and hash link, nothing else) on the same files in the
same run, the two run in turn, and verify/floor as the median of the ratios
of each pair (a shared machine drifts between one batch of runs and the next); status, legal, move (no orders) and receive of
the next file, each with the key of the player concerned. Then cold starts:
`python -c pass`, `pbem --help`, `pbem status` of a four-file game; then the
report figures (bench/bench_report.py: the Actium turn report, target 150 ms).
The machine is shared: read medians and ratios, not single runs; CPU time
(user + sys of the process) suffers less from a busy machine than wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import games  # noqa: E402

from pbem.signed.movefile import author_of  # noqa: E402

BENCH = Path(__file__).parent
PBEM = [str(Path(sys.executable).parent / "pbem")]
KEY_OF = {"host": "alice", "guest": "bob"}
# As an installed pbem runs: Python may keep compiled bytecode (the warm-up writes it).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_once(argv: list[str], reset: object = None) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds (user + sys), peak RSS in KiB, exit status) of one process, timed and
    reaped by bench/run_child.py (a small process: see there why)."""
    if callable(reset):
        reset()
    done = subprocess.run([sys.executable, "-S", str(BENCH / "run_child.py"), *argv], stdout=subprocess.PIPE,
                          text=True, env=CHILD_ENV, check=True)
    figures = json.loads(done.stdout)
    if figures["status"] and figures["error"]:
        print(f"    ! {' '.join(argv[-3:])}: {figures['error'].splitlines()[-1][:160]}", file=sys.stderr)
    return figures["wall"], figures["cpu"], figures["peak_kib"], figures["status"]


class Figure:
    def __init__(self, label: str, walls: list[float], cpus: list[float], peak: int, first: float,
                 failed: bool = False) -> None:
        self.label, self.walls, self.cpus, self.peak, self.first = label, walls, cpus, peak, first
        self.failed = failed  # a run exited non-zero

    @property
    def median(self) -> float:
        return statistics.median(self.walls)

    @property
    def cpu(self) -> float:
        return statistics.median(self.cpus)


def measure(label: str, argv: list[str], runs: int, reset: object = None) -> Figure:
    first, _, peak, code = run_once(argv, reset)  # the warm-up: it may also build the state cache
    walls, cpus, failed = [], [], code != 0
    for _ in range(runs):
        wall, cpu, rss, code = run_once(argv, reset)
        walls.append(wall)
        cpus.append(cpu)
        peak = max(peak, rss)
        failed = failed or code != 0
    return Figure(label, walls, cpus, peak, first, failed)


def measure_paired(a: tuple[str, list[str]], b: tuple[str, list[str]], runs: int) -> tuple[Figure, Figure, list[float]]:
    """Two commands run in turn, A B A B ..., after a warm-up of each: their figures, and A/B wall pair by
    pair. A shared machine's speed drifts over a run of figures (seen here: the same command 0.9 s, then
    1.3 s, minutes apart); a ratio taken within each pair does not."""
    firsts = [run_once(argv)[0::2] for _, argv in (a, b)]  # warm-ups: (wall, peak)
    walls: list[list[float]] = [[], []]
    cpus: list[list[float]] = [[], []]
    peaks = [firsts[0][1], firsts[1][1]]
    failed = [False, False]
    for _ in range(runs):
        for i, (_, argv) in enumerate((a, b)):
            wall, cpu, rss, code = run_once(argv)
            walls[i].append(wall)
            cpus[i].append(cpu)
            peaks[i] = max(peaks[i], rss)
            failed[i] = failed[i] or code != 0
    figures = [Figure(label, walls[i], cpus[i], peaks[i], firsts[i][0], failed[i]) for i, (label, _) in enumerate((a, b))]
    return figures[0], figures[1], [x / y for x, y in zip(walls[0], walls[1])]


TARGETS = {"status": 0.25, "move (no orders)": 0.3, "receive (next file)": 0.3}  # seconds, issue 16


def against_target(figure: Figure) -> str:
    """The target beside the figure: met, or missed by how much (wall median; CPU beside it)."""
    target = TARGETS.get(figure.label)
    if target is None:
        return ""
    verdict = "met" if figure.median < target else f"MISSED by {figure.median - target:.3f} s"
    return f"target < {target} s: {verdict} (CPU {figure.cpu:.3f} s {'under' if figure.cpu < target else 'over'})"


def row(length: int | str, figure: Figure, note: str = "") -> str:
    note = note or against_target(figure)
    spread = f"{min(figure.walls):.3f}-{max(figure.walls):.3f}"
    return (f"| {length} | {figure.label} | {figure.median:.3f} | {spread} | {figure.cpu:.3f} | {figure.first:.3f} "
            f"| {figure.peak / 1024:.0f} | {note} |")


PEAKS: dict[str, dict[int, int]] = {}  # command -> {Actium length: peak KiB}, for the memory growth summary


def remember_peak(length: int, figure: Figure) -> Figure:
    PEAKS.setdefault(figure.label, {})[length] = figure.peak
    return figure


def memory_growth() -> list[str]:
    """Peak memory against game length, per command: the growth per 1,000 files between each pair of lengths.
    At most linear means the growth per file does not rise with the length."""
    lines = []
    for label, peaks in PEAKS.items():
        lengths = sorted(peaks)
        if len(lengths) < 2:
            continue
        steps = [(peaks[b] - peaks[a]) / 1024 / (b - a) * 1000 for a, b in zip(lengths, lengths[1:])]
        figures = ", ".join(f"{n}: {peaks[n] / 1024:.0f}" for n in lengths)
        # Faster than linear: the growth per file rises by more than a quarter (plus 2 MiB per 1,000 files of
        # noise: a peak RSS varies by a few hundred KiB between runs) from the first pair of lengths to a later one.
        rising = any(later > steps[0] * 1.25 + 2 for later in steps[1:])
        lines.append(f"- {label}: peak MiB by length {figures}; growth per 1,000 files "
                     + ", ".join(f"{step:+.1f}" for step in steps)
                     + (" MiB: FASTER than linear" if rising else " MiB: at most linear"))
    return lines


def bench_length(source: Path, length: int, runs: int, work: Path, commands: set[str]) -> list[str]:
    folder = games.prefix(source, length, work / f"g{length}")
    nxt = KEY_OF[author_of(length)]  # who writes file `length`
    keys = source / "keys"
    lines = []
    if "verify" in commands:
        verify, floor, ratios = measure_paired(
            ("verify", PBEM + ["verify", str(folder)]),
            ("floor (read + Ed25519 + links)", [sys.executable, str(BENCH / "floor.py"), str(folder)]), runs)
        remember_peak(length, verify)
        if verify.failed:
            print(f"    ! verify of the kept game fails with this code: the rules changed; delete {source} "
                  "to make the game again", file=sys.stderr)
        ratio = statistics.median(ratios)
        within = "met" if ratio <= 3 and (length < 2000 or verify.median < 2) else "MISSED"
        lines.append(row(length, verify, f"verify/floor {ratio:.1f}x wall (median of {len(ratios)} paired runs, "
                                         f"{min(ratios):.1f}-{max(ratios):.1f}), {verify.cpu / floor.cpu:.1f}x CPU "
                                         f"(both processes of verify); target 3x (and < 2 s at 2,000): {within}"))
        lines.append(row(length, floor))
    else:  # the state cache the commands below start from, as the verify's warm-up would not make it
        run_once(PBEM + ["status", str(folder), "--keys", str(keys / nxt)])
    if "status" in commands:
        lines.append(row(length, remember_peak(length, measure("status", PBEM + ["status", str(folder), "--keys", str(keys / nxt)], runs))))
    if "legal" in commands:
        lines.append(row(length, measure("legal", PBEM + ["legal", str(folder), "--keys", str(keys / nxt)], runs)))

    pristine = work / f"p{length}"
    shutil.copytree(folder, pristine)  # with the cache the commands above left

    def fresh() -> None:
        shutil.rmtree(folder)
        shutil.copytree(pristine, folder)
        # A player's previous command left the state cache covering his files, as this untimed status does.
        run_once(PBEM + ["status", str(folder), "--keys", str(keys / nxt)])

    if "move" in commands:
        lines.append(row(length, measure("move (no orders)", PBEM + ["move", str(folder), "--pass", "--keys", str(keys / nxt)], runs, fresh)))
    all_files = sorted((source / "game").glob("*.pbem"))
    if length < len(all_files) and "receive" in commands:
        receiver = KEY_OF[author_of(length + 1)]
        incoming = all_files[length]
        lines.append(row(length, measure("receive (next file)", PBEM + ["receive", str(folder), str(incoming), "--keys", str(keys / receiver)], runs, fresh)))
    return lines


def cold_starts(source: Path, runs: int, work: Path) -> list[str]:
    small = games.prefix(source, 4, work / "cold4")
    bare = measure("python -c pass", [sys.executable, "-c", "pass"], runs)
    helped = measure("pbem --help", PBEM + ["--help"], runs)
    status = measure("pbem status (4 files)", PBEM + ["status", str(small), "--keys", str(source / "keys" / "alice")], runs)
    ratio = helped.median / bare.median
    return [row("-", bare), row("-", helped, f"{ratio:.1f}x python -c pass ({helped.cpu / bare.cpu:.1f}x CPU); target 3x: "
                                             + ("met" if ratio <= 3 else f"MISSED by {ratio - 3:.1f}x")),
            row(4, status, f"{status.median / bare.median:.1f}x python -c pass ({status.cpu / bare.cpu:.1f}x CPU)")]


def made(scenario: str, files: int, seed: int) -> Path:
    """The game's folder, made (or found) by bench/games.py in a process of its own: a fork of this
    process starts with this one's memory, so making a game here would inflate every child's peak."""
    done = subprocess.run([sys.executable, str(BENCH / "games.py"), scenario, str(files), str(seed)],
                          stdout=subprocess.PIPE, text=True, check=True, env=CHILD_ENV)
    return Path(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="counted runs of each command (after one warm-up)")
    parser.add_argument("--lengths", default="100,500,1000,2000", help="Actium game lengths, comma-separated")
    parser.add_argument("--actium-files", type=int, default=2100,
                        help="how long the Actium game is made (longer than the longest length: move and receive "
                             "need the file after it)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-report", action="store_true", help="leave out the report figures (bench_report.py)")
    parser.add_argument("--actium-game", type=Path, default=None,
                        help="an Actium game already made (a folder with game/ and keys/, as bench/games.py makes)")
    parser.add_argument("--commands", default="verify,status,legal,move,receive,tauris,cold",
                        help="what to time, comma-separated (verify also times the floor)")
    args = parser.parse_args()
    lengths = [int(n) for n in args.lengths.split(",")]
    commands = set(args.commands.split(","))
    print(f"making or finding the games under {games.cache_root()} ...", file=sys.stderr, flush=True)
    actium = args.actium_game or made("actium", args.actium_files, args.seed)
    tauris = made("tauris", 3000, args.seed) if "tauris" in commands else actium
    actium_len = len(list((actium / "game").glob("*.pbem")))
    tauris_len = len(list((tauris / "game").glob("*.pbem")))
    made_from = f"the game in {args.actium_game}" if args.actium_game else f"seed {args.seed}"
    tauris_note = "the Actium game's folder: no Tauris figures asked" if tauris == actium else "played to its end"
    print(f"actium: {actium_len} files ({made_from}); tauris: {tauris_len} files, {tauris_note}")
    print(f"{os.cpu_count()} CPUs; median of {args.runs} runs after a warm-up; times in seconds, peak RSS in MiB\n")
    print("| files | command | wall s (median) | wall min-max | CPU s (median) | warm-up wall s | peak MiB | note |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as temporary:
        work = Path(temporary)
        for length in lengths:
            if length > actium_len:
                print(f"| {length} | (the Actium game has only {actium_len} files) | | | | | | |")
                continue
            for line in bench_length(actium, length, args.runs, work / "actium", commands):
                print(line.replace("| ", "| actium ", 1), flush=True)
        growth = memory_growth()
        if growth:
            print("\npeak memory as the Actium game grows (max RSS of the process, whole interpreter included):")
            print("\n".join(growth) + "\n")
        for line in bench_length(tauris, tauris_len - 1, args.runs, work / "tauris", commands) if "tauris" in commands else []:
            print(line.replace("| ", "| tauris ", 1), flush=True)
        for line in cold_starts(actium, args.runs, work / "cold") if "cold" in commands else []:
            print(line, flush=True)
    if not args.no_report:
        print("\nreports (bench/bench_report.py, in one process; CPU beside wall):", flush=True)
        subprocess.run([sys.executable, str(BENCH / "bench_report.py")], check=False)
    print("\ntargets: turn report under 150 ms; verify of 2,000 Actium files within 3x the floor and under 2 s; move and receive under 0.3 s "
          "and status under 0.25 s at any length; pbem --help within 3x python -c pass; peak memory at most "
          "linear in the game's length")


if __name__ == "__main__":
    main()
