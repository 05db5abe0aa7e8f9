import hashlib
from collections import Counter

import pytest

from pbem.signed import chain
from pbem.signed import dice


def test_documented_chain_vector() -> None:
    seed = chain.seed(bytes(32), "00112233445566778899aabbccddeeff", "ffeeddccbbaa99887766554433221100")
    assert seed.hex() == "f0f488ac8f79e5bcbe5bbdcbfefaf4c9300341b4ad79c47d81e1a7d2a0ed2c69"
    assert chain.anchor(seed, 3).hex() == "4558b5e3b516ec0b20f035faa7e22b9c3bf29cf5ef1898ce0eb2bffa11a61b49"
    assert chain.reveal(seed, 3, 1).hex() == "2a8e24108c36286668d9aa6e8332642235d36595044e5c63ec97dc532dc89744"
    assert chain.reveal(seed, 3, 2).hex() == "32dd28071aef96c26e2e143e39ee03bed72399f8a231ebfe67cece29b036d699"


@pytest.mark.parametrize("length", [1, 255, 256, 257, 1000])
def test_every_reveal_follows_the_one_before(length: int) -> None:
    seed = chain.seed(b"\x01" * 32, "ab" * 16, "01" * 16)
    previous = chain.anchor(seed, length)
    for j in range(1, length + 1):
        value = chain.reveal(seed, length, j)
        assert chain.follows(value, previous)
        assert not chain.follows(previous, value)
        previous = value
    with pytest.raises(ValueError):
        chain.reveal(seed, length, length + 1)


def test_skipping_a_chain_value_does_not_follow() -> None:
    seed = chain.seed(b"\x02" * 32, "cd" * 16, "02" * 16)
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
