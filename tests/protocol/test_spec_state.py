"""docs/protocol.md "The state hash": a third party can recompute the hash of a rebuilt War Galley state."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from pbem.game import store

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tauris-game"


def test_war_galley_state_bytes_are_compact_json_in_member_order_and_hash_as_recorded() -> None:
    game = store.load(EXAMPLE)
    assert len(game.resolutions) > 100
    for seq, resolution in game.resolutions.items():
        data = game.ruleset.state_bytes(resolution.state)
        value = json.loads(data)  # member order is kept: Python dicts keep insertion order
        assert json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8") == data
        assert value["rules"] == {"charts": hashlib.sha256(game.setup.rules_data).hexdigest(), "commanders": "", "counters": ""}
        assert hashlib.sha256(data).hexdigest() == game.files[seq + 1].body.state
