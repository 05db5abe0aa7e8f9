"""Decisions as tagged msgspec Structs, crossing the contract as plain JSON (dicts of ints and strings)."""

from __future__ import annotations

from typing import Any, Union

import msgspec

from engine.fleets.errors import NotationError


class Base(msgspec.Struct, frozen=True, tag_field="kind", forbid_unknown_fields=True):
    pass


class ChooseFleet(Base, tag="fleet"):
    """The open sea (version 3): a fleet's element types in order (ids 1, 2, ...), and which is the general's."""

    types: list[str]
    general: int = 1


class SetTerrain(Base, tag="terrain"):
    coasts: list[list[Any]]  # [edge, shallows]
    pieces: list[list[Any]] = []  # [kind, x0, y0, x1, y1, shallows]


class WindFrom(Base, tag="wind"):
    point: str


class AttackFrom(Base, tag="attack"):
    edge: str


class Place(Base, tag="place"):
    id: str
    x: int
    y: int
    heading: int


class PlaceRest(Base, tag="place-rest"):
    pass


class Move(Base, tag="move"):
    """One element: turn first (optional), then straight legs to each waypoint, then (optional) into contact
    with an enemy's front (the default), left or right flank, or rear."""

    id: str
    turn: int | None = None
    to: list[list[int]] = []
    contact: str | None = None
    edge: str = "front"


class Shift(Base, tag="shift"):
    """A group (or one element) moving together by one straight vector, keeping facing."""

    ids: list[str]
    dx: int
    dy: int


class Wheel(Base, tag="wheel"):
    """A group (version 3) wheeling a quarter turn about its front corner on the side `to` ("left" or "right"),
    then going on `ahead` paces straight ahead in its new facing."""

    ids: list[str]
    to: str
    ahead: int = 0


class Back(Base, tag="back"):
    """Galleys straight backward, as a group or singly, at -100p."""

    ids: list[str]
    distance: int


class Drift(Base, tag="drift"):
    id: str


class End(Base, tag="end", omit_defaults=True):
    """Drift the rest, then fight; `fight` (version 2) the moving player's order of combats, by his elements in
    front contact (those not named fight after, in the fleet's order). Omitted when empty: `end` is as it was."""

    fight: list[str] = []


class Concede(Base, tag="concede"):
    pass


Decision = Union[ChooseFleet, SetTerrain, WindFrom, AttackFrom, Place, PlaceRest, Move, Shift, Wheel, Back, Drift, End, Concede]


def to_json(decision: Decision) -> Any:
    return msgspec.to_builtins(decision)


def from_json(value: Any) -> Decision:
    try:
        return msgspec.convert(value, Decision)  # type: ignore[arg-type]
    except msgspec.ValidationError as exc:
        raise NotationError(f"not a fleet decision: {exc}") from None
