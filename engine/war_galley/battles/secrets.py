"""Secret choices: a commitment now, the value later (docs/protocol.md, "Secret choices").

The protocol turns `commit LABEL: VALUE` into {"commit": LABEL, "hash": HEX}
and `open LABEL` into {"open": LABEL, "salt": HEX, "value": VALUE}. The
engine keeps the hash and, at the opening, checks it with the protocol's
one formula (re-implemented here; the engine does not import pbem):

    hash = SHA-256("pbem-commitment-v1" || salt || label || 0x00 || value)

where the salt is exactly 32 bytes, written as 64 lowercase hex digits.

Which commitments a game asks for and when they are opened is the rules'
business: Actium's Treasure Ship (engine.war_galley.battles.actium) and the fleets of
tournament play (engine.war_galley.battles.tournament). A wrong opening is refused, citing the
rule that asked for the secret.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, NamedTuple

from engine.errors import IllegalOrder
from engine.events import Event
from engine.war_galley.turn.state import Commitment, GameState

PREFIX = b"pbem-commitment-v1"
_HEX64 = re.compile(r"\A[0-9a-f]{64}\Z")


def commitment_hash(salt: bytes, label: str, value: str) -> str:
    return hashlib.sha256(PREFIX + salt + label.encode() + b"\x00" + value.encode()).hexdigest()


class Secret(NamedTuple):
    """A decision of the secret kind, read from its JSON form."""

    verb: str  # commit, open
    label: str
    hash: str = ""
    salt: str = ""
    value: str = ""


def is_secret(decision: Any) -> bool:
    return isinstance(decision, dict) and ("commit" in decision or "open" in decision) and "kind" not in decision


def read(decision: dict[str, Any]) -> Secret:
    try:
        if "commit" in decision:
            if set(decision) != {"commit", "hash"}:
                raise ValueError("a commitment is {commit, hash}")
            return Secret("commit", str(decision["commit"]), hash=str(decision["hash"]))
        if set(decision) != {"open", "salt", "value"}:
            raise ValueError("an opening is {open, salt, value}")
        return Secret("open", str(decision["open"]), salt=str(decision["salt"]), value=str(decision["value"]))
    except ValueError as exc:
        raise IllegalOrder("protocol", f"not a secret choice: {exc}") from None


class Committed(Event, frozen=True, kw_only=True):
    """A side wrote a choice down in secret (its hash is public)."""

    side: str
    label: str


class Opened(Event, frozen=True, kw_only=True):
    """A secret choice, opened and checked against its commitment."""

    side: str
    label: str
    value: str


def commit(state: GameState, side: str, secret: Secret, rule: str) -> tuple[GameState, list[Event]]:
    if secret.verb != "commit":
        raise IllegalOrder(rule, f"commit {secret.label} first")
    if not _HEX64.match(secret.hash):
        raise IllegalOrder("protocol", "a commitment's hash is 64 lowercase hex digits (SHA-256)")
    if any(c.side == side and c.label == secret.label for c in state.extra.commitments):
        raise IllegalOrder(rule, f"{secret.label} is already committed")
    from engine.war_galley.turn.extra import with_extra
    state = with_extra(state, commitments=(*state.extra.commitments, Commitment(side, secret.label, secret.hash)))
    return state, [Committed(rule=rule, side=side, label=secret.label)]


def open_(state: GameState, side: str, secret: Secret, rule: str) -> tuple[GameState, Commitment, list[Event]]:
    """Check an opening against the side's commitment; the state with the value recorded."""
    if secret.verb != "open":
        raise IllegalOrder(rule, f"open {secret.label} now")
    held = next((c for c in state.extra.commitments if c.side == side and c.label == secret.label), None)
    if held is None:
        raise IllegalOrder(rule, f"nothing was committed as {secret.label}")
    if held.value is not None:
        raise IllegalOrder(rule, f"{secret.label} is already open")
    # One length and one spelling (docs/protocol.md): with a salt of any length, `salt || label || 0x00 ||
    # value` could be cut in two places, and one commitment opened as two values (issue 22).
    if not _HEX64.match(secret.salt):
        raise IllegalOrder("protocol", "an opening's salt is 64 lowercase hex digits (the 32 bytes of "
                                       "HMAC-SHA256), exactly as pbem writes it")
    if commitment_hash(bytes.fromhex(secret.salt), secret.label, secret.value) != held.hash:
        raise IllegalOrder(rule, f"this is not what was committed as {secret.label}: the opening does not match "
                                 "the commitment's hash")
    from msgspec.structs import replace

    from engine.war_galley.turn.extra import with_extra
    opened = replace(held, value=secret.value)
    state = with_extra(state, commitments=tuple(opened if c == held else c for c in state.extra.commitments))
    return state, opened, [Opened(rule=rule, side=side, label=secret.label, value=secret.value)]


def example_commit(label: str, value: str) -> dict[str, str]:
    """A commitment as listings show it, still unsealed: `commit LABEL: VALUE`.

    Only the player can seal it (his key makes the salt): pbem turns the order
    line into {"commit", "hash"}. Applied unsealed, it is refused."""
    return {"commit": label, "value": value}


def example_open(label: str) -> dict[str, str]:
    """An opening as listings show it, `open LABEL`: pbem adds the salt and the value kept."""
    return {"open": label}


def is_unsealed(decision: Any) -> bool:
    """A listed example of a secret choice, not yet sealed or filled in by the player's pbem."""
    return is_secret(decision) and ("value" in decision and "hash" not in decision and "salt" not in decision
                                    or set(decision) == {"open"})
