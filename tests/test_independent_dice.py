"""The dice derivation of docs/protocol.md, re-implemented with hashlib/hmac alone.

This test must not import pbem: it shows that a third party can recompute
every die of the recorded example game from the documentation.
"""

import hashlib
import hmac
import json
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "duel-game"


def die(key: bytes, game_id: str, file_hash: bytes, index: int) -> int:
    attempt = 0
    while True:
        message = b"pbem-dice-v1" + game_id.encode() + file_hash + index.to_bytes(8, "big") + attempt.to_bytes(4, "big")
        first = hmac.new(key, message, hashlib.sha256).digest()[0]
        if first < 252:
            return 1 + first % 6
        attempt += 1


def test_every_recorded_die_of_the_example_game_is_recomputed_independently() -> None:
    raws = [p.read_bytes() for p in sorted(EXAMPLE.glob("*.pbem"))]
    bodies = [json.loads(raw.split(b"\n")[0]) for raw in raws]
    checked = 0
    for k in range(1, len(raws) - 1):
        key = bytes.fromhex(bodies[k + 1]["reveal"])
        file_hash = hashlib.sha256(raws[k]).digest()
        for index, _purpose, face in bodies[k + 1]["rolls"]:
            assert die(key, bodies[0]["game"], file_hash, index) == face
            checked += 1
    assert checked > 50  # the example game rolls plenty of dice


def test_every_reveal_is_one_chain_step_from_the_authors_previous_value() -> None:
    bodies = [json.loads(p.read_bytes().split(b"\n")[0]) for p in sorted(EXAMPLE.glob("*.pbem"))]
    last = {"host": bytes.fromhex(bodies[0]["host"]["anchor"]), "guest": bytes.fromhex(bodies[1]["guest"]["anchor"])}
    for body in bodies[2:]:
        reveal = bytes.fromhex(body["reveal"])
        assert hashlib.sha256(reveal).digest() == last[body["author"]]
        last[body["author"]] = reveal


def test_documented_vectors() -> None:
    key = bytes(range(32))
    game = "00112233445566778899aabbccddeeff"
    file_hash = hashlib.sha256(b"example file").digest()
    assert file_hash.hex() == "ec126e6cd1e36cbd0bfdf3abbf3e6231620528d3ce030d5d23ce22cc8bcba96c"
    assert [die(key, game, file_hash, i) for i in range(12)] == [3, 1, 3, 4, 1, 1, 6, 6, 1, 5, 1, 6]
    assert die(key, game, file_hash, 167) == 3
