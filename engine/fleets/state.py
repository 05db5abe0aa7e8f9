"""The game state: an immutable msgspec Struct of integers and strings, encoded canonically."""

from __future__ import annotations

from typing import Literal

import msgspec

from engine.fleets.elements import Element, Rules
from engine.fleets.table import Terrain

Phase = Literal[
    "aggression", "fleet-defender", "fleet-attacker", "terrain", "wind-pick", "wind-roll", "attacker-side", "deploy-defender", "deploy-attacker",
    "pips", "move", "combat", "over",
]


class Side(msgspec.Struct, frozen=True):
    key: str
    name: str
    general: str  # the general's element id
    start: int  # elements at the start, for victory


class State(msgspec.Struct, frozen=True):
    rules: Rules
    scenario: str
    title: str
    sides: tuple[Side, Side]
    attacker: str
    defender: str
    bound_limit: int
    phase: Phase
    terrain: Terrain | None = None
    wind_choice: str | None = None  # the defender's side or corner before the dice
    wind: str | None = None  # where the wind comes from
    attacker_edge: str | None = None
    elements: tuple[Element, ...] = ()  # on the table
    to_place: tuple[Element, ...] = ()  # not yet deployed (position meaningless)
    lost: tuple[str, ...] = ()  # ids destroyed or gone from the table, in order
    bound: int = 0
    moving: str = ""
    pips: int = 0
    done: tuple[str, ...] = ()  # ids that moved with PIPs or drifted this bound
    result: str | None = None
    # Version 4 (docs/fleets-rules.md 5.10): pairs of friends that drifted into a group's places and so stand "a
    # hair apart" (the fragment's "slightly separated ... so as not to form a legal group anymore"), each kept as
    # both bases were then; a pair lapses once either base stands otherwise. Omitted from the bytes when empty
    # (encode_state), so the states of versions 1 to 3 keep the bytes they always had.
    apart: tuple[tuple[Element, Element], ...] = ()

    def side(self, key: str) -> Side:
        return self.sides[0] if self.sides[0].key == key else self.sides[1]

    def other(self, key: str) -> str:
        return self.sides[1].key if self.sides[0].key == key else self.sides[0].key

    def element(self, ident: str) -> Element | None:
        for e in self.elements:
            if e.id == ident:
                return e
        return None

    @property
    def half(self) -> int:
        return self.rules.numbers.base_width // 2


_NO_APART = b',"apart":[]}'


def encode_state(state: State) -> bytes:
    """Deterministic bytes (msgspec encodes Struct fields in declaration order). `apart`, the last field, is left
    out when empty, as every state of versions 1 to 3 has it: their bytes and hashes stay what they were."""
    data = msgspec.json.encode(state)
    if not state.apart:
        assert data.endswith(_NO_APART)
        data = data[: -len(_NO_APART)] + b"}"
    return data


def decode_state(data: bytes) -> State:
    return msgspec.json.decode(data, type=State)


def replace_element(state: State, new: Element) -> State:
    return msgspec.structs.replace(state, elements=tuple(new if e.id == new.id else e for e in state.elements))


def remove_elements(state: State, ids: list[str]) -> State:
    gone = set(ids)
    return msgspec.structs.replace(
        state,
        elements=tuple(e for e in state.elements if e.id not in gone),
        lost=state.lost + tuple(i for i in ids if i not in state.lost),
    )
