"""Building fleet-battle states by hand, and dice that give the faces a test names."""

from __future__ import annotations

import msgspec

from engine.fleets.elements import Element, load_rules
from engine.fleets.ruleset import RULESET
from engine.fleets.state import Side, State
from engine.fleets.table import Coast, Piece, Terrain

RULES = load_rules(RULESET.default_rules_data())
N, E, S, W = 0, 90, 180, 270


class Forced:
    """Dice with given faces, in order; asking for more is a test failure."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.rolls: list[tuple[str, int]] = []

    def d6(self, purpose: str) -> int:
        assert self.faces, f"an unexpected roll: {purpose}"
        face = self.faces.pop(0)
        self.rolls.append((purpose, face))
        return face


def el(ident: str, kind: str, x: int, y: int, heading: int, general: bool = False) -> Element:
    side = "blue" if ident.startswith("B") else "red"
    return Element(ident, kind, side, x, y, heading, general)


def battle(*elements: Element, wind: str = "E", coasts: tuple[Coast, ...] = (Coast("N", 0),),
           pieces: tuple[Piece, ...] = (), moving: str = "blue", pips: int = 6, done: tuple[str, ...] = (),
           version: str = RULESET.version) -> State:
    """A state in blue's (or red's) move phase with these elements on a 2400p table, judged by `version`
    of the rules (the newest unless a test pins an older one)."""
    count = {s: sum(1 for e in elements if e.side == s) for s in ("blue", "red")}
    gen = {s: next((e.id for e in elements if e.side == s and e.general), "none") for s in ("blue", "red")}
    return State(
        rules=msgspec.structs.replace(RULES, version=version), scenario="test", title="test", attacker="red", defender="blue", bound_limit=30,
        sides=(Side("blue", "Blue", gen["blue"], max(count["blue"], 12)), Side("red", "Red", gen["red"], max(count["red"], 12))),
        phase="move", terrain=Terrain(2400, coasts, pieces), wind_choice=wind, wind=wind, attacker_edge="S",
        elements=tuple(elements), bound=1, moving=moving, pips=pips, done=done,
    )


def at(state: State, ident: str) -> tuple[int, int, int] | None:
    e = state.element(ident)
    return None if e is None else (e.x, e.y, e.heading)


def with_phase(state: State, **changes: object) -> State:
    return msgspec.structs.replace(state, **changes)
