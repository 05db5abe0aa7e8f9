"""Record examples/tauris-team-game: Tauris by two players a side, played through the real commands.

Four people, four key folders, four game folders under a scratch folder: `pbem keygen`, `pbem new
--roster`, `pbem join` (the two seats that are not their side's lead), `pbem accept --joined` (the
Pompeians' lead, once both have joined), then `pbem move` by whichever seat the rules and the roster give
the next file to, and `pbem receive` of every file by the three others. The seats' choices are the demo
player's (pbem.cli.demo.choose_seat_orders, seeded), each for its own commands only; the dice are the
protocol's. At the end every folder must hold the same files and `pbem verify` must pass on each; the
files are copied to examples/tauris-team-game.

    python examples/record_team_game.py [--seed N] [--out examples/tauris-team-game]
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from pbem.cli.demo import choose_seat_orders
from pbem.errors import OtherSeat
from pbem.game import store, writing
from pbem.signed import identity as ids

PBEM = str(Path(sys.executable).parent / "pbem")
PEOPLE = {  # key name: (name, side, commands); the Admiral's seat leads its side
    "alice": ("Alice", "caesarians", ["Publius Vatinius", "Drusus"]),
    "carol": ("Carol", "caesarians", ["Agricola"]),
    "bob": ("Bob", "pompeians", ["Marcus Octavius", "Varus"]),
    "dave": ("Dave", "pompeians", ["Cleomacles"]),
}
ROSTER_SEAT = '[[seat]]\nseat = "{p}"\nname = "{name}"\nside = "{side}"\nkey = "keys/{p}/{p}.pub"\ncommands = [{commands}]\n'


def pbem(*args: str) -> str:
    run = subprocess.run([PBEM, *args], capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"pbem {' '.join(args)}: exit {run.returncode}: {run.stderr.strip()}")
    return run.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "tauris-team-game")
    parser.add_argument("--files", type=int, default=1000, help="stop after this many files")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="team-game-"))
    keys = {p: root / "keys" / p for p in PEOPLE}
    folders = {p: root / p for p in PEOPLE}
    for p in PEOPLE:
        pbem("keygen", p, "--keys", str(keys[p]))
    roster = root / "roster.toml"
    roster.write_text("".join(ROSTER_SEAT.format(p=p, name=n, side=s, commands=", ".join(f'"{c}"' for c in cs))
                              for p, (n, s, cs) in PEOPLE.items()), encoding="utf-8")
    pbem("new", "tauris", "--side", "caesarians", "--name", "Alice", "--out", str(folders["alice"]),
         "--roster", str(roster), "--keys", str(keys["alice"]))
    invitation = str(folders["alice"] / "000000.pbem")
    for p in ("carol", "dave"):
        pbem("join", invitation, "--seat", p, "--out", str(folders[p]), "--keys", str(keys[p]))
    pbem("accept", invitation, "--out", str(folders["bob"]), "--name", "Bob", "--keys", str(keys["bob"]),
         "--joined", str(folders["carol"] / "seat-carol.json"), "--joined", str(folders["dave"] / "seat-dave.json"))
    deliver(folders, keys, "bob", folders["bob"] / "000001.pbem")
    me = {p: ids.load(p, keys[p]) for p in PEOPLE}
    chooser = random.Random(args.seed)
    while True:
        game = store.load(folders["alice"])
        if game.finished() or len(game.files) >= args.files:
            break
        person, view = next_seat(folders, me)
        mine = store.load(folders[person])
        assert mine.team is not None and view.seat is not None
        orders, hand = choose_seat_orders(mine.ruleset, view.resolution.state, mine.team, view.seat, chooser)
        pbem("move", str(folders[person]), *orders, "--keys", str(keys[person]), *(["--hand", hand] if hand else []))
        deliver(folders, keys, person, folders[person] / f"{len(game.files):06d}.pbem")
    raws = {p: sorted(f.name for f in folders[p].glob("*.pbem")) for p in PEOPLE}
    assert all(r == raws["alice"] for r in raws.values())
    for p in PEOPLE:
        pbem("verify", str(folders[p]))
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    for name in raws["alice"]:
        shutil.copyfile(folders["alice"] / name, args.out / name)
    print(f"{len(raws['alice'])} files in {args.out}: {store.load(args.out).result() or 'unfinished'}")
    print(pbem("verify", str(args.out)).strip().splitlines()[-1])


def next_seat(folders: dict[str, Path], me: dict[str, ids.Identity]) -> tuple[str, writing.Outlook]:
    game = store.load(folders["alice"])
    side = game.player(game.next_author).side
    for p, (_, s, _) in PEOPLE.items():
        if s == side:
            try:
                return p, writing.outlook(store.load(folders[p]), me[p])
            except OtherSeat:
                continue
    raise SystemExit("no seat writes the next file")


def deliver(folders: dict[str, Path], keys: dict[str, Path], author: str, path: Path) -> None:
    for p in PEOPLE:
        if p != author:
            pbem("receive", str(folders[p]), str(path), "--keys", str(keys[p]), "--no-reply")


if __name__ == "__main__":
    main()
