"""Fixtures for the adversarial protocol tests.

One finished Dice Duel game (and a second game between the same players) is
played once per session through the real referee, with short reveal chains,
and copied into each test's tmp_path. `kit` gives the tests the attacker's
tools: read a body, change it, re-sign it with any key, lay out a folder,
snapshot a folder byte for byte.
"""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

from pbem.signed import canonical
from pbem.signed import chain
from pbem.signed import identity as ids
from pbem.game import referee
from pbem.game import store
from pbem.game import writing
from pbem.game import ruleset as rulesets
from pbem.game.folder import write_atomic
from pbem.signed.identity import Identity
from pbem.signed.movefile import author_of, file_name
from pbem.game.referee import Game

CHAIN = 128
# Each side's decisions, cycled whenever the ruleset asks that side to act.
# Chosen so the game holds every kind of file the attacks need: two decisions
# ending in a roll, a single rolling decision, a decision without dice, and
# acknowledgements (files without decisions).
PATTERNS = {
    "host": [["strike"], ["guard", "strike"], ["rest"], ["lunge"]],
    "guest": [["guard", "lunge"], ["strike"], ["rest"], ["strike"]],
}


def play(folder: Path, host: Identity, guest: Identity, scenario: str, note: str = "") -> Game:
    """Play a whole game through writing.make_invite/make_accept/make_move into `folder`."""
    ruleset = rulesets.find("duel")
    folder.mkdir(parents=True)
    invite = writing.make_invite(host, "Alice", ruleset, scenario, "Red", {}, chain_length=CHAIN)
    write_atomic(folder / file_name(0), invite.raw)
    game = referee.replay([invite.raw], [str(folder / file_name(0))])
    accept = writing.make_accept(game, guest, "Bob", CHAIN)
    referee.admit(game, accept, str(folder / file_name(1)))
    write_atomic(folder / file_name(1), accept.raw)
    me = {"host": host, "guest": guest}
    count = {"host": 0, "guest": 0}
    while not game.finished():
        role = game.next_author
        view = writing.outlook(game, me[role])
        decisions: list[Any] = []
        if not view.pending.finished and view.pending.side == game.player(role).side:
            pattern = PATTERNS[role][count[role] % len(PATTERNS[role])]
            count[role] += 1
            decisions = [{"action": a} for a in pattern]
        signed = writing.make_move(game, me[role], decisions, note)
        path = folder / file_name(signed.body.seq)
        referee.admit(game, signed, str(path))
        write_atomic(path, signed.raw)
    return game


@dataclass
class Recorded:
    """The session's recorded games and the players' keys."""

    root: Path
    folder: Path  # a finished game between alice (host) and bob (guest)
    other: Path  # another finished game between the same two players
    keys: Path  # alice.key, bob.key and mallory.key (a third party)
    host: Identity
    guest: Identity
    third: Identity
    raws: list[bytes] = field(default_factory=list)
    bodies: list[dict[str, Any]] = field(default_factory=list)
    other_raws: list[bytes] = field(default_factory=list)

    @property
    def game_id(self) -> str:
        return self.bodies[0]["game"]

    def identity(self, role: str) -> Identity:
        return self.host if role == "host" else self.guest

    def opponent(self, role: str) -> Identity:
        return self.guest if role == "host" else self.host

    def player(self, role: str) -> dict[str, Any]:
        """The player object `role`'s set-up file pins (key, anchor, chain, nonce)."""
        return self.bodies[0]["host"] if role == "host" else self.bodies[1]["guest"]

    def seed(self, role: str) -> bytes:
        """`role`'s chain seed: his private key, the game id and his set-up file's nonce."""
        return chain.seed(self.identity(role).private_raw(), self.game_id, self.player(role)["nonce"])

    def reveal(self, role: str, j: int) -> bytes:
        """The j-th reveal of `role` in this game (j = 0: the anchor)."""
        seed = self.seed(role)
        return chain.anchor(seed, CHAIN) if j == 0 else chain.reveal(seed, CHAIN, j)

    def reveal_number(self, k: int) -> int:
        """Which of its author's reveals file k (a move) carries."""
        return sum(1 for seq in range(2, k + 1) if author_of(seq) == author_of(k))

    def moves(self, predicate: Callable[[int, dict[str, Any]], bool]) -> list[int]:
        """Numbers of move files (k >= 2) whose body satisfies `predicate`."""
        return [k for k in range(2, len(self.bodies)) if predicate(k, self.bodies[k])]

    def rolling(self) -> list[int]:
        """Move files, not the last, whose last decision rolls dice (strike or lunge)."""
        return self.moves(
            lambda k, b: k + 1 < len(self.bodies)
            and bool(b["decisions"])
            and b["decisions"][-1]["action"] in ("strike", "lunge")
        )

    def acks(self) -> list[int]:
        """Move files, not the last, that carry no decisions (acknowledgements)."""
        return self.moves(lambda k, b: k + 1 < len(self.bodies) and not b["decisions"])


