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
from functools import lru_cache

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


def reveal(seed_value: bytes, length: int, j: int) -> bytes:
    """The author's j-th reveal (j >= 1)."""
    if not 1 <= j <= length:
        raise ValueError(f"reveal {j} outside a chain of length {length}")
    position = length - j
    start = _checkpoints(seed_value, length)[position // CHECKPOINT]
    return value_at(start, position % CHECKPOINT)


def follows(new: bytes, previous: bytes) -> bool:
    """Does `new` lie exactly one step before `previous` on the chain?"""
    return hmac.compare_digest(step(new), previous)
