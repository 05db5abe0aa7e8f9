"""What happened, as tagged Structs the reports and `describe_event` turn into words."""

from __future__ import annotations

import msgspec


class Event(msgspec.Struct, frozen=True, tag_field="event"):
    pass


class AggressionRolled(Event, tag="aggression"):
    """The open sea's aggression dice (version 3): each pair is [sides[0]'s die, sides[1]'s], equal pairs diced again."""

    sides: list[str]
    dice: list[list[int]]
    attacker: str


class FleetChosen(Event, tag="fleet-chosen"):
    side: str
    types: list[str]
    general: int


class TerrainSet(Event, tag="terrain"):
    text: str


class WindChosen(Event, tag="wind-chosen"):
    point: str


class WindRolled(Event, tag="wind-rolled"):
    start: str
    attacker_die: int
    defender_die: int
    wind: str


class AttackerSide(Event, tag="attacker-side"):
    side: str
    edge: str


class Placed(Event, tag="placed"):
    id: str
    x: int
    y: int
    heading: int


class PipsRolled(Event, tag="pips"):
    side: str
    bound: int
    pips: int


class Moved(Event, tag="moved"):
    ids: list[str]
    order: str
    cost: int
    allowance: int
    contact: str | None = None
    pips: int = 1  # 2 beyond the general's command distance (version 2, rules 5.4)


class Drifted(Event, tag="drifted"):
    ids: list[str]
    dx: int
    dy: int
    wrecked: list[str] = []  # onto land or a reef
    gone: list[str] = []  # off an open table edge


class Fought(Event, tag="fought"):
    a: str
    b: str
    dice: list[int]
    totals: list[int]
    factors: list[str]
    outcome: str  # "tie" or "<loser> beaten|doubled: <result>"


class Recoiled(Event, tag="recoiled"):
    ids: list[str]
    fate: str  # "recoils", "destroyed", "wrecked", "gone", "flees", "stands"


class Turned(Event, tag="turned"):
    """Contacted on flank or rear with no enemy in front: it turns to face."""

    id: str
    toward: str


class FollowedUp(Event, tag="followed-up"):
    id: str


class GameOver(Event, tag="over"):
    result: str