@pytest.fixture(scope="session")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    # The dice come from the keys (PBEM_TEST_SEED, tests/conftest.py): a game that happens to lack a kind
    # of file the attacks need (no acknowledgement, as with one seed) is played again with the next keys.
    for _ in range(20):
        root = tmp_path_factory.mktemp("recorded")
        keys = root / "keys"
        host = ids.generate("alice", keys)
        guest = ids.generate("bob", keys)
        third = ids.generate("mallory", keys)
        folder, other = root / "game", root / "other"
        play(folder, host, guest, "duel")
        play(other, host, guest, "quick", note="another game")
        rec = Recorded(root, folder, other, keys, host, guest, third)
        rec.raws = [p.read_bytes() for p in sorted(folder.glob("*.pbem"))]
        rec.bodies = [canonical.decode(raw.split(b"\n")[0], "recorded") for raw in rec.raws]
        rec.other_raws = [p.read_bytes() for p in sorted(other.glob("*.pbem"))]
        if _has_every_kind(rec):
            return rec
    raise AssertionError("twenty games in a row lacked a kind of file the attacks need")


def _has_every_kind(rec: Recorded) -> bool:
    """The attacks need files that roll, acknowledgements, a file of two decisions and one without dice."""
    return (len(rec.rolling()) >= 3 and len(rec.acks()) >= 2
            and any(len(b["decisions"]) == 2 for b in rec.bodies[2:])
            and any(b["decisions"] == [{"action": "rest"}] for b in rec.bodies[2:]))


class Kit:
    """The attacker's tools and the assertions every attack shares."""

    def __init__(self, rec: Recorded) -> None:
        self.rec = rec

    # ----- folders ---------------------------------------------------------------------
    @staticmethod
    def snapshot(folder: Path) -> dict[str, bytes | None]:
        """Every entry's name and bytes (None for a sub-folder), hidden ones included."""
        return {
            p.name: (None if p.is_dir() else p.read_bytes()) for p in sorted(folder.iterdir())
        }

    @staticmethod
    def lay_out(folder: Path, raws: list[bytes]) -> Path:
        """A game folder holding exactly `raws` as files 0, 1, ..."""
        folder.mkdir(parents=True, exist_ok=True)
        for seq, raw in enumerate(raws):
            (folder / file_name(seq)).write_bytes(raw)
        return folder

    def copy(self, dst: Path, upto: int | None = None) -> Path:
        """A copy of the recorded game's files 0..upto-1 (all by default)."""
        raws = self.rec.raws if upto is None else self.rec.raws[:upto]
        return self.lay_out(dst, raws)

    # ----- bodies and signatures -----------------------------------------------------
    @staticmethod
    def body(raw: bytes) -> dict[str, Any]:
        return canonical.decode(raw.split(b"\n")[0], "body")

    @staticmethod
    def sign_bytes(body_bytes: bytes, signer: Identity) -> bytes:
        """A file of exactly these body bytes, validly signed by `signer` (no checks)."""
        return body_bytes + b"\n" + base64.b64encode(signer.sign(body_bytes)) + b"\n"

    def resign(self, body: dict[str, Any], signer: Identity) -> bytes:
        return self.sign_bytes(canonical.encode(body), signer)

    def changed(self, k: int, signer: Identity | None = None, **fields: Any) -> bytes:
        """Recorded file k with `fields` replaced, re-signed by `signer` (default: its author)."""
        body = dict(self.rec.bodies[k])
        body.update(fields)
        return self.resign(body, signer or self.rec.identity(author_of(k)))

    # ----- the two ways a bad file k meets the protocol --------------------------------
    def attack(self, tmp: Path, k: int, raw: bytes, error: type[Exception]) -> str:
        """File k replaced by `raw` must fail with exactly `error`, both ways:

        - `pbem verify` / referee.load of a folder holding it as file k: the
          message names the file's path;
        - session.receive of it into a folder holding files 0..k-1: the folder
          is byte-for-byte unchanged afterwards.
        Returns the load error's message.
        """
        from pbem.game import session

        bad = self.lay_out(tmp / f"verify-{k}", self.rec.raws[:k] + [raw])
        with pytest.raises(error) as info:
            store.load(bad)
        assert type(info.value) is error, info.value
        assert str(bad / file_name(k)) in str(info.value)
        if k >= 1:
            self.rejects(self.copy(tmp / f"receive-{k}", k), raw, error)
        return str(info.value)

    def rejects(self, folder: Path, raw: bytes, error: type[Exception], what: str = "incoming") -> str:
        from pbem.game import session

        before = self.snapshot(folder)
        with pytest.raises(error) as info:
            session.receive(folder, [(raw, what)])
        assert type(info.value) is error, info.value
        assert self.snapshot(folder) == before
        return str(info.value)


@pytest.fixture(scope="session")
def kit(recorded: Recorded) -> Kit:
    return Kit(recorded)


@pytest.fixture
def game_dir(kit: Kit, tmp_path: Path) -> Path:
    """A private copy of the whole recorded game."""
    return kit.copy(tmp_path / "game")


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str


@pytest.fixture
def pbem(tmp_path: Path) -> Callable[..., Run]:
    """Run the real `pbem` command in a subprocess, with its own HOME and key folder."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)

    def run(*args: str, keys: Path | None = None) -> Run:
        env = dict(os.environ)
        env["HOME"] = str(home)
        env["XDG_CONFIG_HOME"] = str(home / ".config")
        env.pop("PBEM_KEY", None)
        env["PBEM_KEYS"] = str(keys if keys is not None else home / "no-keys")
        command = shutil.which("pbem")
        argv = [command] if command else [sys.executable, "-c", "from pbem.cli.app import main; main()"]
        done = subprocess.run([*argv, *args], capture_output=True, text=True, env=env, timeout=600)  # a hang guard, not a speed test (bench/ times commands)
        return Run(done.returncode, done.stdout, done.stderr)

    return run
