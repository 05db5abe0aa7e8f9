"""Secret choices: committed in one signed file, opened in a later one.

Some choices are written down in secret (a hidden objective; forces chosen
by both players before either is shown). A player commits to a
value with a salted hash and opens it when the rules call for it; the
ruleset checks that the opening matches the commitment.

    salt = HMAC-SHA256(key = the player's 32-byte private seed,
                       msg = "pbem-commit-v1" || game id || player's nonce || label)
    hash = SHA-256("pbem-commitment-v1" || salt || label || 0x00 || value)   (strings as UTF-8)

The salt is exactly 32 bytes (HMAC-SHA256's), written in an opening as 64
lowercase hex digits; a ruleset refuses any other length or spelling, for
with a salt of any length `salt || label || 0x00 || value` could be cut in
two places and one commitment opened as two values. The salt comes from the
signing key, so nothing must be stored to open a commitment later; pbem also keeps the committed value in the key folder
(never in the game folder) so the player need not retype it.

Order lines that pbem turns into decisions before the ruleset sees them:
    commit LABEL: VALUE  ->  {"commit": LABEL, "hash": hex}
    open LABEL[: VALUE]  ->  {"open": LABEL, "salt": hex, "value": VALUE}
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
from pathlib import Path

from pbem.errors import KeyProblem, UsageError
from pbem.signed.identity import Identity

SALT_BYTES = 32  # an opening's salt: HMAC-SHA256, as `salt` makes it; docs/protocol.md fixes the length
LABEL = re.compile(r"\A[a-z][a-z0-9_-]{0,31}\Z")
_LINE = re.compile(r"\A\s*(commit|open)\s+([^\s:]+)\s*(?::\s*(.*?))?\s*\Z", re.S)


def salt(me: Identity, game_id: str, nonce: str, label: str) -> bytes:
    message = b"pbem-commit-v1" + game_id.encode() + nonce.encode() + label.encode()
    return hmac.new(me.private_raw(), message, hashlib.sha256).digest()  # SALT_BYTES long


def commitment(salt_value: bytes, label: str, value: str) -> str:
    """The hash a ruleset compares an opening with (this formula is the whole spec)."""
    data = b"pbem-commitment-v1" + salt_value + label.encode() + b"\x00" + value.encode()
    return hashlib.sha256(data).hexdigest()


def is_secret_line(line: str) -> bool:
    return _LINE.match(line) is not None


def _store(keys: Path, game_id: str, label: str) -> Path:
    return keys / "secrets" / game_id / label


def decision(line: str, me: Identity, game_id: str, nonce: str, keys: Path, *, remember: bool) -> dict[str, str]:
    """The decision for a `commit`/`open` order line (see the module doc)."""
    match = _LINE.match(line)
    if match is None:
        raise UsageError(f"{line!r}: write 'commit LABEL: VALUE' or 'open LABEL'")
    verb, label, value = match.group(1), match.group(2), match.group(3)
    if not LABEL.match(label):
        raise UsageError(f"{label!r}: a secret's label is 1-32 lowercase letters, digits, '_' or '-'")
    salt_value = salt(me, game_id, nonce, label)
    path = _store(keys, game_id, label)
    if verb == "commit":
        if not value:
            raise UsageError(f"commit {label}: give the secret value after a colon")
        if remember:
            _remember(path, value)
        return {"commit": label, "hash": commitment(salt_value, label, value)}
    if not value:
        try:
            value = path.read_text(encoding="utf-8")
        except OSError:
            raise KeyProblem(f"open {label}: no value kept in {path.parent}; write 'open {label}: VALUE'") from None
    return {"open": label, "salt": salt_value.hex(), "value": value}


def _remember(path: Path, value: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(value)


def committed(line: str) -> tuple[str, str] | None:
    """(label, value) of a `commit LABEL: VALUE` line, else None."""
    match = _LINE.match(line)
    if match is None or match.group(1) != "commit" or not match.group(3):
        return None
    return match.group(2), match.group(3)


def keep(keys: Path, game_id: str, label: str, value: str) -> None:
    """Keep a value a teammate committed (pbem secrets), as one's own are kept, for `open LABEL`."""
    if not LABEL.match(label):
        raise UsageError(f"{label!r}: a secret's label is 1-32 lowercase letters, digits, '_' or '-'")
    _remember(_store(keys, game_id, label), value)
