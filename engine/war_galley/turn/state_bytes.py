"""The game state's canonical bytes (docs/protocol.md: every file carries the hash of each state it resolves).

`encode_state` is deterministic: sets are sorted and the rules data texts
are replaced by their hash, which the game's first file pins anyway. Every
file's state is encoded, and a file changes a few galleys: the bytes of each
galley, and of the parts most files leave alone, are kept by identity and
embedded as they are (msgspec.Raw). `decode_state` reads them back.

Kept (issue 23) because a target is missed without it: encoding every state
afresh makes `verify` of 2,000 Actium files 1.30x slower (1.65 against 1.27 s
on a loaded machine, 5 paired whole-process runs), past 3x the floor. It rests on
the state being immutable (frozen structs, handed on by `replace`): a test
encodes every state of a game both warm and cold and compares the bytes.
"""

from __future__ import annotations

from itertools import compress, count
from operator import is_not
from typing import Any

import msgspec
from msgspec.structs import replace

from engine.memo import by_identity
from engine.war_galley.map_and_galleys.charts import RollRange
from engine.war_galley.map_and_galleys.galley import Galley
from engine.war_galley.map_and_galleys.rulesdata import RulesData
from engine.war_galley.turn.state import GameState


def _plain(value: Any) -> Any:
    """What the encoder cannot encode by itself: a roll range (Devices.flame_ignites) as its text."""
    if isinstance(value, RollRange):
        return str(value)
    raise NotImplementedError(f"cannot encode {type(value).__name__}")  # msgspec's enc_hook protocol: "not mine"


# sorts every set and dict: the same bytes in every process
_encoder = msgspec.json.Encoder(order="deterministic", enc_hook=_plain)
_SET_FIELDS = tuple(
    name for name, kind in zip(Galley.__struct_fields__, (f.type for f in msgspec.structs.fields(Galley)))
    if "frozenset" in str(kind)
)


def _sorted_sets(galley: Galley) -> Galley:
    # Set order follows string hashing, which varies between processes: sort by encoding.
    changes = {
        name: tuple(sorted(getattr(galley, name), key=_encoder.encode))
        for name in _SET_FIELDS
        if len(getattr(galley, name)) > 1
    }
    return replace(galley, **changes) if changes else galley  # type: ignore[arg-type]


def _sorted_struct(value: msgspec.Struct) -> msgspec.Struct:
    """The struct with each set of galley ids as a tuple sorted by encoding (GalleyId's enums do not order)."""
    changes = {
        name: tuple(sorted(getattr(value, name), key=_encoder.encode))
        for name in value.__struct_fields__
        if isinstance(getattr(value, name), frozenset) and len(getattr(value, name)) > 1
    }
    return replace(value, **changes) if changes else value


# A galley's bytes, by identity: a file changes a few galleys, and the state of every file is encoded
# (its hash is signed), so the others are encoded once and reused (msgspec.Raw embeds them as they are).
_encoded_galleys: dict[int, tuple[Galley, bytes]] = {}
_KEEP_GALLEYS = 4096


def _encode_galley(galley: Galley) -> bytes:
    data = _encoder.encode(_sorted_sets(galley))
    if len(_encoded_galleys) >= _KEEP_GALLEYS:
        for key in list(_encoded_galleys)[: _KEEP_GALLEYS // 2]:  # the oldest half
            del _encoded_galleys[key]
    _encoded_galleys[id(galley)] = (galley, data)  # holding the galley keeps its id its own
    return data


_last_array: list[tuple[tuple[Galley, ...], list[bytes]]] = []  # the galleys last encoded and their parts


def _encoded_galleys_array(galleys: tuple[Galley, ...]) -> msgspec.Raw:
    """The galleys as the JSON array the encoder would write, from each galley's kept bytes.

    The state before most often lists the same galleys but a few: only those changed are looked up."""
    kept = _encoded_galleys
    last = _last_array[0] if _last_array else None
    if last is not None and len(last[0]) == len(galleys):
        parts = last[1].copy()
        for i in compress(count(), map(is_not, last[0], galleys)):  # the changed slots, found in C
            g = galleys[i]
            parts[i] = hit[1] if (hit := kept.get(id(g))) is not None and hit[0] is g else _encode_galley(g)
    else:
        parts = [hit[1] if (hit := kept.get(id(g))) is not None and hit[0] is g else _encode_galley(g) for g in galleys]
    _last_array[:] = [(galleys, parts)]
    return msgspec.Raw(b"[" + b",".join(parts) + b"]")


@by_identity(4)
def _pinned(rules: RulesData) -> RulesData:
    """The rules data as the encoding carries it, its hash: worked out once per game, not per state."""
    return RulesData(charts=rules.sha256, commanders="", counters="")


# Parts most files leave as they were (the same objects, handed on by replace): their bytes are kept
# by identity too, the last value of each, and embedded as they are. Over a 2,000-file Actium replay
# each of the second row is the state before's own object in 76-97% of states (the combat record 83%,
# the awards 97%), and encoding them afresh cost about 20 us a state.
_STEADY = ("sides", "board", "commanders", "squadrons", "deploy", "extra", "devices",
           "speed_set", "activated", "fresh_fatigue", "awards", "reactions", "record", "grapple_lines",
           "grapple_tried", "fired", "rammed_by")
_SORTED = frozenset({"devices", "record"})  # structs whose sets of galley ids are sorted first (_sorted_struct)
_steady: dict[str, tuple[Any, msgspec.Raw]] = {}


def _steady_bytes(name: str, value: Any) -> msgspec.Raw:
    hit = _steady.get(name)
    if hit is not None and hit[0] is value:
        return hit[1]
    raw = msgspec.Raw(_encoder.encode(_sorted_struct(value) if name in _SORTED else value))
    _steady[name] = (value, raw)  # holding the value keeps its id its own
    return raw


def encode_state(state: GameState) -> bytes:
    """The state's deterministic bytes (sets sorted); the rules data stands as its hash."""
    steady = {name: _steady_bytes(name, getattr(state, name)) for name in _STEADY}
    return _encoder.encode(replace(state, rules=_pinned(state.rules), galleys=_encoded_galleys_array(state.galleys),
                                   **steady))


def _typed(kind: type, value: Any) -> Any:
    """What the decoder cannot decode by itself: a roll range from its text (the inverse of `_plain`)."""
    if kind is RollRange and isinstance(value, str):
        return RollRange.parse(value)
    raise NotImplementedError(f"cannot decode {kind}")  # msgspec's dec_hook protocol: "not mine"


_decoder = msgspec.json.Decoder(GameState, dec_hook=_typed)


def decode_state(data: bytes, rules: RulesData) -> GameState:
    """The state `encode_state` wrote, with the game's rules data put back in place of its hash.

    Sets come back as sets (their sorted order in the bytes does not matter),
    so `encode_state(decode_state(b, rules)) == b` and the state equals the one encoded.
    """
    state = _decoder.decode(data)
    if state.rules.charts != _pinned(rules).charts:
        raise ValueError("the state was encoded with other rules data")
    return replace(state, rules=rules)
