"""Player identities: Ed25519 key pairs in a key folder, never in a game folder.

The key folder is `--keys DIR`, else $PBEM_KEYS, else
$XDG_CONFIG_HOME/pbem/keys (~/.config/pbem/keys). A key NAME is stored as
NAME.key (PKCS#8 PEM, mode 0600) and NAME.pub (the raw public key, base64).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
from pathlib import Path

from cryptography.exceptions import InternalError, InvalidSignature, UnsupportedAlgorithm
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

import msgspec

from pbem.signed import edwards
from pbem.errors import BadSignature, KeyProblem, UsageError

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def key_folder(explicit: Path | None = None) -> Path:
    """Where keys live: the option, the environment, or the user's config dir."""
    if explicit is not None:
        return explicit
    if env := os.environ.get("PBEM_KEYS"):
        return Path(env)
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "pbem" / "keys"


def encode_public(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def public_raw(text: str, what: str) -> bytes:
    """The 32 bytes of a public key from its one canonical base64 spelling; KeyProblem
    naming `what` if it is not a strong Ed25519 key (pbem.signed.edwards: small order,
    torsion, non-canonical point) or the base64 is not canonical (a second
    spelling of one key would let two strings name one player)."""
    try:
        raw = base64.b64decode(text, validate=True)
    except (ValueError, binascii.Error):
        raise KeyProblem(f"{what}: the public key is not base64") from None
    if len(raw) != 32 or base64.b64encode(raw).decode("ascii") != text:
        raise KeyProblem(f"{what}: the public key is not the canonical base64 of 32 bytes")
    weakness = edwards.weakness(raw)
    if weakness:
        raise KeyProblem(f"{what}: the public key is not a usable Ed25519 key: {weakness}")
    return raw


def check_public(text: str, what: str) -> None:
    """KeyProblem naming `what` unless `text` is a strong public key in canonical base64."""
    public_raw(text, what)


def same_key(a: str, b: str) -> bool:
    """Do two base64 public keys name the same key? Compared as bytes, not as strings."""
    try:
        return base64.b64decode(a, validate=True) == base64.b64decode(b, validate=True)
    except (ValueError, binascii.Error):
        return a == b


# Keys decoded, by their base64 text (a str, immutable; the key object is immutable too): a replay
# checks every file's signature with one of two keys, and decoding one cost a fifth of a check.
_decoded: dict[str, Ed25519PublicKey] = {}
_KEEP_KEYS = 16


def decode_public(text: str, what: str) -> Ed25519PublicKey:
    """A public key from its base64 form; KeyProblem naming `what` if it is not a strong one."""
    known = _decoded.get(text)
    if known is not None:
        return known
    raw = public_raw(text, what)
    try:
        key = Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        raise KeyProblem(f"{what}: not an Ed25519 public key") from None
    if len(_decoded) >= _KEEP_KEYS:
        del _decoded[next(iter(_decoded))]  # the oldest
    _decoded[text] = key
    return key


def fingerprint(public_b64: str) -> str:
    """A short fingerprint to compare out of band: 16 hex digits in groups of 4."""
    digest = hashlib.sha256(base64.b64decode(public_b64)).hexdigest()[:16]
    return " ".join(digest[i : i + 4] for i in range(0, 16, 4))


def verify(public_b64: str, signature: bytes, data: bytes, what: str) -> None:
    """Raise BadSignature naming `what` unless `signature` signs `data`."""
    key = decode_public(public_b64, what)
    try:
        key.verify(signature, data)
    except InvalidSignature:
        raise BadSignature(f"{what}: signature does not verify with the key of its author") from None


class Identity(msgspec.Struct, frozen=True):
    """A player's key pair, loaded from the key folder."""

    name: str
    private: Ed25519PrivateKey
    folder: Path | None = None  # the key folder it was loaded from (for its private reveal-chain checkpoints)

    @property
    def chain_store(self) -> Path | None:
        """Where this key's reveal-chain checkpoints are kept: beside the private key, owner-only."""
        return self.folder / "chains" / self.name if self.folder is not None else None

    @property
    def public_b64(self) -> str:
        return encode_public(self.private.public_key().public_bytes_raw())

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_b64)

    def private_raw(self) -> bytes:
        """The 32-byte private seed; used only to derive the reveal chain's seed."""
        return self.private.private_bytes_raw()

    def sign(self, data: bytes) -> bytes:
        return self.private.sign(data)


