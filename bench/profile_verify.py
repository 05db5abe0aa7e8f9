"""Where `pbem verify` spends its time: cProfile on CPU time (a busy machine distorts wall time less).

    python bench/profile_verify.py GAME_FOLDER [--top 30] [--sort tottime|cumulative] [--out FILE.prof]

Replays the folder as `pbem verify` does (referee.load without the state
cache), and prints the top of the profile. The figures are cProfile's: it
slows calls down, so read the shares, not the seconds. The signatures
checked ahead by pbem.game.checked_ahead's forked child are not in it.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time
from pathlib import Path

from pbem.game import store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--sort", default="tottime", choices=("tottime", "cumulative"))
    parser.add_argument("--out", type=Path, help="also keep the raw profile here (for pstats or snakeviz)")
    args = parser.parse_args()
    profile = cProfile.Profile(time.thread_time)
    profile.enable()
    game = store.load(args.folder, use_cache=False)
    profile.disable()
    print(f"{len(game.files)} files replayed")
    stats = pstats.Stats(profile)
    if args.out:
        stats.dump_stats(str(args.out))
    stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
