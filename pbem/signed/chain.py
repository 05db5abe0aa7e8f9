"""The reverse hash chain each player commits to at set-up (docs/protocol.md).

seed   s   = HMAC-SHA256(key = the 32-byte Ed25519 private seed,
                         msg = b"pbem-chain-seed-v1" || game id || nonce (both ASCII hex))
chain  c_0 = s,  c_(j+1) = SHA-256(c_j)
anchor     = c_N (published in the set-up file), N = the chain length
reveal j   = c_(N-j), for the author's j-th move file (j = 1, 2, ...)

So SHA-256(reveal j) == reveal j-1 (reveal 0 is the anchor): anyone can check
a reveal, nobody can compute the next one before its owner publishes it, and
its owner cannot choose it (the anchor fixed it). The seed comes from the
signing key and values published in the player's own set-up file, so there is
nothing extra to keep or lose. The nonce is fresh for every set-up file: a
host who re-uses a game id must not get the guest's old chain back.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from functools import lru_cache
from pathlib import Path

DEFAULT_LENGTH = 100_000
SEED_LABEL = b"pbem-chain-seed-v1"


def seed(private_raw: bytes, game_id: str, nonce: str) -> bytes:
    message = SEED_LABEL + game_id.encode("ascii") + nonce.encode("ascii")
    return hmac.new(private_raw, message, hashlib.sha256).digest()


def step(value: bytes) -> bytes:
    """One step toward the anchor."""
    return hashlib.sha256(value).digest()


def value_at(seed_value: bytes, position: int) -> bytes:
    """c_position: `position` steps from the seed."""
    value = seed_value
    for _ in range(position):
        value = step(value)
    return value


def anchor(seed_value: bytes, length: int) -> bytes:
    return value_at(seed_value, length)


CHECKPOINT = 256


@lru_cache(maxsize=8)
def _checkpoints(seed_value: bytes, length: int) -> tuple[bytes, ...]:
    """c_0, c_256, c_512, ...: one walk of the chain, so each reveal costs <= 256 hashes."""
    points = [seed_value]
    value = seed_value
    for position in range(1, length + 1):
        value = step(value)
        if position % CHECKPOINT == 0:
            points.append(value)
    return tuple(points)


def reveal(seed_value: bytes, length: int, j: int, store: Path | None = None) -> bytes:
    """The author's j-th reveal (j >= 1).

    With `store` (a folder beside the private key) the checkpoints are kept
    there, so a later process walks at most 256 steps instead of the whole
    chain. A kept file is used only if its shape fits and it starts at the
    seed; the caller still checks the reveal against the published chain
    (`follows`) and calls `forget` if it does not fit.
    """
    if not 1 <= j <= length:
        raise ValueError(f"reveal {j} outside a chain of length {length}")
    position = length - j
    points = _kept(store, seed_value, length) if store is not None else _checkpoints(seed_value, length)
    return value_at(points[position // CHECKPOINT], position % CHECKPOINT)


def _kept_path(store: Path, seed_value: bytes, length: int) -> Path:
    # Named by a hash of the seed: the name tells nothing about the chain.
    name = hashlib.sha256(b"pbem-chain-checkpoints-v1" + seed_value + str(length).encode()).hexdigest()[:32]
    return store / f"{name}.chain"


def _kept(store: Path, seed_value: bytes, length: int) -> tuple[bytes, ...]:
    path = _kept_path(store, seed_value, length)
    count = length // CHECKPOINT + 1
    data = _read_kept(path, 32 * count)
    if len(data) == 32 * count and data[:32] == seed_value:
        return tuple(data[i : i + 32] for i in range(0, len(data), 32))
    points = _checkpoints(seed_value, length)
    _write_private(path, b"".join(points))
    return points


def forget(store: Path, seed_value: bytes, length: int) -> None:
    """Drop kept checkpoints that gave a wrong reveal (damaged): the next reveal walks the chain again."""
    _kept_path(store, seed_value, length).unlink(missing_ok=True)
    _checkpoints.cache_clear()


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _read_kept(path: Path, size: int) -> bytes:
    """At most `size` + 1 bytes of a kept file, only if it is itself a regular file (b"": none to use)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC)
    except OSError:
        return b""
    try:
        return os.read(fd, size + 1) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return b""
    finally:
        os.close(fd)


def _write_private(path: Path, data: bytes) -> None:
    """Owner-only from the first byte (a new file, O_EXCL), replaced atomically (a link at the name is
    replaced, not written through); a failure only costs the next walk."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    made = False
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600)
        made = True
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
        made = False
    except OSError:
        pass  # a checkpoint only saves time: a key folder we cannot write means walking the chain again
    finally:
        if made:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def follows(new: bytes, previous: bytes) -> bool:
    """Does `new` lie exactly one step before `previous` on the chain?"""
    return hmac.compare_digest(step(new), previous)