def _check_name(name: str) -> None:
    if not NAME_PATTERN.match(name):
        raise UsageError(
            f"key name {name!r}: use 1-64 letters, digits, '_', '.', '-', starting with a letter or digit"
        )


def new_private_key() -> Ed25519PrivateKey:
    """A new key from the system's randomness. (The test suite derives its keys from a seed instead, as it
    does game ids, nonces and file times, so that each of its games, and so its dice, can be played again.)"""
    return Ed25519PrivateKey.generate()


def generate(name: str, folder: Path) -> Identity:
    """Make a new key pair NAME in `folder`; refuse to overwrite an existing one."""
    _check_name(name)
    key_path = folder / f"{name}.key"
    if key_path.exists():
        raise UsageError(f"key {name!r} already exists in {folder}; choose another name")
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    private = new_private_key()
    identity = Identity(name, private, folder)
    check_public(identity.public_b64, f"new key {name!r}")  # a generated key always passes; never write one that would not
    from cryptography.hazmat.primitives import serialization

    pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    # Create with owner-only permissions from the first byte (no chmod race).
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(pem)
    (folder / f"{name}.pub").write_text(identity.public_b64 + "\n", encoding="ascii")
    return identity


# The DER of an unencrypted PKCS#8 Ed25519 key (RFC 8410) is this prefix and the 32-byte seed: the one
# form `pbem keygen` writes. Read directly, a key costs no import of cryptography's serialization
# package (~35 ms of every command that loads a key); anything else goes to the library.
_PKCS8_ED25519 = bytes.fromhex("302e020100300506032b657004220420")
_PEM_LINES = (b"-----BEGIN PRIVATE KEY-----", b"-----END PRIVATE KEY-----")


def _pkcs8_ed25519(pem: bytes) -> Ed25519PrivateKey | None:
    lines = pem.strip().splitlines()
    if len(lines) != 3 or (lines[0], lines[-1]) != _PEM_LINES:
        return None
    try:
        der = base64.b64decode(lines[1], validate=True)
    except (binascii.Error, ValueError):
        return None
    if len(der) != len(_PKCS8_ED25519) + 32 or not der.startswith(_PKCS8_ED25519):
        return None
    return Ed25519PrivateKey.from_private_bytes(der[len(_PKCS8_ED25519):])


def load(name: str, folder: Path) -> Identity:
    """Load key NAME from `folder`, or raise KeyProblem saying what is wrong."""
    _check_name(name)
    key_path = folder / f"{name}.key"
    try:
        pem = key_path.read_bytes()
    except FileNotFoundError:
        raise KeyProblem(f"no key {name!r} in {folder} (make one with: pbem keygen {name})") from None
    except OSError as exc:
        raise KeyProblem(f"{key_path}: cannot read ({exc.strerror})") from None
    private = _pkcs8_ed25519(pem)
    if private is None:  # not the one form `pbem keygen` writes: let the library read (or refuse) it
        from cryptography.hazmat.primitives import serialization

        try:
            private = serialization.load_pem_private_key(pem, password=None)
        except (ValueError, TypeError, UnsupportedAlgorithm, InternalError):  # any damage to the file
            raise KeyProblem(f"{key_path}: not a readable private key") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise KeyProblem(f"{key_path}: not an Ed25519 key")
    identity = Identity(name, private, folder)
    check_public(identity.public_b64, str(key_path))
    return identity


def all_identities(folder: Path) -> list[Identity]:
    """Every readable key in `folder`, by name; unreadable ones are skipped."""
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob("*.key")):
        try:
            found.append(load(path.stem, folder))
        except (KeyProblem, UsageError):
            continue
    return found
