"""pbem.game.statehash: the state hash a file signs is SHA-256 of the bytes, whatever was hashed before.

The hasher resumes from the previous bytes' shared blocks; these tests feed it
sequences of byte strings that share prefixes of every length (block
boundaries, one byte either side, none, all) and check each digest against
hashlib's own.
"""

from __future__ import annotations

import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.game.statehash import PrefixHasher

BLOCK = 64  # small blocks, so short inputs cross many boundaries


def _edit(base: bytes, at: int, insert: bytes, cut: int) -> bytes:
    at = min(at, len(base))
    return base[:at] + insert + base[at + cut:]


edits = st.tuples(st.integers(0, 400), st.binary(max_size=80), st.integers(0, 80))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600), st.lists(edits, max_size=12), st.sampled_from([1, 7, BLOCK, 16384]))
def test_every_digest_is_sha256_of_the_bytes(start: bytes, changes: list[tuple[int, bytes, int]], block: int) -> None:
    hasher = PrefixHasher(block)
    data = start
    assert hasher.hexdigest(data) == hashlib.sha256(data).hexdigest()
    for at, insert, cut in changes:
        data = _edit(data, at, insert, cut)
        assert hasher.hexdigest(data) == hashlib.sha256(data).hexdigest()


def test_boundaries_exactly() -> None:
    hasher = PrefixHasher(BLOCK)
    base = bytes(range(256)) * 3
    cases = [base, base, b"", base[:BLOCK], base[:BLOCK - 1], base[:BLOCK + 1], base, base[:-1] + b"x",
             b"y" + base[1:], base[:2 * BLOCK] + b"z" + base[2 * BLOCK + 1:], base + base, base]
    for data in cases:
        assert hasher.hexdigest(data) == hashlib.sha256(data).hexdigest()


def test_a_different_object_with_equal_bytes_gives_the_same_digest() -> None:
    hasher = PrefixHasher(BLOCK)
    data = bytes(1000)
    first = hasher.hexdigest(data)
    assert hasher.hexdigest(bytes(bytearray(data))) == first == hashlib.sha256(data).hexdigest()
