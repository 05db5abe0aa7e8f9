"""Small custom battles for the sequence-of-play tests, written as scenario TOML (docs/scenario-schema.md)."""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import ForcedDice
from engine.events import Event
from engine.war_galley.battles.setup import new_game
from engine.war_galley.map_and_galleys.galley import GalleyId, parse_galley_id
from engine.war_galley.map_and_galleys.position import parse_position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data
from engine.war_galley.play import dispatch as play
from engine.war_galley.turn import sequence
from engine.war_galley.turn.decisions import AnyDecision
from engine.war_galley.turn.state import CommanderState, GameState

# Rome: Catulus (admiral, range 2, Initiative 3) on R5-50 and Metellus (range 1) on R5-52.
# Carthage: Hanno (admiral, range 2, Initiative 1) on G5-11, Gisgo on G5-13.
# Quinqueremes: Crew 3, Cruise 4, Maximum 7, Ram Defense 7.
SKIRMISH = """
schema = 1
key = "skirmish"
name = "Skirmish"
title = "Two small fleets"
war = "Practice"
year_bc = 250
book_order = 99
difficulty = 1.0
playing_time = "1 hour"
ship_scale = "1 counter = 1 galley"
deploy_order = ["rome", "carthage"]

[map]
sheets = [{ kind = "sea" }]
north = "xx00 row"

[[sides]]
key = "rome"
name = "Rome"
colour = "red"

[[sides.fleets]]
key = "rome"
name = "Roman fleet"
galleys = [{ galleys = "5#50-53" }]
commanders = ["Catulus", "Metellus"]

[[sides.deploy]]
name = "Line"
galleys = ["5#50-53"]
commanders = ["Catulus", "Metellus"]
commander_at = { Catulus = "2020", Metellus = "2420" }
positions = ["2020-2021", "2220-2221", "2420-2421", "3020-3021"]

[[sides]]
key = "carthage"
name = "Carthage"
colour = "green"

[[sides.fleets]]
key = "carthage"
name = "Punic fleet"
galleys = [{ galleys = "5#11-14" }]
commanders = ["Hanno", "Gisgo"]

[[sides.deploy]]
name = "Fleet"
galleys = ["5#11-14"]
commanders = ["Hanno", "Gisgo"]
commander_at = { Hanno = "2008", Gisgo = "2408" }
positions = ["2008-2007", "2208-2207", "2408-2407", "4008-4007"]

[commanders]
rome = [
  { name = "Catulus", rank = "admiral", command_range = 2, re_command_range = 1, initiative = 3, re_initiative = 2 },
  { name = "Metellus", rank = "squadron", command_range = 1, re_command_range = 0 },
]
carthage = [
  { name = "Hanno", rank = "admiral", command_range = 2, re_command_range = 1, initiative = 1, re_initiative = 0 },
  { name = "Gisgo", rank = "squadron", command_range = 1, re_command_range = 0 },
]

[initiative]
first_turn = "roll"

[wind]
mode = "none"

[victory]
sides = [{ side = "rome", vp = 14 }, { side = "carthage", vp = 14 }]
"""


def g(text: str) -> GalleyId:
    return parse_galley_id(text)


def skirmish(text: str = SKIRMISH, options: dict[str, object] | None = None) -> GameState:
    """The battle before any automatic step (turn 0)."""
    return new_game(text.encode(), default_rules_data(), options or {})


def at(state: GameState, galley: str, position: str, speed: SpeedSide | None = None, **changes: object) -> GameState:
    """`state` with `galley` moved to `position` (and any markers changed)."""
    gal = state.galley(g(galley))
    fields: dict[str, object] = {"position": parse_position(position, state.board.map), **changes}
    if speed is not None:
        fields["speed"] = speed
    return state.with_galley(replace(gal, **fields))  # type: ignore[arg-type]


def off(state: GameState, galley: str) -> GameState:
    return state.with_galley(replace(state.galley(g(galley)), position=None))


def commander(state: GameState, name: str, **changes: object) -> GameState:
    c: CommanderState = state.commander(name)
    return state.with_commander(replace(c, **changes))  # type: ignore[arg-type]


def run(state: GameState, *faces: int) -> tuple[GameState, list[Event], ForcedDice]:
    """`advance` with these dice; every face must be used."""
    dice = ForcedDice(*faces)
    state, events = sequence.advance(state, dice)
    assert dice.unused == [], f"dice left over: {dice.unused}"
    return state, events, dice


def decide(state: GameState, decision: AnyDecision, *faces: int) -> tuple[GameState, list[Event]]:
    """`apply` then `advance` with exactly these dice."""
    dice = ForcedDice(*faces)
    state, events = play.apply(state, decision, dice)
    state, more = sequence.advance(state, dice)
    assert dice.unused == [], f"dice left over: {dice.unused}"
    return state, events + more


def to_command_phase(state: GameState, first: str = "rome", maximum: tuple[str, ...] = ()) -> GameState:
    """Through turn 1's A-D (Rome wins the initiative 4+3 v 2+1): E, `first` to activate.

    Squadrons choose Cruise, except the galleys named in `maximum`.
    """
    from engine.war_galley.turn.decisions import Initiative, Speed

    state, _, _ = run(state, 4, 2)
    state, _ = decide(state, Initiative(side="rome", first=first))
    while play.pending(state).kind == "speed":
        side = play.pending(state).side
        assert side is not None
        squadron = next(s for s in state.squadrons if s.side == side and s.key not in state.speed_set)
        fast = tuple(x for x in squadron.galleys if str(x) in maximum)
        state, _ = decide(state, Speed(side=side, squadron=squadron.key, maximum=fast))
    return state
