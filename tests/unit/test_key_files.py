"""Private key files (pbem.signed.identity): the form `pbem keygen` writes is read directly, every other PEM form
by the cryptography library, and damage is refused in one KeyProblem naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.signed import identity as ids
from pbem.errors import KeyProblem


def test_a_generated_key_reads_back_as_the_library_reads_it(tmp_path: Path) -> None:
    made = ids.generate("alice", tmp_path)
    pem = (tmp_path / "alice.key").read_bytes()
    assert ids._pkcs8_ed25519(pem) is not None  # the direct reading applies to keygen's own form
    loaded = ids.load("alice", tmp_path)
    library = serialization.load_pem_private_key(pem, password=None)
    assert isinstance(library, Ed25519PrivateKey)
    assert loaded.private_raw() == made.private_raw() == library.private_bytes_raw()
    assert loaded.public_b64 == made.public_b64 == (tmp_path / "alice.pub").read_text().strip()


def test_another_pem_form_of_the_same_key_goes_to_the_library(tmp_path: Path) -> None:
    made = ids.generate("alice", tmp_path)
    pem = (tmp_path / "alice.key").read_bytes()
    head, body, tail = pem.strip().splitlines()
    wrapped = b"\n".join([head, body[:20], body[20:], tail]) + b"\n"  # the base64 over two lines
    assert ids._pkcs8_ed25519(wrapped) is None
    (tmp_path / "alice.key").write_bytes(wrapped)
    assert ids.load("alice", tmp_path).private_raw() == made.private_raw()


@pytest.mark.parametrize("damage", [
    lambda pem: pem.replace(b"PRIVATE KEY", b"PUBLIC KEY"),
    lambda pem: pem[:40] + b"!" + pem[41:],
    lambda pem: pem.replace(pem.splitlines()[1], pem.splitlines()[1][:-8] + b"AAAAAAA="),
    lambda pem: b"",
])
def test_a_damaged_key_is_refused_naming_the_file(tmp_path: Path, damage) -> None:
    ids.generate("alice", tmp_path)
    path = tmp_path / "alice.key"
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(KeyProblem, match="alice.key"):
        ids.load("alice", tmp_path)
