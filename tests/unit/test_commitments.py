import hashlib
import hmac
from pathlib import Path

import pytest

from pbem.signed import commitments
from pbem.signed import identity as ids
from pbem.errors import KeyProblem, UsageError

GAME, NONCE = "ab" * 16, "cd" * 16


@pytest.fixture
def me(tmp_path: Path) -> ids.Identity:
    return ids.generate("alice", tmp_path / "keys")


def test_commit_then_open_matches_the_documented_formula(me: ids.Identity, tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    committed = commitments.decision("commit treasure: G5-3", me, GAME, NONCE, keys, remember=True)
    opened = commitments.decision("open treasure", me, GAME, NONCE, keys, remember=False)
    assert opened["value"] == "G5-3"
    # Re-derive with the documented formula alone.
    salt = hmac.new(me.private_raw(), b"pbem-commit-v1" + GAME.encode() + NONCE.encode() + b"treasure", hashlib.sha256).digest()
    assert opened["salt"] == salt.hex()
    expected = hashlib.sha256(b"pbem-commitment-v1" + salt + b"treasure\x00G5-3").hexdigest()
    assert committed == {"commit": "treasure", "hash": expected}


def test_kept_value_lives_beside_the_keys_owner_only(me: ids.Identity, tmp_path: Path) -> None:
    keys = tmp_path / "keys"
    commitments.decision("commit fleet: 5x Q", me, GAME, NONCE, keys, remember=True)
    kept = keys / "secrets" / GAME / "fleet"
    assert kept.read_text() == "5x Q"
    assert kept.stat().st_mode & 0o077 == 0


def test_a_commitment_hides_the_value_and_binds_it(me: ids.Identity, tmp_path: Path) -> None:
    a = commitments.decision("commit x: one", me, GAME, NONCE, tmp_path, remember=False)["hash"]
    b = commitments.decision("commit x: two", me, GAME, NONCE, tmp_path, remember=False)["hash"]
    c = commitments.decision("commit x: one", me, GAME, "ef" * 16, tmp_path, remember=False)["hash"]
    assert len({a, b, c}) == 3
    # Without the private key the salt, and so the value, cannot be found by trying values.
    assert a != hashlib.sha256(b"pbem-commitment-v1" + bytes(32) + b"x\x00one").hexdigest()


@pytest.mark.parametrize(
    "line, error",
    [("commit Bad: v", UsageError), ("commit x", UsageError), ("open never-kept", KeyProblem), ("commit", UsageError)],
)
def test_bad_secret_lines(me: ids.Identity, tmp_path: Path, line: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        commitments.decision(line, me, GAME, NONCE, tmp_path, remember=False)


def test_only_commit_and_open_lines_are_taken_by_pbem() -> None:
    assert commitments.is_secret_line("commit treasure: G5-3")
    assert commitments.is_secret_line("open treasure")
    assert not commitments.is_secret_line("G5-3 max 6: F F")
    assert not commitments.is_secret_line("strike")


def test_an_opening_has_a_salt_of_32_bytes_in_64_lowercase_hex_digits(me: ids.Identity, tmp_path: Path) -> None:
    """The one form docs/protocol.md allows (and a ruleset accepts): a salt of free length opens two ways."""
    for label in ("treasure", "x", "fleet-2"):
        opened = commitments.decision(f"open {label}: v", me, GAME, NONCE, tmp_path, remember=False)
        assert len(bytes.fromhex(opened["salt"])) == commitments.SALT_BYTES == 32
        assert opened["salt"] == opened["salt"].lower() and len(opened["salt"]) == 64
