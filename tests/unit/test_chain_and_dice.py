import hashlib
from collections import Counter

import pytest

from pbem import chain, dice


def test_documented_chain_vector() -> None:
    seed = chain.seed(bytes(32), "00112233445566778899aabbccddeeff")
    assert seed.hex() == "676f09fe47528992637cb3c6f04aa8e5ced67662483e4565718e496a6c95d81b"
    assert chain.anchor(seed, 3).hex() == "d30e9c97eedadb586fcae1fc40589582875950ed3321e867fd71280414e42638"
    assert chain.reveal(seed, 3, 1).hex() == "7c691cb634ef6ba2f19bcb8eafff6c5f5c0fd9d200887e3c9324860e9d01e0dd"
    assert chain.reveal(seed, 3, 2).hex() == "02e92e0d4fe56e6db1acaa84e409faba99a841ae5596aca176a5ccc39bff3f0d"


@pytest.mark.parametrize("length", [1, 255, 256, 257, 1000])
def test_every_reveal_follows_the_one_before(length: int) -> None:
    seed = chain.seed(b"\x01" * 32, "ab" * 16)
    previous = chain.anchor(seed, length)
    for j in range(1, length + 1):
        value = chain.reveal(seed, length, j)
        assert chain.follows(value, previous)
        assert not chain.follows(previous, value)
        previous = value
    with pytest.raises(ValueError):
        chain.reveal(seed, length, length + 1)


def test_skipping_a_chain_value_does_not_follow() -> None:
    seed = chain.seed(b"\x02" * 32, "cd" * 16)
    anchor = chain.anchor(seed, 10)
    assert not chain.follows(chain.reveal(seed, 10, 2), anchor)


def test_documented_dice_vector() -> None:
    key, game = bytes(range(32)), "00112233445566778899aabbccddeeff"
    file_hash = hashlib.sha256(b"example file").digest()
    assert [dice.die(key, game, file_hash, i) for i in range(12)] == [3, 1, 3, 4, 1, 1, 6, 6, 1, 5, 1, 6]
    assert dice.die(key, game, file_hash, 167) == 3


def test_stream_records_each_roll_with_index_and_purpose() -> None:
    stream = dice.DiceStream(bytes(32), "00" * 16, bytes(32))
    total = stream.two_d6("ram 7.14")
    first = stream.d6("fatigue 6.42")
    assert [r.index for r in stream.rolls] == [0, 1, 2]
    assert [r.purpose for r in stream.rolls] == ["ram 7.14", "ram 7.14", "fatigue 6.42"]
    assert total == stream.rolls[0].face + stream.rolls[1].face and first == stream.rolls[2].face


def test_faces_are_uniform_enough() -> None:
    # 6000 dice: each face within 5 standard deviations of 1000 (a loose sanity bound).
    faces = Counter(dice.die(b"k" * 32, "00" * 16, bytes(32), i) for i in range(6000))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(abs(count - 1000) < 5 * 29 for count in faces.values())


def test_sealed_dice_refuse_to_roll() -> None:
    with pytest.raises(dice.NoDiceYet):
        dice.SealedDice().d6("anything")
