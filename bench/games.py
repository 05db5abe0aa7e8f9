"""Long games for the benchmarks, made by random legal play through the real protocol.

Both players' keys are fixed (derived from a label), and so are the game id,
the set-up nonces and the files' times, so a game is a pure function of its
scenario, seed and length: the dice come from the reveal chains, which come
from the keys. The demo player's choices (`ruleset.choose`, seeded per file)
play both sides. Games are kept under a cache folder (PBEM_BENCH_CACHE,
default $TMPDIR/pbem-bench), keyed by the rules data, and made again only
when missing. Every file's choices, nonces and time depend only on the seed
and the file's number, so a game whose making was interrupted carries on
where it stopped and ends as if it never had.

    python bench/games.py actium 2000     # make (or find) the game, print its folder
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.exchange import intake
from pbem.game import folder as folders
from pbem.game import writing
from pbem.signed import identity as ids
from pbem.game import session
from pbem.game import store
from pbem.game import ruleset as rulesets
from pbem.cli.demo import choose_orders

RULESET = "war-galley"
START_TIME = 1_800_000_000  # the first file's time; each file one minute later
FORMAT = "4"  # bump when the way games are made changes, so old caches are not reused


class _PlayOn:
    """The ruleset as the demo sees it, but its player never offers a halt (the demo's does after
    a few turns), and decides after every die, without the shortcuts (docs/orders.md) that fold a
    Crew check and its activation into one file: a bench game runs as long as the rules let it, in
    as many files as the rules ask for. (With the shortcuts an Actium game reached 1,047 files by
    turn 11, when Octavian's fleet, its admiral lost, withdrew by 9.2's roll; seeds 2 and 3 ended at 519
    and 718.)"""

    def __init__(self, ruleset: Any) -> None:
        self._ruleset = ruleset

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ruleset, name)

    def choose(self, state: Any, side: str, rng: random.Random) -> Any:
        from engine.war_galley.battles import choices
        from engine.war_galley.play import agent
        from engine.war_galley.turn.decisions import to_json

        if choices.wanted(state) is not None:
            return rng.choice(choices.listed(state))
        return to_json(agent.choose(state, side, rng, halt_after=10**9, shortcuts=False))


def cache_root() -> Path:
    return Path(os.environ.get("PBEM_BENCH_CACHE", Path(tempfile.gettempdir()) / "pbem-bench"))


def fixed_key(name: str, folder: Path) -> ids.Identity:
    """An Ed25519 key pair derived from its name, written as `pbem keygen` writes one."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    private = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"pbem-bench key " + name.encode()).digest())
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    path = folder / f"{name}.key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(pem)
    identity = ids.Identity(name, private, folder)
    (folder / f"{name}.pub").write_text(identity.public_b64 + "\n", encoding="ascii")
    return identity


class _FixedRandomness:
    """Stands in for `writing.secrets` and `writing.now` while a bench game is made: what it gives
    depends on the number of the file being written (`at`), never on what came before in this process."""

    def __init__(self, label: str) -> None:
        self.label, self.file, self.count = label, 0, 0

    def at(self, file: int) -> None:
        self.file, self.count = file, 0

    def token_hex(self, nbytes: int = 32) -> str:
        self.count += 1
        return hashlib.sha256(f"{self.label} {self.file} {self.count}".encode()).hexdigest()[: 2 * nbytes]

    def now(self) -> int:
        return START_TIME + 60 * self.file


def game_dir(scenario: str, files: int, seed: int) -> Path:
    """Keyed by the ruleset's version and the exact rules data and scenario the game pins, not by the code:
    a 2,400-file game takes long to make, and a change that keeps the rules (a faster replay) keeps it
    valid. A code change that does change the rules makes `pbem verify` of the kept game fail, and the
    benchmark says so (delete the folder it names to make the game again)."""
    ruleset = rulesets.find(RULESET)
    data = hashlib.sha256(ruleset.default_rules_data() + (ruleset.builtin_scenario(scenario) or b"")).hexdigest()[:12]
    return cache_root() / f"v{FORMAT}-{scenario}-s{seed}-{files}-r{ruleset.version}-{data}"


def make_game(scenario: str, files: int, seed: int = 1) -> Path:
    """The folder of a game of `files` files (fewer if it ended first); made once, then found.

    It holds `game/` (the files), `keys/alice`, `keys/bob` (one key each).
    """
    where = game_dir(scenario, files, seed)
    if (where / "complete").exists():
        return where
    shutil.rmtree(where, ignore_errors=True)
    work = where.with_name(where.name + ".making")  # kept if interrupted: the next call carries on
    keys = {"host": work / "keys" / "alice", "guest": work / "keys" / "bob"}
    me = {"host": fixed_key("alice", keys["host"]), "guest": fixed_key("bob", keys["guest"])}
    game_folder = work / "game"
    fixed = _FixedRandomness(f"{scenario} {seed}")
    saved = writing.secrets, writing.now
    writing.secrets, writing.now = types.SimpleNamespace(token_hex=fixed.token_hex), fixed.now  # type: ignore[assignment]
    try:
        ruleset = rulesets.find(RULESET)
        sides = next(i.sides for i in ruleset.scenarios() if i.name == scenario)
        game_id = hashlib.sha256(f"pbem-bench {scenario} {seed}".encode()).hexdigest()[:32]
        if not (game_folder.exists() and folders.game_files(game_folder)):
            shutil.rmtree(work / "invite", ignore_errors=True)
            shutil.rmtree(game_folder, ignore_errors=True)
            fixed.at(0)
            invite = writing.make_invite(me["host"], "Alice", ruleset, scenario, sides[0], {}, game_id=game_id)
            invite_path = session.start(work / "invite", invite)
            fixed.at(1)
            session.accept(intake.one_file(invite_path), game_folder, me["guest"], "Bob", 100_000)
            shutil.rmtree(work / "invite")
        while True:
            game = store.load(game_folder)
            if game.finished() or len(game.files) >= files:
                break
            role = game.next_author
            fixed.at(len(game.files))
            chooser = random.Random(f"{seed} {len(game.files)}")
            view = writing.outlook(game, me[role])
            orders = choose_orders(_PlayOn(ruleset), view.resolution.state, game.player(role).side, chooser)
            session.move(game_folder, me[role], orders, "", keys[role])
            if len(game.files) % 100 == 0:
                print(f"  {scenario}: {len(game.files)} files", file=sys.stderr, flush=True)
    finally:
        writing.secrets, writing.now = saved  # type: ignore[assignment]
    (work / "complete").write_text(f"{len(folders.game_files(game_folder))}\n")
    work.rename(where)
    return where


def prefix(game: Path, length: int, into: Path) -> Path:
    """A game folder holding the first `length` files of `game` (a copy: commands may write into it)."""
    into.mkdir(parents=True, exist_ok=True)
    for path in folders.game_files(game / "game")[:length]:
        shutil.copyfile(path, into / path.name)
    return into


if __name__ == "__main__":
    print(make_game(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 1))
