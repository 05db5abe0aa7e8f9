"""The dice stream: dice fixed by data that exists once (docs/protocol.md, "Dice").

All dice used while resolving file k come from a stream keyed by the
*opponent's* reveal r in file k+1:

    D(i, t) = HMAC-SHA256(key = r (32 bytes),
                          msg = b"pbem-dice-v1" || game id (32 ASCII hex)
                                || SHA-256(file k) (32 bytes)
                                || i (8 bytes, big-endian) || t (4 bytes, big-endian))

Die i is read from t = 0, 1, 2, ...: the first D(i, t) whose first byte b is
below 252 gives the face 1 + (b mod 6). 252 is the largest multiple of 6 not
above 256, so each face has probability exactly 1/6 (no modulo bias).

The author of file k could not know r when signing (the chain cannot be run
backwards), and the opponent could not choose r (the anchor fixed it), nor
foresee the dice before file k existed (its hash is in the message).
"""

from __future__ import annotations

import hashlib
import hmac

import msgspec

LABEL = b"pbem-dice-v1"
LIMIT = 252


class RecordedRoll(msgspec.Struct, frozen=True, array_like=True, forbid_unknown_fields=True):
    """A die as recorded in a file: [index, purpose, face]."""

    index: int
    purpose: str
    face: int


def die(key: bytes, game_id: str, file_hash: bytes, index: int) -> int:
    """Face of die `index` in the stream of (key, game, file)."""
    prefix = LABEL + game_id.encode("ascii") + file_hash + index.to_bytes(8, "big")
    attempt = 0
    while True:
        digest = hmac.new(key, prefix + attempt.to_bytes(4, "big"), hashlib.sha256).digest()
        if digest[0] < LIMIT:
            return 1 + digest[0] % 6
        attempt += 1


class DiceStream:
    """The `Dice` a ruleset sees while one file is resolved; it records every roll."""

    def __init__(self, key: bytes, game_id: str, file_hash: bytes) -> None:
        self._key = key
        self._game_id = game_id
        self._file_hash = file_hash
        self.rolls: list[RecordedRoll] = []

    def d6(self, purpose: str) -> int:
        face = die(self._key, self._game_id, self._file_hash, len(self.rolls))
        self.rolls.append(RecordedRoll(len(self.rolls), purpose, face))
        return face

    def two_d6(self, purpose: str) -> int:
        return self.d6(purpose) + self.d6(purpose)


class NoDiceYet(Exception):
    """Raised when a die is asked for before the key that fixes it exists."""


class SealedDice:
    """Dice for a file whose key is not yet revealed: any roll raises NoDiceYet.

    Used to check a just-received file's decisions as far as they go without
    dice, and to let an author know where his own knowledge ends.
    """

    def __init__(self) -> None:
        self.rolls: list[RecordedRoll] = []

    def d6(self, purpose: str) -> int:
        raise NoDiceYet(purpose)

    def two_d6(self, purpose: str) -> int:
        raise NoDiceYet(purpose)
