"""Team games' two signed-core pieces: a seat's acceptance, and a side's chain seed sealed to its seats.

A side of a team game has ONE reveal chain (docs/protocol.md, "Team games"): its lead seat's, whose
anchor stands in the side's set-up file (the host's invitation, the guest's acceptance). Every seat of
the side writes the side's files, so every seat needs the chain's seed; none of the opponents may learn
it. The lead seals the seed to each teammate in the set-up file, where everyone can see the box and only
that teammate can open it:

    x-key     = the seat's Ed25519 key as an X25519 key (RFC 7748's birational map; the private scalar
                is SHA-512(Ed25519 seed)[:32], as Ed25519 itself derives it)
    shared    = X25519(lead's x-key, teammate's x-key)
    key       = HKDF-SHA256(shared, info = "pbem-seal-v1" || context)
    box       = base64(nonce (12 random bytes) || ChaCha20-Poly1305(key, nonce, seed, aad = context))
    context   = game id || side anchor (hex) || seat id   (ASCII)

So a side cannot choose among its members' dice: there is one chain, fixed by its anchor, whoever of
the side writes the file. A seat's acceptance is its own Ed25519 signature over
"pbem-seat-v1" || 0x00 || SHA-256 of file 0 || seat id: the invitation as it was, taken by that seat.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from pbem.errors import KeyProblem, MalformedFile

SEAL_LABEL = b"pbem-seal-v1"
SEAT_LABEL = b"pbem-seat-v1\x00"
_P = 2**255 - 19
_NONCE = 12
BOX_CHARS = 4 * ((_NONCE + 32 + 16 + 2) // 3)  # a sealed 32-byte seed, base64: 80 characters


def x25519_private(ed25519_seed: bytes) -> X25519PrivateKey:
    """The X25519 key with the same secret scalar as the Ed25519 key of this seed (RFC 8032, 5.1.5)."""
    return X25519PrivateKey.from_private_bytes(hashlib.sha512(ed25519_seed).digest()[:32])


def x25519_public(ed25519_public: bytes) -> X25519PublicKey:
    """The Montgomery u of an Edwards point: u = (1 + y) / (1 - y) mod p (RFC 7748, section 4.1)."""
    y = int.from_bytes(ed25519_public, "little") & ((1 << 255) - 1)
    u = (1 + y) * pow((1 - y) % _P, _P - 2, _P) % _P
    return X25519PublicKey.from_public_bytes(u.to_bytes(32, "little"))


def context(game_id: str, anchor: str, seat: str) -> bytes:
    return (game_id + anchor + seat).encode("ascii")


def _key(mine: bytes, theirs: bytes, ctx: bytes) -> ChaCha20Poly1305:
    shared = x25519_private(mine).exchange(x25519_public(theirs))
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=SEAL_LABEL + ctx).derive(shared)
    return ChaCha20Poly1305(derived)


def seal(lead_seed: bytes, teammate_public: bytes, ctx: bytes, secret: bytes) -> str:
    """The box only the teammate (and the lead) can open."""
    nonce = os.urandom(_NONCE)
    return base64.b64encode(nonce + _key(lead_seed, teammate_public, ctx).encrypt(nonce, secret, ctx)).decode()


def open_box(my_seed: bytes, lead_public: bytes, ctx: bytes, box: str, what: str) -> bytes:
    """The secret in a box sealed to me; KeyProblem if it is not (a wrong key, or a lead who sealed nothing)."""
    raw = check_box(box, what)
    try:
        return _key(my_seed, lead_public, ctx).decrypt(raw[:_NONCE], raw[_NONCE:], ctx)
    except InvalidTag:
        raise KeyProblem(f"{what}: the side's sealed chain does not open with this key "
                         "(sealed to another key, or damaged); your lead seat must seal it again") from None


def check_box(box: str, what: str) -> bytes:
    """A box's bytes, if it is the canonical base64 of a sealed 32-byte secret."""
    try:
        raw = base64.b64decode(box, validate=True)
    except (ValueError, binascii.Error):
        raise MalformedFile(f"{what}: a sealed chain is not base64") from None
    if len(raw) != _NONCE + 32 + 16 or base64.b64encode(raw).decode() != box:
        raise MalformedFile(f"{what}: a sealed chain is not the canonical base64 of one sealed seed")
    return raw


def seat_message(invite_hash: bytes, seat: str) -> bytes:
    """What a seat signs to take its place: the invitation, by its hash, and the seat's id."""
    return SEAT_LABEL + invite_hash + seat.encode("ascii")


SIDE_LABEL = b"pbem-side-secrets-v1"


def _side_key(side_seed: bytes, ctx: bytes) -> ChaCha20Poly1305:
    return ChaCha20Poly1305(HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=SIDE_LABEL + ctx)
                            .derive(side_seed))


def seal_for_side(side_seed: bytes, ctx: bytes, secret: bytes) -> str:
    """A side's own secret (its seats' committed values, 10.0) under a key only its seats can make: derived
    from the side's chain seed, which every seat of the side holds and no opponent does."""
    nonce = os.urandom(_NONCE)
    return base64.b64encode(nonce + _side_key(side_seed, ctx).encrypt(nonce, secret, ctx)).decode()


def open_for_side(side_seed: bytes, ctx: bytes, box: str, what: str) -> bytes:
    try:
        raw = base64.b64decode(box, validate=True)
        return _side_key(side_seed, ctx).decrypt(raw[:_NONCE], raw[_NONCE:], ctx)
    except (ValueError, binascii.Error, InvalidTag):
        raise KeyProblem(f"{what}: the side's sealed secrets do not open with your side's chain") from None
